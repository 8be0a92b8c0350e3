"""The command line's boundary (`referee.cli.entry.run`): a file the referee could not write
(the store's `WriteFailed`) is named in one line, exit 2; another error is not taken for it
because of its name (issue 50, item 5)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
import typer

from referee.cli.entry import run
from referee.store import WriteFailed


def _app(error: OSError) -> typer.Typer:
    app = typer.Typer()

    @app.command()
    def write() -> None:
        raise error

    @app.command()
    def other() -> None:  # (a second command, so that `write` is named on the command line)
        pass

    return app


def test_a_file_the_referee_could_not_write_is_named_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    failed = WriteFailed(tmp_path / "mail.log", OSError(errno.ENOSPC, "No space left on device"))
    assert run(_app(failed), ["write"]) == 2
    assert capsys.readouterr().err == f"referee: cannot write {tmp_path / 'mail.log'}: No space left on device\n"


def test_an_error_named_like_it_is_not_taken_for_it(capsys: pytest.CaptureFixture[str]) -> None:
    class WriteFailed(OSError):  # another module's error of the same name: the output was not written
        pass

    assert run(_app(WriteFailed(errno.EIO, "Input/output error")), ["write"]) == 2
    assert capsys.readouterr().err == "referee: cannot write the output: Input/output error\n"
