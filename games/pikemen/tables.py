"""Pikemen's actions as the board sees them, each worked out once: every action a piece
could take (for `legal_actions`), the squares and facings a written action names and the
events it causes (for playing it), the words for a piece.

The tables of written actions fill as actions are played: only actions on the board are
kept (a turn names a square and a facing, a charge two squares in a line and a facing),
so they stay bounded (576 turns; 26,208 charges and captures: 1,456 pairs of squares in a
line, with or without a capture, keeping the facing or with one of 8 others).
"""

from __future__ import annotations

from functools import cache

from referee.games.api import Event, EventKind
from referee.games.pikemen.actions import Charge, Reorient
from referee.games.pikemen.board import (
    FACING_INDEX,
    FACINGS,
    PASSED,
    SIZE,
    SIZE_WORDS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    STEPS,
    UPRIGHT,
    Piece,
)
from referee.games.values import phrase

_FACING_OPTIONS = (None,) + FACINGS


@cache
def reorients(square: int, old_facing: int) -> tuple[Reorient, ...]:
    """Every turn in place of a piece on `square` facing `old_facing`, as typed objects
    built once (legal_actions is hot in playouts)."""
    name = SQUARE_NAMES[square]
    return tuple(Reorient(name, facing) for index, facing in enumerate(FACINGS) if index != old_facing)


def turn_events(name: str, facing: str) -> tuple[Event, ...]:
    """What a piece on the square `name` turning in place to `facing` causes."""
    return (Event(EventKind.REORIENT, f"{name} turns {facing}"),)


@cache
def charge_options(origin: int, target: int, capture: bool, old_facing: int) -> tuple[Charge, ...]:
    """A charge or capture from origin to target, keeping the facing and with every new one."""
    source, goal = SQUARE_NAMES[origin], SQUARE_NAMES[target]
    return tuple(
        Charge(source, goal, capture, facing)
        for facing in _FACING_OPTIONS
        if facing is None or FACING_INDEX[facing] != old_facing
    )


def describe(piece: Piece, sides: tuple[str, ...]) -> str:
    """ "Blue's upright medium piece" / "Blue's small piece facing NE"."""
    owner, size, facing = piece
    if facing == UPRIGHT:
        return phrase("{side}'s upright {size} piece", side=sides[owner], size=SIZE_WORDS[size - 1])
    return phrase(
        "{side}'s {size} piece facing {facing}", side=sides[owner], size=SIZE_WORDS[size - 1], facing=FACINGS[facing]
    )


_DESCRIBED: dict[tuple[Piece, tuple[str, ...]], str] = {}
"""`describe` of each piece described so far, by the piece and its game's sides (at most
108 pieces for each set of sides)."""


def piece_words(piece: Piece, sides: tuple[str, ...]) -> str:
    """`describe`, each piece's words made once."""
    key = (piece, sides)
    text = _DESCRIBED.get(key)
    if text is None:
        text = _DESCRIBED[key] = describe(piece, sides)
    return text


_new = tuple.__new__
"""A named tuple made from its fields' tuple (`_new(Event, (kind, text, data))`) by the C
constructor its class's own `__new__`, written in Python, calls: one call less for each
charge met (a few thousand in a thousand records)."""
_NONE = Event._field_defaults["data"]
"""The data of an event that has none."""


def charge_events(action: Charge) -> tuple[Event, ...]:
    """What a charge without a capture causes (its text is the action's alone)."""
    # (the turn a text of its own: a template's two placeholders side by side,
    # `{target}{turned}`, cannot be read back in another language)
    if action.facing:
        return (
            _new(
                Event, (EventKind.CHARGE, f"{action.origin} charges to {action.target}, turning {action.facing}", _NONE)
            ),
        )
    return (_new(Event, (EventKind.CHARGE, f"{action.origin} charges to {action.target}", _NONE)),)


TURNS: dict[Reorient, tuple[int, int, tuple[Event, ...]]] = {}
"""Each turn in place on the board met so far, by its action: its square, its new facing
and its events (`turn_of`)."""


def turn_of(action: Reorient) -> tuple[int, int, tuple[Event, ...]] | None:
    """The square, new facing and events of a turn in place, now kept in `TURNS`; None
    when its square is not on the board."""
    square = SQUARE_INDEX.get(action.square)
    if square is None:
        return None
    facing = FACING_INDEX[action.facing]
    found = TURNS[action] = (square, facing, turn_events(SQUARE_NAMES[square], FACINGS[facing]))
    return found


Line = tuple[int, int, int, tuple[int, ...], int, bool, tuple[Event, ...]]
"""What a charge or capture written on the board names: its origin and target, the facing
its piece must have (the direction from origin to target), the squares it passes over,
the facing it ends with, whether it captures and, for a charge, its events."""


_DIRECTIONS = {step: direction for direction, step in enumerate(STEPS)}
"""A facing by the signs of the step it takes (files, ranks)."""

CHARGES: dict[Charge, Line] = {}
"""Each charge and capture along a line of the board met so far, by its action (`line_of`)."""


def line_of(action: Charge) -> Line | None:
    """The `Line` of a charge or capture, now kept in `CHARGES`; None when its squares are
    not two squares of the board in a line, or its new facing is the one it must have
    (such a charge is never legal)."""
    origin, target = SQUARE_INDEX.get(action.origin), SQUARE_INDEX.get(action.target)
    if origin is None or target is None:
        return None
    files, ranks = target % SIZE - origin % SIZE, target // SIZE - origin // SIZE
    if not (files or ranks) or (files and ranks and abs(files) != abs(ranks)):
        return None  # (the same square, or not in a line)
    direction = _DIRECTIONS[(files > 0) - (files < 0), (ranks > 0) - (ranks < 0)]
    facing = direction if action.facing is None else FACING_INDEX[action.facing]
    if action.facing is not None and facing == direction:
        return None
    events = () if action.capture else charge_events(action)
    found = CHARGES[action] = (
        origin,
        target,
        direction,
        PASSED[origin][direction][target],
        facing,
        action.capture,
        events,
    )
    return found
