"""Nika's board as the rules engine reads it (nika.md): the tables of squares, cities and
piece codes built once at import, and the words about squares that the rule messages use
(a step off the board, a line of a phalanx, whether a group of squares is joined)."""

from __future__ import annotations

import re
from functools import lru_cache

from referee.games.api import IllegalActionError
from referee.games.nika.board import BOARD, DELTAS, FACINGS
from referee.games.values import phrase

PIECES_PER_CITY = 6
ACTIONS_PER_TURN = 2
START = "W:d1w,i1e,d2w,i2e,d3w,i3e R:a4s,b4s,c4s,a7n,b7n,c7n B:d8w,i8e,d9w,i9e,d10w,i10e K:j4s,k4s,l4s,j7n,k7n,l7n to:W"

WIDTH = BOARD.width
NAMES = BOARD.names
INDEX = BOARD.index()
CENTRAL = BOARD.central()
STEP = BOARD.step
NEXT_TO = tuple(frozenset(table[square] for table in STEP) - {-1} for square in range(len(STEP[0])))
"""Each square's orthogonal neighbours on the board."""
VICTORY = BOARD.victory_owner
RALLY_SQUARES = tuple(BOARD.area(BOARD.rally_owner, city) for city in range(4))
VICTORY_SQUARES = tuple(BOARD.area(VICTORY, city) for city in range(4))
CLOSED = tuple(tuple(owner >= 0 and owner & 1 != team for owner in VICTORY) for team in (0, 1))
"""CLOSED[team][square]: the square is a victory area of the other team."""

CITY = (-1,) + tuple(code >> 2 for code in range(16))
FACING = (-1,) + tuple(code & 3 for code in range(16))
TEAM = (-1,) + tuple((code >> 2) & 1 for code in range(16))
TEAMS = (("Athens", "Messene"), ("Sparta", "Thebes"))
FACING_OF = {letter: i for i, letter in enumerate(FACINGS)}
PIECE_TEXT = re.compile(r"([a-z]\d{1,2})([nesw])")


def code(city: int, facing: int) -> int:
    return 1 + 4 * city + facing


CITY_BYTE = tuple(bytes((city,)) for city in range(4))
"""The city to move as the last byte of a position's key (see `NikaState._key`)."""
CODE = tuple(tuple(code(city, facing) for facing in range(4)) for city in range(4))
"""CODE[city][facing]: the piece code, as a table for the hot paths."""


def off_board_reason(square: int, facing: int) -> str:
    """Why the step from `square` towards `facing` leaves the board, naming the square."""
    df, dr = DELTAS[facing]
    file, rank = square % WIDTH + df, square // WIDTH + dr
    if 0 <= file < WIDTH and 0 <= rank < BOARD.height:
        return phrase("{name} is in the central area, which is not part of the board", name=NAMES[rank * WIDTH + file])
    return phrase("{step} leads off the board", step=f"{NAMES[square]}-{FACINGS[facing]}")


def off_board_run(square: int, facing: int) -> IllegalActionError:
    """The error for a run of a phalanx whose step from `square` leaves the board."""
    df, dr = DELTAS[facing]
    file, rank = square % WIDTH + df, square // WIDTH + dr
    if 0 <= file < WIDTH and 0 <= rank < BOARD.height:
        return IllegalActionError(
            "{name} is in the central area, which is not part of the board: "
            "every run of a phalanx must stay on the board",
            name=NAMES[rank * WIDTH + file],
        )
    return IllegalActionError(
        "{step} leads off the board: every run of a phalanx must stay on the board",
        step=f"{NAMES[square]}-{FACINGS[facing]}",
    )


def no_square(name: str) -> IllegalActionError:
    """The error for a written square that is not on the board."""
    if name in CENTRAL:
        return IllegalActionError("{name} is in the central area, which is not part of the board", name=name)
    return IllegalActionError("{name} is not on the board", name=name)


def line_name(square: int, facing: int) -> str:
    """The line a phalanx's run moves along: a file for N/S, a rank for E/W."""
    if facing in (0, 2):
        return phrase("file {file}", file=NAMES[square][0])
    return phrase("rank {rank}", rank=square // WIDTH + 1)


@lru_cache(maxsize=8192)
def joined(squares: tuple[int, ...]) -> bool:
    """`connected`, remembered: whether a group is joined depends on its squares alone, and
    a game's phalanxes move and turn as the same few groups again and again (a quarter of
    the actions of purposeful play, issue 52)."""
    if len(squares) == 2:
        first, second = squares
        return second in NEXT_TO[first]
    return connected(list(squares))


def connected(squares: list[int]) -> bool:
    """Whether the squares form one group through orthogonal adjacency."""
    members = set(squares)
    reached = {squares[0]}
    frontier = [squares[0]]
    while frontier:
        square = frontier.pop()
        for table in STEP:
            neighbour = table[square]
            if neighbour in members and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return len(reached) == len(members)
