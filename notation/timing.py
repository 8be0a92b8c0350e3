"""Durations, instants and time controls as RGN writes them (TIME.md §1).

Pure values and their text, both ways; no clock runs here (that is the referee's). A
duration is a whole number of minutes, held in seconds so that instants subtract into it:
`3d`, `12h`, `1d12h`, `90m`, `0m`; read leniently (`36h`, `90m`, `0d`), written canonically
(`1d 12h` is `1d12h`; no zero part but `0m` alone). Instants are UTC to the second with an
upper-case `Z`: `2026-12-01T12:00:00Z`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR

_DURATION = re.compile(r"(?:([0-9]{1,6})d)?(?:([0-9]{1,6})h)?(?:([0-9]{1,7})m)?")
_INSTANT = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z")
_CONTROL_BANK = re.compile(r"([0-9dhm]+)\+([0-9dhm]+)(?:/([0-9dhm]+))?")
_CONTROL_MOVE = re.compile(r"([0-9dhm]+)/move")


class TimingError(ValueError):
    """A duration, instant or time control that cannot be read; `text` is what was given."""

    def __init__(self, what: str, text: str) -> None:
        super().__init__(f"not {what}: {text!r}")
        self.what = what
        self.text = text


def parse_duration(text: str) -> int:
    """Seconds in a duration (`1d12h`, `36h`, `90m`, `0m`); raises `TimingError`."""
    match = _DURATION.fullmatch(text)
    if not text or match is None:
        raise TimingError("a duration (days, hours, minutes: 3d, 12h, 1d12h, 90m)", text)
    days, hours, minutes = (int(part) if part else 0 for part in match.groups())
    return days * DAY + hours * HOUR + minutes * MINUTE


def format_duration(seconds: int) -> str:
    """The canonical text of a duration of whole minutes: `1d12h`, `90m` is `1h30m`, `0m`."""
    if seconds < 0 or seconds % MINUTE:
        raise ValueError(f"a duration is a whole, non-negative number of minutes: {seconds} s")
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    text = (f"{days}d" if days else "") + (f"{hours}h" if hours else "") + (f"{minutes}m" if minutes else "")
    return text or "0m"


def spoken_duration(seconds: int) -> str:
    """A remaining time for people: `1d 18h 00m`, `6h 00m`, `0h 00m` (whole minutes, down)."""
    seconds = max(0, seconds)
    days, rest = divmod(seconds, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    return (f"{days}d " if days else "") + f"{hours}h {minutes:02d}m"


def parse_instant(text: str) -> int:
    """Seconds since the Unix epoch of `2026-12-01T12:00:00Z`; raises `TimingError`."""
    match = _INSTANT.fullmatch(text)
    if match is None:
        raise TimingError("an instant (UTC, to the second: 2026-12-01T12:00:00Z)", text)
    try:
        year, month, day, hour, minute, second = (int(part) for part in match.groups())
        moment = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        raise TimingError("an instant (UTC, to the second: 2026-12-01T12:00:00Z)", text) from None
    return int(moment.timestamp())


def format_instant(seconds: int) -> str:
    """`2026-12-01T12:00:00Z` for seconds since the Unix epoch."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def spoken_instant(seconds: int) -> str:
    """`2026-12-06 18:00 UTC`: an instant in messages (to the minute)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


@dataclass(frozen=True)
class TimeControl:
    """A clock: a bank `D+I` or `D+I/C` (`per_move` false), or `D/move` (`per_move` true,
    `increment` 0 and no cap). All durations in seconds."""

    base: int
    increment: int = 0
    cap: int | None = None
    per_move: bool = False

    def __str__(self) -> str:
        if self.per_move:
            return f"{format_duration(self.base)}/move"
        text = f"{format_duration(self.base)}+{format_duration(self.increment)}"
        return text if self.cap is None else f"{text}/{format_duration(self.cap)}"

    def __repr__(self) -> str:
        return f"TimeControl({str(self)!r})"


def parse_time_control(text: str) -> TimeControl:
    """`3d+1d/5d`, `3d+12h`, `3d/move`; raises `TimingError`."""
    move = _CONTROL_MOVE.fullmatch(text)
    bank = _CONTROL_BANK.fullmatch(text)
    try:
        if move is not None:
            return TimeControl(parse_duration(move.group(1)), per_move=True)
        if bank is not None:
            cap = bank.group(3)
            return TimeControl(
                parse_duration(bank.group(1)),
                parse_duration(bank.group(2)),
                parse_duration(cap) if cap is not None else None,
            )
    except TimingError:
        pass
    raise TimingError("a time control (D+I, D+I/C or D/move: 10d+1d/20d, 3d/move)", text)
