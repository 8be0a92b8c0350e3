"""Nika's actions and their notation (nika.md, "A turn: two actions").

    d2-N  d2-d3          single move (the destination form is read as its direction)
    d1+d2+d3-W           phalanx move
    d2>E  d1+d2+d3>E     rotate a piece or a phalanx
    *b5>N                rally
    pass  resign

Squares are kept as lower-case text; whether they are on the board is a rule, checked by
the engine, so `z9-S` is a valid form (and an illegal action). A group's squares are kept
in the canonical order, by rank then file.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from referee.games.api import RESIGN, Resign
from referee.games.registry import NIKA
from referee.games.values import phrase
from referee.notation.blocks import choice, choice_pattern, keyword, square, square_pattern

if TYPE_CHECKING:
    import pyparsing as pp

SQUARE_PATTERN = square_pattern("a-z", 10)
FACING_PATTERN = choice_pattern(["N", "E", "S", "W"])
ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
"""Lower case for ASCII letters only: a non-ASCII letter that the case-insensitive pattern
lets through (the Kelvin sign, a dotted capital I) keeps its length and names no square."""
STEP_OF_DELTA = {(0, 1): "N", (1, 0): "E", (0, -1): "S", (-1, 0): "W"}


@cache
def square_key(name: str) -> tuple[int, str]:
    """The canonical order of squares: by rank, then file. Remembered (the names are a
    file letter and at most two digits): sorting a group then calls no Python per square."""
    return int(name[1:]), name[0]


@dataclass(frozen=True, slots=True)
class Step:
    """A single move, `d2-N`: the piece turns to `direction` and steps one square."""

    origin: str
    direction: str

    def __str__(self) -> str:
        return f"{self.origin}-{self.direction}"


@dataclass(frozen=True, slots=True)
class StepTo:
    """A single move written to a square that is not next to its origin (`d2-d4`): a
    valid form that no rule allows, kept so the engine can say why."""

    origin: str
    target: str

    def __str__(self) -> str:
        return f"{self.origin}-{self.target}"


@dataclass(frozen=True, slots=True)
class PhalanxMove:
    """`d1+d2+d3-W`: every piece of the group steps one square the way they all face."""

    squares: tuple[str, ...]
    direction: str

    def __str__(self) -> str:
        return f"{'+'.join(self.squares)}-{self.direction}"


@dataclass(frozen=True, slots=True)
class Rotate:
    """`d2>E` or `d1+d2>E`: a piece or a whole phalanx turns in place."""

    squares: tuple[str, ...]
    facing: str

    def __str__(self) -> str:
        return f"{'+'.join(self.squares)}>{self.facing}"


@dataclass(frozen=True, slots=True)
class Rally:
    """`*b5>N`: a routed piece returns onto the city's rally area, facing as written."""

    square: str
    facing: str

    def __str__(self) -> str:
        return f"*{self.square}>{self.facing}"


@dataclass(frozen=True, slots=True)
class Pass:
    """`pass`: an action that does nothing."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()

NikaAction = Step | StepTo | PhalanxMove | Rotate | Rally | Pass | Resign

SQ, FACE = SQUARE_PATTERN, FACING_PATTERN
ACTION_PATTERN = rf"pass|resign|\*{SQ}>{FACE}|{SQ}(?:\+{SQ})*[->]{FACE}|{SQ}-{SQ}"

KEYWORD_PASS = re.compile("pass", re.IGNORECASE)
KEYWORD_RESIGN = re.compile("resign", re.IGNORECASE)


@lru_cache(maxsize=8192)
def parse_action(text: str) -> NikaAction:
    """The typed action of a text that fully matches ACTION_PATTERN (any case)."""
    first = text[:1]  # (no other letter reads as a "p" or an "r" ignoring case)
    if first in "pP" and KEYWORD_PASS.fullmatch(text):
        return PASS
    if first in "rR" and KEYWORD_RESIGN.fullmatch(text):
        return RESIGN
    lowered = text.lower() if text.isascii() else text.translate(ASCII_LOWER)
    if lowered.startswith("*"):
        where, _, facing = lowered[1:].partition(">")
        return Rally(where, facing.upper())
    separator = lowered[-2]
    if separator in "->":  # a facing after the squares (a square written after "-" is two or three letters)
        facing, head = lowered[-1].upper(), lowered[:-2]
        if "+" not in head:
            return Rotate((head,), facing) if separator == ">" else Step(head, facing)
        squares = tuple(sorted(head.split("+"), key=square_key))
        return Rotate(squares, facing) if separator == ">" else PhalanxMove(squares, facing)
    origin, _, tail = lowered.partition("-")  # (the destination form names one square)
    delta = (ord(tail[0]) - ord(origin[0]), int(tail[1:]) - int(origin[1:]))
    direction = STEP_OF_DELTA.get(delta)
    return StepTo(origin, tail) if direction is None else Step(origin, direction)


def action_element() -> pp.ParserElement:
    """The detailed grammar of one action, for saying what was expected."""
    import pyparsing as pp

    _, SQUARE_element = square("a-z", 10)
    _, FACING_element = choice(["N", "E", "S", "W"], phrase('a facing such as "N"'))

    target = (SQUARE_element | FACING_element).set_name(phrase('a direction such as "N" or a square such as "d3"'))
    joiner = pp.one_of("- >").set_name(phrase('"-" (move) or ">" (rotate)'))
    move_or_rotate = (
        (pp.Literal("-") - target)
        | (pp.Literal(">") - FACING_element)
        | (pp.OneOrMore(pp.Literal("+") - SQUARE_element) - joiner - FACING_element)
    ).set_name(phrase('"-" and a direction, ">" and a facing, or "+" and another square of a phalanx'))
    piece_action = (SQUARE_element - move_or_rotate).set_name(phrase('a move such as "d1-W"'))
    rally = (pp.Literal("*") - SQUARE_element - pp.Literal(">") - FACING_element).set_name(
        phrase('a rally such as "*b5>N"')
    )
    return (keyword("pass") | keyword("resign") | rally | piece_action).set_name(phrase('an action such as "d1-W"'))


DIALECT = NIKA.dialect(ACTION_PATTERN, parse_action, action_element)
