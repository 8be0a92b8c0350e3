"""What the fused, the streamed and the detailed replays share: the open-ended rule, once.

Each reader describes its record as a neutral sequence of kinds, one byte per item that
matters to the rule, in record order: `TURN` (a label: a turn begins), `ACTION`,
`RESIGN`, `END` (a `draw` or a `timeout`); comments and glyphs are left out. The quick
reader's items map to it one to one (`quick_kinds`), the record model's turns and the
streamed reader's items through `record_kinds`. `open_ended` reads that sequence with
the byte searches of `bytes` (no Python loop over the actions), so the fast path pays
next to nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from games.api import Resign
from notation.model import Draw, Move, RecordItem, Timeout, Turn
from notation.quick import DRAW, Item, Label

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


def action_places(kinds: bytes, places: set[int]) -> set[int]:
    """`places` in `kinds` (actions' places, as `open_ended` gives them) counted among the
    actions only, from 0: as a reader that counts the actions it applies finds them."""
    return {at - kinds.count(TURN, 0, at) - kinds.count(END, 0, at) for at in places}
