"""Locks (PLAY.md §4): one writer at a time.

`locked` holds an advisory `fcntl.flock` on `FILE.lock` beside a file for a whole
read-check-write span; `folder_locked` holds one on a folder itself (no file is made),
which every operation of `referee.store.journal` takes first.

Links and deleted locks: a FILE that is a symbolic link is locked as the file it names, so
that every name of one game shares one lock. A `FILE.lock` that is a symbolic link is
refused, never followed. A lock is only trusted once the lock path is seen to still name
the file locked (same device and inode); and the game file itself is flocked the same way,
so that someone deleting `FILE.lock` while writers race cannot let two of them in at once.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from referee.errors import BusyError, UsageError

POLL = 0.02


def lock_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def target_of(path: Path) -> Path:
    """The file `path` names: itself, or, when it is a symbolic link, the file the link
    (and any link it names) finally points to."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


_kept: list[list[tuple[Path, int]]] = []
"""Per open transaction (`referee.store.journal`), the game locks taken inside it: released
only once it has committed, so that a game file's lock covers its write."""
_owned: set[Path] = set()
"""The game files whose lock this process keeps for a transaction's commit: locking one of
them again within that transaction is a no-op, never a wait on itself."""


def _release(target: Path, fds: list[int]) -> None:
    if _kept:
        _kept[-1].extend((target, fd) for fd in fds)  # held until the transaction's commit
        _owned.add(target)
        return
    for fd in fds:
        os.close(fd)  # closing releases the lock


@contextlib.contextmanager
def keeping_locks() -> Iterator[None]:
    """The game locks taken within this block are released when it ends, not before."""
    _kept.append([])
    try:
        yield
    finally:
        for target, fd in reversed(_kept.pop()):
            os.close(fd)
            _owned.discard(target)


@contextlib.contextmanager
def locked(path: Path, wait: float = 10.0) -> Iterator[None]:
    """Hold the exclusive lock of the game file `path` (on `path.lock`), waiting up to
    `wait` seconds for it; raises BusyError when it stays taken, UsageError when the
    lock path is a symbolic link or cannot be opened. The lock file is left in place:
    removing it would let two writers lock two different files."""
    target = target_of(path)
    if target in _owned:  # kept by this process for its transaction's commit
        yield
        return
    deadline = time.monotonic() + max(wait, 0.0)
    held = _hold(lock_path(target), path, deadline, create=True)
    if held is None:  # pragma: no cover - a lock file is created when missing
        raise UsageError(f"cannot lock {path}")
    fds = [held]
    try:
        game = _hold(target, path, deadline, create=False)
        if game is not None:
            fds.append(game)
        yield
    finally:
        _release(target, fds)


def _flock(fd: int, deadline: float, busy: str) -> None:
    """Take the exclusive flock of `fd`, polling until `deadline`; BusyError(`busy`) after it."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise BusyError(busy) from None
            time.sleep(POLL)


def _hold(name: Path, path: Path, deadline: float, *, create: bool) -> int | None:
    """An open descriptor of `name` holding its flock, once `name` is seen to still be the
    file locked; None (only when not `create`) when `name` does not exist."""
    while True:
        fd = _open_lock(name, path, create)
        if fd is None:
            return None
        try:
            _flock(fd, deadline, f"{path} is busy: another submission holds its lock; try again later")
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


@contextlib.contextmanager
def folder_locked(folder: Path, wait: float = 10.0) -> Iterator[None]:
    """Hold the exclusive flock of the folder itself (its own descriptor: no file is made),
    waiting up to `wait` seconds; BusyError when it stays taken."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as error:
        raise UsageError(f"cannot use the folder {folder}: {error.strerror or error}") from None
    try:
        deadline = time.monotonic() + max(wait, 0.0)
        _flock(fd, deadline, f"{folder} is busy: another command is writing in it; try again later")
        yield
    finally:
        os.close(fd)
