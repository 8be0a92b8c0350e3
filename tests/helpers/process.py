"""The one way for a test to start `referee` as a real process, as a user's shell or cron
does: `run_referee("check", "game.rgn")`.

The interpreter is the one running the tests (`sys.executable -m referee`, never a
`referee` found first on PATH), standard input is closed unless `input` is given, standard
output and error are captured, and a timeout bounds every run so that a hang fails the test
instead of CI. `env` adds variables to the test's environment; `environ` replaces it whole
(for a test of what a missing variable does). `run_referee_without("pyarrow", ...)` runs it
as where an optional package is not installed. Tests that need a live process (to kill it,
to race it, to read it while it runs) start `REFEREE` themselves with `subprocess.Popen`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypedDict, Unpack

REFEREE: tuple[str, ...] = (sys.executable, "-m", "referee")
"""The command line that starts this checkout's referee."""


class Where(TypedDict, total=False):
    """Where a run goes and how long it may take, as `run_referee` takes them: `env` adds
    variables to the test's environment, `environ` replaces it whole, `cwd`, and the
    `timeout` in seconds (120 unless given)."""

    env: Mapping[str, str] | None
    environ: Mapping[str, str] | None
    cwd: Path | str | None
    timeout: float


def _spawn(
    command: list[str | bytes],
    input: str | bytes | None,  # noqa: A002 - subprocess's own name
    text: bool,
    where: Where,
    options: dict[str, Any],
) -> subprocess.CompletedProcess[Any]:
    """The one `subprocess.run` of them all: standard input closed unless `input` (or a
    `stdin` option) is given, the streams captured, never `check`."""
    environ = where.get("environ")
    return subprocess.run(
        command,
        input=input,
        stdin=options.pop("stdin", subprocess.DEVNULL if input is None else None),
        capture_output=True,
        text=text,
        env={**(os.environ if environ is None else environ), **(where.get("env") or {})},
        cwd=where.get("cwd"),
        timeout=where.get("timeout", 120),
        check=False,
        **options,
    )


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
    where: Where = {"env": env, "environ": environ, "cwd": cwd, "timeout": timeout}
    return _spawn([*REFEREE, *args], input, True, where, options)


def run_referee_bytes(
    *args: str | bytes,
    input: bytes | None = None,  # noqa: A002 - subprocess's own name
    **where: Unpack[Where],
) -> subprocess.CompletedProcess[bytes]:
    """As `run_referee` (the same `env`, `environ`, `cwd` and `timeout`), the streams as bytes
    (for input that is not text, or output checked byte for byte); an argument may be bytes
    (a file name that is not UTF-8)."""
    return _spawn([*REFEREE, *args], input, False, where, {})


def run_referee_without(package: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`referee ARGS` run to its end as where the optional `package` is not installed: in
    the child, importing it fails (`sys.modules[package] = None`) before `referee` starts."""
    hide = f"import sys; sys.modules[{package!r}] = None; from referee.cli import main; sys.exit(main())"
    return _spawn([sys.executable, "-c", hide, *args], None, True, {}, {})
