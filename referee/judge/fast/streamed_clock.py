"""A timed record's clock beside the streamed replay (`referee.judge.fast.streamed_verdict`): TIME.md's
clock walks along as the items come, so a timed record is held to the memory of an
untimed one (issue 34, "Memory"), with the verdict the record model gives
(`referee.judge.core.adjudicate`: `_clock`, `clock_entries`, `run`).

The full path reads every stamp and grant before the replay (one that cannot be read makes
the record malformed, wherever it stands) and finds a `timeout`'s stamp by looking at the
items after it. Here the first reading of the stream (the one that finds the open-ended
actions) also reads every comment's clock entries and keeps only the first that cannot be
read; the replay reads each comment's entries again as it comes (`Ahead`), keeping those of
the items not yet replayed, and looks ahead for a `timeout`'s stamp as far as the first
item that is not a comment.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from referee.games import registry
from referee.games.api import GameState
from referee.judge.core.adjudicate import clock_entries
from referee.judge.core.clock_walk import ClockTagError, ClockWalk, Entry, Stamp, read_setup
from referee.judge.core.replay_loop import action_places, record_kinds
from referee.notation.model import Comment, RecordItem, Span, Turn
from referee.notation.reader import Streamed

Problem = tuple[Span, str]
"""Where a record stops being readable, and why."""


def _comments(item: RecordItem) -> Iterator[Comment]:
    for comment in item.items if isinstance(item, Turn) else (item,):
        if isinstance(comment, Comment):
            yield comment


def first_pass(streamed: Streamed, limit: int) -> tuple[set[int], Problem | None]:
    """The open-ended actions' places (as `referee.judge.fast.streamed_verdict._open_ended`) and the first
    stamp or grant that cannot be read, in one reading of the stream. Raises Unreadable
    where the move text is not RGN (that comes first: the record model is never made),
    and TurnNotKept for a turn longer than `limit` (the full path reads it)."""
    problem: Problem | None = None

    def checked(items: Iterator[RecordItem]) -> Iterator[RecordItem]:
        nonlocal problem
        for item in items:
            if problem is None:
                problem = clock_entries((item,))[1]
            yield item

    kinds = bytearray()
    for kind, _ in record_kinds(checked(streamed.items(limit, comments=True))):
        kinds += kind
    found = bytes(kinds)
    del kinds
    return action_places(found), problem


def clock_of(
    streamed: Streamed, tags: Mapping[str, str], state: GameState[Any], entries: Problem | None
) -> tuple[ClockWalk | None, Problem | None]:
    """The record's clock, or why it cannot be read: its tags first (`TimeControl`,
    `Start`), then the first stamp or grant that cannot be read (`entries`, from
    `first_pass`)."""
    try:
        setup = read_setup(tags)
    except ClockTagError as error:
        at = next((tag.span for tag in streamed.tags if tag.name == error.tag), None)
        return None, (at or streamed.span, error.message)
    if entries is not None or setup is None:
        return None, entries
    return ClockWalk(setup, state, registry.GAMES[streamed.game].labels), None


class Ahead:
    """The items of a stream with their comments' clock entries (`entries`, by `id` of the
    comment, as `referee.judge.core.adjudicate.run` reads them), kept for the items given out
    last or read ahead only, and the stamp that closes a `timeout` (`following_stamp`)."""

    def __init__(self, items: Iterator[RecordItem]) -> None:
        self._items = items
        self._ahead: deque[RecordItem] = deque()
        self.entries: dict[int, tuple[Entry, ...]] = {}

    def __iter__(self) -> Iterator[RecordItem]:
        given: RecordItem | None = None
        while True:
            if given is not None:  # replayed whole by now: its entries go
                for comment in _comments(given):
                    self.entries.pop(id(comment), None)
            if self._ahead:
                given = self._ahead.popleft()
            else:
                given = self._read()
                if given is None:
                    return
            yield given

    def _read(self) -> RecordItem | None:
        item = next(self._items, None)
        if item is not None:
            self.entries.update(clock_entries((item,))[0])  # (all readable: `first_pass` found no fault)
        return item

    def following_stamp(self) -> Stamp | None:
        """As `referee.judge.core.clock_walk.following_stamp` of the items after the one given last:
        the first comment holding clock entries, if its first is a stamp and only comments
        stand before it."""
        at = 0
        while True:
            if at == len(self._ahead):
                item = self._read()
                if item is None:
                    return None
                self._ahead.append(item)
            item = self._ahead[at]
            if not isinstance(item, Comment):
                return None
            found = self.entries.get(id(item), ())
            if found:
                return found[0] if isinstance(found[0], Stamp) else None
            at += 1
