"""A league command killed half way, or on a full disk, strands nobody (docs/files.md):
the next command completes or undoes it, and every player is told what they were owed.
The faults are injected at a chosen call on the file-operations seam (tests/helpers/faults.py);
tests/store/test_faults.py sweeps every call of every operation."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from tests.helpers import faults
from tests.helpers.league import make_league, numbered
from tests.helpers.mail import GM

START = "2026-12-01T12:00:00Z"
LATER = "2026-12-04T12:00:00Z"


def _cli(*args: str) -> faults.Ran:
    ran = faults.run(list(args))
    assert ran.code == 0, ran.err
    return ran


def _league(folder: Path, players: int, timed: bool = False) -> None:
    """A two-player Pikemen league of P1..Pn, every command a real process (`faults.run`)."""
    options = ["--game", "pikemen", "--players", "2", *(["--time-control", "1d+0m"] if timed else [])]
    extra = 'digest = "every-move"\n'
    make_league(folder, *options, name="Fall", names=numbered(players), extra=extra, run=_processes)


def _processes(args: Sequence[str]) -> tuple[int, str]:
    ran = faults.run(list(args))
    return ran.code, ran.err


def _log(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]


def _mailed(folder: Path) -> list[str]:
    """The address of every mail in the outbox."""
    return sorted(
        line.split("<")[-1].rstrip(">").strip()
        for path in (folder / "outbox").glob("*.eml")
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("To:")
    )


def test_pair_killed_after_one_of_six_games_is_completed_by_the_next_command(scratch: Path) -> None:
    clean, folder = scratch / "clean", scratch / "lg"
    for each in (clean, folder):
        _league(each, 12)
    pair = ["league", "pair", "--now", START, "--from", GM]
    trace = _cli(*pair[:2], str(clean), *pair[2:])
    killed = faults.run([*pair[:2], str(folder), *pair[2:]], ops=faults.Faulty(trace.first("r1-t2.rgn"), "kill"))
    assert killed.code == faults.KILLED
    assert len(list(folder.glob("r1-t*.rgn"))) == 1  # the attacker's instant: one game of six written
    again = faults.run([*pair[:2], str(folder), *pair[2:]])
    assert again.code == 1 and "round 1 is still being played" in again.err  # paired: not twice
    assert sorted(path.name for path in folder.glob("*.rgn")) == [f"r1-t{table}.rgn" for table in range(1, 7)]
    assert [entry["event"] for entry in _log(folder)] == ["pairing"]
    assert _mailed(folder) == sorted(f"p{number}@example.org" for number in range(1, 13))
    assert faults.snapshot(folder)["answers"] == faults.snapshot(clean)["answers"]
    assert not faults.journals(folder)


def test_tick_killed_after_seven_of_eight_timeouts_loses_no_notice_and_no_log_line(scratch: Path) -> None:
    clean, folder = scratch / "clean", scratch / "lg"
    for each in (clean, folder):
        _league(each, 16, timed=True)
        _cli("league", "pair", str(each), "--now", START, "--from", GM)
    tick = ["league", "tick", "--now", LATER, "--from", GM]
    trace = _cli(*tick[:2], str(clean), *tick[2:])
    # The eighth time-out written into its game, not yet its notices nor its log line.
    eighth = trace.first("outbox", nth=2 * 7 + 1)
    killed = faults.run([*tick[:2], str(folder), *tick[2:]], ops=faults.Faulty(eighth, "kill"))
    assert killed.code == faults.KILLED
    assert [entry["event"] for entry in _log(folder)] == ["pairing"] + ["timeout"] * 7
    again = faults.run([*tick[:2], str(folder), *tick[2:]])
    assert again.code == 0, again.err
    assert [entry["event"] for entry in _log(folder)] == ["pairing"] + ["timeout"] * 8
    assert faults.snapshot(folder) == faults.snapshot(clean)
    timeouts = [mail for mail in faults.snapshot(folder)["answers"] if "timeout" in mail[1]]  # type: ignore[union-attr]
    assert len(timeouts) == 16  # both players of each of the eight games


def test_a_league_log_that_cannot_be_written_is_exit_2_naming_it(scratch: Path) -> None:
    folder = scratch / "lg"
    _league(folder, 4, timed=True)
    trace = faults.run(["league", "pair", str(folder), "--now", START, "--from", GM], ops=faults.Counting())
    assert trace.code == 0
    for path in [*folder.glob("*.rgn"), *folder.glob("outbox/*"), folder / "league.log"]:
        path.unlink()
    failed = faults.run(
        ["league", "pair", str(folder), "--now", START, "--from", GM],
        ops=faults.Faulty(trace.first("write " + str(folder / "league.log")), "enospc"),
    )
    assert failed.code == 2 and "Traceback" not in failed.err and failed.err.count("\n") == 1
    assert f"cannot write {folder / 'league.log'}: No space left on device" in failed.err
    done = faults.run(["league", "status", str(folder)])  # any command completes the pairing
    assert done.code == 0, done.err
    assert [entry["event"] for entry in _log(folder)] == ["pairing"] and len(list(folder.glob("*.rgn"))) == 2
