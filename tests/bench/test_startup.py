"""`referee bench --startup`: the referee is started as the bare app is, by the interpreter
that runs the bench, never through a wrapper found first on PATH (such as a pyenv shim)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.bench.corpora import referee_command, startup


def test_the_bench_times_the_referee_beside_its_interpreter_not_the_first_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shim, marker = tmp_path / "referee", tmp_path / "shim-ran"
    shim.write_text(f"#!/bin/sh\ntouch {marker}\n")
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{Path(sys.executable).parent}:/usr/bin:/bin")
    command, install = referee_command()
    assert Path(command[0]).parent == Path(sys.executable).parent
    assert install in ("editable install", "installed", "not installed")
    lines = list(startup(1))
    assert not marker.exists()
    assert lines[0] == f"timed: {' '.join(command[-2:] if len(command) > 1 else command)} ({install})"
    assert [line.split()[0] for line in lines[1:]] == ["bare", "referee", "ratio"]
