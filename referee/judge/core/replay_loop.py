"""What the fused, the streamed and the detailed replays share: the steps, the driver
loop and the open-ended rule, once each.

A replay is a neutral sequence of steps on a game state: a `notation.quick.Label` begins
a turn (ending the one before), `DRAW` agrees a draw, anything else is an action. The
quick reader's items are such steps as they stand, and the fused path plays them with
the state's own loop (`GameState.play_steps`: the framework's, an action one call of the
game's hook), which says only whether a rule broke. The detailed replay
(`referee.judge.core.adjudicate.run`, and the streamed one through it) turns its record's items
into steps and `drive` plays them, watching them go (`Watch`: round numbers, the clock, the steps kept, the
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

from collections.abc import Callable, Container, Iterable, Iterator
from enum import Enum
from typing import Any, Protocol

from referee.games.api import Event, GameState, Resign, RuleError, Side
from referee.notation.model import Adjudicated, Draw, Move, RecordItem, Timeout, Turn
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
        elif isinstance(item, (Draw, Timeout, Adjudicated)):
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
    doing its work around it, which may raise to stop the loop)."""

    def watching(
        self, begin_turn: BeginTurn, apply: Apply, agree_draw: AgreeDraw
    ) -> tuple[BeginTurn, Apply, AgreeDraw]:
        """The three to call instead."""
        ...


def drive(
    steps: Iterable[object],
    state: GameState[Any],
    open_ended: Container[int],
    watch: Watch,
    turn_open: bool = False,
) -> int:
    """Play `steps` on `state` through `watch`: the turns begun. `open_ended` holds the
    steps (by place) of the actions that may leave a choice or a roll unwritten
    (`open_ended`). `turn_open`: a turn is open before the steps (a continuation of a
    replay), which the first label ends. Raises Broken at the first rule broken (a draw
    after the end is one), saying where and in what. (The fused path, which needs only to
    know whether a rule broke, plays its steps with the state's own loop,
    `GameState.play_steps`.)"""
    begin_turn, apply, agree_draw = watch.watching(state.begin_turn, state.apply, state.agree_draw)
    end_turn = state.end_turn
    turns = 0
    opened = turn_open  # a turn is open: the next label ends it
    at, item = -1, None
    try:
        for at, item in enumerate(steps):
            if item.__class__ is Label:
                # A label ends the turn before it, if one is open (a draw leaves it open).
                if opened:
                    try:
                        end_turn()
                    except RuleError as error:
                        raise Broken(at, Phase.ENDING, error, turns) from None
                begin_turn(item.side, item.step, item.number)
                turns += 1
                opened = True
            elif item is DRAW:
                if state.outcome() is not None:
                    raise Broken(at, Phase.DRAWING, None, turns)
                agree_draw()
            else:
                apply(item, at in open_ended)
    except RuleError as error:
        raise Broken(at, Phase.BEGINNING if item.__class__ is Label else Phase.ACTING, error, turns) from None
    return turns
