"""The clock of a timed record (TIME.md): its tags, its entries, and the walk that runs it.

A record with a `TimeControl` tag carries its clock: `Start`, then stamps `{[%at TIME SIDE]}`
closing every submission and grants `{[%grant SIDE DURATION]}`. `read_setup` and
`read_entries` read them (a value that cannot be read makes the record malformed);
`ClockWalk` runs the clock of TIME.md §3 alongside the replay (`referee.judge.core.adjudicate` calls
it item by item), says which stamp closes a late submission and whether a `timeout` is
legal, and gives the `ClockView` every verdict of a timed record carries. Nothing here
knows a game: the state says whose input it awaits (`GameState.awaited`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from referee.errors import UsageError
from referee.games.api import GameState, PendingKind, Side
from referee.notation.comment_commands import CommandSyntaxError, read_commands
from referee.notation.lexicon import quote
from referee.notation.model import Comment, RecordItem, Span, SpanError
from referee.notation.timing import (
    TimeControl,
    TimingError,
    parse_duration,
    parse_instant,
    parse_time_control,
    spoken_duration,
)
from referee.notation.timing import format_instant as _format_instant
from referee.notation.timing import spoken_instant as _spoken_instant

GM = "GM"
"""The stamp's side while the game awaited the game master (a roll): nobody is charged."""

CLOCK_COMMANDS = ("at", "grant")

EARLIEST = parse_instant("0001-01-01T00:00:00Z")
LATEST = parse_instant("9999-12-31T23:59:59Z")


def format_instant(seconds: int) -> str:
    """`2026-12-01T12:00:00Z`; a deadline that grants (or a spent bank) push past the
    years an instant can be written in is written as the first or last of them."""
    return _format_instant(min(max(seconds, EARLIEST), LATEST))


def spoken_instant(seconds: int) -> str:
    """`2026-12-06 18:00 UTC`, within the years an instant can be written in."""
    return _spoken_instant(min(max(seconds, EARLIEST), LATEST))


class ClockSetup(NamedTuple):
    """A timed record's `TimeControl` and `Start` (seconds since the Unix epoch)."""

    control: TimeControl
    start: int


class ClockTagError(ValueError):
    """A `TimeControl` or `Start` tag that cannot be read, or one without the other."""

    def __init__(self, message: str, tag: str) -> None:
        super().__init__(message)
        self.message = message
        self.tag = tag


class ClockEntryError(SpanError):
    """A stamp or grant that cannot be read: the record is malformed at its comment's `{`."""


class Stamp(NamedTuple):
    """`[%at TIME SIDE]`: the submission before it was received at `at`; `side` is the
    side whose clock ran until then, as written (`GM`, or a label to look up)."""

    at: int
    side: str
    span: Span


class Grant(NamedTuple):
    """`[%grant SIDE DURATION]`: the game master extends `side`'s time by `seconds`."""

    side: str
    seconds: int
    span: Span


Entry = Stamp | Grant


def read_setup(tags: Mapping[str, str]) -> ClockSetup | None:
    """The clock of a record's tags, or None for an untimed record. Raises ClockTagError
    naming the tag at fault (TIME.md §1)."""
    control_text, start_text = tags.get("TimeControl"), tags.get("Start")
    if control_text is None and start_text is None:
        return None
    if control_text is None:
        raise ClockTagError("a Start tag needs a TimeControl tag (like 3d+1d/5d or 3d/move) beside it", "Start")
    try:
        control = parse_time_control(control_text.strip())
    except TimingError as error:
        raise ClockTagError(f"TimeControl: not {error.what}: {quote(error.text)}", "TimeControl") from None
    if start_text is None:
        raise ClockTagError(
            "a timed record needs a Start tag: the instant its clocks start (2026-12-01T12:00:00Z)", "TimeControl"
        )
    return ClockSetup(control, read_start_tag(start_text))


def read_start_tag(text: str) -> int:
    """The instant (seconds since the Unix epoch) of a `Start` tag's value. Raises ClockTagError."""
    try:
        return parse_instant(text.strip())
    except TimingError as error:
        raise ClockTagError(f"Start: not {error.what}: {quote(error.text)}", "Start") from None


def read_entries(comment: Comment) -> tuple[Entry, ...]:
    """The stamps and grants a comment holds, in order (none for a `;` comment or one that
    holds no commands; commands of other names are no clock entries). Raises
    ClockEntryError for a stamp or grant that cannot be read."""
    if not comment.braced or "[%" not in comment.text:
        return ()
    try:
        commands = read_commands(comment.text)
    except CommandSyntaxError:
        if "[%at" in comment.text or "[%grant" in comment.text:
            raise ClockEntryError(
                "a comment holding a stamp or grant holds only commands, like {[%at 2026-12-01T12:00:00Z Red]}",
                comment.span,
            ) from None
        return ()
    entries: list[Entry] = []
    for command in commands:
        if command.name == "at":
            if len(command.args) != 2:
                raise ClockEntryError(
                    "a stamp reads [%at TIME SIDE], like [%at 2026-12-01T12:00:00Z Red]", comment.span
                )
            try:
                entries.append(Stamp(parse_instant(command.args[0]), command.args[1], comment.span))
            except TimingError as error:
                raise ClockEntryError(f"stamp: not {error.what}: {quote(error.text)}", comment.span) from None
        elif command.name == "grant":
            if len(command.args) != 2:
                raise ClockEntryError("a grant reads [%grant SIDE DURATION], like [%grant Blue 1d]", comment.span)
            try:
                entries.append(Grant(command.args[0], parse_duration(command.args[1]), comment.span))
            except TimingError as error:
                raise ClockEntryError(f"grant: not {error.what}: {quote(error.text)}", comment.span) from None
    return tuple(entries)


@dataclass(frozen=True)
class ClockView:
    """Both clocks of a timed record as of an instant (TIME.md §3, §5).

    `banks` holds each side's time as of `since` (the last stamp, or `Start`), in the
    game's side order; only the `running` side's time goes down after `since`."""

    control: TimeControl
    sides: tuple[Side, ...]
    banks: tuple[int, ...]
    since: int
    running: Side | None
    as_of: int
    start: int | None = None
    """The record's `Start`: `since` is still it while no stamp has been written after it."""

    def at(self, instant: int) -> ClockView:
        """The same clock as of a later instant (the caller refuses an earlier one)."""
        return replace(self, as_of=instant)

    def remaining(self, side: Side) -> int:
        """A side's time left as of `as_of`, in seconds (below zero once flagged)."""
        bank = self.banks[self.sides.index(side)]
        return bank - (self.as_of - self.since) if side == self.running else bank

    @property
    def deadline(self) -> int | None:
        """When the running side's time runs out (also once passed); None when nobody runs."""
        if self.running is None:
            return None
        return self.since + self.banks[self.sides.index(self.running)]

    @property
    def flagged(self) -> Side | None:
        """The running side once its time has run out, else None."""
        if self.running is not None and self.remaining(self.running) <= 0:
            return self.running
        return None

    def fields(self) -> dict[str, Any]:
        """The verdict's `clock` in JSON (TIME.md §5)."""
        deadline = self.deadline
        return {
            "control": str(self.control),
            "as_of": format_instant(self.as_of),
            "running": self.running,
            "remaining": {side: max(0, self.remaining(side)) for side in self.sides},
            "deadline": None if deadline is None else format_instant(deadline),
            "flagged": self.flagged,
        }

    def text(self) -> str:
        """`clock Blue 1d 18h 00m, Red 3d 18h 00m; deadline 2026-12-06 18:00 UTC` (the
        running side first), or the time-out that is due."""
        order = [self.running] if self.running is not None else []
        order += [side for side in self.sides if side != self.running]
        text = "clock " + ", ".join(f"{side} {spoken_duration(self.remaining(side))}" for side in order)
        deadline = self.deadline
        if self.flagged is not None and deadline is not None:
            return f"{text}; {self.flagged}'s time ran out at {spoken_instant(deadline)}: a timeout is due"
        if deadline is not None:
            text += f"; deadline {spoken_instant(deadline)}"
        return text


class ClockFault(NamedTuple):
    """What makes a timed record illegal at a clock entry or a `timeout`: where, and why."""

    span: Span
    message: str


class ClockWalk:
    """The clock of TIME.md §3, walked beside the replay of one record.

    The replay tells it what it reads, in record order: `submitted(side)` for each label
    and action (input of that side), `other()` for anything else a submission may hold,
    `entries(...)` at each comment's stamps and grants, `timeout(...)` at the word. Each
    returns a `ClockFault` when the record breaks a clock rule there."""

    def __init__(self, setup: ClockSetup, state: GameState[Any], labels: Mapping[str, Side]) -> None:
        self.control = setup.control
        self.sides = sides = state.sides
        self.running = state.awaited()
        self.labels = labels
        self.bank = dict.fromkeys(sides, setup.control.base)
        self.kept = dict.fromkeys(sides, 0)  # D/move: grants kept for a side's next turn
        self.last = self.start = setup.start
        self.inputs: set[Side] = set()
        self.empty = True
        self.timed_out = False
        self.deferred: Side | None = None  # an increment due unless a stamp follows at once
        self.out: set[Side] = set()  # sides that lost on time: their clocks stay as they stopped

    # -- what the replay reports -----------------------------------------------------------

    def submitted(self, side: Side) -> None:
        """A label or an action of `side`'s turn: input of that side."""
        self._settle()
        self.inputs.add(side)
        self.empty = False

    def other(self) -> None:
        """Anything else a submission holds (a comment, an offer, `draw`)."""
        self._settle()
        self.empty = False

    def entries(self, entries: Sequence[Entry], state: GameState[Any], turn_side: Side | None) -> ClockFault | None:
        """A comment's stamps and grants, in order; `turn_side` is the side of the turn the
        record stands in (its latest label), None before any."""
        for entry in entries:
            fault = self._stamp(entry, state, turn_side) if isinstance(entry, Stamp) else self._grant(entry, state)
            if fault is not None:
                return fault
        return None

    def timeout(self, span: Span, state: GameState[Any], stamp: Stamp | None) -> ClockFault | None:
        """A `timeout` word, `stamp` the stamp that follows it (None if none): legal only if
        the awaited side's time has run out by then. The caller has checked that the game
        is not over and awaits a side."""
        self._settle()
        side = state.awaited()
        if side is None:
            return ClockFault(span, "timeout: the game awaits the game master, not a side")
        if stamp is None:
            return ClockFault(span, "timeout: no stamp says when it was written")
        left = self.bank[side] - (stamp.at - self.last)
        if left > 0:
            deadline = spoken_instant(self.last + self.bank[side])
            return ClockFault(span, f"timeout: {side} still has {spoken_duration(left)} (deadline {deadline})")
        self.timed_out = True
        self.out.add(side)
        self.other()
        return None

    def view(self, state: GameState[Any]) -> ClockView:
        """The clock at the end of the record, as of its last stamp (or `Start`). The walk
        itself is left as it is, so that it can go on with more of the record (a stamp
        right after the last one may still take back the increment it defers)."""
        walk = self.copy()
        walk._settle()
        running = state.awaited()
        if walk.control.per_move:
            banks = tuple(
                walk.bank[side] if side == running or side in walk.out else walk.control.base + walk.kept[side]
                for side in walk.sides
            )
        else:
            banks = tuple(walk.bank[side] for side in walk.sides)
        return ClockView(walk.control, walk.sides, banks, walk.last, running, walk.last, walk.start)

    def copy(self) -> ClockWalk:
        """The walk as it stands, to go on with apart (its banks and sets are its own)."""
        walk = copy.copy(self)
        walk.bank, walk.kept = dict(self.bank), dict(self.kept)
        walk.inputs, walk.out = set(self.inputs), set(self.out)
        return walk

    # -- the rules -------------------------------------------------------------------------------

    def _side(self, written: str) -> Side | None:
        """The side a stamp or grant names, GM for the game master, None for no side of the game."""
        if written.upper() == GM:
            return GM
        side = self.labels.get(written.lower())
        return side if side in self.sides else None

    def _stamp(self, stamp: Stamp, state: GameState[Any], turn_side: Side | None) -> ClockFault | None:
        side = self._side(stamp.side)
        if side is None:
            return ClockFault(stamp.span, f"the stamp names {quote(stamp.side)}, no side of this game (nor GM)")
        if self.empty and not self.timed_out:
            # Stamps one after another after a token: the battle in it arrived in parts
            # (declared, rolled, chosen), so the earlier stamp's turn was not over yet.
            self.deferred = None
        self._settle()
        if stamp.at < self.last:
            return ClockFault(
                stamp.span,
                f"the stamp {format_instant(stamp.at)} is earlier than the previous stamp or Start "
                f"({format_instant(self.last)})",
            )
        elapsed = stamp.at - self.last
        own = side != GM and (side in self.inputs or (self.empty and not self.timed_out))
        if side != GM:
            before = self.bank[side]
            self.bank[side] = before - elapsed
            if self.bank[side] < 0 and own:
                return ClockFault(
                    stamp.span,
                    f"{side}'s time ran out at {spoken_instant(self.last + before)}, "
                    f"before this submission at {spoken_instant(stamp.at)}",
                )
            if not self.timed_out and self._turn_over(side, state, turn_side):
                self.deferred = side
        self._start_running(state, turn_side, side, own)
        self.last = stamp.at
        self.inputs, self.empty, self.timed_out = set(), True, False
        return None

    def _turn_over(self, side: Side, state: GameState[Any], turn_side: Side | None) -> bool:
        """Whether `side`'s turn is over after its stamp: the game is over, or it awaits a
        new turn of another side (not a choice or a roll within this side's turn)."""
        if state.outcome() is not None:
            return True
        if state.pending() in (PendingKind.CHOICE, PendingKind.ROLL):
            return False
        return turn_side == side and state.to_move() != side

    def _settle(self) -> None:
        """Give the increment of the last stamp, now that more than a stamp follows it."""
        side, self.deferred = self.deferred, None
        if side is not None:
            self._increment(side)

    def _increment(self, side: Side) -> None:
        control = self.control
        if control.per_move:
            return
        before = self.bank[side]
        gained = before + control.increment
        if control.cap is not None:
            gained = max(before, min(gained, control.cap))
        self.bank[side] = gained

    def _start_running(self, state: GameState[Any], turn_side: Side | None, charged: Side, own: bool) -> None:
        """D/move: the side whose clock now starts for a new turn of its own (or a choice in
        another's, or after a time-out) gets D and the grants kept for it. A side that
        goes on with its own turn, or that was running already and sent nothing (another
        player's offer), keeps its bank."""
        running, before = state.awaited(), self.running
        self.running = running
        if not self.control.per_move or running is None:
            return
        new_turn = running != turn_side or self.timed_out or self._turn_over(charged, state, turn_side)
        if new_turn and (running != before or own):
            self.bank[running] = self.control.base + self.kept[running]
            self.kept[running] = 0

    def _grant(self, grant: Grant, state: GameState[Any]) -> ClockFault | None:
        side = self._side(grant.side)
        if side is None or side == GM:
            return ClockFault(grant.span, f"the grant names {quote(grant.side)}, no side of this game")
        self._settle()
        if self.control.per_move and side != state.awaited():
            self.kept[side] += grant.seconds
        else:
            self.bank[side] += grant.seconds
        self.other()
        return None


def following_stamp(items: Sequence[RecordItem], entries: Mapping[int, tuple[Entry, ...]]) -> Stamp | None:
    """The stamp that closes a `timeout`: in the first comment after it that holds clock
    entries, if its first entry is a stamp and only comments stand between."""
    for item in items:
        if not isinstance(item, Comment):
            return None
        found = entries.get(id(item), ())
        if found:
            return found[0] if isinstance(found[0], Stamp) else None
    return None


# -- the one clock of the command line, and verdicts as of an instant ------------------------


def current_instant(given: str | None = None) -> int:
    """Now, in seconds since the Unix epoch: `given` (the `--now` option, an instant such
    as 2026-12-01T12:00:00Z) when set, else the system clock. Raises UsageError for a
    `given` that is no instant. The only place the referee reads the time of day."""
    if given is not None:
        try:
            return parse_instant(given.strip())
        except TimingError:
            raise UsageError(f"--now: not an instant (UTC, to the second: 2026-12-01T12:00:00Z): {given!r}") from None
    import time

    return int(time.time())


def as_of_instant(given: str, now: int) -> int:
    """The instant of `--as-of TIME|now`. Raises UsageError."""
    if given.strip().lower() == "now":
        return now
    try:
        return parse_instant(given.strip())
    except TimingError:
        raise UsageError(
            f"--as-of: not an instant (UTC, to the second: 2026-12-01T12:00:00Z) nor 'now': {given!r}"
        ) from None


def new_clock_tags(control: str | None, start: str | None, now: int) -> list[str]:
    """`TimeControl=...` and `Start=...` for `referee new --time-control TC [--start TIME]`,
    in canonical form (Start defaults to now). Raises UsageError."""
    if control is None:
        if start is not None:
            raise UsageError("--start needs --time-control: a record with a Start but no TimeControl is malformed")
        return []
    try:
        parsed = parse_time_control(control.strip())
    except TimingError:
        raise UsageError(
            f"--time-control: not a time control (D+I, D+I/C or D/move: 10d+1d/20d, 3d/move): {control!r}"
        ) from None
    begins = now
    if start is not None:
        try:
            begins = parse_instant(start.strip())
        except TimingError:
            raise UsageError(f"--start: not an instant (UTC, to the second: 2026-12-01T12:00:00Z): {start!r}") from None
    return [f"TimeControl={parsed}", f"Start={format_instant(begins)}"]
