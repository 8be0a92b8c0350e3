"""Numica's actions and their notation: `a1-c3`, `a1xc3`, the setup word `SSOOSOSO`, `resign`."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from referee.games.api import RESIGN, Resign
from referee.games.registry import NUMICA
from referee.games.values import phrase
from referee.notation.blocks import keyword, square, square_pattern

if TYPE_CHECKING:
    import pyparsing as pp

SQUARE_PATTERN = square_pattern("a-z", 99)


class Setup(NamedTuple):
    """A setup turn: the shapes placed on the back row in file order (`S` square, `O` round)."""

    shapes: str

    def __str__(self) -> str:
        return self.shapes


class Step(NamedTuple):
    """A move (`a1-c3`) or, with `capture`, a capture (`a1xc3`)."""

    origin: str
    target: str
    capture: bool = False

    def __str__(self) -> str:
        return f"{self.origin}{'x' if self.capture else '-'}{self.target}"


NumicaAction = Setup | Step | Resign

ACTION_PATTERN = rf"{SQUARE_PATTERN}[-x]{SQUARE_PATTERN}|[SO]+|resign"
_STEP = re.compile(rf"({SQUARE_PATTERN})([-x])({SQUARE_PATTERN})", re.IGNORECASE)


@lru_cache(maxsize=4096)
def parse_action(text: str) -> NumicaAction:
    """The typed action of a well-formed action text (any case)."""
    lowered = text.lower()
    if lowered == "resign":
        return RESIGN
    step = _STEP.fullmatch(lowered)
    if step:
        return Step(step.group(1), step.group(3), step.group(2) == "x")
    return Setup(text.upper())


def action_element() -> pp.ParserElement:
    """The detailed grammar of one action, for saying what was expected."""
    import pyparsing as pp

    _, square_element = square("a-z", 99)
    separator = pp.one_of("- x", caseless=True).set_name(phrase('"-" or "x"'))
    step = (square_element + separator - square_element).set_name(phrase('a move such as "a1-c3"'))
    setup = pp.Regex(r"[SO]+", flags=re.IGNORECASE).set_name(phrase('a setup such as "SSOOSOSO"'))
    return (keyword("resign") | step | setup).set_name(phrase('an action such as "a1-c3"'))


DIALECT = NUMICA.dialect(ACTION_PATTERN, parse_action, action_element)
