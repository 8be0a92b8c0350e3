"""Kills and full disks at every write of a queue's submission and of a triggered reply
(PLAY.md §9, §4): the game and its queue file are each as they were or as they became,
together, never half written; what a dead run left is completed or discarded by the next
command. Faults at every call on the file-operations seam (tests/helpers/faults.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import faults

GAME = '[Game "pikemen"]\n[GameId "f"]\n[Result "*"]\n\n1. R: f3(N)\n'
LINES = "if B: a4(NE) then R: f3(E)"


def _fresh(folder: Path) -> Path:
    folder.mkdir()
    path = folder / "g.rgn"
    path.write_text(GAME)
    return path


def _queue_state(folder: Path) -> tuple[str, int]:
    """The game's text and how many queues Red's file holds (it must read whole)."""
    stored = folder / "g.rgn.queue" / "Red"
    count = len(json.loads(stored.read_text())["queues"]) if stored.exists() else 0
    return (folder / "g.rgn").read_text(), count


def _settle(path: Path) -> None:
    """The next command on the game: it completes or discards what a dead run left."""
    done = faults.run(["play", str(path), "--dry-run", "a4(N)"])
    assert done.code in (0, 1), done.err


@pytest.mark.parametrize("kind", ["enospc", "kill"])
def test_a_queue_submission_is_stored_whole_or_not_at_all_at_every_write(scratch: Path, kind: str) -> None:
    probe = _fresh(scratch / "probe")
    trace = faults.run(["queue", str(probe), "--as", "Red", LINES])
    assert trace.code == 0, trace.err
    for k in range(1, trace.calls + 1):
        folder = scratch / f"{kind}-{k}"
        path = _fresh(folder)
        ran = faults.run(["queue", str(path), "--as", "Red", LINES], ops=faults.Faulty(k, kind))
        assert "Traceback" not in ran.err
        assert ran.code in ((faults.KILLED,) if kind == "kill" else (2,)), (k, ran.code, ran.err)
        _settle(path)
        text, count = _queue_state(folder)
        assert text == GAME
        assert count in (0, 1)
        again = faults.run(["queue", str(path), "--as", "Red", LINES])  # the player tries again
        assert again.code == 0, again.err
        assert _queue_state(folder)[1] == count + 1


@pytest.mark.parametrize("kind", ["enospc", "kill"])
def test_a_triggered_reply_is_written_with_its_queue_or_not_at_all_at_every_write(scratch: Path, kind: str) -> None:
    template = _fresh(scratch / "template")
    assert faults.run(["queue", str(template), "--as", "Red", LINES]).code == 0
    probe = scratch / "probe"
    shutil.copytree(template.parent, probe)
    trace = faults.run(["play", str(probe / "g.rgn"), "--as", "Blue", "a4(NE)"])
    assert trace.code == 0, trace.err
    after = _queue_state(probe)
    before = _queue_state(template.parent)
    assert "{[%by-queue Red]}" in after[0]
    spent_after = json.loads((probe / "g.rgn.queue" / "Red").read_text())["queues"][0]["spent"]
    assert spent_after
    for k in range(1, trace.calls + 1):
        folder = scratch / f"{kind}-{k}"
        shutil.copytree(template.parent, folder)
        path = folder / "g.rgn"
        ran = faults.run(["play", str(path), "--as", "Blue", "a4(NE)"], ops=faults.Faulty(k, kind))
        assert "Traceback" not in ran.err
        _settle(path)
        state = _queue_state(folder)
        spent = json.loads((folder / "g.rgn.queue" / "Red").read_text())["queues"][0]["spent"]
        if state == after:
            assert spent, k  # the reply and its spent queue together
        else:
            assert state == before and not spent, (k, ran.code, ran.err)
