"""The replay page of one record made as the record is replayed as a stream (issue 34,
"Memory"): no record model, no list of steps or frames, no page held whole.

`referee.judge.session.replay_followed` replays the record on the streamed path
(`referee.judge.fast.streamed_verdict`); `Follower` watches the record's items go by (`follow`: the
comments, and each turn's place among the turns) and is given every action as it is
replayed (`each`): it reads the frame of that action from the replay's own state at that
instant (the position, the heading) and gives it to `referee.pictures.page.Steps`, which
writes its step's JSON at once. One frame is held back: the comments written after an
action (NOTATION.md: between its turn and the next) come after it, and the last frame's
heading is the state's at the end of the record. The illegal frame comes at the end, from
the final state and the error.

The frames are those `referee.pictures.steps.frames` makes from the whole replay (which
drives a second state through the same calls): `tests/pictures/test_page_stream.py`
compares the pages byte for byte. Where the streamed path cannot replay a record (see
`referee.judge.fast.streamed_verdict`), or anything here goes otherwise than foreseen, the page is made
from the whole replay instead (`page`), as before.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any, NamedTuple

from referee.games import registry
from referee.games.api import GameState
from referee.judge.core import queue_check
from referee.judge.core.adjudicate import Played, Replay
from referee.judge.core.verdict_words import turn_text
from referee.judge.core.verdicts import Problem, Status, Verdict
from referee.notation.model import Comment, Move, RecordItem, Turn
from referee.notation.record_splitter import MAX_RECORD
from referee.pictures import page
from referee.pictures.drawing import heading
from referee.pictures.steps import Frame, turn_label
from referee.speech import ENGLISH, Speaker

RECENT = 8
"""Turns remembered with their places: the replay is never more than a turn or two behind
the items read (a `timeout` looks ahead for its stamp through comments, then one item)."""


class Unforeseen(Exception):
    """The stream went otherwise than the frames of the whole replay would: the page is
    made from the whole replay."""


class Follower:
    """The frames of a record as the streamed replay plays it, given to `steps`."""

    def __init__(self, say: Speaker = ENGLISH) -> None:
        self.say = say
        self.steps: page.Steps | None = None
        self.state: GameState[Any] | None = None
        self.title = ""
        self.source: Iterator[RecordItem] | None = None
        self.held: Frame | None = None
        self.held_move: Move | None = None
        self.recent: deque[tuple[Turn, int]] = deque(maxlen=RECENT)
        self.turns = 0  # the turns read
        self.notes: dict[int, tuple[Move, list[str]]] = {}  # comments by the action they follow (`id` of its Move)
        self.last: Move | None = None  # the last action read
        self.waiting: list[str] = []  # comments before the first action of a turn
        self.turn: Turn | None = None  # the turn of the action given last, its place and label
        self.number = 0
        self.label = ""
        self.queued: list[RecordItem] | None = None  # the items from the first queue command on (PLAY.md §9)
        self.queued_after = 0  # the turns before them

    def follow(self, items: Iterator[RecordItem], replay: Replay) -> Iterator[RecordItem]:
        """`lean_replay`'s `follow`: the start frame, then the items watched."""
        record, state = replay.record, replay.state
        assert record is not None and state is not None
        self.title = registry.GAMES[record.game].title.split(" (")[0]
        self.steps = page.Steps(record.game, say=self.say)
        self.state, self.source = state, items
        self.held = Frame(-1, "start", None, (), state.position(), heading(state, self.title))
        return self._watched(items)

    def _watched(self, items: Iterator[RecordItem]) -> Iterator[RecordItem]:
        for item in items:
            self._read(item)
            yield item

    def _read(self, item: RecordItem) -> None:
        """One item as `referee.pictures.steps._notes` reads the record's: a comment before
        a turn's first action goes with that action, one between turns with the last action
        before it, one before the first turn nowhere."""
        if self.queued is None and queue_check.holds_marks(item):
            self.queued, self.queued_after = [], self.turns
        if self.queued is not None:
            self.queued.append(item)
        if isinstance(item, Comment):
            if self.last is not None:
                self._note(self.last, item.text.strip())
            return
        if not isinstance(item, Turn):
            return
        self.recent.append((item, self.turns))
        self.turns += 1
        opened = False
        for part in item.items:
            if isinstance(part, Move):
                if self.waiting:
                    self.notes[id(part)] = (part, self.waiting)
                    self.waiting = []
                self.last, opened = part, True
            elif isinstance(part, Comment):
                if opened:
                    assert self.last is not None
                    self._note(self.last, part.text.strip())
                else:
                    self.waiting.append(part.text.strip())

    def _note(self, move: Move, text: str) -> None:
        found = self.notes.get(id(move))
        if found is None:
            self.notes[id(move)] = (move, [text])
        else:
            found[1].append(text)

    def each(self, _verdict: Verdict, played: Played) -> None:
        """`lean_replay`'s `each`: the frame of an action just played."""
        state = self.state
        assert state is not None
        turn = played.turn
        if turn is not self.turn:  # the first action of a turn: its place and label
            number = next((number for seen, number in reversed(self.recent) if seen is turn), None)
            if number is None:
                raise Unforeseen("an action of a turn not read")
            self.turn, self.number, self.label = turn, number, turn_label(played.round, turn)
        frame = Frame(
            self.number, self.label, played.move.text, played.events, state.position(), heading(state, self.title)
        )
        self._flush()
        self.held, self.held_move = frame, played.move

    def _flush(self) -> None:
        held, steps = self.held, self.steps
        if held is None or steps is None:
            return
        if self.held_move is not None:
            found = self.notes.pop(id(self.held_move), None)
            if found is not None and found[1]:
                held = held._replace(notes=tuple(found[1]))
        steps.add(held)
        self.held = None

    def end(self, replay: Replay) -> page.Steps | None:
        """The last frames once the replay is over: the held one, with the heading of the
        state the record ends in, or after it the illegal action on that state."""
        if self.steps is None or replay.state is None:  # no board (malformed)
            return None
        self._drain()
        final = replay.state
        assert final is not None
        error = replay.verdict.error
        if replay.verdict.status == Status.ILLEGAL and error is not None:
            self._flush()
            label = turn_text(error).split(", ")[0]
            spot = (error.line, error.column)
            before = [number for turn, number in self.recent if tuple(turn.span) <= spot]
            if not before and self.recent and self.recent[0][1] > 0:
                raise Unforeseen("the illegal turn is no longer known")
            at_turn = max(before, default=0)
            self.steps.add(
                Frame(at_turn, label, error.action, (), final.position(), heading(final, self.title), error.message)
            )
        else:
            if self.held is not None:
                self.held = self.held._replace(heading=heading(final, self.title))
            self._flush()
        return self.steps

    def _drain(self) -> None:
        """The items after those the replay read, up to the next action: their comments
        follow the last action read (as `referee.pictures.steps._notes` finds them)."""
        source = self.source
        if source is None:
            return
        try:
            for item in source:
                self._read(item)
                if isinstance(item, Turn) and any(isinstance(part, Move) for part in item.items):
                    break
        except Exception as error:  # (a turn too long to keep, text the stream cannot read: as lean_replay gives up)
            raise Unforeseen(str(error)) from error


class Page(NamedTuple):
    """A record's page: its verdict (for the exit status) and its pieces, to write one
    after another."""

    verdict: Verdict
    pieces: Iterator[bytes]


def streamed_page(name: str, index: int, max_record: int = MAX_RECORD, say: Speaker = ENGLISH) -> Page | Problem:
    """The replay page of the `index`-th record of `name`: made as the record is replayed
    as a stream where it can be, else from the whole replay. Raises UsageError when the
    source holds fewer records. `say` speaks the page's words (docs/languages.md)."""
    from referee.judge import session

    follower = Follower(say)
    try:
        streamed = session.replay_followed(name, index, follower.each, follower.follow, max_record)
        steps = follower.end(streamed) if isinstance(streamed, Replay) else None
    except (Unforeseen, page.Restart):
        streamed = None
    if isinstance(streamed, Problem):
        return streamed
    if streamed is None:
        whole = session.replay(name, index, max_record=max_record)
        if isinstance(whole, Problem):
            return whole
        streamed, steps = whole, page.of_replay(whole, say)
    text = streamed.source.decode("utf-8", "replace") if streamed.verdict.status == Status.MALFORMED else None
    queues = None
    if follower.queued is not None and streamed.record is not None:
        kept = streamed.record._replace(items=tuple(follower.queued))
        queues = queue_check.page_view(kept, follower.queued_after)
    return Page(
        streamed.verdict,
        page.pieces(streamed.verdict, streamed.record, steps, text, streamed.first_line, queues=queues, say=say),
    )
