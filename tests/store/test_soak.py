"""Real `referee` processes killed with SIGKILL at random instants (docs/files.md): after
each kill, the next command (the redelivery of the same message, the same league command)
leaves the folder exactly as a run that was never killed. The `slow` soak runs many; the
default run a few, in a few seconds."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers import faults
from tests.helpers.mail import GM, NIKA_PLAYERS, message, nika_game
from tests.helpers.process import REFEREE

NOW = "2026-12-01T12:00:00Z"
START = "2026-12-01T12:00:00Z"


def _process(args: list[str], stdin: bytes) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [*REFEREE, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    process.stdin.write(stdin)
    process.stdin.close()
    return process


def _finish(args: list[str], stdin: bytes) -> tuple[int, str]:
    process = _process(args, stdin)
    assert process.stderr is not None
    err = process.stderr.read().decode("utf-8", "replace")
    return process.wait(timeout=120), err


def _soak(scratch: Path, kind: str, rounds: int, seed: int) -> None:
    base = scratch / "base"
    base.mkdir()
    if kind == "mail":
        nika_game(base)
        stdin = message(NIKA_PLAYERS["Athens"], "[g1] move", "d1+d2+d3-W i3-E\n", message_id="<soak@x.org>").as_bytes()

        def args(folder: Path) -> list[str]:
            return ["mail", "receive", str(folder), "--from", GM, "--now", NOW]
    else:
        stdin = b""
        faults.run(["league", "init", str(base), "--game", "pikemen", "--players", "2", "--name", "Soak"])
        for number in range(1, 9):
            faults.run(["league", "add", str(base), f"p{number}@example.org", "--name", f"P{number}"])

        def args(folder: Path) -> list[str]:
            return ["league", "pair", str(folder), "--now", START, "--from", GM]

    clean = scratch / "clean"
    shutil.copytree(base, clean)
    began = time.monotonic()
    code, err = _finish(args(clean), stdin)
    assert code == 0, err
    took = time.monotonic() - began
    expected = faults.snapshot(clean, drop_repeats=True)
    chance = random.Random(seed)
    for round_number in range(rounds):
        work = scratch / f"run-{round_number}"
        shutil.copytree(base, work)
        process = _process(args(work), stdin)
        time.sleep(chance.uniform(0.0, took))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=120)
        code, err = _finish(args(work), stdin)  # the redelivery, the command run again
        assert code in (0, 1), err  # 1: `pair` finds the round paired by the killed run
        where = f"seed {seed}, round {round_number}"
        assert faults.snapshot(work, drop_repeats=True) == expected, where
        assert faults.journals(work) == [], where
        shutil.rmtree(work)


@pytest.mark.parametrize("kind", ["mail", "pair"])
def test_a_few_random_kills(tmp_path: Path, kind: str) -> None:
    with faults.scratch(tmp_path) as scratch:
        _soak(scratch, kind, 2, int.from_bytes(os.urandom(4), "big"))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["mail", "pair"])
def test_many_random_kills(tmp_path: Path, kind: str) -> None:
    with faults.scratch(tmp_path) as scratch:
        _soak(scratch, kind, 40, int.from_bytes(os.urandom(4), "big"))
