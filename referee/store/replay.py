"""Applying a committed journal's steps, and setting aside one that is not the referee's
(docs/files.md, "A folder from someone else").

Everything here works relative to the folder's open descriptor: each target's names are
walked one folder at a time (`O_DIRECTORY | O_NOFOLLOW`: a link is never followed), the
staged copies are named relative to the journal's own descriptor, and every call that
changes a file goes through `referee.store.ops` with those descriptors. A step that asks
for what a journal of the referee never asks (a link on the way, a folder where a file
should be, a file made meanwhile with another content) stops the replay: the journal is
renamed `.journal-*.rejected` and never read again (`Rejected`, exit 2)."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from referee.errors import UsageError
from referee.store.lines import append_to
from referee.store.manifest import COMMIT, Entry, Kind
from referee.store.ops import WriteFailed, ops, write_all

REJECTED = ".rejected"
_NO_LINKS = (errno.EPERM, errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP)  # renamed or linked within one file system
_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_MAX_FOLDERS = 64


class Rejected(UsageError):
    """Journals set aside, never applied: the one line saying which, and where they went."""


class Refused(Exception):
    """A step no journal of the referee holds (why, in a few words)."""


def shown(name: str) -> str:
    """A name as one line can show it: controls and surrogates escaped."""
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in name)


class Folders:
    """The folders a replay walks, each opened once: the folder the journal belongs to,
    the trusted roots of steps outside it, and the folders below them (a bounded cache;
    a folder changed is fsynced before its descriptor is closed, or at the end)."""

    def __init__(self, folder_fd: int, roots: dict[str, int]) -> None:
        self.folder_fd = folder_fd
        self.roots = roots
        self._open: dict[tuple[str | None, tuple[str, ...]], int] = {}
        self._touched: set[int] = set()
        self._logs: dict[tuple[str | None, tuple[str, ...]], int] = {}

    def parent(self, entry: Entry, make: bool) -> int | None:
        """The descriptor of the folder holding the target (made when missing and `make`;
        None when missing and not). Refused when a name on the way is a link or not a folder."""
        base = self.folder_fd if entry.root is None else self.roots.get(entry.root)
        if base is None:
            raise Refused(f"the folder {shown(entry.root or '')} is not this command's")
        names = entry.parts[:-1]
        if not names:
            return base
        key = (entry.root, names)
        if key in self._open:
            return self._open[key]
        fd = base
        opened: list[int] = []
        try:
            for name in names:
                try:
                    fd = os.open(name, _OPEN_DIR, dir_fd=fd)
                except FileNotFoundError:
                    if not make:
                        return None
                    with contextlib.suppress(FileExistsError):
                        ops().mkdir(name, 0o755, dir_fd=fd)
                    _fsync_folder(fd)  # the new folder's name made durable
                    fd = _open_folder(name, fd)
                except OSError as error:
                    _refuse_link(name, fd, error)
                    raise
                opened.append(fd)
        except BaseException:
            for each in opened:
                os.close(each)
            raise
        for each in opened[:-1]:
            os.close(each)
        if len(self._open) >= _MAX_FOLDERS:
            self.close()
        self._open[key] = fd
        return fd

    def log(self, entry: Entry) -> int:
        """The log `entry` appends to, opened for appending (once for all its steps, fsynced
        at the end); Refused when it is a link, a folder or not a regular file."""
        key = (entry.root, entry.parts)
        if key in self._logs:
            return self._logs[key]
        parent = self.parent(entry, make=True)
        assert parent is not None
        name = entry.parts[-1]
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = ops().create(name, flags, 0o640, dir_fd=parent)
        except OSError as error:
            _refuse_link(name, parent, error)
            if error.errno == errno.EISDIR:
                raise Refused(f"{shown(name)} is a folder") from None
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise Refused(f"{shown(name)} is not a regular file")
        if len(self._logs) >= _MAX_FOLDERS:
            self.close_logs()
        self._logs[key] = fd
        return fd

    def close_logs(self, sync: bool = True) -> None:
        """fsync (unless not `sync`) and close every log opened."""
        while self._logs:
            _, fd = self._logs.popitem()
            try:
                if sync:
                    ops().fsync(fd)
            finally:
                os.close(fd)

    def touch(self, fd: int) -> None:
        self._touched.add(fd)

    def sync(self) -> None:
        """fsync every log appended to, every folder changed."""
        self.close_logs()
        for fd in sorted(self._touched):
            _fsync_folder(fd)
        self._touched.clear()

    def close(self, sync: bool = True) -> None:
        while self._open:
            _, fd = self._open.popitem()
            try:
                if sync and fd in self._touched:
                    _fsync_folder(fd)
            finally:
                self._touched.discard(fd)
                os.close(fd)


def _open_folder(name: str, at: int) -> int:
    try:
        return os.open(name, _OPEN_DIR, dir_fd=at)
    except OSError as error:
        _refuse_link(name, at, error)
        raise


def _refuse_link(name: str, at: int, error: OSError) -> None:
    with contextlib.suppress(OSError):
        if stat.S_ISLNK(os.stat(name, dir_fd=at, follow_symlinks=False).st_mode):
            raise Refused(f"{shown(name)} is a symbolic link") from None
    if error.errno == errno.ELOOP:
        raise Refused(f"{shown(name)} is a symbolic link") from None


def replay(folder: Path, folder_fd: int, journal_fd: int, entries: Sequence[Entry], roots: dict[str, int]) -> None:
    """Apply the steps in order (again, after a crash: each is done once) and fsync the
    folders they changed. Refused for a step no journal of the referee holds; WriteFailed,
    naming the target, when one cannot be written (the journal then stays, committed)."""
    folders = Folders(folder_fd, roots)
    try:
        for entry in entries:
            try:
                _step(folders, journal_fd, entry)
            except Refused as refused:
                raise Refused(f"step {shown(entry.target)}: {refused}") from None
            except OSError as error:
                shown_target = Path(entry.root or folder) / entry.target
                reason = OSError(error.errno, error.reason) if isinstance(error, WriteFailed) else error
                raise WriteFailed(shown_target, reason, committed(folder)) from None
        try:
            folders.sync()
        except OSError as error:
            raise WriteFailed(folder, error, committed(folder)) from None
    finally:
        folders.close_logs(sync=False)
        folders.close(sync=False)


def committed(folder: Path) -> str:
    return f" (the operation is recorded: the next command on {folder} completes it)"


def _fsync_folder(fd: int) -> None:
    try:
        ops().fsync(fd)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.EOPNOTSUPP):
            raise


def _staged(journal_fd: int, entry: Entry) -> bool:
    """Whether the step's staged copy is still in the journal (a regular file)."""
    assert entry.staged is not None
    try:
        found = os.stat(entry.staged, dir_fd=journal_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(found.st_mode):
        raise Refused("its staged copy is not a regular file")
    return True


def _read(name: str, at: int, limit: int) -> bytes:
    """At most `limit` + 1 bytes of a regular file `name` in folder `at`, never through a link."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=at)
    except OSError as error:
        _refuse_link(name, at, error)
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused(f"{shown(name)} is not a regular file")
        pieces: list[bytes] = []
        left = limit + 1
        while left > 0 and (piece := os.read(fd, min(left, 1 << 20))):
            pieces.append(piece)
            left -= len(piece)
        return b"".join(pieces)
    finally:
        os.close(fd)


def _step(folders: Folders, journal_fd: int, entry: Entry) -> None:
    name = entry.parts[-1]
    if entry.kind is Kind.REMOVE:
        parent = folders.parent(entry, make=False)
        if parent is None:
            return
        try:
            ops().unlink(name, dir_fd=parent)
        except FileNotFoundError:  # removed before a crash
            return
        except IsADirectoryError:
            raise Refused(f"{shown(name)} is a folder") from None
        except PermissionError:
            if stat.S_ISDIR(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode):
                raise Refused(f"{shown(name)} is a folder") from None
            raise
        folders.touch(parent)
        return
    if entry.kind is Kind.APPEND:
        assert entry.line is not None
        append_to(folders.log(entry), entry.line, entry.at, sync=False)
        return
    assert entry.staged is not None
    if not _staged(journal_fd, entry):
        if entry.kind is Kind.WRITE:
            return  # renamed into place before the crash
        raise Refused("its staged copy is missing")
    parent = folders.parent(entry, make=True)
    assert parent is not None
    if entry.kind is Kind.WRITE:
        _write(journal_fd, entry, parent, name)
    else:
        _create(journal_fd, entry, parent, name)
    folders.touch(parent)


def _write(journal_fd: int, entry: Entry, parent: int, name: str) -> None:
    assert entry.staged is not None
    try:
        ops().replace(entry.staged, name, src_dir_fd=journal_fd, dst_dir_fd=parent)
    except IsADirectoryError:
        raise Refused(f"{shown(name)} is a folder") from None
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise
        with _temporary(parent, name, _staged_bytes(journal_fd, entry.staged), entry.mode) as temporary:
            ops().replace(temporary, name, src_dir_fd=parent, dst_dir_fd=parent)
        ops().unlink(entry.staged, dir_fd=journal_fd)


def _create(journal_fd: int, entry: Entry, parent: int, name: str) -> None:
    assert entry.staged is not None
    try:
        ops().link(entry.staged, name, src_dir_fd=journal_fd, dst_dir_fd=parent)
    except FileExistsError:
        _same(journal_fd, entry.staged, parent, name)
    except OSError as error:
        if error.errno not in _NO_LINKS:
            raise
        with _temporary(parent, name, _staged_bytes(journal_fd, entry.staged), entry.mode) as temporary:
            try:
                ops().link(temporary, name, src_dir_fd=parent, dst_dir_fd=parent)
            except FileExistsError:
                _same(journal_fd, entry.staged, parent, name)


def _staged_bytes(journal_fd: int, staged: str) -> bytes:
    """The bytes of a staged file of the journal (copied where the file system has no links)."""
    size = os.stat(staged, dir_fd=journal_fd, follow_symlinks=False).st_size
    return _read(staged, journal_fd, size)


def _same(journal_fd: int, staged: str, parent: int, name: str) -> None:
    """A file to create found there: kept when it is the staged one (linked before a
    crash), Refused when it holds something else (made by another command meanwhile)."""
    size = os.stat(staged, dir_fd=journal_fd, follow_symlinks=False).st_size
    if _read(name, parent, size) != _read(staged, journal_fd, size):
        raise Refused(f"{shown(name)} was made by another command meanwhile, with another content: not replaced")


@contextlib.contextmanager
def _temporary(parent: int, name: str, data: bytes, mode: int) -> Iterator[str]:
    """A hidden file beside `name` holding `data`, fsynced (removed when the block ends)."""
    temporary = f".{name[:200]}.tmp-{secrets.token_hex(4)}"
    fd = ops().create(
        temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=parent
    )
    try:
        try:
            os.fchmod(fd, mode)
            write_all(fd, data)
            ops().fsync(fd)
        finally:
            os.close(fd)
        yield temporary
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=parent)


# -- removing a journal, setting one aside -----------------------------------------------------


def discard(folder_fd: int, name: str, journal_fd: int, committed: bool) -> bool:
    """Remove the journal `name`: its commit first (a journal half removed is then one to
    throw away, every step applied), then its staged copies, then itself. False when it
    could not be removed whole (what is left is for the next command)."""
    try:
        if committed:
            ops().unlink(COMMIT, dir_fd=journal_fd)
            _fsync_folder(journal_fd)
        for each in sorted(os.listdir(journal_fd)):
            ops().unlink(each, dir_fd=journal_fd)
        ops().rmdir(name, dir_fd=folder_fd)
    except OSError:
        return False
    return True


def set_aside(folder_fd: int, name: str) -> str:
    """Rename the journal `name` (whatever it is: a link is renamed, not followed) to a name
    recovery never reads, `NAME.rejected` or `NAME-N.rejected`; that name."""
    for number in range(1000):
        aside = f"{name}{REJECTED}" if number == 0 else f"{name}-{number}{REJECTED}"
        try:
            os.stat(aside, dir_fd=folder_fd, follow_symlinks=False)
        except FileNotFoundError:
            ops().replace(name, aside, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
            _fsync_folder(folder_fd)
            return aside
    raise OSError(errno.EEXIST, "no free name to set it aside")
