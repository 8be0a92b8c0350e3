"""Comment commands (NOTATION.md §9) and the texts of durations, instants and clocks (TIME.md §1)."""

from __future__ import annotations

import pytest

from referee.notation.comment_commands import Command, CommandSyntaxError, holds_commands, read_commands, write_commands
from referee.notation.timing import (
    TimeControl,
    TimingError,
    format_duration,
    format_instant,
    parse_duration,
    parse_instant,
    parse_time_control,
    spoken_duration,
    spoken_instant,
)


def test_a_comment_holds_commands_only_when_it_starts_with_them() -> None:
    assert read_commands("good move") == ()
    assert read_commands("  [%at 2026-12-02T12:00:00Z Red]") == (Command("at", ("2026-12-02T12:00:00Z", "Red")),)
    assert read_commands("[%at 2026-12-02T12:00:00Z R] [%grant Blue 1d]\n[%offer draw B]") == (
        Command("at", ("2026-12-02T12:00:00Z", "R")),
        Command("grant", ("Blue", "1d")),
        Command("offer", ("draw", "B")),
    )
    assert read_commands("[%clk 0:03]") == (Command("clk", ("0:03",)),)
    assert not holds_commands("a [%at x] later")


@pytest.mark.parametrize("text", ["[%at x] nice move", "[%at x", "[%]", "[%at x][%at y]", "[% at x]", "[%at [x]]"])
def test_a_comment_that_starts_like_commands_but_is_not_them_is_an_error(text: str) -> None:
    with pytest.raises(CommandSyntaxError):
        read_commands(text)


def test_commands_are_written_back_as_read() -> None:
    commands = (Command("at", ("2026-12-02T12:00:00Z", "Red")), Command("grant", ("Blue", "1d")))
    assert write_commands(commands) == "[%at 2026-12-02T12:00:00Z Red] [%grant Blue 1d]"
    assert read_commands(write_commands(commands)) == commands


@pytest.mark.parametrize(
    ("text", "seconds", "canonical"),
    [
        ("3d", 3 * 86400, "3d"),
        ("12h", 12 * 3600, "12h"),
        ("1d12h", 36 * 3600, "1d12h"),
        ("36h", 36 * 3600, "1d12h"),
        ("90m", 90 * 60, "1h30m"),
        ("0m", 0, "0m"),
        ("0d", 0, "0m"),
        ("1d0h5m", 86400 + 300, "1d5m"),
    ],
)
def test_durations_are_read_leniently_and_written_canonically(text: str, seconds: int, canonical: str) -> None:
    assert parse_duration(text) == seconds
    assert format_duration(seconds) == canonical


@pytest.mark.parametrize("text", ["", "3D", "1h1d", "3d 12h", "1.5d", "d", "3s", "-1d", "1d1d"])
def test_bad_durations_are_refused(text: str) -> None:
    with pytest.raises(TimingError):
        parse_duration(text)


def test_instants_are_utc_to_the_second_with_an_upper_case_z() -> None:
    assert format_instant(parse_instant("2026-12-01T12:00:00Z")) == "2026-12-01T12:00:00Z"
    assert parse_instant("2026-12-02T12:00:00Z") - parse_instant("2026-12-01T12:00:00Z") == 86400
    assert spoken_instant(parse_instant("2026-12-06T18:00:00Z")) == "2026-12-06 18:00 UTC"
    for bad in ["2026-12-01T12:00:00z", "2026-12-01 12:00:00Z", "2026-12-01T12:00Z", "2026-02-30T12:00:00Z", ""]:
        with pytest.raises(TimingError):
            parse_instant(bad)


@pytest.mark.parametrize(
    ("text", "control", "canonical"),
    [
        ("10d+1d/20d", TimeControl(864000, 86400, 1728000), "10d+1d/20d"),
        ("3d+12h", TimeControl(3 * 86400, 12 * 3600), "3d+12h"),
        ("36h+0d", TimeControl(36 * 3600, 0), "1d12h+0m"),
        ("3d/move", TimeControl(3 * 86400, per_move=True), "3d/move"),
    ],
)
def test_time_controls_in_both_forms(text: str, control: TimeControl, canonical: str) -> None:
    assert parse_time_control(text) == control
    assert str(control) == canonical
    assert repr(control) == f"TimeControl({canonical!r})"


@pytest.mark.parametrize("text", ["3d", "3d+", "+1d", "3d+1d/", "3d/Move", "3d+1d/5d/6d", "3d + 1d", "3d/move+1d"])
def test_bad_time_controls_are_refused(text: str) -> None:
    with pytest.raises(TimingError):
        parse_time_control(text)


def test_remaining_time_is_spoken_in_whole_minutes() -> None:
    assert spoken_duration(151200) == "1d 18h 00m"
    assert spoken_duration(21600) == "6h 00m"
    assert spoken_duration(3599) == "0h 59m"
    assert spoken_duration(-5) == "0h 00m"
