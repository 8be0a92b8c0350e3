"""The verdict of one record (NOTATION.md §5-6) as values: a `Status`, then what it holds.

A `Verdict` holds an `Outcome` (finished), an `Ongoing` (the side to move, the round, a
pending choice) or an `ErrorReport` (illegal, malformed, or an error of the referee
itself), with the turns replayed, the result claimed, and when asked for the turn token,
the did-you-mean suggestions and a timed record's clock. A `Problem` is what is wrong with
an input as a whole (unreadable, no record). The words and the JSON fields of a verdict
are written in `referee.judge.core.verdict_words` (`verdict_line`, `verdict_fields`,
`verdict_json`): one place for every command, the league's pages and live play.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from referee.errors import UsageError
from referee.games.api import Outcome, Side
from referee.notation.timing import format_instant

if TYPE_CHECKING:
    from referee.judge.core.clock_walk import ClockView


class QueueState(NamedTuple):
    """What `check --json` says of one side's queues: how many it committed, how many are
    revealed, and whether every reveal and reply verified (None while none is revealed)."""

    side: str
    queued: int
    revealed: int
    verified: bool | None

    def fields(self) -> dict[str, object]:
        return {"queued": self.queued, "revealed": self.revealed, "verified": self.verified}


class ProblemKind(StrEnum):
    UNREADABLE = "unreadable"
    NO_RECORD = "no-record"


class Problem(NamedTuple):
    """Something wrong with an input as a whole, reported on standard error where it occurs."""

    kind: ProblemKind
    message: str


class Status(StrEnum):
    """What a verdict says of a record. `ERROR` is a fault of the referee, not the record."""

    FINISHED = "finished"
    ONGOING = "ongoing"
    ILLEGAL = "illegal"
    MALFORMED = "malformed"
    ERROR = "error"


class ErrorReport(NamedTuple):
    """Where a record stops being legal or readable, and why, in a player's words.

    `number` is the action's place in its turn (1 = first), None for an error that
    concerns a whole turn, the `draw` termination or a malformed text."""

    line: int
    column: int
    round: int | None
    side: Side | None
    action: str | None
    message: str
    number: int | None = None


class Ongoing(NamedTuple):
    """A legal record whose game is not over: who acts next, in which round, and what the
    game awaits that the record has not written (Nieuchess: `choice`, `roll`, `battle`)."""

    to_move: Side | None
    round: int | None
    pending: str | None = None
    pending_message: str | None = None


class Verdict(NamedTuple):
    """A record's verdict. `outcome` is set when finished, `ongoing` when ongoing, `error`
    when illegal, malformed or in error; `turns` counts the turn labels replayed."""

    source: str
    record: int
    game: str | None
    status: Status
    outcome: Outcome | None = None
    ongoing: Ongoing | None = None
    error: ErrorReport | None = None
    turns: int | None = None
    claimed: str | None = None
    result_matches: bool | None = None
    rolls_as_given: bool | None = None
    token: str | None = None
    """The turn token of PLAY.md §2 (legal records, when asked for)."""
    suggestions: tuple[str, ...] = ()
    """Legal actions close to an illegal one (did you mean), when asked for."""
    clock: ClockView | None = None
    """The clock of a timed legal record (TIME.md §5), as of its last stamp unless asked
    for another instant; None for an untimed, illegal or malformed record."""
    offset: int = 0
    """The byte offset of the record's `[Game` in its source (a byte-order mark counts),
    so a tool can seek straight to the record; 0 for a record not read from a source."""
    queues: tuple[QueueState, ...] = ()
    """Each side's conditional moves (PLAY.md §9) as `check` verified them; () when the
    record holds no queue command."""

    @property
    def legal(self) -> bool:
        """Legal and, when a result is claimed, the claim matches."""
        return self.status in (Status.FINISHED, Status.ONGOING) and self.result_matches is not False

    # Read-only views of the values above, for callers that want one field.

    @property
    def winners(self) -> tuple[Side, ...]:
        return self.outcome.winners if self.outcome is not None else ()

    @property
    def draw(self) -> bool:
        return self.outcome is not None and self.outcome.draw

    @property
    def reason(self) -> str | None:
        return self.outcome.reason if self.outcome is not None else None

    @property
    def to_move(self) -> Side | None:
        return self.ongoing.to_move if self.ongoing is not None else None

    @property
    def round(self) -> int | None:
        return self.ongoing.round if self.ongoing is not None else None

    @property
    def pending(self) -> str | None:
        return self.ongoing.pending if self.ongoing is not None else None

    @property
    def pending_message(self) -> str | None:
        return self.ongoing.pending_message if self.ongoing is not None else None


def malformed(source: str, index: int, game: str | None, line: int, column: int, message: str) -> Verdict:
    return Verdict(source, index, game, Status.MALFORMED, error=ErrorReport(line, column, None, None, None, message))


def crashed(source: str, index: int, game: str | None, line: int, error: BaseException | str) -> Verdict:
    """The verdict of a record on which the referee itself failed: the exception in one
    line (`TypeName: text`, or an exception), located at the record's start, with a
    request to report it."""
    if isinstance(error, BaseException):
        error = f"{type(error).__name__}: {' '.join(str(error).split()) or 'no message'}"
    text = error if len(error) <= 200 else error[:200] + "..."
    message = (
        f"the referee failed on this record ({text}); this is a bug of the referee: please report it with the record"
    )
    return Verdict(source, index, game, Status.ERROR, error=ErrorReport(line, 1, None, None, None, message))


def annotated(verdict: Verdict, token: str | None, suggestions: list[str] | tuple[str, ...] = ()) -> Verdict:
    """The verdict with the turn token (PLAY.md §2) and did-you-mean suggestions."""
    return verdict._replace(token=token, suggestions=tuple(suggestions))


def relocated(verdict: Verdict, source: str, line: int, column: int) -> Verdict:
    """The verdict with its error moved to `line`, `column` of another `source` (a submission)."""
    error = verdict.error._replace(line=line, column=column) if verdict.error is not None else None
    return verdict._replace(source=source, error=error)


def with_claim(verdict: Verdict, claimed: str) -> Verdict:
    """The verdict of the same record carrying the `Result` tag `claimed`, which is the computed result."""
    return verdict._replace(claimed=claimed, result_matches=True)


def verdict_as_of(verdict: Verdict, instant: int | None) -> Verdict:
    """The verdict with its clock as of `instant` (unchanged without a clock or an instant).
    Raises UsageError when `instant` is earlier than the record's last stamp (TIME.md §3)."""
    clock = verdict.clock
    if clock is None or instant is None:
        return verdict
    if instant < clock.since:
        raise UsageError(
            f"{verdict.source}:{verdict.record}: --as-of {format_instant(instant)} is earlier than the record's "
            f"last stamp ({format_instant(clock.since)})"
        )
    return verdict._replace(clock=clock.at(instant))
