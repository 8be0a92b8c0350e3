"""Writing game files safely (PLAY.md §4): one writer at a time, and a file that is always
either the old record or the new one, never half written.

`locked` holds an advisory `fcntl.flock` on `FILE.lock` beside the game file for the whole
read-check-write span; `write_atomically` writes a hidden temporary file in the same
folder (`.FILE.tmp-XXXXXXXX`, which no `*.rgn` pattern matches), fsyncs it, renames it over
the file and fsyncs the folder. Every file the referee writes goes through it (games, the
mail ledger and outbox, `-o` pictures and pages).

Links and deleted locks: a FILE that is a symbolic link is written through to the file it
names (the link stays a link), and that file's lock is the one taken, so that every name of
one game shares one lock. A `FILE.lock` that is a symbolic link is refused, never followed.
A lock is only trusted once the lock path is seen to still name the file locked (same
device and inode); and the game file itself is flocked the same way, so that someone
deleting `FILE.lock` while writers race cannot let two of them in at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import secrets
import stat
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


def target_of(path: Path) -> Path:
    """The file `path` names: itself, or, when it is a symbolic link, the file the link
    (and any link it names) finally points to."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


@contextlib.contextmanager
def locked(path: Path, wait: float = 10.0) -> Iterator[None]:
    """Hold the exclusive lock of the game file `path` (on `path.lock`), waiting up to
    `wait` seconds for it; raises BusyError when it stays taken, UsageError when the
    lock path is a symbolic link or cannot be opened. The lock file is left in place:
    removing it would let two writers lock two different files."""
    target = target_of(path)
    deadline = time.monotonic() + max(wait, 0.0)
    held = _hold(lock_path(target), path, deadline, create=True)
    if held is None:  # pragma: no cover - a lock file is created when missing
        raise UsageError(f"cannot lock {path}")
    try:
        game = _hold(target, path, deadline, create=False)
        try:
            yield
        finally:
            if game is not None:
                os.close(game)
    finally:
        os.close(held)  # closing releases the lock


def _hold(name: Path, path: Path, deadline: float, *, create: bool) -> int | None:
    """An open descriptor of `name` holding its flock, once `name` is seen to still be the
    file locked; None (only when not `create`) when `name` does not exist."""
    while True:
        fd = _open_lock(name, path, create)
        if fd is None:
            return None
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise BusyError(f"{path} is busy: another submission holds its lock; try again later") from None
                    time.sleep(POLL)
            if _still_named(fd, name):
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # the name was removed or replaced while we waited: lock what it names now


def _open_lock(name: Path, path: Path, create: bool) -> int | None:
    """The lock file opened (created when missing), never through a link; or, when not
    `create`, the game file opened for its own flock, None when it is missing or not a
    plain readable file (reading it then reports the problem)."""
    if not create:
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd
    try:
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    except OSError as error:
        if os.path.islink(name):
            raise UsageError(
                f"cannot lock {path}: {name} is a symbolic link; a lock file is never followed (remove the link)"
            ) from None
        raise UsageError(f"cannot lock {path}: {error.strerror or error} ({name})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise UsageError(f"cannot lock {path}: {name} is not a regular file")
    return fd


def _still_named(fd: int, name: Path) -> bool:
    try:
        now = os.stat(name, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)


def temporary_name(path: Path) -> Path:
    """A hidden name beside `path` that never ends in `.rgn`."""
    return path.with_name(f".{path.name}.tmp-{secrets.token_hex(4)}")


def _pause() -> None:
    delay = os.environ.get(SLOW_WRITE_ENV)
    if delay:
        with contextlib.suppress(ValueError):
            time.sleep(float(delay))


def write_atomically(path: Path, text: str | bytes) -> None:
    """Replace `path` by `text` (UTF-8 when it is a str) so that a crash at any instant
    leaves the old or the new content. Keeps the file's permission bits when it exists.
    A symbolic link is written through to the file it names (the link stays); a path
    naming a device or a pipe (`-o /dev/stdout`) cannot be replaced and is written to."""
    path = target_of(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        found = path.stat()
    except FileNotFoundError:
        mode = 0o644
    else:
        if not stat.S_ISREG(found.st_mode) and not stat.S_ISDIR(found.st_mode):
            _write_into(path, data)
            return
        mode = found.st_mode & 0o7777
    temporary = temporary_name(path)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
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


def create_atomically(path: Path, text: str | bytes, mode: int = 0o644) -> None:
    """Create `path` holding `text`, never replacing a file already there (raises
    FileExistsError): written to a temporary file, fsynced, then linked to its name, so
    that a crash or a full disk leaves no half-written file (a key file, say). Where the
    file system cannot link, the file is created exclusively and written in place."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    temporary = temporary_name(path)
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        try:
            os.fchmod(fd, mode)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(temporary, path, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError:
            _create_in_place(path, data, mode)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    _fsync_folder(path.parent)


def _create_in_place(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        os.fchmod(fd, mode)
        _write_all(fd, data)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise
    os.close(fd)


def _write_into(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


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
