"""`referee play` in a timed game (TIME.md §5): every submission is closed by a stamp,
a flagged side's moves are refused, `timeout` is written on request and `--grant`
writes an extension. Kept apart from `referee.live.play.core`, which calls these functions
at three points: before the submission is judged (`refusal`), when its items are
complete (`closed`), and for `--grant` (`grant_items`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.errors import UsageError
from referee.games.api import GameInfo, Side
from referee.judge.core.clock_walk import GM, ClockView, format_instant, spoken_instant
from referee.judge.core.verdicts import verdict_as_of
from referee.notation.comment_commands import Command, write_commands
from referee.notation.model import Comment, RecordItem, Span, Timeout, Turn
from referee.notation.timing import TimingError, format_duration, parse_duration

if TYPE_CHECKING:
    from referee.judge.core.verdicts import Verdict

STAMP_SPAN = Span(3_000_000_000, 1)
"""Where the comments `play` writes stand in the combined record: past the game file and
the submission (which stand below `submission.OFFSET` * 2), so no error is placed in them."""


def as_of(verdict: Verdict, instant: int | None, *, strict: bool = False) -> Verdict:
    """The verdict with its clock as of `--as-of`. An instant earlier than the record's
    last stamp is a usage error (UsageError) when `strict`, else leaves it as is."""
    try:
        return verdict_as_of(verdict, instant)
    except UsageError:
        if strict:
            raise
        return verdict


def is_timeout(text: str | None) -> bool:
    """Whether a submission is the word `timeout` alone (no label is implied for it)."""
    return text is not None and text.strip().lower() == "timeout"


def is_adjudication(text: str | None) -> bool:
    """Whether a submission is the game master's adjudication (LEAGUE.md §6): the word
    `adjudicated` and its comment, which hold no input of a side (a flagged side's game
    is decided too)."""
    return text is not None and text.strip().lower().startswith("adjudicated")


def refusal(clock: ClockView, now: int, submitter: Side | None, flagged_input: Side | None) -> str | None:
    """Why a submission at `now` is refused before it is judged, or None: a time earlier
    than the record's last stamp, or input from a side whose time has run out.

    `flagged_input` is the side whose input the submission holds (the side to move, for
    a submission of moves), None for one that holds none of a side's (a `timeout`, a
    grant)."""
    if now < clock.since and clock.since == clock.start:
        return (
            f"the game starts at {format_instant(clock.since)}: this submission ({format_instant(now)}) "
            "comes before it, and the clock never runs backwards"
        )
    if now < clock.since:
        return (
            f"the time of this submission ({format_instant(now)}) is earlier than the game's last stamp "
            f"({format_instant(clock.since)}): the clock never runs backwards"
        )
    flagged = clock.at(now).flagged
    deadline = clock.deadline
    if flagged is None or deadline is None or flagged_input != flagged or now <= deadline:
        return None  # a submission stamped exactly at the deadline is in time (TIME.md §4)
    if submitter is not None and submitter != flagged:
        return None
    return f"{flagged}'s time ran out at {spoken_instant(deadline)}: a timeout is due"


def stamp(now: int, awaited: Side | None) -> Command:
    """The stamp closing a submission: the side whose clock ran until now (GM: a roll)."""
    return Command("at", (format_instant(now), awaited if awaited is not None else GM))


class ClockRefusal(ValueError):
    """A clock request `play` refuses (exit 1, nothing written): the reason in words."""


def grants(
    entries: Sequence[str],
    clock: ClockView | None,
    info: GameInfo,
    sides: Sequence[Side],
    as_side: Side | None,
    with_moves: bool,
) -> list[Command]:
    """`--grant SIDE=DURATION` entries as grant commands: the game master's (no `--as`),
    alone (no moves), in a timed game, else ClockRefusal; UsageError for an entry
    that cannot be read."""
    if not entries:
        return []
    if clock is None:
        raise ClockRefusal("the game has no clock (no TimeControl tag): there is no time to grant")
    if as_side is not None:
        raise ClockRefusal("a grant is the game master's: it is written without --as")
    if with_moves:
        raise ClockRefusal("a grant is written alone: submit the moves separately")
    return [grant(info, sides, entry) for entry in entries]


def grant(info: GameInfo, sides: Sequence[Side], entry: str) -> Command:
    """`--grant SIDE=DURATION` as a grant command. Raises UsageError."""
    name, equals, duration = entry.partition("=")
    side = info.side(name.strip())
    if not equals or side is None or side not in sides:
        raise UsageError(f"--grant takes SIDE=DURATION with a side of this game ({', '.join(sides)}): {entry!r}")
    try:
        seconds = parse_duration(duration.strip())
    except TimingError:
        raise UsageError(f"--grant {entry!r}: not a duration (days, hours, minutes: 3d, 12h, 1d12h, 90m)") from None
    return Command("grant", (side, format_duration(seconds)))


def closed(items: Sequence[RecordItem], commands: Sequence[Command]) -> list[RecordItem]:
    """The items with a comment holding `commands` appended where the reader would place
    it: inside the last turn when the record ends with one, else after the last item."""
    comment = Comment(write_commands(list(commands)), STAMP_SPAN)
    out = list(items)
    if out and isinstance(out[-1], Turn):
        last = out[-1]
        out[-1] = last._replace(items=(*last.items, comment))
    else:
        out.append(comment)
    return out


def holds_timeout(items: Sequence[RecordItem]) -> bool:
    return any(isinstance(item, Timeout) for item in items)
