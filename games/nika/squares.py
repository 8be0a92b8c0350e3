"""Nika's board as the rules engine reads it (nika.md): the tables of squares, cities and
piece codes built once at import, the words about squares that the rule messages use
(a step off the board, a line of a phalanx, whether a group of squares is joined), and the
geometry of a group's step, remembered per group as the replay meets it."""

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


@lru_cache(maxsize=8192)
def group_of(names: tuple[str, ...]) -> tuple[int, ...] | None:
    """The squares of a written group (in its order) when they alone allow a phalanx: at
    most a city's pieces, each a square of the board, none twice, joined side to side; else
    None, and the rules say what is wrong. Remembered, as `joined` is."""
    if len(names) > PIECES_PER_CITY:
        return None
    squares = []
    for name in names:
        square = INDEX.get(name)
        if square is None:
            return None
        squares.append(square)
    group = tuple(squares)
    if len(set(group)) != len(group) or not joined(group):
        return None
    return group


Advance = tuple[
    tuple[tuple[int, int, int], ...], tuple[int, ...], tuple[int, ...], tuple[bool, bool], tuple[int, ...], int
]
"""The geometry of a group's step one square in a direction, which depends on its squares
alone: what a phalanx move judges and changes, less the pieces it meets (a plain tuple: a
class would cost the start-up its making):

    fronts    each run's front, the square ahead of it (-1 off the board) and the run's
              weight (its pieces), in the group's order
    contacts  the squares ahead of the fronts, which the phalanx enters
    vacated   the squares at the back of the runs, which it leaves
    clear     per team: every square ahead is on the board and open to the team (not a
              victory area of the other team's)
    reached   the squares the group's pieces reach, one step ahead of each
    wins      the cities (bit `1 << city`) with a victory square among `reached`
"""


@lru_cache(maxsize=8192)
def advance(squares: tuple[int, ...], direction: int) -> Advance:
    """The `Advance` of a group (squares in the canonical order) stepping `direction`."""
    forward, back = STEP[direction], STEP[direction ^ 2]
    group = set(squares)
    fronts, vacated = [], []
    for front in squares:
        contact = forward[front]
        if contact in group:
            continue
        weight, last, behind = 1, front, back[front]
        while behind in group:
            weight, last, behind = weight + 1, behind, back[behind]
        fronts.append((front, contact, weight))
        vacated.append(last)
    contacts = tuple(contact for _, contact, _ in fronts)
    on_board = all(contact >= 0 for contact in contacts)
    clear = tuple(on_board and not any(CLOSED[team][contact] for contact in contacts) for team in (0, 1))
    reached = tuple(forward[square] for square in squares)
    wins = 0
    for square in reached:
        if square >= 0 and VICTORY[square] >= 0:
            wins |= 1 << VICTORY[square]
    return tuple(fronts), contacts, tuple(vacated), (clear[0], clear[1]), reached, wins


@lru_cache(maxsize=8192)
def phalanx_move_shape(names: tuple[str, ...], direction: str) -> tuple[tuple[int, ...], int, Advance] | None:
    """A written phalanx move's group (`group_of`), its direction and its `Advance`, in one
    look-up for the replay; None when the group's squares alone forbid it."""
    group = group_of(names)
    if group is None:
        return None
    facing = FACING_OF[direction]
    return group, facing, advance(group, facing)
