"""Adjudication: replay a record through its game's engine and give the verdict of
NOTATION.md §5-6. A library layer: it returns values and never prints.

Whatever unforeseen exception a record causes stays with that record: its verdict has
status `error` (see `referee.judge.core.verdicts.crashed`) and the caller reads the next record."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.games import registry
from referee.games.api import Event, GameState, Outcome, Randomness, RuleError, Side
from referee.judge.core import adjudicated_end
from referee.judge.core.replay_loop import AgreeDraw, Apply, BeginTurn, Broken, Phase, drive, record_kinds
from referee.judge.core.replay_loop import open_ended as find_open_ended
from referee.judge.core.tag_values import Problem, first_problem, tag_problem
from referee.judge.core.tag_values import unreadable_result as unreadable_result
from referee.judge.core.verdicts import ErrorReport as ErrorReport
from referee.judge.core.verdicts import Ongoing, Status, crashed, malformed
from referee.judge.core.verdicts import Verdict as Verdict
from referee.notation import reader
from referee.notation.dialect import Dialect
from referee.notation.model import (
    Adjudicated,
    Comment,
    Draw,
    Malformed,
    Move,
    ReadResult,
    Record,
    RecordItem,
    Span,
    Timeout,
    Turn,
)
from referee.notation.quick import DRAW, Label

if TYPE_CHECKING:
    from referee.judge.core.clock_walk import ClockWalk, Entry, Stamp


class Played(NamedTuple):
    """One action replayed, with what it caused (for `referee replay`)."""

    turn: Turn
    number: int
    move: Move
    events: tuple[Event, ...]
    round: int | None


class Awaiting(NamedTuple):
    """A replay as it stood just before an action applied open-ended (`Replay.awaiting`):
    a copy of the state and of the clock walk, the count of steps kept, and the action's
    move and turn (`number`: the moves of that turn before it)."""

    state: GameState[Any]
    walk: ClockWalk | None
    steps: int
    number: int
    move: Move
    turn: Turn


class Replay:
    """The state a record leaves, with the verdict.

    `steps` holds every action replayed when asked for. `rounds` holds, for each turn
    begun (in record order), its round (None for setup turns), and `numbers` the round
    number the canonical form writes on it (None on turns that do not open a round).
    `cut`, when asked for (`cut_at=N`), is the same replay as it stood after round N (or
    where it stopped, when a broken rule came first): `show --at` and its pictures take
    it from the one replay of the whole record."""

    def __init__(self, record: Record | None, state: GameState[Any] | None, verdict: Verdict) -> None:
        self.record = record
        self.state = state
        self.verdict = verdict
        self.steps: list[Played] = []
        self.rounds: list[int | None] = []
        self.numbers: list[int | None] = []
        self.source = b""
        """The record's text as read, for pages that quote it; its first line is `first_line`."""
        self.first_line = 1
        self.cut: Replay | None = None
        self.timeouts: list[tuple[int, Side, tuple[Event, ...]]] = []
        """Each `timeout` that held: the count of `steps` before it, the side that lost on
        time and the events of its loss (in Pikemen with 3-4 players, that it left)."""
        self.walk: ClockWalk | None = None
        """A timed record's clock walk as it stood at the end of the replay (not settled
        by the verdict's view): what `continued` goes on with."""
        self.awaiting: Awaiting | None = None
        """With its steps kept, where the replay stood just before its last action when
        that action was applied open-ended and the game awaits something at the end (a
        roll, a choice, a battle): what `referee.judge.core.continued_replay.continued` goes on from when
        a submission completes or continues that turn."""

    @property
    def last_round(self) -> int:
        """The highest round the replay reached (0 when only setup turns were played)."""
        return max((number for number in self.rounds if number is not None), default=0)


def dialect_for(game: str) -> Dialect | None:
    """The notation dialect of a game, loading its engine only when a record needs it."""
    if registry.info(game) is None:
        return None
    return registry.engine(game).dialect()


def read_source(data: bytes) -> list[ReadResult]:
    """Every record of a file's bytes, read or explained (the whole file at once)."""
    return reader.read(data, dialect_for)


def adjudicate(
    result: ReadResult,
    source: str = "-",
    index: int = 1,
    *,
    keep_steps: bool = False,
    cut_at: int | None = None,
) -> Replay:
    """Replay one record (or explain a malformed one) and give its verdict; with `cut_at`,
    also the replay as it stood after that round (`Replay.cut`). An exception the referee
    did not foresee gives the verdict `error` instead of escaping."""
    if isinstance(result, Malformed):
        return Replay(None, None, malformed_verdict(result, source, index))
    try:
        replay = _adjudicate(result, source, index, keep_steps, cut_at)
    except Exception as error:  # a bug of the referee: the record gets its own verdict
        replay = Replay(result, None, crashed(source, index, result.game, result.span.line, error))
    replay.verdict = replay.verdict._replace(offset=result.offset)
    return replay


def malformed_verdict(result: Malformed, source: str, index: int) -> Verdict:
    """The verdict of a record the reader could not read: the first in the text of its
    error and those of the values of the tags read before it (NOTATION.md §5)."""
    problem: Problem | None = (result.error.span, result.error.message)
    if result.game is not None and result.tags and registry.info(result.game) is not None:
        problem = first_problem(result.game, result.tags, result.span, problem)[1]
    assert problem is not None
    span, message = problem
    return malformed(source, index, result.game, span.line, span.column, message)._replace(offset=result.offset)


def _adjudicate(record: Record, source: str, index: int, keep_steps: bool, cut_at: int | None) -> Replay:
    state, problem = tag_problem(record.game, record.tags, record.span)
    if problem is not None or state is None:
        span, message = problem or (record.span, "the tags cannot be read")
        return Replay(record, None, malformed(source, index, record.game, span.line, span.column, message))
    clock, entries, problem = _clock(record, state)
    if problem is not None:
        span, message = problem
        return Replay(record, None, malformed(source, index, record.game, span.line, span.column, message))
    replay = Replay(record, state, Verdict(source, index, record.game, Status.ONGOING))
    failure, turns = run(
        record.items, open_ended(record).__contains__, state, replay, keep_steps, cut_at, clock, entries
    )
    replay.verdict = verdict_of(record, state, source, index, failure, turns)
    if clock is not None and failure is None:
        replay.verdict = replay.verdict._replace(clock=clock.view(state))
        replay.walk = clock
    if cut_at is not None and replay.cut is None:  # the record ended (or broke a rule) first
        replay.cut = cut_of(replay, state, replay.verdict)
    return replay


def cut_of(replay: Replay, state: GameState[Any], verdict: Verdict) -> Replay:
    """The replay as it stands now: its own lists, and `state` (a copy, while the replay goes on)."""
    cut = Replay(replay.record, state, verdict)
    cut.steps, cut.rounds, cut.numbers = list(replay.steps), list(replay.rounds), list(replay.numbers)
    cut.source, cut.first_line = replay.source, replay.first_line
    return cut


def _clock(
    record: Record, state: GameState[Any]
) -> tuple[ClockWalk | None, dict[int, tuple[Entry, ...]], tuple[Span, str] | None]:
    """The clock of a timed record and the stamps and grants of its comments (by `id`),
    read whole before the replay: a value that cannot be read makes the record malformed
    (the third value says where and why). An untimed record has no clock, and its `%at`
    and `%grant` are ordinary comments; it does not even import `referee.judge.core.clock_walk`."""
    tags = record.tag_map
    if "TimeControl" not in tags and "Start" not in tags:
        return None, {}, None
    from referee.judge.core.clock_walk import ClockTagError, ClockWalk, read_setup

    try:
        setup = read_setup(tags)
    except ClockTagError as error:  # (found by `tag_problem` first)
        return None, {}, (record.tag_span(error.tag) or record.span, error.message)
    entries, problem = clock_entries(record.items)
    if problem is not None:
        return None, {}, problem
    if setup is None:  # pragma: no cover - a tag was there
        return None, {}, None
    return ClockWalk(setup, state, registry.GAMES[record.game].labels), entries, None


def clock_entries(items: Iterable[RecordItem]) -> tuple[dict[int, tuple[Entry, ...]], tuple[Span, str] | None]:
    """The stamps and grants of the items' comments (by `id`), or where and why the first
    that cannot be read makes the record malformed."""
    from referee.judge.core.clock_walk import ClockEntryError, read_entries

    entries: dict[int, tuple[Entry, ...]] = {}
    try:
        for item in items:
            for comment in item.items if isinstance(item, Turn) else (item,):
                if isinstance(comment, Comment):
                    found = read_entries(comment)
                    if found:
                        entries[id(comment)] = found
    except ClockEntryError as error:
        return {}, (error.span, error.message)
    return entries, None


def run(
    items: Iterable[RecordItem],
    is_open_ended: Callable[[Move], bool],
    state: GameState[Any],
    replay: Replay,
    keep_steps: bool = False,
    cut_at: int | None = None,
    clock: ClockWalk | None = None,
    entries: dict[int, tuple[Entry, ...]] | None = None,
    open_turn: Turn | None = None,
    open_round: int | None = None,
    resume_at: int | None = None,
) -> tuple[ErrorReport | None, int]:
    """Drive the state over a record's items: the first rule broken (or None) and the turns
    replayed. Fills `replay.rounds`, `replay.numbers` and, if asked, `replay.steps` and
    `replay.cut` (a copy of the state before the first turn of a round after `cut_at`). A
    timed record's `clock` walks along (TIME.md §3), its `entries` by comment (`id`).
    `is_open_ended` is asked of each action applied, in record order (see `open_ended`);
    `items` may be read one at a time (`notation.reader.Streamed.items`); with a clock,
    a `timeout` looks ahead for its stamp, in `items` read whole or through their
    `following_stamp()` (`referee.judge.fast.streamed_clock.Ahead`). `open_turn` and `open_round` are the
    turn the items continue after (the last turn replayed before them, and its round);
    with `resume_at`, the first item is that open turn, continued from its item of that
    index (its label and the items before have been replayed).

    The loop is the one every path shares (`referee.judge.core.replay_loop.drive`): the items become
    its steps here, and `_Detailed` watches them go and words a broken rule.
    """
    entries = {} if entries is None else entries  # (a stream's, filled as it is read: not replaced when empty)
    watch = _Detailed(items, is_open_ended, state, replay, keep_steps, cut_at, clock, entries)
    watch.open_turn, watch.open_round, watch.resume_at = open_turn, open_round, resume_at
    try:
        drive(watch.steps(), state, watch, watch, turn_open=open_turn is not None)
    except Broken as broken:
        return watch.broken(broken), broken.turns
    except _Stop as stop:
        return stop.report, watch.turns
    except _Escaped as escaped:  # (as before the shared loop: not a broken rule of a step)
        raise escaped.error from None
    return None, watch.turns


class _Stop(Exception):
    """A comment's clock entry or a `timeout` broke a rule: the report says where."""

    def __init__(self, report: ErrorReport) -> None:
        super().__init__(report.message)
        self.report = report


class _Escaped(Exception):
    """A RuleError raised between the steps (by the clock or a `timeout`), carried past the
    driver, which would take it for the step's own."""

    def __init__(self, error: RuleError) -> None:
        super().__init__(error.message)
        self.error = error


class _Detailed:
    """The detailed replay beside the shared driver: it turns the record's items into
    steps (a label per turn, each move's action, DRAW), reads the comments and timeouts
    between them (the clock), keeps rounds, numbers, steps and the cut, and words a broken
    rule at its place in the text (a `referee.judge.core.replay_loop.Watch`). As a container, it
    answers `drive`'s question whether the action being played is open-ended."""

    def __init__(
        self,
        items: Iterable[RecordItem],
        is_open_ended: Callable[[Move], bool],
        state: GameState[Any],
        replay: Replay,
        keep_steps: bool,
        cut_at: int | None,
        clock: ClockWalk | None,
        entries: dict[int, tuple[Entry, ...]],
    ) -> None:
        self.items, self.is_open_ended, self.state, self.replay = items, is_open_ended, state, replay
        self.keep_steps, self.cut_at, self.clock, self.entries = keep_steps, cut_at, clock, entries
        self.turns = 0
        self.open_turn: Turn | None = None  # the turn begun last
        self.open_round: int | None = None
        self.turn: Turn | None = None  # the turn of the step given last
        self.move: Move | None = None  # the move of the step given last
        self.number = 0  # its place in its turn
        self.draw: Draw | None = None
        self.round_before: int | None = None
        self.resume_at: int | None = None  # the first item is the open turn, continued from there
        self.adjudicated: Adjudicated | None = None  # the word, awaiting its `%adjudicated`

    def steps(self) -> Iterator[object]:
        """The record's items as the driver's steps, the comments and timeouts between them
        read on the way (a broken rule there raises _Stop)."""
        items = self.items
        for at, item in enumerate(items):
            if isinstance(item, Turn):
                self._undecided()
                subs = item.items
                if at == 0 and self.resume_at is not None:  # the open turn, from where it stood
                    subs = subs[self.resume_at :]
                    moves = sum(isinstance(sub, Move) for sub in item.items[: self.resume_at])
                    self.turn, self.move, self.number = item, None, moves
                else:
                    self.turn, self.move, self.number = item, None, 0
                    yield Label(item.side, item.step, item.number)
                for sub in subs:
                    if isinstance(sub, Comment):
                        self._commented(sub)
                    elif isinstance(sub, Move):
                        self.move = sub
                        self.number += 1
                        yield sub.action
            elif isinstance(item, Comment):
                self._decided(item)
                self._commented(item)
            elif isinstance(item, Adjudicated):
                self._adjudicated(item)
            elif isinstance(item, Timeout):
                stamp = None
                if self.clock is not None:
                    from referee.judge.core.clock_walk import following_stamp

                    ahead = getattr(items, "following_stamp", None)  # items read as a stream look ahead
                    if ahead is not None:
                        stamp = ahead()
                    else:
                        assert isinstance(items, Sequence), "a timed record's items are read whole or look ahead"
                        stamp = following_stamp(items[at + 1 :], self.entries)
                try:
                    failure = _timeout(self.state, self.clock, item, stamp, self._where, self.replay)
                except RuleError as error:
                    raise _Escaped(error) from None
                if failure is not None:
                    raise _Stop(failure)
            elif isinstance(item, Draw):
                self.draw = item
                yield DRAW
        self._undecided()

    def _adjudicated(self, word: Adjudicated) -> None:
        """The word `adjudicated`: the game must not have ended; its decision is the
        `%adjudicated` comment that follows (`_decided`)."""
        ended = self.state.outcome()
        if ended is not None:
            round_number, side = self._where()
            message = f"the game had already ended ({ended}): nothing may follow, not even an adjudication"
            raise _Stop(_report(word.span, round_number, side, "adjudicated", message))
        if self.adjudicated is not None:
            self._undecided()
        self.adjudicated = word

    def _decided(self, comment: Comment) -> None:
        """A braced comment after `adjudicated`: its `%adjudicated RULE RESULT` decides
        the game when the rule gives that result (LEAGUE.md §6), else it is illegal at its `{`."""
        if self.adjudicated is None or not comment.braced:
            return
        command = adjudicated_end.command_of(comment.text)
        if command is None:
            return
        self.adjudicated = None
        try:
            winners = adjudicated_end.judged(self.state, command)
        except adjudicated_end.Refusal as refusal:
            round_number, side = self._where()
            raise _Stop(_report(comment.span, round_number, side, "adjudicated", str(refusal))) from None
        self.state.adjudicate(winners)

    def _undecided(self) -> None:
        """An `adjudicated` with no `%adjudicated` after it (before the next turn or the end)."""
        word = self.adjudicated
        if word is not None:
            round_number, side = self._where()
            message = "adjudicated: no {[%adjudicated RULE RESULT]} says how the game was decided"
            raise _Stop(_report(word.span, round_number, side, "adjudicated", message))

    def __contains__(self, at: object) -> bool:
        assert self.move is not None
        return self.is_open_ended(self.move)

    def _where(self) -> tuple[int | None, Side]:
        """The round and side of the turn the record stands in (before any, the one due)."""
        if self.open_turn is not None:
            return self.open_round, self.open_turn.side
        return self.state.round_number(), self.state.due_side()

    def _commented(self, comment: Comment) -> None:
        clock = self.clock
        if clock is None:
            return
        found = self.entries.get(id(comment))
        if not found:
            clock.other()
            return
        open_turn = self.open_turn
        try:
            fault = clock.entries(found, self.state, open_turn.side if open_turn is not None else None)
        except RuleError as error:
            raise _Escaped(error) from None
        if fault is not None:
            round_number, side = self._where()
            raise _Stop(_report(fault.span, round_number, side, None, fault.message))

    def watching(
        self, begin_turn: BeginTurn, apply: Apply, agree_draw: AgreeDraw
    ) -> tuple[BeginTurn, Apply, AgreeDraw]:
        self.state_begin_turn, self.state_apply, self.state_agree_draw = begin_turn, apply, agree_draw
        return self.begin_turn, self.apply, self.agree_draw

    def begin_turn(self, side: Side, step: bool, number: int | None) -> bool:
        """The turn given last begins: the cut first, when this turn is past it."""
        replay, state, turn = self.replay, self.state, self.turn
        assert turn is not None
        # A replacement step is in the round of the turn it follows (nieuchess.md).
        open_round = self.open_round
        self.round_before = round_before = open_round if step and open_round is not None else state.round_number()
        cut_at = self.cut_at
        if cut_at is not None and replay.cut is None and round_before is not None and round_before > cut_at:
            kept, so_far = state.copy(), replay.verdict
            claimed = replay.record.tag("Result") if replay.record is not None else None
            cut_verdict = legal_verdict(so_far.game or "", claimed, kept, so_far.source, so_far.record, self.turns)
            replay.cut = cut_of(replay, kept, cut_verdict)
        opens_round = self.state_begin_turn(side, step, number)
        self.turns += 1
        self.open_turn, self.open_round = turn, state.round_number()
        replay.rounds.append(self.open_round)
        replay.numbers.append(self.open_round if opens_round else None)
        if self.clock is not None:
            self.clock.submitted(side)
        return opens_round

    def apply(self, action: Any, last: bool) -> tuple[Event, ...]:
        awaiting = None
        if last and self.keep_steps:  # where the replay stands, should the game await something
            assert self.open_turn is not None and self.move is not None
            walk = self.clock.copy() if self.clock is not None else None
            steps = len(self.replay.steps)
            awaiting = Awaiting(self.state.copy(), walk, steps, self.number - 1, self.move, self.open_turn)
        events = self.state_apply(action, last)
        if last and self.keep_steps:
            self.replay.awaiting = awaiting if self.state.pending() is not None else None
        if self.clock is not None:
            assert self.open_turn is not None
            self.clock.submitted(self.open_turn.side)
        if self.keep_steps:
            assert self.open_turn is not None and self.move is not None
            self.replay.steps.append(Played(self.open_turn, self.number, self.move, events, self.open_round))
        return events

    def agree_draw(self) -> None:
        self.state_agree_draw()
        if self.clock is not None:
            self.clock.other()

    def broken(self, broken: Broken) -> ErrorReport:
        """The report of a rule `drive` found broken, at its place in the text."""
        message = broken.error.message if broken.error is not None else ""
        if broken.phase is Phase.ENDING:
            turn = self.open_turn
            assert turn is not None
            return _report(turn.span, self.open_round, turn.side, None, message)
        if broken.phase is Phase.BEGINNING:
            turn = self.turn
            assert turn is not None
            return _report(turn.span, self.round_before, turn.side, None, message)
        if broken.phase is Phase.ACTING:
            move, turn = self.move, self.open_turn
            assert move is not None and turn is not None
            return _report(move.span, self.open_round, turn.side, move.text, message, self.number)
        assert self.draw is not None
        round_number, side = self._where()
        ended = self.state.outcome()
        message = f"the game had already ended ({ended}): nothing may follow, not even a draw"
        return _report(self.draw.span, round_number, side, "draw", message)


def _timeout(
    state: GameState[Any],
    clock: ClockWalk | None,
    item: Timeout,
    stamp: Stamp | None,
    where: Callable[[], tuple[int | None, Side]],
    replay: Replay,
) -> ErrorReport | None:
    """A `timeout` (TIME.md §4): legal only when the clock proves the awaited side's time
    has run out; then that side loses on time."""
    ended = state.outcome()
    if ended is not None:
        round_number, side = where()
        message = f"the game had already ended ({ended}): nothing may follow, not even a timeout"
        return _report(item.span, round_number, side, "timeout", message)
    side = state.due_side()
    round_number = state.round_number()
    if clock is None:
        return _report(item.span, round_number, side, "timeout", "timeout: the game has no clock")
    fault = clock.timeout(item.span, state, stamp)
    if fault is not None:
        return _report(fault.span, round_number, side, "timeout", fault.message)
    out = state.awaited() or side  # the clock checked that a side is awaited
    replay.timeouts.append((len(replay.steps), out, state.time_out()))
    return None


def _report(
    span: Span, round_number: int | None, side: Side | None, action: str | None, message: str, number: int | None = None
) -> ErrorReport:
    return ErrorReport(span.line, span.column, round_number, side, action, message, number)


def open_ended(record: Record) -> set[Move]:
    """The actions that may leave a choice or a roll unwritten: the last action, and
    every action right before a `resign` or a `draw`, which end the game with it
    unwritten (a turn after them is a turn after the end). The rule is
    `referee.judge.core.replay_loop.open_ended`, shared by every path."""
    steps = list(record_kinds(record.items))
    kinds = b"".join(kind for kind, _ in steps)
    return {move for at in find_open_ended(kinds) if (move := steps[at][1]) is not None}


def verdict_of(
    record: Record, state: GameState[Any], source: str, index: int, failure: ErrorReport | None, turns: int
) -> Verdict:
    claimed = record.tag("Result")
    if failure is not None:
        return Verdict(source, index, record.game, Status.ILLEGAL, error=failure, claimed=claimed)
    return legal_verdict(record.game, claimed, state, source, index, turns)


def legal_verdict(
    game: str,
    claimed: str | None,
    state: GameState[Any],
    source: str,
    index: int,
    turns: int,
    *,
    token: str | None = None,
    offset: int = 0,
) -> Verdict:
    """The verdict of a record replayed to its end without breaking a rule: finished or
    ongoing, with the `Result` it claims (if any) checked, and the `token` and `offset`
    given."""
    outcome = state.outcome()
    matches = _matches(game, claimed, outcome)
    rolls = state.rolls_as_given if registry.GAMES[game].randomness == Randomness.DICE else None
    ongoing = None
    if outcome is None:
        ongoing = Ongoing(state.to_move(), state.round_number(), state.pending(), state.pending_message())
    return Verdict(
        source,
        index,
        game,
        Status.FINISHED if outcome is not None else Status.ONGOING,
        outcome=outcome,
        ongoing=ongoing,
        turns=turns,
        claimed=claimed,
        result_matches=matches,
        rolls_as_given=rolls,
        token=token,
        offset=offset,
    )


def _matches(game: str, claimed: str | None, outcome: Outcome | None) -> bool | None:
    """The claimed Result against the computed one; None without a claim."""
    if claimed is None:
        return None
    text = claimed.strip()
    if text == "*":
        return outcome is None
    if outcome is None:
        return False
    if text.lower() == "draw":
        return outcome.draw
    info = registry.GAMES[game]
    sides = {info.side(part.strip()) for part in text.split("+")}
    return None not in sides and sides == set(outcome.winners)
