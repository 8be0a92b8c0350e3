"""`league close`, `league adjudicate` and an automatic leave, killed or out of disk at each
write (tests/helpers/faults.py): the next run finishes the work exactly once, every
record decided once, each log line written once, nobody mailed twice."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.helpers import faults
from tests.helpers.cli import invoke
from tests.helpers.league import adjudicated
from tests.helpers.mail import GM
from tests.helpers.sweep import WHOLE

AFTER = "2027-03-02T00:00:00Z"


def _events(folder: Path) -> list[str]:
    lines = (folder / "league.log").read_text(encoding="utf-8").splitlines()
    return [f"{entry['event']} {entry.get('game', '')}".strip() for entry in map(json.loads, lines)]


def _mails(folder: Path) -> int:
    return len(list((folder / "outbox").glob("*.eml")))


def _sweep(base: Path, scratch: Path, command: list[str], done: str) -> None:
    """Fail each write of `command` in turn (ENOSPC, then a kill), then run it again; the
    folder must end as a clean run leaves it (`done`: what the rerun may say instead of
    succeeding, once the first run got through)."""
    clean = scratch / "clean"
    shutil.copytree(base, clean)
    trace = faults.run([*command[:2], str(clean), *command[2:]])
    assert trace.code == 0, trace.err
    want = faults.snapshot(clean)
    writes = trace.calls
    assert writes > 0
    refused = kills = 0
    for k in range(1, writes + 1):
        for kind in _kinds(k):
            kills += kind == "kill"
            folder = scratch / f"{kind}-{k}"
            shutil.copytree(base, folder)
            failed = faults.run([*command[:2], str(folder), *command[2:]], ops=faults.Faulty(k, kind))
            assert "Traceback" not in failed.err, (k, kind, failed.err)
            refused += failed.code != 0
            again = faults.run([*command[:2], str(folder), *command[2:]])
            assert again.code == 0 or done in again.err, (k, kind, again.err)
            got = faults.snapshot(folder)
            assert got["answers"] == want["answers"], (k, kind)
            assert _mails(folder) == _mails(clean), (k, kind)  # nobody mailed twice
            assert _events(folder) == _events(clean), (k, kind)
            for name in ("r1-t1.rgn", "r1-t2.rgn"):
                assert got.get(name) == want.get(name), (k, kind, name)
            assert not faults.journals(folder)
            shutil.rmtree(folder)
    assert refused >= kills > 0  # every kill at least: the faults did strike


def _kinds(k: int) -> tuple[str, ...]:
    """The faults the k-th write is failed with: both with REFEREE_WHOLE_SWEEPS, else one,
    in turn (every write is still failed, each kind at every other write)."""
    return ("enospc", "kill") if WHOLE else (("enospc", "kill")[k % 2],)


def test_close_failed_at_each_write_is_finished_once_by_the_next_run(scratch: Path) -> None:
    base = scratch / "base"
    adjudicated(base, "draw", clear_outbox=True)
    _sweep(base, scratch, ["league", "close", "--now", AFTER, "--force", "--from", GM], "the season is closed")


def test_adjudicate_failed_at_each_write_is_written_once_by_the_next_run(scratch: Path) -> None:
    base = scratch / "base"
    adjudicated(base, "gm", clear_outbox=True)
    command = ["league", "adjudicate", "r1-t1", "Red", "--now", AFTER, "--force", "--from", GM]
    _sweep(base, scratch, [command[0], command[1], *command[2:]], "is finished")


def test_an_automatic_leave_failed_at_each_write_is_granted_once_by_the_next_tick(scratch: Path) -> None:
    base = scratch / "base"
    adjudicated(base, "none", control="1d+0m", extra="auto_leave = true\nleave_days = 5\n", clear_outbox=True)
    code, _, err = invoke("league", "tick", str(base), "--now", "2026-12-02T00:00:00Z")  # nothing due yet
    assert code == 0, err
    _sweep(base, scratch, ["league", "tick", "--now", "2026-12-03T00:00:00Z", "--from", GM], "never")
