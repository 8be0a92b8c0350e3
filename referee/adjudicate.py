"""Adjudication: replay a record through its game's engine and give the verdict of
NOTATION.md §5-6. A library layer: it returns values and never prints."""

from __future__ import annotations

from typing import NamedTuple

from games import registry
from games.api import Event, GameState, Outcome, Resign, RuleError, SetupError
from notation import reader
from notation.dialect import Dialect
from notation.model import Draw, Malformed, Move, ReadResult, Record, Span, Turn


class ErrorReport(NamedTuple):
    """Where a record stops being legal or readable, and why, in a player's words."""

    line: int
    column: int
    round: int | None
    side: str | None
    action: str | None
    message: str


class Verdict(NamedTuple):
    """A record's verdict (NOTATION.md §5-6); `error_turn` words the turn for messages."""

    source: str
    record: int
    game: str | None
    status: str
    winners: tuple[str, ...] = ()
    draw: bool = False
    reason: str | None = None
    turns: int | None = None
    to_move: str | None = None
    round: int | None = None
    claimed: str | None = None
    result_matches: bool | None = None
    pending: str | None = None
    pending_message: str | None = None
    rolls_as_given: bool | None = None
    error: ErrorReport | None = None
    error_turn: str | None = None
    token: str | None = None
    suggestions: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        return self.status in ("finished", "ongoing") and self.result_matches is not False


class Played(NamedTuple):
    """One action replayed, with what it caused (for `referee replay`)."""

    turn: Turn
    number: int
    move: Move
    events: tuple[Event, ...]
    round: int | None


class Replay:
    """The state a record leaves, with the verdict. `steps` holds every action replayed
    when asked for; `numbers` the round number the canonical form writes on each turn."""

    def __init__(self, record: Record | None, state: GameState | None, verdict: Verdict) -> None:
        self.record = record
        self.state = state
        self.verdict = verdict
        self.steps: list[Played] = []
        self.numbers: dict[int, int | None] = {}


def dialect_for(game: str) -> Dialect | None:
    """The notation dialect of a game, loading its engine only when a record needs it."""
    if registry.info(game) is None:
        return None
    return registry.engine(game).dialect()


def read_source(data: bytes) -> list[ReadResult]:
    return reader.read(data, dialect_for)


def adjudicate(
    result: ReadResult,
    source: str = "-",
    index: int = 1,
    *,
    keep_steps: bool = False,
    until_round: int | None = None,
) -> Replay:
    """Replay one record (or explain a malformed one) and give its verdict."""
    if isinstance(result, Malformed):
        return Replay(None, None, _malformed(source, index, result.game, result.error.span, result.error.message))
    record = result
    engine = registry.engine(record.game)
    try:
        state = engine.new_state(record.tag_map)
    except SetupError as error:
        span = record.tag_span(error.tag) if error.tag else None
        return Replay(record, None, _malformed(source, index, record.game, span or record.span, error.message))
    replay = Replay(record, state, Verdict(source, index, record.game, "ongoing"))
    failure, turns = _run(record, state, replay.steps if keep_steps else None, until_round, replay.numbers)
    replay.verdict = _verdict(record, state, source, index, failure, turns)
    return replay


class _Failure(NamedTuple):
    span: Span
    round: int | None
    side: str | None
    action: str | None
    message: str
    turn_text: str


def _run(
    record: Record,
    state: GameState,
    steps: list[Played] | None,
    until_round: int | None,
    numbers: dict[int, int | None],
) -> tuple[_Failure | None, int]:
    """Drive the state over the record: the first rule broken (or None) and the turns
    replayed. `numbers` receives, for each turn begun, the round number the canonical
    form writes on it (None on turns that do not open a round)."""
    open_turn: Turn | None = None
    open_round: int | None = None
    items = record.items
    last_move = _last_move(record)
    turns = 0
    for item in items:
        if isinstance(item, Turn):
            if open_turn is not None:
                try:
                    state.end_turn()
                except RuleError as error:
                    failure = _Failure(
                        open_turn.span,
                        open_round,
                        open_turn.side,
                        None,
                        error.message,
                        _turn_text(open_round, open_turn.side),
                    )
                    return failure, turns
            round_before = state.round_number()
            if until_round is not None and round_before is not None and round_before > until_round:
                return None, turns
            try:
                opens_round = state.begin_turn(item.side, item.step, item.number)
            except RuleError as error:
                failure = _Failure(
                    item.span, round_before, item.side, None, error.message, _turn_text(round_before, item.side)
                )
                return failure, turns
            turns += 1
            open_turn, open_round = item, state.round_number()
            numbers[id(item)] = open_round if opens_round else None
            for number, move in enumerate(item.moves, start=1):
                try:
                    events = state.apply(move.action, move is last_move)
                except RuleError as error:
                    where = _turn_text(open_round, item.side) + f', action {number} "{move.text}"'
                    return _Failure(move.span, open_round, item.side, move.text, error.message, where), turns
                if steps is not None:
                    steps.append(Played(item, number, move, events, open_round))
        elif isinstance(item, Draw):
            ended = state.outcome()
            if ended is not None:
                side = open_turn.side if open_turn is not None else None
                message = f"the game had already ended ({ended}): nothing may follow, not even a draw"
                return _Failure(item.span, open_round, side, "draw", message, 'after the last turn, "draw"'), turns
            state.agree_draw()
    return None, turns


def _last_move(record: Record) -> Move | None:
    """The last action that only comments, `draw` or `resign` follow: what it leaves
    unwritten (a choice, a roll) may stay pending, since those end the game anyway."""
    for item in reversed(record.items):
        if isinstance(item, Turn):
            for sub in reversed(item.items):
                if isinstance(sub, Move) and not isinstance(sub.action, Resign):
                    return sub
    return None


def _turn_text(round_number: int | None, side: str) -> str:
    return f"setup {side}" if round_number is None else f"turn {round_number} {side}"


def _malformed(source: str, index: int, game: str | None, span: Span, message: str) -> Verdict:
    return Verdict(
        source, index, game, "malformed", error=ErrorReport(span.line, span.column, None, None, None, message)
    )


def _verdict(
    record: Record, state: GameState, source: str, index: int, failure: _Failure | None, turns: int
) -> Verdict:
    claimed = record.tag("Result")
    if failure is not None:
        error = ErrorReport(
            failure.span.line, failure.span.column, failure.round, failure.side, failure.action, failure.message
        )
        return Verdict(
            source, index, record.game, "illegal", claimed=claimed, error=error, error_turn=failure.turn_text
        )
    outcome = state.outcome()
    randomness = registry.GAMES[record.game].randomness == "dice"
    rolls_as_given = ("rolls_as_given" in state.notes()) if randomness else None
    if outcome is not None:
        return Verdict(
            source,
            index,
            record.game,
            "finished",
            outcome.winners,
            outcome.draw,
            outcome.reason,
            turns,
            claimed=claimed,
            result_matches=_matches(record, claimed, outcome),
            rolls_as_given=rolls_as_given,
        )
    return Verdict(
        source,
        index,
        record.game,
        "ongoing",
        turns=turns,
        to_move=state.to_move(),
        round=state.round_number(),
        claimed=claimed,
        result_matches=_matches(record, claimed, None),
        pending=state.pending(),
        pending_message=state.pending_message(),
        rolls_as_given=rolls_as_given,
    )


def _matches(record: Record, claimed: str | None, outcome: Outcome | None) -> bool | None:
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
    info = registry.GAMES[record.game]
    sides = {info.side(part.strip()) for part in text.split("+")}
    return None not in sides and sides == set(outcome.winners)
