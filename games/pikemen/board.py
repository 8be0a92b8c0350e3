"""Pikemen's board geometry and start positions, computed once at import.

Squares are numbered 0-63, `rank * 8 + file` (a1 = 0, h1 = 7, a8 = 56). Facings are
numbered 0-7 clockwise from north; 8 is upright. A piece is a plain tuple
(owner, size, facing): the owner's index in the game's sides, size 1-3 (its points).
"""

from __future__ import annotations

from importlib import resources

from referee.games.values import game_word

FILES = "abcdefgh"
SIZE = 8

FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW", "U")
UPRIGHT = 8
FACING_INDEX = {name: index for index, name in enumerate(FACINGS)}

SIZES = ("S", "M", "L")  # index + 1 is the size's points
SIZE_INDEX = {name: index + 1 for index, name in enumerate(SIZES)}
SIZE_WORDS = (game_word("small"), game_word("medium"), game_word("large"))
LARGE = 3

Piece = tuple[int, int, int]
"""(owner, size, facing)."""

PIECES: tuple[tuple[tuple[Piece, ...], ...], ...] = tuple(
    tuple(tuple((owner, size, facing) for facing in range(len(FACINGS))) for size in range(LARGE + 1))
    for owner in range(4)
)
"""PIECES[owner][size][facing]: every piece made once (size 0 is none), so that a move
places one rather than making it."""

SQUARE_NAMES: tuple[str, ...] = tuple(f"{FILES[i % SIZE]}{i // SIZE + 1}" for i in range(SIZE * SIZE))
SQUARE_INDEX: dict[str, int] = {name: index for index, name in enumerate(SQUARE_NAMES)}

STEPS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""STEPS[facing]: the step (files, ranks) a piece facing `facing` looks along."""


def _ray(square: int, direction: int) -> tuple[int, ...]:
    file, rank = square % SIZE, square // SIZE
    step_file, step_rank = STEPS[direction]
    squares = []
    file, rank = file + step_file, rank + step_rank
    while 0 <= file < SIZE and 0 <= rank < SIZE:
        squares.append(rank * SIZE + file)
        file, rank = file + step_file, rank + step_rank
    return tuple(squares)


RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(square, direction) for direction in range(8)) for square in range(SIZE * SIZE)
)
"""RAYS[square][facing]: the squares a piece on `square` facing `facing` looks along, nearest first."""

PASSED: tuple[tuple[dict[int, tuple[int, ...]], ...], ...] = tuple(
    tuple({ray[i]: ray[:i] for i in range(len(ray))} for ray in rays) for rays in RAYS
)
"""PASSED[square][facing][target]: the squares a charge from `square` facing `facing` passes
over on its way to `target` (which must be empty); no entry when `target` is not ahead."""

STASH = {2: 5, 3: 4, 4: 3}
"""Pieces of each size per player, by player count."""


def _read_setups() -> dict[int, dict[str, tuple[tuple[int, int], ...]]]:
    """The start layouts from data/setups.txt: players -> side -> ((square, size), ...)."""
    text = resources.files(__package__ or __name__).joinpath("data/setups.txt").read_text("utf-8")
    setups: dict[int, dict[str, tuple[tuple[int, int], ...]]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        count, rest = line.split(maxsplit=1)
        side, pieces = rest.split(":", 1)
        placed = []
        for item in pieces.split(","):
            square, size = item.split()
            placed.append((SQUARE_INDEX[square], SIZE_INDEX[size]))
        setups.setdefault(int(count), {})[side.strip()] = tuple(placed)
    return setups


SETUPS = _read_setups()
