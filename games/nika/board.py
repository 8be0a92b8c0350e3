"""The Nika board, read from its data file (data/nika.txt), and its geometry tables.

The board is data so that a corrected reconstruction is a data change only. Squares are
numbered over the whole rectangle, rank by rank from rank 1 (`index = (rank - 1) * width +
file`), so sorting indices gives the spec's canonical order (by rank, then file). The
neighbour tables are built once at import: `STEP[facing][square]` is the square one step
that way, or -1 off the board or in the central area.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

CITIES = ("Athens", "Sparta", "Messene", "Thebes")
"""The cities in turn order; a city's team is its index's parity (Athens+Messene, Sparta+Thebes)."""
LETTERS = "WRBK"
"""Each city's letter: its short label, its victory area (capital) and rally area (small) on the map."""
FACINGS = "NESW"
"""Facings in clockwise order, so the opposite of facing f is f ^ 2."""
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""(file, rank) step of each facing: north is towards the highest rank."""

PLAYABLE = "."
CENTRAL = "#"


class BoardDataError(ValueError):
    """The board data file cannot be read: a packaging or editing mistake, not a user's."""


@dataclass(frozen=True)
class Board:
    """The ring's shape and its marked areas. Indices cover the whole rectangle."""

    files: str
    height: int
    names: tuple[str, ...]
    playable: tuple[bool, ...]
    victory_owner: tuple[int, ...]
    rally_owner: tuple[int, ...]
    step: tuple[tuple[int, ...], ...]

    @property
    def width(self) -> int:
        return len(self.files)

    def index(self) -> dict[str, int]:
        """Square name -> index, for the playable squares only."""
        return {name: i for i, name in enumerate(self.names) if self.playable[i]}

    def central(self) -> frozenset[str]:
        """The squares inside the rectangle that are not part of the board."""
        return frozenset(name for i, name in enumerate(self.names) if not self.playable[i])

    def area(self, owner: tuple[int, ...], city: int) -> tuple[int, ...]:
        return tuple(i for i, who in enumerate(owner) if who == city)


def parse_board(text: str) -> Board:
    """A board from the map text: a row per rank (`10   . . W W ...`), `#` comments."""
    rows: dict[int, list[str]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        rank_text, *cells = line.split()
        if not rank_text.isdigit():
            raise BoardDataError(f"board line {number}: a row starts with its rank number")
        rank = int(rank_text)
        if rank in rows:
            raise BoardDataError(f"board line {number}: rank {rank} appears twice")
        for cell in cells:
            if cell not in PLAYABLE + CENTRAL + LETTERS + LETTERS.lower():
                raise BoardDataError(f"board line {number}: unknown square mark {cell!r}")
        rows[rank] = cells
    if not rows:
        raise BoardDataError("the board file holds no rows")
    height = max(rows)
    widths = {len(cells) for cells in rows.values()}
    if sorted(rows) != list(range(1, height + 1)) or len(widths) != 1:
        raise BoardDataError("the board must be a rectangle with ranks 1 to N, all rows equally wide")
    width = widths.pop()
    if not 1 <= width <= 26:
        raise BoardDataError("the board must have 1 to 26 files")
    files = "abcdefghijklmnopqrstuvwxyz"[:width]
    names, playable, victory, rally = [], [], [], []
    for rank in range(1, height + 1):
        for file, mark in enumerate(rows[rank]):
            names.append(f"{files[file]}{rank}")
            playable.append(mark != CENTRAL)
            victory.append(LETTERS.find(mark) if mark in LETTERS else -1)
            rally.append(LETTERS.lower().find(mark) if mark in LETTERS.lower() else -1)
    step = tuple(
        tuple(_neighbour(i, df, dr, width, height, playable) for i in range(width * height)) for df, dr in DELTAS
    )
    return Board(files, height, tuple(names), tuple(playable), tuple(victory), tuple(rally), step)


def _neighbour(square: int, df: int, dr: int, width: int, height: int, playable: list[bool]) -> int:
    file, rank = square % width + df, square // width + dr
    if not (0 <= file < width and 0 <= rank < height):
        return -1
    target = rank * width + file
    return target if playable[target] else -1


def load_board() -> Board:
    text = resources.files(__package__ or __name__).joinpath("data", "nika.txt").read_text(encoding="utf-8")
    return parse_board(text)


BOARD = load_board()
