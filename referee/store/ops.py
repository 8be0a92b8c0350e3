"""The one seam through which the referee changes files: every `open` that creates, every
`write`, `fsync`, `rename`, `link`, `unlink`, `mkdir` and `rmdir` of `referee.store` is a
call on the object `ops()` returns. A test replaces it (`install`) by one that fails the
k-th call with ENOSPC or EIO, or kills the process there, to prove that every operation is
all or nothing whatever call fails (tests/store/, docs/files.md).

A failed write becomes `WriteFailed`, which names the file the referee could not write."""

from __future__ import annotations

import os
from pathlib import Path


class WriteFailed(OSError):
    """A file the referee could not write (a full disk, an I/O error): its message names
    the file, in one line ("cannot write DIR/mail.log: No space left on device")."""

    def __init__(self, path: Path | str, error: OSError, note: str = "") -> None:
        reason = error.strerror or str(error) or type(error).__name__
        super().__init__(error.errno, f"cannot write {path}: {reason}{note}")
        self.path = Path(path)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.strerror)


class FileOps:
    """The calls that change files, one method each; the plain one calls `os`."""

    def create(self, path: Path, flags: int, mode: int) -> int:
        return os.open(path, flags, mode)

    def write(self, fd: int, data: bytes | memoryview) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def replace(self, source: Path, target: Path) -> None:
        os.replace(source, target)

    def link(self, source: Path, target: Path) -> None:
        os.link(source, target, follow_symlinks=False)

    def unlink(self, path: Path) -> None:
        os.unlink(path)

    def mkdir(self, path: Path, mode: int) -> None:
        os.mkdir(path, mode)

    def rmdir(self, path: Path) -> None:
        os.rmdir(path)


_current: FileOps = FileOps()


def ops() -> FileOps:
    """The file operations in force."""
    return _current


def install(replacement: FileOps) -> FileOps:
    """Put `replacement` in force (tests); returns the one it replaces."""
    global _current
    before, _current = _current, replacement
    return before


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[ops().write(fd, view) :]


def fsync_folder(folder: Path) -> None:
    """Make a folder's entries durable (a rename, a link); a file system that cannot fsync
    a folder is not an error, the rename is done either way."""
    try:
        fd = os.open(folder or Path("."), os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        ops().fsync(fd)
    except OSError as error:
        if error.errno not in (22, 95):  # EINVAL, EOPNOTSUPP: the folder cannot be fsynced
            raise
    finally:
        os.close(fd)


def make_folders(folder: Path, mode: int = 0o755) -> None:
    """`mkdir -p`, through the seam."""
    if folder.is_dir():
        return
    make_folders(folder.parent, mode)
    try:
        ops().mkdir(folder, mode)
    except FileExistsError:
        if not folder.is_dir():
            raise
