"""Writing game files safely (PLAY.md §4), with real processes: the lock and exit 75,
racing submissions applied one after the other, and crashes that never leave a broken
record or a temporary file that could be read as a game."""

from __future__ import annotations

import fcntl
import json
import os
import random
import signal
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from referee.judge import session
from referee.judge.core.verdicts import Verdict
from referee.judge.services.random_playout import play as playout
from referee.live.play import BusyError, submit
from referee.store import lock_path, locked, write_atomically
from referee.store.atomic import SLOW_WRITE_ENV
from tests.helpers.process import REFEREE, run_referee

NIKA = '[Game "nika"]\n'


def referee(*arguments: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_referee(*arguments, environ=env)


def spawn(*arguments: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*REFEREE, *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env or dict(os.environ),
    )


def race_reports(processes: list[subprocess.Popen[str]]) -> list[tuple[int, dict[str, Any]]]:
    """What racing `play --json` processes said, in their order: each one's exit status (0
    written, 1 refused; any other fails the test) and its JSON report."""
    said = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode in (0, 1), err
        said.append((process.returncode, json.loads(out)))
    return said


def turns_of(game: str, players: int | None, count: int, seed: str) -> tuple[str, list[str]]:
    """A fresh record's tags and the text of its first `count` turns, from a playout."""
    played = playout(game, players, seed, max_turns=count)
    lines = played.text.rstrip("\n").split("\n\n", 1)
    return lines[0] + "\n", (lines[1].splitlines() if len(lines) > 1 else [])


def test_a_held_lock_makes_play_wait_then_exit_75(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    path.write_text(NIKA)
    with locked(path, wait=1):
        started = time.monotonic()
        busy = referee("play", str(path), "d1-W d2-W", "--wait", "0.5")
        assert busy.returncode == 75
        assert time.monotonic() - started >= 0.5
        assert "busy" in busy.stderr and busy.stdout == ""
        with pytest.raises(BusyError):
            submit(path, "d1-W d2-W", wait=0.1)
    assert path.read_text() == NIKA
    assert referee("play", str(path), "d1-W d2-W", "--wait", "0.5").returncode == 0


def test_the_lock_is_an_flock_on_file_lock_held_for_the_whole_span(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    path.write_text(NIKA)
    assert lock_path(path) == tmp_path / "game.rgn.lock"
    slow = spawn("play", str(path), "d1-W d2-W", env={**os.environ, SLOW_WRITE_ENV: "1.5"})
    deadline = time.monotonic() + 20
    held = False
    while time.monotonic() < deadline and slow.poll() is None:
        if lock_path(path).exists():
            with open(lock_path(path)) as handle:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    fcntl.flock(handle, fcntl.LOCK_UN)
                except BlockingIOError:
                    held = True
                    break
        time.sleep(0.02)
    slow.communicate(timeout=30)
    assert held and slow.returncode == 0


def test_write_atomically_keeps_the_mode_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    path.write_text("old")
    path.chmod(0o640)
    write_atomically(path, "new ✓")
    assert path.read_text() == "new ✓"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.rgn"]
    write_atomically(tmp_path / "fresh.rgn", "x")
    assert (tmp_path / "fresh.rgn").read_text() == "x"


def test_a_failed_write_removes_its_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.rgn"
    path.write_text("old")

    def broken(source: object, target: object, **folders: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_atomically(path, "new")
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.rgn"]


def test_twenty_racing_submissions_are_applied_one_after_the_other(tmp_path: Path) -> None:
    """Twenty `referee play` processes at once, each with the turn and the --expect
    token of one state along a game: those that win the race form the game's prefix,
    the file checks legal and holds exactly the turns reported written."""
    tags, turns = turns_of("nika", 4, 20, "race")
    path = tmp_path / "game.rgn"
    path.write_text(tags)
    scratch = tmp_path / "scratch.rgn"
    scratch.write_text(tags)
    tokens = [_token(scratch)]
    for turn in turns:
        done = submit(scratch, turn)
        assert done.exit_code == 0 and done.token is not None
        tokens.append(done.token)
    processes = [
        spawn("play", str(path), turn, "--expect", token, "--json", "--wait", "60")
        for turn, token in zip(turns, tokens, strict=False)
    ]
    reports = race_reports(processes)
    written = [index for index, (code, data) in enumerate(reports) if code == 0 and data["written"]]
    assert written == list(range(len(written))) and written  # a prefix of the game, in order
    for code, data in reports:
        assert data["written"] == (code == 0)
        if code:
            assert "token" in data["refused"]
    assert _legal(path)
    expected = tmp_path / "expected.rgn"
    expected.write_text(tags)
    for turn in turns[: len(written)]:
        submit(expected, turn)
    assert path.read_text() == expected.read_text()


def _token(path: Path) -> str:
    (checked,) = session.check([str(path)], annotate=True)
    assert isinstance(checked, Verdict)
    return str(checked.token)


def _legal(path: Path) -> bool:
    checked = list(session.check([str(path)]))
    return bool(checked) and all(isinstance(verdict, Verdict) and verdict.legal for verdict in checked)


def test_racing_submissions_for_the_same_state_apply_exactly_one(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    path.write_text(NIKA)
    token = _token(path)
    moves = ["d1-W d2-W", "d1-W d3-W", "d2-W d3-W", "c1-N c2-N", "i1-E i2-E", "i2-E i3-E"]
    processes = [spawn("play", str(path), move, "--expect", token, "--wait", "60") for move in moves]
    codes = [process.wait(timeout=120) for process in processes]
    assert codes.count(0) == 1 and codes.count(1) == len(moves) - 1
    winner = moves[codes.index(0)]
    assert path.read_text().endswith(f"1. W: {winner}\n")
    assert referee("check", str(path)).returncode == 0


def _kill_plays_at_random(tmp_path: Path, seed: int) -> set[bool]:
    """Ten `play`s of a game killed at random instants of a slowed write; after each kill the
    file is the old record or the new one, never half; returns whether each kill left the old."""
    tags, turns = turns_of("nika", 4, 6, "crash")
    path = tmp_path / "game.rgn"
    path.write_text(tags)
    chooser = random.Random(seed)
    env = {**os.environ, SLOW_WRITE_ENV: "0.15"}
    index = 0
    outcomes = set()
    for attempt in range(10):
        old = path.read_text()
        process = spawn("play", str(path), turns[index], env=env)
        time.sleep(chooser.uniform(0.0, 1.2))
        process.send_signal(signal.SIGKILL)
        process.wait()
        text = path.read_text()
        new = old if text == old else None
        if text != old:
            expected = tmp_path / "expected.rgn"
            expected.write_text(old)
            submit(expected, turns[index])
            assert text == expected.read_text(), f"attempt {attempt}: a broken record"
            new = text
            index += 1
        outcomes.add(new == old)
        assert _legal(path)
        rgn = sorted(p.name for p in tmp_path.glob("*.rgn"))
        assert rgn in (["game.rgn"], ["expected.rgn", "game.rgn"])
        for stray in tmp_path.iterdir():
            if "tmp" in stray.name:
                assert stray.name.startswith(".game.rgn.tmp-") and not stray.name.endswith(".rgn")
        if index == len(turns):
            break
    assert submit(path, turns[index] if index < len(turns) else "draw", wait=5).exit_code in (0, 1)
    assert referee("check", str(path)).returncode == 0
    return outcomes


def test_a_play_killed_at_any_instant_leaves_the_old_or_the_new_record(tmp_path: Path) -> None:
    _kill_plays_at_random(tmp_path, 11)


@pytest.mark.slow
def test_many_kills(tmp_path: Path) -> None:
    seen: set[bool] = set()
    for seed in range(10):
        seen |= _kill_plays_at_random(tmp_path, 100 + seed)
        for stray in tmp_path.iterdir():
            stray.unlink()
    # A hundred kills landed both before the rename (the old record kept) and after it (the
    # new one written): the soak tried both sides of the instant that matters.
    assert seen == {True, False}


def test_reveal_holds_the_lock_too(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    digest = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"
    path.write_text(f'[Game "nieuchess"]\n[SeedHash "{digest}"]\n')
    key = tmp_path / "game.key"
    key.write_text("example\n")
    with locked(path, wait=1):
        busy = referee("reveal", str(path), "--seed-file", str(key), "--wait", "0.2", "--force")
        assert busy.returncode == 75 and "busy" in busy.stderr
    assert referee("reveal", str(path), "--seed-file", str(key), "--force").returncode == 0
    assert '[Seed "example"]' in path.read_text()
