"""What the fused, the streamed and the detailed replays share: the driver loop and the
open-ended rule, once each.

`drive` plays a neutral sequence of steps on a game state: a `notation.quick.Label`
begins a turn (ending the one before), `DRAW` agrees a draw, anything else is an action.
The quick reader's items are such steps as they stand; the detailed replay
(`referee.judge.adjudicate.run`, and the streamed one through it) turns its record's items
into steps and watches them go (`Watch`: round numbers, the clock, the steps kept, the
cut, through the state's calls it wraps), saying itself where a broken rule stands in the
text. A broken rule stops the loop
with `Broken`, which says at which step and in what (ending a turn, beginning one, an
action, a draw after the end).

Each reader describes its record as a neutral sequence of kinds, one byte per item that
matters to the rule, in record order: `TURN` (a label: a turn begins), `ACTION`,
`RESIGN`, `END` (a `draw` or a `timeout`); comments and glyphs are left out. The quick
reader's items map to it one to one (`quick_kinds`), the record model's turns and the
streamed reader's items through `record_kinds`. `open_ended` reads that sequence with
the byte searches of `bytes` (no Python loop over the actions), so the fast path pays
next to nothing for it.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Container, Iterable, Iterator
from enum import Enum
from typing import Any, Protocol

from referee.games.api import Event, GameState, Resign, RuleError, Side
from referee.notation.model import Draw, Move, RecordItem, Timeout, Turn
from referee.notation.quick import DRAW, Item, Label

TURN, ACTION, RESIGN, END = b"T", b"a", b"r", b"e"
"""The kinds of the neutral sequence."""

_KINDS: dict[type, int] = {Label: TURN[0], DRAW.__class__: END[0], Resign: RESIGN[0]}
"""The kind of a quick item by its class; any other class is an action's (added when met)."""


def quick_kinds(items: list[Item]) -> bytes:
    """The neutral sequence of the quick reader's items (`notation.quick.scan`), one byte
    per item."""
    try:
        return bytes(map(_KINDS.__getitem__, map(type, items)))
    except KeyError:  # an action class not met before: every other class is an action's
        for item in items:
            _KINDS.setdefault(type(item), ACTION[0])
        return bytes(map(_KINDS.__getitem__, map(type, items)))


def record_kinds(items: Iterable[RecordItem]) -> Iterator[tuple[bytes, Move | None]]:
    """The neutral sequence of a record's items (the record model's, or the streamed
    reader's one at a time), each kind with its move (None but for actions)."""
    for item in items:
        if isinstance(item, Turn):
            yield TURN, None
            for sub in item.items:
                if isinstance(sub, Move):
                    yield (RESIGN if isinstance(sub.action, Resign) else ACTION), sub
        elif isinstance(item, (Draw, Timeout)):
            yield END, None


def open_ended(kinds: bytes) -> set[int]:
    """Where in `kinds` the actions stand that may leave a choice or a roll unwritten: the
    last action of the last turn other than `resign`, and every action right before a
    `resign` in its turn, or before a `draw` or `timeout` (after any draws before it).
    What such an action leaves unwritten may stay pending, since those end the game
    anyway; an action of an earlier turn is never last (a label follows it, even one with
    no action, only `draw` or only `resign`), so what it leaves unwritten is illegal."""
    found: set[int] = set()
    last = kinds.rfind(ACTION, kinds.rfind(TURN) + 1)
    if last >= 0:
        found.add(last)
    for mark in (RESIGN, END):
        at = kinds.find(mark)
        while at >= 0:
            before = at - 1
            while before >= 0 and kinds[before] == END[0]:  # draws after draws: the action before them all
                before -= 1
            if before >= 0 and kinds[before] != TURN[0]:
                found.add(before)
            at = kinds.find(mark, at + 1)
    return found


def action_places(kinds: bytes, places: set[int] | None = None) -> set[int]:
    """`places` in `kinds` (actions' places; by default the open-ended ones, as `open_ended`
    gives them) counted among the actions only, from 0: as a reader that counts the actions
    it applies finds them. Every reader's way to the actions that may leave a roll or a
    choice unwritten: `action_places(quick_kinds(items))`, `action_places(kinds)`."""
    if places is None:
        places = open_ended(kinds)
    return {at - kinds.count(TURN, 0, at) - kinds.count(END, 0, at) for at in places}


class Phase(Enum):
    """What a step was doing when it broke a rule."""

    ENDING = "ending the turn before"
    BEGINNING = "beginning a turn"
    ACTING = "an action"
    DRAWING = "a draw after the end"


class Broken(Exception):
    """A step of `drive` broke a rule: which (`at`, counted from 0), in what `phase`, the
    rule's error (None for a draw after the end) and the turns begun by then."""

    def __init__(self, at: int, phase: Phase, error: RuleError | None, turns: int) -> None:
        super().__init__(f"step {at}: {phase.value}")
        self.at, self.phase, self.error, self.turns = at, phase, error, turns


BeginTurn = Callable[[Side, bool, "int | None"], bool]
Apply = Callable[[Any, bool], tuple[Event, ...]]
AgreeDraw = Callable[[], None]


class Watch(Protocol):
    """What a replay does beside `drive`: given the state's `begin_turn`, `apply` and
    `agree_draw`, the ones the loop is to call instead (each calling the state's own and
    doing its work around it, which may raise to stop the loop). The fast path passes no
    watch, so its loop calls the state's own and pays nothing for watching."""

    def watching(
        self, begin_turn: BeginTurn, apply: Apply, agree_draw: AgreeDraw
    ) -> tuple[BeginTurn, Apply, AgreeDraw]:
        """The three to call instead."""
        ...


def drive(
    steps: Iterable[object],
    state: GameState[Any],
    open_ended: Container[int],
    watch: Watch | None = None,
    renumbered: array[int] | None = None,
    turn_open: bool = False,
) -> int:
    """Play `steps` on `state`: the turns begun. `open_ended` holds the steps (by place)
    of the actions that may leave a choice or a roll unwritten (`open_ended`).
    `renumbered`, when given, gets the turns (counted from 0) on which the canonical form
    writes another round number than the one written (a written one is checked by the
    state, so only a number missing or written where none belongs), each followed by that
    number (0: none). `turn_open`: a turn is open before the steps (a continuation of a
    replay), which the first label ends. Raises Broken at the first rule broken (a draw after the end is one)."""
    begin_turn: BeginTurn = state.begin_turn
    apply: Apply = state.apply
    agree_draw: AgreeDraw = state.agree_draw
    end_turn = state.end_turn
    begin_ending = state.begin_turn  # unwatched: it ends the turn before itself (one call)
    watched = watch is not None
    if watch is not None:
        begin_turn, apply, agree_draw = watch.watching(begin_turn, apply, agree_draw)
    turns = 0
    opened = turn_open  # a turn is open: the next label ends it
    at, item = -1, None
    try:
        for at, item in enumerate(steps):
            if item.__class__ is Label:
                # A label ends the turn before it, if one is open (a draw leaves it open).
                if not watched:
                    try:
                        opens_round = begin_ending(item[0], item[1], item[2], opened)  # (side, step, number)
                    except RuleError as error:
                        if opened and state.turn_open:  # refused to end: the turn before is still open
                            raise Broken(at, Phase.ENDING, error, turns) from None
                        raise
                else:
                    if opened:
                        try:
                            end_turn()
                        except RuleError as error:
                            raise Broken(at, Phase.ENDING, error, turns) from None
                    opens_round = begin_turn(item.side, item.step, item.number)
                turns += 1
                opened = True
                if renumbered is not None:  # (a number missing where a round opens, or written where none does)
                    if opens_round:
                        if item[2] is None:  # (its number)
                            renumbered.append(turns - 1)
                            renumbered.append(state.round_number() or 0)
                    elif item[2] is not None:
                        renumbered.append(turns - 1)
                        renumbered.append(0)
            elif item is DRAW:
                if state.outcome() is not None:
                    raise Broken(at, Phase.DRAWING, None, turns)
                agree_draw()
            else:
                apply(item, at in open_ended)
    except RuleError as error:
        raise Broken(at, Phase.BEGINNING if item.__class__ is Label else Phase.ACTING, error, turns) from None
    return turns
