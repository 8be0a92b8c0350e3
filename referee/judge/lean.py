"""The detailed verdict of one record without its record model: memory bounded by a turn.

`referee check` gives a legal record its verdict on the fused path (`referee.judge.fused`). An
illegal or malformed record, and every record of `check --json`, needs the detailed path:
lines, columns, the action's text, the turn token. Reading the whole record model first
(`notation.reader.read_raw`) costs about 50 times the record's size, so here the record is
read twice, one item at a time, keeping none (`notation.reader.Streamed.items`):

1. The first reading checks that the move text is RGN (else the grammar explains the
   error: malformed) and notes, by their place among the actions, the actions that may
   leave a roll or a choice unwritten (`referee.judge.drive.open_ended`).
2. The second reading replays the items as they come (`referee.judge.adjudicate.run`) and, for
   `--json`, hashes the canonical text turn by turn for the turn token (PLAY.md §2).

The verdict is the one `referee.judge.adjudicate` gives (`tests/judge/test_lean.py` compares them on
random, mutated and conformance records). Anything this path does not handle the same
way for certain (a tag section the fast reader does not read, text that is not UTF-8,
any unforeseen error) gives None, and the caller takes the full path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from referee.games import registry
from referee.games.api import GameState, SetupError
from referee.judge.adjudicate import Replay, dialect_for, legal_verdict, run, unreadable_result
from referee.judge.drive import action_places as drive_places
from referee.judge.drive import open_ended, record_kinds
from referee.judge.fused import action_places
from referee.judge.token import token_of_digest
from referee.judge.verdicts import Status, Verdict, annotated, malformed
from referee.notation import writer
from referee.notation.lexicon import TERMINATION_WORDS
from referee.notation.model import Comment, Record, RecordItem, Turn
from referee.notation.quick import scan
from referee.notation.reader import Streamed, TurnNotKept, Unreadable, open_streamed
from referee.notation.stream import RawRecord

TURN_LIMIT = 4096
"""Items of one turn kept while replaying: more than any game's turn may hold (a turn of
millions of actions is replayed from its first 4,096 and found illegal there)."""


def lean_verdict(
    raw: RawRecord, source: str, index: int, annotate: bool = False, places: set[int] | None = None
) -> Verdict | None:
    """The detailed verdict of one record read twice as a stream (with the turn token and
    did-you-mean suggestions when `annotate`), or None when the full path must give it.
    `places` are the open-ended actions' places when known (`referee.judge.fused.quick_check`)."""
    try:
        return _verdict(raw, source, index, annotate, places)
    except Exception:  # noqa: BLE001 - anything unforeseen: the full path gives the verdict or the error
        return None


def _verdict(raw: RawRecord, source: str, index: int, annotate: bool, places: set[int] | None) -> Verdict | None:
    streamed = open_streamed(raw, dialect_for)
    if streamed is None:
        return None
    try:
        open_ended = places if places is not None else _quick_open_ended(streamed)
        if open_ended is None:
            open_ended = _open_ended(streamed)
    except Unreadable as unreadable:
        explained = streamed.explain(unreadable.resume)
        if isinstance(explained, Record):
            return None  # the grammar reads what the fast reader did not: the full path decides
        span = explained.error.span
        found = malformed(source, index, streamed.game, span.line, span.column, explained.error.message)
        return found._replace(offset=raw.offset)
    repeated = streamed.repeated_tag()
    if repeated is not None:
        found = malformed(source, index, streamed.game, repeated.span.line, repeated.span.column, repeated.message)
        return found._replace(offset=raw.offset)
    tags = {tag.name: tag.value for tag in streamed.tags}
    if "TimeControl" in tags or "Start" in tags:
        return None  # a timed record: its clock walks beside the replay on the full path
    try:
        state: GameState[Any] = registry.engine(streamed.game).new_state(tags)
    except SetupError as error:
        at = next((tag.span for tag in streamed.tags if tag.name == error.tag), None) if error.tag else None
        at = at or streamed.span
        return malformed(source, index, streamed.game, at.line, at.column, error.message)._replace(offset=raw.offset)
    unread = unreadable_result(streamed.game, tags.get("Result"), state.sides)
    if unread is not None:  # NOTATION.md §9: a Result naming no side is malformed at the tag
        at = next((tag.span for tag in streamed.tags if tag.name == "Result"), streamed.span)
        return malformed(source, index, streamed.game, at.line, at.column, unread)._replace(offset=raw.offset)
    record = Record(streamed.game, streamed.tags, (), streamed.span, raw.offset)
    replay = Replay(record, state, Verdict(source, index, streamed.game, Status.ONGOING))
    replay.rounds, replay.numbers = _LastOnly(), _LastOnly()  # a verdict needs no more
    canonical = _Canonical(streamed, replay) if annotate else None
    items = streamed.items(TURN_LIMIT, comments=False) if canonical is None else canonical.items()
    moves = iter(range(1 << 62))
    try:
        failure, turns = run(items, lambda _move: next(moves) in open_ended, state, replay)
    except TurnNotKept:
        return None  # a turn longer than any game allows went by unbroken: the full path decides
    claimed = tags.get("Result")
    if failure is not None:
        verdict = Verdict(source, index, streamed.game, Status.ILLEGAL, error=failure, claimed=claimed)
    else:
        verdict = legal_verdict(streamed.game, claimed, state, source, index, turns)
    verdict = verdict._replace(offset=raw.offset)
    if not annotate:
        return verdict
    from referee.judge.suggest import suggestions

    hints: list[str] = []
    failed = verdict.error
    if verdict.status == Status.ILLEGAL and failed is not None and failed.action is not None:
        hints = suggestions(state, failed.action)
    token = None
    if canonical is not None and verdict.status in (Status.FINISHED, Status.ONGOING) and verdict.turns is not None:
        # As `referee.judge.token.turn_token`, from the digest of the text hashed as it streamed.
        token = token_of_digest(verdict.turns, canonical.text_digest())
    return annotated(verdict, token, hints)


def _quick_open_ended(streamed: Streamed) -> set[int] | None:
    """`_open_ended` from the quick reader (`notation.quick`), three times faster, when it
    reads the record (it then reads the same actions in the same order); else None."""
    scanned = scan(streamed.text, dialect_for)
    return None if scanned is None else action_places(scanned.items)


def _open_ended(streamed: Streamed) -> set[int]:
    """The places, counted among the record's actions from 0, of the actions that may leave
    a roll or a choice unwritten (`referee.judge.drive.open_ended`, read as a stream)."""
    kinds = b"".join(kind for kind, _ in record_kinds(streamed.items()))
    return drive_places(kinds, open_ended(kinds))


class _LastOnly(list[int | None]):
    """A list that keeps only the last item appended: the replay's rounds and round
    numbers of every turn would cost memory in proportion to the record."""

    def append(self, value: int | None) -> None:
        if self:
            self[0] = value
        else:
            super().append(value)


class _Canonical:
    """The canonical text of a record (NOTATION.md §7, `referee.judge.token.canonical_text`) without
    its `Result` tag, hashed as the replay reads it: each turn with the round number its
    replay gave it. `text_digest` is meant for legal records, whose every turn is begun."""

    def __init__(self, streamed: Streamed, replay: Replay) -> None:
        self.streamed = streamed
        self.replay = replay
        self.dialect = streamed.dialect
        self.hash = hashlib.sha256()
        tags = [tag for tag in streamed.tags if tag.name != "Result"]
        self.hash.update(writer.write_tags(writer.ordered_tags(tags, self.dialect)).encode("utf-8"))
        self.body = False
        self.pending: Turn | None = None

    def items(self) -> Iterator[RecordItem]:
        """The streamed items, each added to the hash once the replay has begun it."""
        for item in self.streamed.items(TURN_LIMIT):
            self._flush()
            if isinstance(item, Turn):
                self.pending = item
            else:
                self._line(str(item) if isinstance(item, Comment) else TERMINATION_WORDS.get(type(item), ""))
            yield item
        self._flush()

    def _flush(self) -> None:
        turn = self.pending
        if turn is None:
            return
        self.pending = None
        numbers = self.replay.numbers
        if numbers:  # the turn just begun is the last one numbered
            turn = turn._replace(number=numbers[-1])
        self._line(writer.write_turn(turn, self.dialect))

    def _line(self, text: str) -> None:
        self.hash.update(("\n" + text.rstrip("\n")).encode("utf-8"))
        self.body = True

    def text_digest(self) -> str:
        self._flush()
        if self.body:
            self.hash.update(b"\n")
        return self.hash.hexdigest()
