"""Adjudication: replay a record through its game's engine and give the verdict of
NOTATION.md §5-6. A library layer: it returns values and never prints.

Whatever unforeseen exception a record causes stays with that record: its verdict has
status `error` (see `referee.verdicts.crashed`) and the caller reads the next record."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from games import registry
from games.api import Event, GameState, Outcome, Resign, RuleError, SetupError, Side
from notation import reader
from notation.dialect import Dialect
from notation.model import Draw, Malformed, Move, ReadResult, Record, RecordItem, Span, Turn
from referee.verdicts import ErrorReport as ErrorReport
from referee.verdicts import Ongoing, Status, crashed, malformed
from referee.verdicts import Verdict as Verdict


class Played(NamedTuple):
    """One action replayed, with what it caused (for `referee replay`)."""

    turn: Turn
    number: int
    move: Move
    events: tuple[Event, ...]
    round: int | None


class Replay:
    """The state a record leaves, with the verdict.

    `steps` holds every action replayed when asked for. `rounds` holds, for each turn
    begun (in record order), its round (None for setup turns), and `numbers` the round
    number the canonical form writes on it (None on turns that do not open a round)."""

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
    until_round: int | None = None,
) -> Replay:
    """Replay one record (or explain a malformed one) and give its verdict. An exception
    the referee did not foresee gives the verdict `error` instead of escaping."""
    if isinstance(result, Malformed):
        span = result.error.span
        verdict = malformed(source, index, result.game, span.line, span.column, result.error.message)
        return Replay(None, None, verdict._replace(offset=result.offset))
    try:
        replay = _adjudicate(result, source, index, keep_steps, until_round)
    except Exception as error:  # a bug of the referee: the record gets its own verdict
        replay = Replay(result, None, crashed(source, index, result.game, result.span.line, error))
    replay.verdict = replay.verdict._replace(offset=result.offset)
    return replay


def _adjudicate(record: Record, source: str, index: int, keep_steps: bool, until_round: int | None) -> Replay:
    engine = registry.engine(record.game)
    try:
        state = engine.new_state(record.tag_map)
    except SetupError as error:
        span = (record.tag_span(error.tag) if error.tag else None) or record.span
        return Replay(record, None, malformed(source, index, record.game, span.line, span.column, error.message))
    replay = Replay(record, state, Verdict(source, index, record.game, Status.ONGOING))
    failure, turns = run(record.items, open_ended(record).__contains__, state, replay, keep_steps, until_round)
    replay.verdict = _verdict(record, state, source, index, failure, turns)
    return replay


def run(
    items: Iterable[RecordItem],
    is_open_ended: Callable[[Move], bool],
    state: GameState[Any],
    replay: Replay,
    keep_steps: bool = False,
    until_round: int | None = None,
) -> tuple[ErrorReport | None, int]:
    """Drive the state over a record's items: the first rule broken (or None) and the
    turns replayed. Fills `replay.rounds`, `replay.numbers` and, if asked, `replay.steps`.
    `is_open_ended` is asked of each action applied, in record order (see `open_ended`);
    `items` may be read one at a time (`notation.reader.Streamed.items`)."""
    open_turn: Turn | None = None
    open_round: int | None = None
    turns = 0
    for item in items:
        if isinstance(item, Turn):
            if open_turn is not None:
                try:
                    state.end_turn()
                except RuleError as error:
                    return _report(open_turn.span, open_round, open_turn.side, None, error.message), turns
            # A replacement step is in the round of the turn it follows (nieuchess.md).
            round_before = open_round if item.step and open_round is not None else state.round_number()
            if until_round is not None and round_before is not None and round_before > until_round:
                return None, turns
            try:
                opens_round = state.begin_turn(item.side, item.step, item.number)
            except RuleError as error:
                return _report(item.span, round_before, item.side, None, error.message), turns
            turns += 1
            open_turn, open_round = item, state.round_number()
            replay.rounds.append(open_round)
            replay.numbers.append(open_round if opens_round else None)
            for number, move in enumerate(item.moves, start=1):
                try:
                    events = state.apply(move.action, is_open_ended(move))
                except RuleError as error:
                    return _report(move.span, open_round, item.side, move.text, error.message, number), turns
                if keep_steps:
                    replay.steps.append(Played(item, number, move, events, open_round))
        elif isinstance(item, Draw):
            ended = state.outcome()
            if ended is not None:
                # In the turn it stands in: the open one, or before any, the one due.
                side = open_turn.side if open_turn is not None else state.due_side()
                round_number = open_round if open_turn is not None else state.round_number()
                message = f"the game had already ended ({ended}): nothing may follow, not even a draw"
                return _report(item.span, round_number, side, "draw", message), turns
            state.agree_draw()
    return None, turns


def _report(
    span: Span, round_number: int | None, side: Side | None, action: str | None, message: str, number: int | None = None
) -> ErrorReport:
    return ErrorReport(span.line, span.column, round_number, side, action, message, number)


def _last_move(record: Record) -> Move | None:
    """The last action that only comments, `draw` or `resign` follow: what it leaves
    unwritten (a choice, a roll) may stay pending, since those end the game anyway."""
    for item in reversed(record.items):
        if isinstance(item, Turn):
            for sub in reversed(item.items):
                if isinstance(sub, Move) and not isinstance(sub.action, Resign):
                    return sub
    return None


def open_ended(record: Record) -> set[Move]:
    """The actions that may leave a choice or a roll unwritten: the last action, and
    every action right before a `resign` or a `draw`, which end the game with it
    unwritten (a turn after them is a turn after the end)."""
    last = _last_move(record)
    found = {last} if last is not None else set()
    previous: Move | None = None
    for item in record.items:
        if isinstance(item, Turn):
            previous = None
            for sub in item.items:
                if isinstance(sub, Move):
                    if isinstance(sub.action, Resign) and previous is not None:
                        found.add(previous)
                    previous = sub
        elif isinstance(item, Draw) and previous is not None:
            found.add(previous)
    return found


def _verdict(
    record: Record, state: GameState[Any], source: str, index: int, failure: ErrorReport | None, turns: int
) -> Verdict:
    claimed = record.tag("Result")
    if failure is not None:
        return Verdict(source, index, record.game, Status.ILLEGAL, error=failure, claimed=claimed)
    return legal_verdict(record.game, claimed, state, source, index, turns)


def legal_verdict(
    game: str, claimed: str | None, state: GameState[Any], source: str, index: int, turns: int
) -> Verdict:
    """The verdict of a record replayed to its end without breaking a rule: finished or
    ongoing, with the `Result` it claims (if any) checked."""
    outcome = state.outcome()
    matches = _matches(game, claimed, outcome)
    rolls = state.rolls_as_given if registry.GAMES[game].randomness == "dice" else None
    if outcome is not None:
        return Verdict(
            source,
            index,
            game,
            Status.FINISHED,
            outcome=outcome,
            turns=turns,
            claimed=claimed,
            result_matches=matches,
            rolls_as_given=rolls,
        )
    ongoing = Ongoing(state.to_move(), state.round_number(), state.pending(), state.pending_message())
    return Verdict(
        source,
        index,
        game,
        Status.ONGOING,
        ongoing=ongoing,
        turns=turns,
        claimed=claimed,
        result_matches=matches,
        rolls_as_given=rolls,
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
