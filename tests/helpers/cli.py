"""One way for a test to run `referee` in-process: `invoke("check", "game.rgn")`.

It runs the Typer app with Click's `CliRunner` (stdout and stderr apart, as Click 8.2+ always
keeps them, and `output` the two interleaved as a terminal would show them) and gives back a
frozen `Ran`. A `Ran` unpacks and indexes as `(exit_code, stdout, stderr)`, so `code, out, err =
invoke(...)` reads as the old per-file `_run` helpers did, and keeps Click's attribute names
(`exit_code`, `stdout`, `stderr`, `output`, `stdout_bytes`, `exception`) for tests that look at
one part."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial

from typer.testing import CliRunner

from referee.cli import app

_RUNNER = CliRunner()


@dataclass(frozen=True)
class Ran:
    """What one in-process run of `referee` gave: its exit code and what it wrote."""

    exit_code: int
    stdout: str
    stderr: str
    output: str = field(repr=False)
    """stdout and stderr interleaved in the order they were written."""
    stdout_bytes: bytes = field(repr=False)
    exception: BaseException | None = field(repr=False, compare=False)
    """The exception that ended the run (`SystemExit` for an ordinary exit), as Click gives it."""

    def __iter__(self) -> Iterator[int | str]:
        """`code, out, err = invoke(...)`."""
        return iter((self.exit_code, self.stdout, self.stderr))

    def __getitem__(self, index: int) -> int | str:
        """`invoke(...)[0]` is the exit code, `[1]` stdout, `[2]` stderr."""
        return (self.exit_code, self.stdout, self.stderr)[index]


def invoke(*args: str, stdin: str | bytes | None = None, catch_exceptions: bool = True) -> Ran:
    """Run `referee ARGS...` in this process, with `stdin` as its standard input."""
    result = _RUNNER.invoke(app, list(args), input=stdin, catch_exceptions=catch_exceptions)
    return Ran(
        exit_code=result.exit_code,
        stdout=result.stdout,
        stderr=result.stderr,
        output=result.output,
        stdout_bytes=result.stdout_bytes,
        exception=result.exception,
    )


def invoker(*prefix: str) -> Callable[..., Ran]:
    """`invoke` with the first words given: `league = invoker("league")`, then
    `league("status", folder)` runs `referee league status FOLDER`."""
    return partial(invoke, *prefix)
