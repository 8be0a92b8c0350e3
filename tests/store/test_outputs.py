"""Outputs at a path the user names (issue 44 item 3, docs/files.md "Outputs"), through the
real commands: `check --parquet OUT`, `show --svg -o OUT`, `replay --html -o OUT` and
`mail --log-file PATH`. For each: a link to an existing file is replaced by the new file
(its target unchanged), a dangling link is replaced (nothing made where it pointed), a
FIFO is refused in one line at once (never opened: the command would block), a device
(/dev/null) and a folder are refused, a link in /dev or /proc (/dev/fd/1) is refused.
Before the fix every one of them was written through (or into)."""

from __future__ import annotations

import os
import stat
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.store import WriteFailed, write_output
from referee.store.outputs import open_appending, refused
from tests.conftest import EXAMPLES
from tests.helpers.mail import GM, message, nika_game, run_mail
from tests.helpers.process import run_referee

RECORD = str(EXAMPLES / "nika-won.rgn")
OLD = b"the target, which must not change\n"
LIMIT = 30
"""Seconds a refused FIFO may take at most (it is refused at once; blocking is the bug)."""


def _parquet(out: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("pyarrow", reason="pyarrow is not installed: pip install 'referee[parquet]'")
    return run_referee("check", "--parquet", str(out), RECORD, timeout=LIMIT)


def _svg(out: Path) -> subprocess.CompletedProcess[str]:
    return run_referee("show", "--svg", "-o", str(out), RECORD, timeout=LIMIT)


def _html(out: Path) -> subprocess.CompletedProcess[str]:
    return run_referee("replay", "--html", "-o", str(out), RECORD, timeout=LIMIT)


def _log(out: Path) -> subprocess.CompletedProcess[str]:
    folder = out.parent / "games"
    if not folder.exists():
        folder.mkdir()
        nika_game(folder)
    mail = message("Ann <ann@example.org>", "[g1] x", "d1+d2+d3-W i3-E\n").as_bytes()
    return run_mail(mail, "receive", str(folder), "--from", GM, "--now", "2026-12-01T12:00:00Z", "--log-file", str(out))


WRITERS: dict[str, Callable[[Path], subprocess.CompletedProcess[str]]] = {
    "parquet": _parquet,
    "svg": _svg,
    "html": _html,
}
EVERY = {**WRITERS, "log-file": _log}


def _made(kind: str, path: Path) -> None:
    """What a good run left at `path`: the file the command writes."""
    data = path.read_bytes()
    if kind == "parquet":
        assert data.startswith(b"PAR1") and data.endswith(b"PAR1")
    elif kind == "svg":
        assert data.startswith(b"<svg") or b"<svg" in data[:200]
    elif kind == "html":
        assert data.startswith(b"<!DOCTYPE html>")
    else:
        assert data.startswith(b"{") and data.endswith(b"}\n")


@pytest.mark.parametrize("kind", list(WRITERS))
def test_a_link_to_a_file_is_replaced_and_its_target_left_alone(tmp_path: Path, kind: str) -> None:
    target = tmp_path / "target"
    target.write_bytes(OLD)
    out = tmp_path / "out"
    out.symlink_to(target)
    done = WRITERS[kind](out)
    assert done.returncode == 0, done.stderr
    assert target.read_bytes() == OLD
    assert not out.is_symlink() and stat.S_ISREG(out.lstat().st_mode)
    _made(kind, out)
    assert sorted(item.name for item in tmp_path.iterdir()) == ["out", "target"]  # no temporary file left


@pytest.mark.parametrize("kind", list(WRITERS))
def test_a_dangling_link_is_replaced_and_makes_nothing_where_it_pointed(tmp_path: Path, kind: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    out.symlink_to(elsewhere / "planted")
    done = WRITERS[kind](out)
    assert done.returncode == 0, done.stderr
    assert list(elsewhere.iterdir()) == []
    assert not out.is_symlink()
    _made(kind, out)


def test_a_link_to_the_log_file_is_refused_and_its_target_left_alone(tmp_path: Path) -> None:
    """An append-only file cannot be renamed over at each run: a link is refused (O_NOFOLLOW)."""
    target = tmp_path / "target"
    target.write_bytes(OLD)
    out = tmp_path / "out"
    out.symlink_to(target)
    done = _log(out)
    assert done.returncode == 2
    assert done.stderr == f"referee: mail: --log-file {out}: it is a symbolic link: refused, not written through\n"
    assert target.read_bytes() == OLD and out.is_symlink()
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "planted")
    done = _log(dangling)
    assert done.returncode == 2 and "symbolic link: refused" in done.stderr
    assert not (tmp_path / "planted").exists()


@pytest.mark.parametrize("kind", list(EVERY))
def test_a_fifo_is_refused_at_once_in_one_line(tmp_path: Path, kind: str) -> None:
    """Nobody reads the FIFO: opening it for writing would block for ever (the test's
    subprocess timeout says so). Refused before any opening, exit 2."""
    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    started = time.monotonic()
    done = EVERY[kind](fifo)
    assert time.monotonic() - started < LIMIT
    assert done.returncode == 2
    said = f"mail: --log-file {fifo}" if kind == "log-file" else f"cannot write {fifo}"
    assert done.stderr == f"referee: {said}: it is a FIFO, not a regular file: refused\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.parametrize("kind", list(EVERY))
def test_a_device_or_a_folder_is_refused(tmp_path: Path, kind: str) -> None:
    done = EVERY[kind](Path(os.devnull))
    assert done.returncode == 2
    said = f"mail: --log-file {os.devnull}" if kind == "log-file" else f"cannot write {os.devnull}"
    assert done.stderr == f"referee: {said}: it is a device, not a regular file: refused\n"
    folder = tmp_path / "folder"
    folder.mkdir()
    done = EVERY[kind](folder)
    assert done.returncode == 2
    assert done.stderr.endswith(": it is a folder, not a regular file: refused\n") and done.stderr.count("\n") == 1


@pytest.mark.parametrize("kind", list(WRITERS))
def test_a_descriptor_link_of_the_system_is_refused_not_replaced(kind: str) -> None:
    """/dev/fd/1 is a link to this process's standard output: replacing it (or /dev/stdout,
    which the same rule covers) would break it for every program. Refused."""
    done = WRITERS[kind](Path("/dev/fd/1"))
    assert done.returncode == 2
    assert done.stderr == (
        "referee: cannot write /dev/fd/1: it is a system file (in /dev or /proc): refused; "
        "for standard output, leave -o out\n"
    )


def test_the_rule_itself(tmp_path: Path) -> None:
    """`refused` and `write_output` without a command: links replaced whatever they name,
    a regular file's mode kept, /dev/stdout refused (never written in a test: a broken
    rule would replace it for the whole machine)."""
    assert refused(Path("/dev/stdout")) is not None and refused(Path("/proc/self/fd/1")) is not None
    path = tmp_path / "page"
    write_output(path, [b"one ", b"two"])
    assert path.read_bytes() == b"one two" and stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o600)
    write_output(path, "again")
    assert path.read_bytes() == b"again" and stat.S_IMODE(path.stat().st_mode) == 0o600
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link"
    link.symlink_to(fifo)  # a link elsewhere is replaced, whatever it names: the FIFO is never opened
    write_output(link, "a file now")
    assert link.read_bytes() == b"a file now" and stat.S_ISFIFO(fifo.lstat().st_mode)
    with pytest.raises(WriteFailed, match="it is a FIFO, not a regular file: refused"):
        write_output(fifo, "x")
    with pytest.raises(WriteFailed, match="it is a FIFO, not a regular file: refused"):
        open_appending(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # with a reader, the open succeeds: fstat refuses
    try:
        with pytest.raises(WriteFailed, match="it is a FIFO, not a regular file: refused"):
            open_appending(fifo)
    finally:
        os.close(reader)
