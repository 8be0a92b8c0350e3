"""Nieuchess actions and their notation (nieuchess.md):

    setup a1 b1 ...            a setup turn: the word `setup` and the side's 20 hexes
    e4-g7, e4-f5-f6-g7         a move: destination form, or an explicit path
    b4>y33                     an invasion: an embarkation hex to a red hex
    g6+h6xh7#4=DB2(h7-h8-h9)   a battle: attackers x defenders, roll, result, choices
    g4                         a replacement pawn placed on a star (replacement steps only)
    resign

Hexes are kept as lower-case names (`m40` too: a hex off the map is a rule matter, not a
syntax error); the engine looks them up.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from referee.games.api import RESIGN, Resign
from referee.games.nieuchess.board import INDEX, NAMES, RESULTS
from referee.games.nieuchess.hexsets import HexSet, PathFacts, members, path_facts
from referee.games.registry import NIEUCHESS
from referee.games.values import phrase
from referee.notation.blocks import choice, choice_pattern, keyword, square, square_pattern

if TYPE_CHECKING:
    import pyparsing as pp

HEX_PATTERN = square_pattern("a-z", None)  # `l120`, off the map, is illegal (nieuchess.md)
RESULT_PATTERN = choice_pattern(list(RESULTS))
_CHOICE = rf"(?:-{HEX_PATTERN}|{HEX_PATTERN}(?:-{HEX_PATTERN})++)"
_BATTLE = (
    rf"{HEX_PATTERN}(?:\+{HEX_PATTERN})*+x{HEX_PATTERN}(?:\+{HEX_PATTERN})*+"
    rf"(?:#[0-9])?(?:={RESULT_PATTERN})?(?:\({_CHOICE}(?:,{_CHOICE})*\))?"
)
# Every repeat of hexes is possessive (`*+`, `++`): what follows a repeat (white space, `x`,
# `#`, `=`, `(`, `,`, `)`) can never begin with what it repeats, so giving a hex back never
# makes a match, and a plain `*` keeps a backtracking frame per hex (a megabyte-long setup
# cost hundreds of megabytes) and, after a turn's label in the scanner, copies the groups
# read so far at every hex of a ride (`check` of the long-shape bench corpus: 1.6 % of it).
ACTION_PATTERN = (
    rf"setup(?:\s+{HEX_PATTERN}(?![^\s{{;]))*+"
    rf"|{_BATTLE}"
    rf"|{HEX_PATTERN}>{HEX_PATTERN}"
    rf"|{HEX_PATTERN}(?:-{HEX_PATTERN})*+"
    r"|resign"
)


def _hex(text: str) -> str:
    """A hex name as written, in lower case (`a05` stays itself: no hex has that name)."""
    return text.lower()


def _joined(hexes: tuple[str, ...], separator: str) -> str:
    return separator.join(hexes)


class Setup(NamedTuple):
    """A setup turn: where the side's pawns start."""

    hexes: tuple[str, ...]

    def __str__(self) -> str:
        return " ".join(("setup", *self.hexes))


class Move:
    """A move: two hexes are the destination form (any legal path), more an explicit path.
    `hexes` are the path's hex numbers when the reader has looked them up (every hex on
    the map), else empty: the engine then looks them up itself; `facts` what the path
    says on its own (`hexsets.path_facts`), for the engine's quick way. Two moves are equal
    when their paths are: `hexes` and `facts` only say what the path says.

    A frozen value with slots, written out rather than made by `dataclasses`: the actions
    are NamedTuples for start-up (issue 34), and a move's equality leaves two fields out."""

    __slots__ = ("path", "hexes", "facts")
    path: tuple[str, ...]
    hexes: tuple[int, ...]
    facts: PathFacts | None

    def __init__(self, path: tuple[str, ...], hexes: tuple[int, ...] = (), facts: PathFacts | None = None) -> None:
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "hexes", hexes)
        object.__setattr__(self, "facts", facts)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a Move is frozen")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a Move is frozen")

    def __eq__(self, other: object) -> bool:
        return self.path == other.path if other.__class__ is Move else NotImplemented

    def __hash__(self) -> int:
        return hash((Move, self.path))

    def __repr__(self) -> str:
        return f"Move(path={self.path!r})"

    def __reduce__(self) -> tuple[type[Move], tuple[tuple[str, ...], tuple[int, ...], PathFacts | None]]:
        return Move, (self.path, self.hexes, self.facts)

    @property
    def origin(self) -> str:
        return self.path[0]

    @property
    def target(self) -> str:
        return self.path[-1]

    def __str__(self) -> str:
        return _joined(self.path, "-")


_MOVES: dict[tuple[int, int], Move] = {}
"""The moves in destination form made lately, by origin and target hex: emptied when it
holds `MOVES_KEPT` (the board has 760 passable hexes: every pair would be 160 MB)."""

MOVES_KEPT = 65_536


@lru_cache(maxsize=4096)
def destination_moves(origin: int, targets: HexSet) -> tuple[Move, ...]:
    """The moves in destination form from the hex `origin` to each hex of `targets`, in
    board order, each made once: a move is frozen, and listing the legal actions step
    after step meets the same moves, often the same pawn with the same destinations
    (random playouts for the bench list hundreds per action, issue 52)."""
    if len(_MOVES) >= MOVES_KEPT:
        _MOVES.clear()
    found = []
    for target in members(targets):
        move = _MOVES.get((origin, target))
        if move is None:
            move = _MOVES[origin, target] = Move((NAMES[origin], NAMES[target]), (origin, target))
        found.append(move)
    return tuple(found)


class Invasion(NamedTuple):
    """A pawn on an embarkation hex placed on a vacant red hex."""

    origin: str
    target: str

    def __str__(self) -> str:
        return f"{self.origin}>{self.target}"


class Choice(NamedTuple):
    """One item of a battle's choices: a retreat path (`h7-h8-h9`) or an elimination (`-h7`)."""

    path: tuple[str, ...]
    eliminated: bool = False

    @property
    def pawn(self) -> str:
        return self.path[0]

    def __str__(self) -> str:
        return f"-{self.path[0]}" if self.eliminated else _joined(self.path, "-")


class Battle(NamedTuple):
    """A battle with, when written, its roll, its result and the winner's choices."""

    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    roll: int | None = None
    result: str | None = None
    choices: tuple[Choice, ...] | None = None

    def __str__(self) -> str:
        text = f"{_joined(self.attackers, '+')}x{_joined(self.defenders, '+')}"
        if self.roll is not None:
            text += f"#{self.roll}"
        if self.result is not None:
            text += f"={self.result}"
        if self.choices is not None:
            text += "(" + ",".join(str(item) for item in self.choices) + ")"
        return text


class Place(NamedTuple):
    """A replacement pawn placed on a star, in a replacement step (`R+: g4`)."""

    star: str

    def __str__(self) -> str:
        return self.star


NieuchessAction = Setup | Move | Invasion | Battle | Place | Resign

_HEX = re.compile(HEX_PATTERN, re.IGNORECASE)
_PAWNS = rf"{HEX_PATTERN}(?:\+{HEX_PATTERN})*"
_BATTLE_PARTS = re.compile(rf"({_PAWNS})x({_PAWNS})(?:#([0-9]))?(?:=(\w+))?(?:\((.*)\))?", re.IGNORECASE)


def _hexes(text: str) -> tuple[str, ...]:
    return tuple(_hex(match) for match in _HEX.findall(text))


_new = tuple.__new__
"""A named tuple made from its fields' tuple (`_new(Battle, (...))`, all fields given) by the
C constructor its class's own `__new__`, written in Python, calls: a call less a battle."""


def _choices(text: str) -> tuple[Choice, ...]:
    """A battle's written choices, in lower case already (`parse_action`)."""
    found = []
    for item in text.split(","):
        if item.startswith("-"):
            found.append(_new(Choice, ((item[1:],), True)))
        else:
            found.append(_new(Choice, (tuple(item.split("-")), False)))
    return tuple(found)


@lru_cache(maxsize=65536)
def parse_action(text: str) -> NieuchessAction:
    """The typed action of a text that fully matches ACTION_PATTERN (any case)."""
    lowered = text.lower()  # (each hex as `_hex` keeps it, from here on)
    if lowered == "resign":
        return RESIGN
    if lowered.startswith("setup"):
        return Setup(_hexes(lowered[5:]))
    if ">" in lowered:
        origin, target = lowered.split(">")
        return Invasion(origin, target)
    battle = _BATTLE_PARTS.fullmatch(lowered) if "x" in lowered else None
    if battle:
        attackers, defenders, roll, result, choices = battle.groups()
        return _new(
            Battle,
            (
                tuple(attackers.split("+")),
                tuple(defenders.split("+")),
                None if roll is None else int(roll),
                None if result is None else result.upper(),
                None if choices is None else _choices(choices),
            ),
        )
    path = tuple(lowered.split("-"))  # (lowered already: each part is its `_hex`)
    if len(path) == 1:
        return Place(path[0])
    hexes = tuple(map(INDEX.get, path))
    if None in hexes:
        return Move(path)
    return Move(path, hexes, path_facts(hexes))  # type: ignore[arg-type]


def action_element() -> pp.ParserElement:
    """The detailed grammar of one action, for saying what was expected."""
    import pyparsing as pp

    _, HEX_element = square("a-z", None, phrase("a hex"))
    _, RESULT_element = choice(list(RESULTS), 'a result such as "DB2"')

    hex_ = HEX_element
    path = (hex_ + pp.OneOrMore(pp.Literal("-") + hex_)).set_name(phrase('a path such as "h7-h8-h9"'))
    elimination = (pp.Literal("-") + hex_).set_name(phrase('an elimination such as "-h7"'))
    item = (elimination | path).set_name(phrase('a retreat "h7-h8-h9" or an elimination "-h7"'))
    choices = (
        pp.Literal("(") - item + pp.ZeroOrMore(pp.Literal(",") - item) + pp.Literal(")").set_name('")"')
    ).set_name(phrase('choices such as "(h7-h8-h9)"'))
    roll = (pp.Literal("#") - pp.Regex(r"[0-9]").set_name(phrase('a die roll such as "4"'))).set_name(
        phrase('a roll such as "#4"')
    )
    result = (pp.Literal("=") - RESULT_element).set_name(phrase('a result such as "=DB2"'))
    pawns = (hex_ + pp.ZeroOrMore(pp.Literal("+") + hex_)).set_name(phrase('pawns such as "g6+h6"'))
    battle = (
        pawns
        + pp.CaselessLiteral("x").set_name('"x"')
        - pawns
        + pp.Optional(roll)
        + pp.Optional(result)
        + pp.Optional(choices)
    ).set_name(phrase('a battle such as "g6+h6xh7"'))
    invasion = (hex_ + pp.Literal(">") - hex_).set_name(phrase('an invasion such as "b4>y33"'))
    move = (hex_ + pp.OneOrMore(pp.Literal("-") - hex_)).set_name(phrase('a move such as "e4-g7"'))
    setup = (keyword("setup") - pp.OneOrMore(hex_)).set_name(phrase('a setup such as "setup a1 b1 ..."'))
    placement = hex_.copy().set_name(phrase('a star such as "g4"'))
    return (keyword("resign") | setup | battle | invasion | move | placement).set_name(
        phrase('an action such as "e4-g7"')
    )


DIALECT = NIEUCHESS.dialect(ACTION_PATTERN, parse_action, action_element, spanning_words=("setup",))
