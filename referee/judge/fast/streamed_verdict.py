"""The detailed verdict of one record without its record model: memory bounded by a turn.

`referee check` gives a legal record its verdict on the fused path (`referee.judge.fast.fused_check`). An
illegal or malformed record, and every record of `check --json`, needs the detailed path:
lines, columns, the action's text, the turn token. Reading the whole record model first
(`notation.reader.read_raw`) costs about 50 times the record's size, so here the record is
read twice, one item at a time, keeping none (`notation.reader.Streamed.items`):

1. The first reading checks that the move text is RGN (else the grammar explains the
   error: malformed) and notes, by their place among the actions, the actions that may
   leave a roll or a choice unwritten (`referee.judge.core.replay_loop.open_ended`).
2. The second reading replays the items as they come (`referee.judge.core.adjudicate.run`) and, for
   `--json`, hashes the canonical text turn by turn for the turn token (PLAY.md §2).

`lean_replay` is the same replay for the other record commands (issue 34, "Memory"): it
gives each action replayed to `replay` and `stats` as it is replayed, the board at the end
or after a round to `show`, and writes the canonical text for `format` as it reads it;
none keeps the record's items, steps or rounds, so each peaks at a few times the record's
size (`tests/cli/test_memory.py`).

The verdict is the one `referee.judge.core.adjudicate` gives
(`tests/judge/fast/test_streamed_verdict.py` compares them on random, mutated and
conformance records; `tests/judge/fast/test_streamed_replay.py` compares the other
commands' output). Anything this path does not handle the same way for certain (a tag
section the fast reader does not read, text that is not UTF-8, any unforeseen error)
gives None, and the caller takes the full path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.games.api import GameState
from referee.judge.core.adjudicate import ErrorReport, Played, Replay, cut_of, dialect_for, legal_verdict, run
from referee.judge.core.replay_loop import TURN, action_places, record_kinds
from referee.judge.core.tag_values import first_problem, notation_problem
from referee.judge.core.turn_token import token_of_digest
from referee.judge.core.verdicts import Status, Verdict, annotated, malformed
from referee.notation import writer
from referee.notation.lexicon import TERMINATION_WORDS
from referee.notation.model import Comment, Record, RecordItem, Turn
from referee.notation.reader import Streamed, TurnNotKept, Unreadable, open_streamed
from referee.notation.record_splitter import RawRecord

if TYPE_CHECKING:
    from referee.judge.core.clock_walk import ClockWalk

TURN_LIMIT = 4096
"""Items of one turn kept while replaying: more than any game's turn may hold (a turn of
millions of actions is replayed from its first 4,096 and found illegal there)."""


def lean_verdict(
    raw: RawRecord, source: str, index: int, annotate: bool = False, places: set[int] | None = None
) -> Verdict | None:
    """The detailed verdict of one record read twice as a stream (with the turn token and
    did-you-mean suggestions when `annotate`), or None when the full path must give it.
    `places` are the open-ended actions' places when known (`referee.judge.fast.fused_check.quick_check`)."""
    replayed = lean_replay(raw, source, index, annotate, places)
    return None if replayed is None else replayed.verdict


def lean_replay(
    raw: RawRecord,
    source: str,
    index: int,
    annotate: bool = False,
    places: set[int] | None = None,
    *,
    each: Callable[[Verdict, Played], None] | None = None,
    cut_at: int | None = None,
    canonical: Callable[[bytes], object] | None = None,
    follow: Callable[[Iterator[RecordItem], Replay], Iterator[RecordItem]] | None = None,
) -> Replay | None:
    """The replay of one record read as a stream, keeping no item, step or round behind
    it, or None when the full path must give it: its verdict (annotated as `lean_verdict`
    says), the state it left (None for a malformed record) and, with `cut_at`, its `cut`
    (the replay after that round, as `referee.judge.core.adjudicate.adjudicate` makes it).
    `each` is given every action replayed (`Replay.steps`, with the verdict's source,
    record, game and offset) as it is replayed, none kept. `canonical` is given the
    record's canonical text (NOTATION.md §7, `referee.judge.core.turn_token.canonical_text`) piece
    by piece as it is read: turns past an illegal action keep their written numbers.
    `follow`, when the record has a board to replay, is given the record's items (its
    comments among them, read one at a time) and the replay, whose state is still the one
    the tags set up; the items it gives back are those replayed (`referee.pictures.streamed_page`
    watches them go by, and reads the state as each action is given to `each`)."""
    if raw.refused is not None:
        return None
    try:
        return _replayed(raw, source, index, annotate, places, each, cut_at, canonical, follow)
    except Exception:  # noqa: BLE001 - anything unforeseen: the full path gives the verdict or the error
        return None


def _replayed(
    raw: RawRecord,
    source: str,
    index: int,
    annotate: bool,
    places: set[int] | None,
    each: Callable[[Verdict, Played], None] | None,
    cut_at: int | None,
    canonical: Callable[[bytes], object] | None,
    follow: Callable[[Iterator[RecordItem], Replay], Iterator[RecordItem]] | None = None,
) -> Replay | None:
    streamed = open_streamed(raw, dialect_for)
    if streamed is None:
        return None
    start = _start(raw, streamed, source, index, places)
    if not isinstance(start, _Start):
        return start  # None (the full path decides) or the replay of a record malformed before its moves
    state = start.state
    begun = Verdict(source, index, streamed.game, Status.ONGOING, offset=raw.offset)
    replay = Replay(start.record, state, begun)
    replay.rounds, replay.numbers = _Rounds(), _Numbers()  # a verdict needs no more
    if each is not None:
        replay.steps = _Steps(lambda played: each(begun, played))
    written = _Canonical(streamed, replay, canonical) if canonical is not None else None
    hashed = _Canonical(streamed, replay) if annotate else None
    items = _items(streamed, replay, start.timed, written, hashed, follow)
    ran = _run(items, start, replay, each is not None, cut_at, written)
    if ran is None:
        return None  # a turn longer than any game allows went by unbroken: the full path decides
    failure, turns = ran
    claimed = start.tags.get("Result")
    if failure is not None:
        verdict = Verdict(source, index, streamed.game, Status.ILLEGAL, error=failure, claimed=claimed)
    else:
        verdict = legal_verdict(streamed.game, claimed, state, source, index, turns)
    if start.clock is not None and failure is None:
        verdict = verdict._replace(clock=start.clock.view(state))
        replay.walk = start.clock
    replay.verdict = verdict = verdict._replace(offset=raw.offset)
    if cut_at is not None and replay.cut is None:  # the record ended (or broke a rule) first
        replay.cut = cut_of(replay, state, verdict)
    if annotate:
        replay.verdict = _annotated(verdict, state, hashed)
    return replay


@dataclass(frozen=True)
class _Start:
    """What a record's replay begins with, once its tags and a first reading of its move
    text hold: its tags, whether it is timed (`TimeControl` or `Start`: its clock walks
    beside the replay, `referee.judge.fast.streamed_clock`), the record without its items,
    the state its tags set up, the places of its open-ended actions and its clock."""

    tags: dict[str, str]
    timed: bool
    record: Record
    state: GameState[Any]
    open_ended: set[int]
    clock: ClockWalk | None

    def __repr__(self) -> str:
        return f"_Start({self.record.game}, {len(self.tags)} tags, timed={self.timed})"


def _start(
    raw: RawRecord, streamed: Streamed, source: str, index: int, places: set[int] | None
) -> _Start | Replay | None:
    """The record's start (`_Start`), or the replay stopped at the problem of its tags, of
    its clock or of its move text's reading (malformed), or None when the full path decides."""
    tags = {tag.name: tag.value for tag in streamed.tags}
    timed = "TimeControl" in tags or "Start" in tags
    record = Record(streamed.game, streamed.tags, (), streamed.span, raw.offset)
    # The tags stand before the move text: a problem of theirs is the first (NOTATION.md §5).
    state, problem = first_problem(
        streamed.game, streamed.tags, streamed.span, notation_problem(streamed.repeated_tag())
    )
    if problem is not None or state is None:
        at, message = problem or (streamed.span, "the tags cannot be read")
        return _stopped(raw, malformed(source, index, streamed.game, at.line, at.column, message), record)
    entries_problem = None
    try:
        if timed:
            from referee.judge.fast import streamed_clock as clocked

            open_ended, entries_problem = clocked.first_pass(streamed, TURN_LIMIT)
        else:
            open_ended = places if places is not None else _open_ended(streamed)
    except Unreadable as unreadable:
        explained = streamed.explain(unreadable.resume)
        if isinstance(explained, Record):
            return None  # the grammar reads what the fast reader did not: the full path decides
        span = explained.error.span
        return _stopped(raw, malformed(source, index, streamed.game, span.line, span.column, explained.error.message))
    clock, problem = clocked.clock_of(streamed, tags, state, entries_problem) if timed else (None, None)
    if problem is not None:
        at, message = problem
        return _stopped(raw, malformed(source, index, streamed.game, at.line, at.column, message), record)
    return _Start(tags, timed, record, state, open_ended, clock)


def _stopped(raw: RawRecord, verdict: Verdict, record: Record | None = None) -> Replay:
    """The replay of a record stopped before its moves, with its verdict."""
    return Replay(record, None, verdict._replace(offset=raw.offset))


def _items(
    streamed: Streamed,
    replay: Replay,
    timed: bool,
    written: _Canonical | None,
    hashed: _Canonical | None,
    follow: Callable[[Iterator[RecordItem], Replay], Iterator[RecordItem]] | None,
) -> Iterator[RecordItem]:
    """The record's items as the replay reads them: with their comments where a clock, a
    canonical text or `follow` needs them, through `follow`, then written and hashed."""
    items = streamed.items(
        TURN_LIMIT, comments=timed or written is not None or hashed is not None or follow is not None
    )
    if follow is not None:
        items = follow(items, replay)
    for text in (written, hashed):
        if text is not None:
            items = text.items(items)
    return items


def _run(
    items: Iterator[RecordItem],
    start: _Start,
    replay: Replay,
    keep_steps: bool,
    cut_at: int | None,
    written: _Canonical | None,
) -> tuple[ErrorReport | None, int] | None:
    """The replay of the items (`referee.judge.core.adjudicate.run`): the first rule broken
    (or None) and the turns replayed, the rest of the canonical text written; None when a
    turn longer than any game allows went by unbroken."""
    entries = None
    clock = start.clock
    if clock is not None:
        from referee.judge.fast import streamed_clock as clocked

        items = ahead = clocked.Ahead(items)  # type: ignore[assignment]
        entries = ahead.entries
    moves = iter(range(1 << 62))
    open_ended = start.open_ended
    try:
        ran = run(
            items,
            lambda _move: next(moves) in open_ended,
            start.state,
            replay,
            keep_steps=keep_steps,
            cut_at=cut_at,
            clock=clock,
            entries=entries,
        )
        if written is not None:
            written.rest(items)
    except TurnNotKept:
        return None
    return ran


def _annotated(verdict: Verdict, state: GameState[Any], hashed: _Canonical | None) -> Verdict:
    """The verdict with its did-you-mean suggestions (an illegal action) and its turn token
    (a finished or ongoing record, from the digest of the text hashed as it streamed)."""
    from referee.judge.core.did_you_mean import suggestions

    hints: list[str] = []
    failed = verdict.error
    if verdict.status == Status.ILLEGAL and failed is not None and failed.action is not None:
        hints = suggestions(state, failed.action)
    token = None
    if hashed is not None and verdict.status in (Status.FINISHED, Status.ONGOING) and verdict.turns is not None:
        # As `referee.judge.core.turn_token.turn_token`, from the digest of the text hashed as it streamed.
        token = token_of_digest(verdict.turns, hashed.text_digest())
    return annotated(verdict, token, hints)


def _open_ended(streamed: Streamed) -> set[int]:
    """The places, counted among the record's actions from 0, of the actions that may leave
    a roll or a choice unwritten (`referee.judge.core.replay_loop.open_ended`), read as a stream: one
    byte an item is kept (the quick reader's items of the whole record cost 8 times the
    record's size, a list of the kinds 13 times)."""
    kinds = bytearray()
    try:
        for kind, _ in record_kinds(streamed.items(TURN_LIMIT, comments=False)):
            kinds += kind
    except TurnNotKept:  # a turn longer than any game allows, illegal before its cut: nothing after it counts,
        kinds += TURN  # and no action of it is the record's last
    found = bytes(kinds)
    del kinds
    return action_places(found)


class _Rounds(list[int | None]):
    """The rounds of the turns begun, as `Replay.rounds` keeps them, reduced to the two
    that matter: the highest (`Replay.last_round`) and the last. Every turn's round would
    cost memory in proportion to the record."""

    def append(self, value: int | None) -> None:
        highest = max((number for number in (*self[:1], value) if number is not None), default=None)
        self[:] = [highest, value]


class _Numbers(list[int | None]):
    """The round numbers of the turns begun (`Replay.numbers`), keeping only the last and
    how many there were (`given`)."""

    given = 0

    def append(self, value: int | None) -> None:
        self.given += 1
        self[:] = [value]


class _Steps(list[Played]):
    """`Replay.steps` that gives each action replayed to `each` and keeps none; its length
    is how many were given."""

    def __init__(self, each: Callable[[Played], None]) -> None:
        super().__init__()
        self.each = each
        self.given = 0

    def append(self, played: Played) -> None:
        self.given += 1
        self.each(played)

    def __len__(self) -> int:
        return self.given


class _Canonical:
    """The canonical text of a record (NOTATION.md §7, `referee.judge.core.turn_token.canonical_text`)
    as the replay reads it, each turn with the round number its replay gave it (a turn the
    replay did not begin keeps its own). Without `out`, the text without its `Result` tag
    is hashed, for the turn token (`text_digest`); with `out`, the whole text is given to
    it piece by piece."""

    def __init__(self, streamed: Streamed, replay: Replay, out: Callable[[bytes], object] | None = None) -> None:
        self.replay = replay
        self.dialect = streamed.dialect
        self.hash = hashlib.sha256()
        self.out = out or self.hash.update
        tags = list(streamed.tags) if out is not None else [tag for tag in streamed.tags if tag.name != "Result"]
        self.out(writer.write_tags(writer.ordered_tags(tags, self.dialect)).encode("utf-8"))
        self.body = False
        self.pending: Turn | None = None
        self.turns = 0  # the turns read before the pending one

    def items(self, items: Iterator[RecordItem]) -> Iterator[RecordItem]:
        """The items, each written once the replay has begun it (or gone past it)."""
        for item in items:
            self._flush()
            self._add(item)
            yield item
        self._flush()

    def rest(self, items: Iterator[RecordItem]) -> None:
        """The items of `self.items(...)` the replay did not read (after a broken rule),
        read and written (the turns among them with their own numbers), then the end."""
        for _item in items:
            pass
        self.finish()

    def _add(self, item: RecordItem) -> None:
        if isinstance(item, Turn):
            self.pending = item
        else:
            self._line(str(item) if isinstance(item, Comment) else TERMINATION_WORDS.get(type(item), ""))

    def _flush(self) -> None:
        turn = self.pending
        if turn is None:
            return
        self.pending = None
        numbers = self.replay.numbers
        assert isinstance(numbers, _Numbers)
        if numbers.given > self.turns:  # the replay began this turn: the number it gave it
            turn = turn._replace(number=numbers[-1])
        self.turns += 1
        self._line(writer.write_turn(turn, self.dialect))

    def _line(self, text: str) -> None:
        self.out(("\n" + text.rstrip("\n")).encode("utf-8"))
        self.body = True

    def finish(self) -> None:
        """The end of the text: its last newline."""
        self._flush()
        if self.body:
            self.out(b"\n")

    def text_digest(self) -> str:
        self.finish()
        return self.hash.hexdigest()
