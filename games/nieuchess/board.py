"""The Nieuchess map and Combat Results Table, read from data files.

The printed map and table are lost; `data/board.txt` and `data/crt.txt` are the project's
reconstruction. Everything about the board (terrain, halves, centres, embarkation hexes,
the hot line) is derived here from the map, so a corrected map is a data change only.
Hexes are numbered `(rank - 1) * 25 + file`; every table below is indexed by that number.
The tables are worked out once, by `derive.py`, and read at import from `derived.py`
while the map is the one they came from; any other map has them worked out at import.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from referee.games.api import SetupError, quoted
from referee.games.nieuchess import derived
from referee.games.nieuchess.packing import unpack_numbers, unpack_rows
from referee.games.values import phrase

FILES = "abcdefghijklmnopqrstuvwxy"
WIDTH = len(FILES)
HEIGHT = 36
SIZE = WIDTH * HEIGHT
HALF_RANK = 18  # Red's half is ranks 1-18, Blue's 19-36

PLAIN, GRAY, RED, HOT, PURPLE, STAR = ".", "#", "R", "=", "p", "*"
TERRAIN_NAMES = {  # the board's legend (phrases: a player reads them in the language)
    PLAIN: phrase("plain"),
    GRAY: phrase("gray (impassable)"),
    RED: phrase("red invasion hex"),
    HOT: phrase("hot line"),
    PURPLE: phrase("purple replacement-centre hex"),
    STAR: phrase("purple star"),
}

ODDS = ("1-6", "1-5", "1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1")
RESULTS = ("AE", "AB2", "EX", "DB2", "DE")

Crt = tuple[tuple[str, ...], ...]
"""Combat results: `crt[roll - 1][column]`, columns in the order of ODDS."""


class DataError(ValueError):
    """A data file of the package (the map, the table) that cannot be read: a packaging or
    editing mistake, never a player's (a record's CRT tag raises SetupError)."""


def name(hex_: int) -> str:
    """The hex's name, such as `g4`."""
    return f"{FILES[hex_ % WIDTH]}{hex_ // WIDTH + 1}"


NAMES = tuple(name(h) for h in range(SIZE))
INDEX = {text: h for h, text in enumerate(NAMES)}


def hex_index(text: str) -> int | None:
    """The number of a hex named like `g4` (any case), or None when it is off the map."""
    return INDEX.get(text.lower())


class Centre(NamedTuple):
    """A replacement centre: its star, all its purple hexes (star included), its owner."""

    star: int
    hexes: frozenset[int]
    side: int


def _adjacent(hex_: int) -> tuple[int, ...]:
    """The on-map neighbours under the odd-r rule of nieuchess.md: in the ranks above and
    below, files f-1 and f when the rank is odd, f and f+1 when it is even."""
    file, row = hex_ % WIDTH, hex_ // WIDTH
    rank = row + 1
    shift = (-1, 0) if rank % 2 else (0, 1)
    found = [(file - 1, row), (file + 1, row)]
    for other in (row - 1, row + 1):
        found += [(file + shift[0], other), (file + shift[1], other)]
    return tuple(r * WIDTH + f for f, r in found if 0 <= f < WIDTH and 0 <= r < HEIGHT)


def _neighbour_table() -> tuple[tuple[int, ...], ...]:
    """`_adjacent` of every hex, in the same order, row by row with the bounds checked once
    per row rather than per neighbour (it is built at import: start-up, issue 34)."""
    table: list[tuple[int, ...]] = []
    for row in range(HEIGHT):
        low, high = (-1, 0) if row % 2 == 0 else (0, 1)  # rank = row + 1
        rows = [other * WIDTH for other in (row - 1, row + 1) if 0 <= other < HEIGHT]
        base = row * WIDTH
        for file in range(WIDTH):
            found = [base + f for f in (file - 1, file + 1) if 0 <= f < WIDTH]
            files = [f for f in (file + low, file + high) if 0 <= f < WIDTH]
            for start in rows:
                found += [start + f for f in files]
            table.append(tuple(found))
    return tuple(table)


def _axial(hex_: int) -> tuple[int, int]:
    """Axial coordinates (q, r) in which the six neighbours differ by the usual offsets."""
    file, row = hex_ % WIDTH, hex_ // WIDTH
    return file - row // 2, row


def read_map(text: str) -> str:
    """The terrain of every hex (a string indexed by hex number) from the map's text.

    Lines starting with `#` are comments; every other non-blank line is a rank number and
    25 terrain symbols separated by spaces.
    """
    terrain = [""] * SIZE
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        words = stripped.split()
        if not re.fullmatch(r"[0-9]{1,2}", words[0]) or not 1 <= int(words[0]) <= HEIGHT:
            raise DataError(f"map line {number}: expected a rank number 1-{HEIGHT}")
        rank, cells = int(words[0]), words[1:]
        if len(cells) != WIDTH or any(cell not in TERRAIN_NAMES for cell in cells):
            raise DataError(f"map line {number}: expected {WIDTH} terrain symbols out of {''.join(TERRAIN_NAMES)}")
        row = (rank - 1) * WIDTH
        if terrain[row]:
            raise DataError(f"map line {number}: rank {rank} appears twice")
        terrain[row : row + WIDTH] = cells
    if not all(terrain):
        raise DataError("the map must give every rank 1-36")
    return "".join(terrain)


def read_crt_file(text: str) -> Crt:
    """The table from its data file: a header `roll 1-6 ... 6-1`, then rows for rolls 1-6."""
    rows: dict[int, tuple[str, ...]] = {}
    header_seen = False
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0].lower() == "roll":
            if tuple(words[1:]) != ODDS:
                raise DataError(f"CRT line {number}: the columns must run {' '.join(ODDS)}")
            header_seen = True
            continue
        codes = tuple(word.upper() for word in words[1:])
        if not header_seen or words[0] not in "123456" or len(words[0]) != 1 or len(codes) != len(ODDS):
            raise DataError(f"CRT line {number}: expected a roll 1-6 and {len(ODDS)} results")
        if any(code not in RESULTS for code in codes) or int(words[0]) in rows:
            raise DataError(f"CRT line {number}: results are {', '.join(RESULTS)}, one row per roll")
        rows[int(words[0])] = codes
    if sorted(rows) != [1, 2, 3, 4, 5, 6]:
        raise DataError("the CRT needs one row for every roll 1-6")
    return tuple(rows[roll] for roll in range(1, 7))


def read_crt_tag(value: str) -> Crt:
    """A record's `CRT` tag: 66 codes, row by row (roll 1 to 6), each row from 1-6 to 6-1.
    Raises SetupError, naming the CRT tag."""
    codes = [code.upper() for code in re.split(r"[\s,]+", value.strip()) if code]
    if len(codes) != 6 * len(ODDS):
        raise SetupError("the CRT tag holds 66 result codes, not {count}", "CRT", count=len(codes))
    wrong = [code for code in codes if code not in RESULTS]
    if wrong:
        raise SetupError(
            "{code} in the CRT tag is not a result ({results})",
            "CRT",
            code=quoted(wrong[0]),
            results=", ".join(RESULTS),
        )
    width = len(ODDS)
    return tuple(tuple(codes[row * width : (row + 1) * width]) for row in range(6))


def odds_column(attackers: int, defenders: int) -> int:
    """The CRT column: "N-1" with N = floor(a/d) when a >= d, else "1-N" with N = ceil(d/a),
    kept within 1-6 and 6-1."""
    if attackers >= defenders:
        return 5 + min(attackers // defenders, 6) - 1
    return 5 - (min(-(-defenders // attackers), 6) - 1)


class Board:
    """Everything derived from the map, as flat tables indexed by hex number: read from
    `derived.py` when the map is the one they were written for (unless `derive`), else
    worked out here."""

    def __init__(self, terrain: str, derive: bool = False) -> None:
        self.terrain = terrain
        if derive or terrain != derived.TERRAIN:
            self._derive()
        else:
            self.neighbours = unpack_rows(derived.NEIGHBOURS)
            self.passable = bytes(unpack_numbers(derived.PASSABLE))
            self.steps = unpack_rows(derived.STEPS)
            self.hot = bytes(unpack_numbers(derived.HOT))
            self.hot_steps = unpack_rows(derived.HOT_STEPS)
            self.red = tuple(unpack_numbers(derived.RED))
            self.embarkation = bytes(unpack_numbers(derived.EMBARKATION))
            self.half = bytes(unpack_numbers(derived.HALF))
            self.axial = unpack_rows(derived.AXIAL, signed=True)
            self.centres = tuple(Centre(star, frozenset(hexes), side) for star, hexes, side in derived.CENTRES)
        self.stars = {centre.star: centre for centre in self.centres}

    def _derive(self) -> None:
        terrain = self.terrain
        self.neighbours = _neighbour_table()
        self.passable = bytes(terrain[h] != GRAY for h in range(SIZE))
        # Steps a pawn can take: into non-gray neighbours only.
        self.steps = tuple(tuple(n for n in self.neighbours[h] if self.passable[n]) for h in range(SIZE))
        self.hot = bytes(terrain[h] == HOT for h in range(SIZE))
        self.hot_steps = tuple(tuple(n for n in self.neighbours[h] if self.hot[n]) for h in range(SIZE))
        self.red = tuple(h for h in range(SIZE) if terrain[h] == RED)
        red = set(self.red)
        self.embarkation = bytes(self.passable[h] and any(n in red for n in self.neighbours[h]) for h in range(SIZE))
        self.half = bytes(0 if h // WIDTH < HALF_RANK else 1 for h in range(SIZE))
        self.axial = tuple(_axial(h) for h in range(SIZE))
        self.centres = self._centres()

    def _centres(self) -> tuple[Centre, ...]:
        """Purple areas (joined through neighbouring purple hexes), each with one star."""
        purple = {h for h in range(SIZE) if self.terrain[h] in (PURPLE, STAR)}
        centres = []
        while purple:
            seed = min(purple)
            area, todo = {seed}, [seed]
            while todo:
                for n in self.neighbours[todo.pop()]:
                    if n in purple and n not in area:
                        area.add(n)
                        todo.append(n)
            purple -= area
            stars = [h for h in area if self.terrain[h] == STAR]
            if len(stars) != 1:
                raise DataError(f"the replacement centre at {name(seed)} must have exactly one star")
            centres.append(Centre(stars[0], frozenset(area), self.half[stars[0]]))
        if sorted(centre.side for centre in centres) != [0, 0, 1, 1]:
            raise DataError("each half of the map needs two replacement centres")
        return tuple(sorted(centres, key=lambda centre: centre.star))

    def distance(self, a: int, b: int) -> int:
        """Hex steps between two hexes, ignoring terrain."""
        qa, ra = self.axial[a]
        qb, rb = self.axial[b]
        dq, dr = qa - qb, ra - rb
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _data(filename: str) -> str:
    """A data file of the package (read beside this module: `importlib.resources` costs
    more at start-up than the file)."""
    with open(os.path.join(os.path.dirname(__file__), "data", filename), encoding="utf-8") as file:
        return file.read()


BOARD = Board(read_map(_data("board.txt")))
STANDARD_CRT = read_crt_file(_data("crt.txt"))
