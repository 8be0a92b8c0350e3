"""The one seam through which the referee changes files: every `open` that creates, every
`write`, `fsync`, `truncate`, `rename`, `link`, `unlink`, `mkdir` and `rmdir` of `referee.store` is a
call on the object `ops()` returns. A test replaces it (`install`) by one that fails the
k-th call with ENOSPC or EIO, or kills the process there, to prove that every operation is
all or nothing whatever call fails (tests/store/, docs/files.md).

A failed write becomes `WriteFailed`, which names the file the referee could not write."""

from __future__ import annotations

import os
from pathlib import Path

from referee.errors import WriteFailed as WriteFailed  # (there, so the command line's boundary needs no store)


class FileOps:
    """The calls that change files, one method each; the plain one calls `os`. The folder
    descriptors (`dir_fd`, `src_dir_fd`, `dst_dir_fd`) make a name relative to an open
    folder, as recovery works (`referee.store.replay`): never through a link."""

    def create(self, path: Path | str, flags: int, mode: int, *, dir_fd: int | None = None) -> int:
        return os.open(path, flags, mode, dir_fd=dir_fd)

    def write(self, fd: int, data: bytes | memoryview) -> int:
        return os.write(fd, data)

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def truncate(self, fd: int, length: int) -> None:
        os.ftruncate(fd, length)

    def replace(
        self, source: Path | str, target: Path | str, *, src_dir_fd: int | None = None, dst_dir_fd: int | None = None
    ) -> None:
        os.replace(source, target, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd)

    def link(
        self, source: Path | str, target: Path | str, *, src_dir_fd: int | None = None, dst_dir_fd: int | None = None
    ) -> None:
        os.link(source, target, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd, follow_symlinks=False)

    def unlink(self, path: Path | str, *, dir_fd: int | None = None) -> None:
        os.unlink(path, dir_fd=dir_fd)

    def mkdir(self, path: Path | str, mode: int, *, dir_fd: int | None = None) -> None:
        os.mkdir(path, mode, dir_fd=dir_fd)

    def rmdir(self, path: Path | str, *, dir_fd: int | None = None) -> None:
        os.rmdir(path, dir_fd=dir_fd)


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
