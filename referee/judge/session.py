"""What each command does, as functions returning values: read the sources, adjudicate,
format, make a new record. Nothing here prints: `referee.cli.text_output` words the values and
`referee.cli.exits` chooses the exit status; the CLI only connects them."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from referee.errors import UnreadableError, UsageError
from referee.games.api import GameState
from referee.judge.core.adjudicate import Played, Replay, adjudicate, dialect_for, malformed_verdict
from referee.judge.core.turn_token import canonical_text
from referee.judge.core.verdict_additions import annotate_verdict
from referee.judge.core.verdict_words import plural
from referee.judge.core.verdicts import (
    Problem,
    ProblemKind,
    Status,
    Verdict,
    annotated,
    crashed,
    malformed,
)
from referee.judge.fast.fused_check import quick_check
from referee.judge.sources import record_sources
from referee.judge.sources.record_sources import Read, ReadCrash
from referee.notation import reader
from referee.notation.model import Malformed, Record, RecordItem, Turn
from referee.notation.reader import read_raw
from referee.notation.record_splitter import MAX_RECORD, RawRecord


def judge(read: Read, source: str, *, keep_steps: bool = False, cut_at: int | None = None) -> Replay:
    """One record read from `source`, replayed (a crash of the reader gives the verdict `error`)."""
    if isinstance(read.result, ReadCrash):
        crash = read.result
        verdict = crashed(source, read.number, crash.game, crash.span.line, crash.message)
        judged = Replay(None, None, verdict._replace(offset=crash.offset))
    else:
        judged = adjudicate(read.result, source, read.number, keep_steps=keep_steps, cut_at=cut_at)
    judged.source, judged.first_line = read.raw, read.line
    return judged


def no_record(name: str) -> Problem:
    return Problem(ProblemKind.NO_RECORD, f'{name}: no record found (a record starts with [Game "..."])')


class SourceRecord(NamedTuple):
    """A record as cut from its source: the source's name, its place there (1 = first), its bytes."""

    name: str
    number: int
    raw: RawRecord


def each_record(names: list[str], max_record: int = MAX_RECORD) -> Iterator[SourceRecord | Problem]:
    """Every record of every source in order, as cut from it, and the problems of the
    sources where they occur: an unreadable source (after the records cut before it broke),
    a source with no record."""
    for name in names:
        found = False
        try:
            for number, raw in record_sources.raw_records(name, max_record):
                found = True
                yield SourceRecord(name, number, raw)
        except UnreadableError as error:
            yield Problem(ProblemKind.UNREADABLE, str(error))
            continue
        if not found:
            yield no_record(name)


def check(names: list[str], annotate: bool = False, max_record: int = MAX_RECORD) -> Iterator[Verdict | Problem]:
    """The verdict of every record of every source, each as soon as it is reached, and
    the problems of the sources (unreadable, no record) where they occur. `annotate` adds
    tokens and suggestions (for JSON).

    Without `annotate`, a record is first checked the fused way (`referee.judge.fast.fused_check`) and read
    and replayed the detailed way only when that gives no verdict; the verdicts are the same."""
    for item in each_record(names, max_record):
        yield item if isinstance(item, Problem) else check_raw(item.raw, item.name, item.number, annotate)


_QUEUE_COMMAND = re.compile(rb"\[%(?:queued|by-queue|revealed)[\s\]]")
"""A record that may hold commands of conditional moves (`queue_check.mentions`): judged
on its record model, its queues verified; the cheap test every other record pays."""


def check_raw(raw: RawRecord, source: str, number: int, annotate: bool = False) -> Verdict:
    """The verdict of one record as cut from `source`, the `number`-th there. A legal
    record is judged the fused way (`referee.judge.fast.fused_check`), with its token when `annotate`
    asks for tokens and suggestions; any other is judged the detailed way, as a stream
    (`referee.judge.fast.streamed_verdict`, memory bounded by a turn) or, where that cannot, from its
    record model."""
    if raw.refused is not None:  # larger than the limit: only its first line was kept
        game = reader.GAME_VALUE.match(raw.raw.decode("utf-8", "replace"))
        name = game.group(1).strip().lower() if game else None
        return malformed(source, number, name, raw.line, raw.column, raw.refused)._replace(offset=raw.offset)
    if _QUEUE_COMMAND.search(raw.raw) is not None:  # conditional moves (PLAY.md §9): verified on the record model
        from referee.judge.core import queue_check

        queued = judge(Read(number, read_raw(raw, dialect_for)), source)
        given = annotate_verdict(queued) if annotate else queued.verdict
        return queue_check.verified(queued.record, given, queued.rounds)
    verdict, places = quick_check(raw, source, number, token=annotate)
    if verdict is not None:
        return verdict
    from referee.judge.fast.streamed_verdict import lean_verdict  # only for records the fused path does not judge

    verdict = lean_verdict(raw, source, number, annotate, places)
    if verdict is not None:
        return verdict
    judged = judge(Read(number, read_raw(raw, dialect_for)), source)
    return annotate_verdict(judged) if annotate else judged.verdict


def _find(name: str, index: int, max_record: int = MAX_RECORD) -> Read | Problem:
    """The index-th record of a source, read once (the records before it are only cut from
    the source, not read). Raises UsageError when it holds fewer records."""
    found = _find_raw(name, index, max_record)
    return found if isinstance(found, Problem) else Read(index, read_raw(found, dialect_for))


def _find_raw(name: str, index: int, max_record: int = MAX_RECORD) -> RawRecord | Problem:
    """The index-th record of a source as cut from it, not yet read. Raises UsageError
    when the source holds fewer records."""
    count = 0
    for number, raw in record_sources.raw_records(name, max_record):
        count = number
        if number == index:
            return raw
    if count == 0:
        return no_record(name)
    raise UsageError(f"{name} holds {plural(count, 'record')}, not {index}")


def replay(name: str, index: int, at: int | None = None, max_record: int = MAX_RECORD) -> Replay | Problem:
    """One record read and replayed once, with every action and what it caused; with `at`,
    its `cut` holds the replay after round `at`. Raises UsageError when `at` is past the
    end of the record."""
    found = _find(name, index, max_record)
    if isinstance(found, Problem):
        return found
    judged = judge(found, name, keep_steps=True, cut_at=at)
    result = found.result
    if judged.record is None and isinstance(result, Malformed) and result.game is not None:
        error = judged.verdict.error
        if error is not None and (error.line, error.column) != (result.error.span.line, result.error.span.column):
            # Malformed for a tag's value, before the move text's own error (NOTATION.md §5):
            # the page lists the tags, as it does for a record whose tags alone are at fault
            # and as the streamed page does (`referee.judge.fast.streamed_verdict` reads the tags first).
            judged.record = Record(result.game, result.tags, (), result.span, result.offset)
    if at is not None:
        _check_at(judged, name, index, at)
    return judged


def replay_steps(
    name: str, index: int, each: Callable[[Verdict, Played], None], max_record: int = MAX_RECORD
) -> Replay | Problem:
    """One record replayed, every action given to `each` as it is replayed (with a verdict
    that names the record: source, number, game and offset), none kept: the steps of
    `replay` in the same order, at a memory cost bounded by a turn on the streamed path
    (`referee.judge.fast.streamed_verdict`). The replay returned has no `steps`."""
    found = _find_raw(name, index, max_record)
    if isinstance(found, Problem):
        return found
    from referee.judge.fast.streamed_verdict import lean_replay

    given = 0

    def counted(verdict: Verdict, played: Played) -> None:
        nonlocal given
        given += 1
        each(verdict, played)

    streamed = lean_replay(found, name, index, each=counted)
    if streamed is not None:
        return streamed
    judged = judge(Read(index, read_raw(found, dialect_for)), name, keep_steps=True)
    for played in judged.steps[given:]:  # those the streamed path gave before it gave up are given once
        each(judged.verdict, played)
    judged.steps = []
    return judged


def replay_followed(
    name: str,
    index: int,
    each: Callable[[Verdict, Played], None],
    follow: Callable[[Iterator[RecordItem], Replay], Iterator[RecordItem]],
    max_record: int = MAX_RECORD,
) -> Replay | Problem | None:
    """One record replayed on the streamed path only (`referee.judge.fast.streamed_verdict`, memory bounded
    by a turn), every action given to `each` as it is replayed and the record's items to
    `follow` (`lean_replay`); with its `source` and `first_line`, and no `steps`. None when
    that path cannot replay it: the caller then takes `replay` (and has what it was given
    thrown away). Raises UsageError as `replay` does."""
    found = _find_raw(name, index, max_record)
    if isinstance(found, Problem):
        return found
    from referee.judge.fast.streamed_verdict import lean_replay

    streamed = lean_replay(found, name, index, each=each, follow=follow)
    if streamed is not None:
        streamed.source, streamed.first_line = found.raw, found.line
        streamed.steps = []
    return streamed


def drawn(name: str, index: int, at: int | None = None, max_record: int = MAX_RECORD) -> Replay | Problem:
    """One record replayed as `replay` replays it, keeping of its steps only those of the
    last turn played (in its `cut` too, with `at`): all a picture of the board marks
    (`referee.pictures.picture_commands.board_picture`), at a memory cost bounded by a turn where
    the streamed path (`referee.judge.fast.streamed_verdict`) can. Raises UsageError as `replay` does."""
    found = _find_raw(name, index, max_record)
    if isinstance(found, Problem):
        return found
    from referee.judge.fast.streamed_verdict import lean_replay

    last: list[Played] = []  # the whole record's last turn
    before: list[Played] = []  # the last turn before the cut: the steps of rounds up to `at`

    def kept(_verdict: Verdict, step: Played) -> None:
        _keep_turn(last, step)
        if at is not None and (step.round is None or step.round <= at):
            _keep_turn(before, step)

    streamed = lean_replay(found, name, index, each=kept, cut_at=at)
    if streamed is None:
        return replay(name, index, at, max_record)
    streamed.steps = last
    if streamed.cut is not None:
        streamed.cut.steps = before
    if at is not None:
        _check_at(streamed, name, index, at)
    return streamed


def _keep_turn(steps: list[Played], step: Played) -> None:
    """`steps` the actions of one turn: the step added, after those of its own turn only."""
    if steps and steps[-1].turn is not step.turn:
        steps.clear()
    steps.append(step)


def _check_at(full: Replay, name: str, index: int, at: int) -> None:
    """Refuse a round past the end of a legal record."""
    if full.verdict.status in (Status.FINISHED, Status.ONGOING) and at > full.last_round:
        rounds = plural(full.last_round, "round")
        raise UsageError(f"{name}:{index}: the record has {rounds}, so there is no board after round {at}")


class Shown(NamedTuple):
    """A board to show: the record's verdict, the state shown and what it is (`heading`)."""

    verdict: Verdict
    state: GameState[Any] | None
    heading: str


def _before_error(replay: Replay) -> str:
    error = replay.verdict.error
    assert error is not None
    what = "turn" if error.action is None else "action"
    when = "the setup" if error.round is None else f"round {error.round}"
    return f"before the illegal {what} of {when}"


def show(name: str, index: int, at: int | None, max_record: int = MAX_RECORD) -> Shown | Problem:
    """The board at the end of a record, or after round `at`. An illegal record shows the
    board before its illegal action. Raises UsageError when `at` is past the end."""
    found = _find_raw(name, index, max_record)
    if isinstance(found, Problem):
        return found
    from referee.judge.fast.streamed_verdict import lean_replay

    full = lean_replay(found, name, index, annotate=at is None, cut_at=at)  # (annotated: token and hints)
    if full is None:
        full = judge(Read(index, read_raw(found, dialect_for)), name, cut_at=at)
        if at is None:
            full.verdict = annotate_verdict(full)
    verdict = full.verdict
    if at is None:
        if verdict.status == Status.ILLEGAL:
            return Shown(annotated(verdict, None), full.state, _before_error(full))
        return Shown(verdict, full.state, "at the end of the record")
    _check_at(full, name, index, at)
    partial = full.cut or full  # (a malformed record has no replay to cut)
    if partial.verdict.status == Status.ILLEGAL:
        return Shown(verdict, partial.state, _before_error(partial))
    return Shown(verdict, partial.state, f"after round {at}")


class Listed(NamedTuple):
    """The legal actions of the side to move at the end of a legal, unfinished record."""

    verdict: Verdict
    actions: list[str]


def next_actions(state: GameState[Any], open_side: str | None = None) -> list[object]:
    """The actions open to the side to move: a choice the game awaits (from whichever side
    makes it), the turn the record left open (labelled `open_side`) while that side still
    has the move, else the turn the side to move begins next (not an optional replacement
    step of the side that has just moved)."""
    from referee.judge.core.action_forms import turn_actions

    to_move = state.to_move()
    label = state.next_turn()
    if state.pending() is not None or open_side is None or open_side == to_move:
        actions = state.legal_actions()
        if actions or label is None or state.pending() is not None:
            return actions
    if label is None or to_move is None:
        return []
    side, step = label if label[0] == to_move else (to_move, False)
    return turn_actions(state, side, step) or []


def moves(name: str, index: int, max_record: int = MAX_RECORD) -> Listed | Problem:
    """The legal actions at the end of the `index`-th record of `name`, from a replay that
    keeps only the last turn played (`ended`)."""
    found = _find_raw(name, index, max_record)
    if isinstance(found, Problem):
        return found
    return listed_of(ended(found, name, index), name, index)


def ended(raw: RawRecord, name: str, index: int) -> Replay:
    """One record replayed to its end, as `judge` replays it without steps, at a memory
    cost bounded by a turn where the streamed path (`referee.judge.fast.streamed_verdict`) can: its `record`
    then holds its tags and only its last turn (all `listed_of` reads of it). A record
    left ongoing that turns out to hold a turn with no action (the turns counted are not the turns
    played) is replayed whole, so that its last turn is the one written."""
    from referee.judge.fast.streamed_verdict import lean_replay

    last: list[Turn] = []
    played = 0

    def kept(_verdict: Verdict, step: Played) -> None:
        nonlocal played
        if not last or step.turn is not last[0]:
            last[:] = [step.turn]
            played += 1

    streamed = lean_replay(raw, name, index, each=kept)
    if streamed is not None and streamed.verdict.status != Status.ONGOING:  # no action to list
        return streamed
    if streamed is not None and streamed.record is not None and streamed.verdict.turns == played:
        streamed.record = streamed.record._replace(items=tuple(last))
        return streamed
    return judge(Read(index, read_raw(raw, dialect_for)), name)


def listed_of(played: Replay, name: str, index: int) -> Listed:
    """The legal actions at the end of a replayed record (the `index`-th of `name`), as
    `moves` lists them: from a replay already made (the mail gateway's), none replayed again."""
    actions: list[str] = []
    if played.state is not None and played.record is not None and played.verdict.status == Status.ONGOING:
        from referee.judge.core.action_forms import listed  # each in the form `play` accepts there

        try:
            actions = listed(played.state, played.record)
        except Exception as error:  # a bug of the engine: the record gets the verdict `error`
            verdict = crashed(name, index, played.record.game, played.record.span.line, error)
            return Listed(verdict._replace(offset=played.record.offset), [])
    return Listed(played.verdict, actions)


class Formatted(NamedTuple):
    """One record as `format` writes it: its canonical form, or its bytes as read when
    it is malformed or the referee failed on it (`verdict` then says why)."""

    data: bytes
    verdict: Verdict | None = None


def _formatted(read: Read, name: str) -> Formatted:
    raw = read.raw.rstrip(b"\n") + b"\n" if read.raw else b""  # a record refused for its size: nothing
    result = read.result
    if isinstance(result, Malformed):
        return Formatted(raw, malformed_verdict(result, name, read.number))
    played = judge(read, name)
    if played.verdict.status in (Status.ERROR, Status.MALFORMED) or not isinstance(result, Record):
        # Malformed only through a clock value (TimeControl, Start, a stamp or a grant):
        # passed through as read, as any malformed record is.
        return Formatted(raw, played.verdict)
    try:
        return Formatted(canonical_text(result, played).encode("utf-8"))
    except Exception as error:  # a bug of the writer: pass the record through, say so
        return Formatted(
            raw, crashed(name, read.number, result.game, result.span.line, error)._replace(offset=result.offset)
        )


def format_records(names: list[str], max_record: int = MAX_RECORD) -> Iterator[Formatted | Problem]:
    """Every record of every source in canonical form, as it is reached: written as it is
    replayed (`referee.judge.fast.streamed_verdict`), or from its record model where that path cannot."""
    for item in each_record(names, max_record):
        if isinstance(item, Problem):
            yield item
        else:
            name, number, raw = item
            yield _streamed_format(raw, number, name) or _formatted(Read(number, read_raw(raw, dialect_for)), name)


def _streamed_format(raw: RawRecord, number: int, name: str) -> Formatted | None:
    """`_formatted` of a record read and written as a stream; None when the full path must do it."""
    from referee.judge.fast.streamed_verdict import lean_replay

    text = io.BytesIO()
    played = lean_replay(raw, name, number, canonical=text.write)
    if played is None:
        return None
    if played.verdict.status in (Status.ERROR, Status.MALFORMED):
        return Formatted(raw.raw.rstrip(b"\n") + b"\n", played.verdict)
    return Formatted(text.getvalue())
