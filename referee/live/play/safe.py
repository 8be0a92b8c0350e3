"""Writing game files safely (PLAY.md §4): one writer at a time, and a file that is always
either the old record or the new one, never half written.

`locked` holds an advisory `fcntl.flock` on `FILE.lock` beside the game file for the whole
read-check-write span; `write_atomically` writes a hidden temporary file in the same
folder (`.FILE.tmp-XXXXXXXX`, which no `*.rgn` pattern matches), fsyncs it, renames it over
the file and fsyncs the folder.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

from referee.judge.errors import BusyError, UsageError

SLOW_WRITE_ENV = "REFEREE_PLAY_SLOW_WRITE"
"""Test hook: seconds to pause in the middle of writing the temporary file and again
before the rename, to widen the window a crash test aims at. Unset in normal use."""

POLL = 0.02


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


@contextlib.contextmanager
def locked(path: Path, wait: float = 10.0) -> Iterator[None]:
    """Hold the exclusive lock of the game file `path` (on `path.lock`), waiting up to
    `wait` seconds for it; raises BusyError when it stays taken. The lock file is left in
    place: removing it would let two writers lock two different files."""
    name = lock_path(path)
    try:
        fd = os.open(name, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise UsageError(f"cannot lock {path}: {error.strerror or error} ({name})") from None
    try:
        deadline = time.monotonic() + max(wait, 0.0)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise BusyError(f"{path} is busy: another submission holds its lock; try again later") from None
                time.sleep(POLL)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def temporary_name(path: Path) -> Path:
    """A hidden name beside `path` that never ends in `.rgn`."""
    return path.with_name(f".{path.name}.tmp-{secrets.token_hex(4)}")


def _pause() -> None:
    delay = os.environ.get(SLOW_WRITE_ENV)
    if delay:
        with contextlib.suppress(ValueError):
            time.sleep(float(delay))


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` by `text` (UTF-8) so that a crash at any instant leaves the old or
    the new content. Keeps the file's permission bits when it exists."""
    try:
        mode = path.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    temporary = temporary_name(path)
    data = text.encode("utf-8")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        try:
            half = len(data) // 2
            _write_all(fd, data[:half])
            _pause()
            _write_all(fd, data[half:])
            os.fsync(fd)
        finally:
            os.close(fd)
        _pause()
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(path.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder or Path("."), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot fsync a folder; the rename is done either way
    finally:
        os.close(fd)
