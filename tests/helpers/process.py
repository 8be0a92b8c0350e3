"""The one way for a test to start `referee` as a real process, as a user's shell or cron
does: `run_referee("check", "game.rgn")`.

The interpreter is the one running the tests (`sys.executable -m referee`, never a
`referee` found first on PATH), standard input is closed unless `input` is given, standard
output and error are captured, and a timeout bounds every run so that a hang fails the test
instead of CI. `env` adds variables to the test's environment; `environ` replaces it whole
(for a test of what a missing variable does). Tests that need a live process (to kill it,
to race it, to read it while it runs) start `REFEREE` themselves with `subprocess.Popen`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

REFEREE: tuple[str, ...] = (sys.executable, "-m", "referee")
"""The command line that starts this checkout's referee."""


def _environment(env: Mapping[str, str] | None, environ: Mapping[str, str] | None) -> dict[str, str]:
    base = dict(os.environ if environ is None else environ)
    return {**base, **(env or {})}


def run_referee(
    *args: str,
    input: str | None = None,  # noqa: A002 - subprocess's own name
    env: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
    timeout: float = 120,
    **options: Any,
) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` run to its end: exit status, standard output and error as text."""
    return subprocess.run(
        [*REFEREE, *args],
        input=input,
        stdin=subprocess.DEVNULL if input is None and "stdin" not in options else options.pop("stdin", None),
        capture_output=True,
        text=True,
        env=_environment(env, environ),
        cwd=cwd,
        timeout=timeout,
        check=False,
        **options,
    )


def run_referee_bytes(
    *args: str | bytes,
    input: bytes | None = None,  # noqa: A002 - subprocess's own name
    env: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | str | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[bytes]:
    """As `run_referee`, the streams as bytes (for input that is not text, or output checked byte
    for byte); an argument may be bytes (a file name that is not UTF-8)."""
    return subprocess.run(
        [*REFEREE, *args],
        input=input,
        stdin=subprocess.DEVNULL if input is None else None,
        capture_output=True,
        env=_environment(env, environ),
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
