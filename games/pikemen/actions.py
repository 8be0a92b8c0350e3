"""Pikemen's actions in AbstractPlay's notation: `h5-h7(N)`, `e1xe5`, `a4(NE)`, `resign`.

Canonical text has lower-case squares, a lower-case `x` and upper-case facings. Squares
are read as any letter and number so that `z9-z7` is a well-formed action that breaks a
rule (off the board), not a syntax error.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from referee.games.api import RESIGN, Resign
from referee.games.pikemen.board import FACING_INDEX, FACINGS, SQUARE_INDEX
from referee.games.registry import PIKEMEN
from referee.games.values import phrase
from referee.notation.blocks import choice, choice_pattern, keyword, square, square_pattern

if TYPE_CHECKING:
    import pyparsing as pp

SQUARE_PATTERN = square_pattern("a-z", 99)
FACING_PATTERN = choice_pattern(list(FACINGS))
FACING_NAME = phrase('a facing such as "NE" or "U"')


class Charge(NamedTuple):
    """A charge `e1-e5` or, with `capture`, a capture `e1xe5`; `facing` is the new facing
    written after it (`e1-e5(NE)`), or None to keep the old one."""

    origin: str
    target: str
    capture: bool = False
    facing: str | None = None

    def __str__(self) -> str:
        turn = f"({self.facing})" if self.facing else ""
        return f"{self.origin}{'x' if self.capture else '-'}{self.target}{turn}"


class Reorient(NamedTuple):
    """A piece turning in place to a new facing: `e1(NE)`, `e1(U)`."""

    square: str
    facing: str

    def __str__(self) -> str:
        return f"{self.square}({self.facing})"


PikemenAction = Charge | Reorient | Resign

_new = tuple.__new__
"""An action made from its fields' tuple by the C constructor its class's own `__new__`,
written in Python, calls: one call less."""

_FACING_SUFFIX = rf"\({FACING_PATTERN}\)"
ACTION_PATTERN = (
    rf"{SQUARE_PATTERN}[-x]{SQUARE_PATTERN}(?:{_FACING_SUFFIX})?"
    rf"|{SQUARE_PATTERN}{_FACING_SUFFIX}"
    r"|resign"
)
_CHARGE = re.compile(rf"({SQUARE_PATTERN})([-x])({SQUARE_PATTERN})(?:\(({FACING_PATTERN})\))?", re.IGNORECASE)
_REORIENT = re.compile(rf"({SQUARE_PATTERN})\(({FACING_PATTERN})\)", re.IGNORECASE)


@lru_cache(maxsize=32768)
def parse_action(text: str) -> PikemenAction:
    """The typed action of a well-formed action text (any case). The actions are immutable
    values, so a text read again shares them: the cache holds every charge, capture and
    turn of the board in lower case (some 27,000 texts) and stays bounded."""
    # The canonical forms first (`e1(NE)`, `e1-e5`, `e1xe5(NE)`), read by their characters'
    # places: a square of the board, a mark, a square, a facing (a pattern costs more)
    origin = text[:2]
    if origin in SQUARE_INDEX:
        mark = text[2:3]
        if mark == "(":
            if text[-1:] == ")" and text[3:-1] in FACING_INDEX:
                return _new(Reorient, (origin, text[3:-1]))
        elif mark == "-" or mark == "x":
            target, turn = text[3:5], text[5:]
            facing = turn[1:-1]
            if target in SQUARE_INDEX and (not turn or (turn[0] + turn[-1] == "()" and facing in FACING_INDEX)):
                return _new(Charge, (origin, target, mark == "x", facing or None))
    if text.lower() == "resign":
        return RESIGN
    charge = _CHARGE.fullmatch(text)
    if charge:
        origin, mark, target, facing = charge.groups()
        return Charge(origin.lower(), target.lower(), mark.lower() == "x", facing.upper() if facing else None)
    reorient = _REORIENT.fullmatch(text)
    if reorient is None:
        raise ValueError(f"not a Pikemen action: {text!r}")
    return Reorient(reorient.group(1).lower(), reorient.group(2).upper())


_WRITTEN = re.compile(ACTION_PATTERN, re.IGNORECASE)

CANONICAL_KEPT = 1 << 16
"""Texts `canonical_action` keeps: more than every action on the board."""

CANONICAL_ACTIONS: dict[str, PikemenAction] = {}
"""`canonical_action`'s actions by their text: a caller playing many moves looks a text up
here first, and asks `canonical_action` only for a text not met before."""


def canonical_action(text: object) -> PikemenAction | None:
    """The action of a move written as its canonical text, one word (`d4(NE)`,
    `d4-d7(U)`, `d4xd7(SW)`, `resign`), as AbstractPlay writes its moves; None for anything
    else (another case, white space in it, `draw`, not an action, not a string), which the
    caller reads the way it reads any text. The action is kept in `CANONICAL_ACTIONS`
    while that holds fewer than `CANONICAL_KEPT`."""
    if type(text) is not str or _WRITTEN.fullmatch(text) is None:
        return None
    action = parse_action(text)
    if str(action) != text:
        return None
    if len(CANONICAL_ACTIONS) < CANONICAL_KEPT:
        CANONICAL_ACTIONS[text] = action
    return action


def action_element() -> pp.ParserElement:
    """The detailed grammar of one action, for saying what was expected.

    Built with `+` rather than `-` so that a failure names the innermost element that
    did not fit (the facing, its closing parenthesis), not the whole action."""
    import pyparsing as pp

    _, square_element = square("a-z", 99)
    _, facing_element = choice(list(FACINGS), FACING_NAME)
    opening = pp.Literal("(").set_name(phrase('a new facing in parentheses such as "(NE)"'))
    closing = pp.Literal(")").set_name(phrase('")" closing the facing'))
    facing = (pp.Suppress(opening) + facing_element + pp.Suppress(closing)).set_name(
        phrase('a facing in parentheses such as "(NE)"')
    )
    mark = pp.one_of("- x", caseless=True).set_name(
        phrase('"-" for a charge, "x" for a capture or a facing such as "(NE)"')
    )
    end = pp.StringEnd().set_name(phrase('the end of the action or a new facing such as "(NE)"'))
    charge = (mark + square_element + (end | facing)).set_name(phrase('a charge such as "e1-e5(NE)"'))
    piece_action = (square_element + (charge | facing)).set_name(phrase('an action such as "e1-e5" or "e1(NE)"'))
    return (keyword("resign") | piece_action).set_name(phrase('an action such as "e1-e5(NE)" or "a4(U)"'))


DIALECT = PIKEMEN.dialect(ACTION_PATTERN, parse_action, action_element)
