"""Files written at a path the user names (`check --parquet OUT`, `show --svg -o OUT`,
`replay --html -o OUT`, `mail --log-file PATH`): docs/files.md, "Outputs".

Such a path is not the referee's own: it may be a symbolic link someone planted, a FIFO
that would block the command for ever, a device. The rule:

- A file is written whole beside its path (`.NAME.tmp-XXXXXXXX`, created `O_EXCL |
  O_NOFOLLOW`, fsynced) and renamed over it, the folder fsynced: a crash or a full disk
  leaves the old file or the new, never half, and no file but OUT is ever written.
- A symbolic link at the path is itself replaced by the new file, never followed (what it
  names is never looked at): its target is unchanged, and a dangling link does not create
  the file it names.
- A FIFO, a device, a socket or a folder at the path is refused in one line (exit 2),
  told by `lstat`, never opened: nothing blocks. So is any path in /dev or /proc
  themselves (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`: links the system keeps, which
  must not be replaced; without `-o`, or with `-o -`, the output goes to standard output).
- An append-only file (`--log-file`) cannot be renamed over at each run: it is opened
  `O_APPEND | O_NOFOLLOW | O_NONBLOCK` and kept only when `fstat` says it is a regular file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from referee.store.atomic import NEW_FILE_MODE, renamed_into_place, temporary_name
from referee.store.ops import WriteFailed, fsync_folder, ops


def _kind(mode: int) -> str | None:
    """What a file of `mode` is, when it is not a regular file (None when it is)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"  # pragma: no cover - no other kind on POSIX


SYSTEM_FOLDERS = (Path("/dev"), Path("/proc"))
"""Folders whose links name a process's descriptors (`/dev/stdout`, `/dev/fd/1`,
`/proc/self/fd/1`): an output there is refused, never replaced."""


def _in_system_folder(path: Path) -> bool:
    folder = Path(os.path.realpath(path.parent))
    return folder == SYSTEM_FOLDERS[0] or folder == SYSTEM_FOLDERS[1] or SYSTEM_FOLDERS[1] in folder.parents


def refused(path: Path) -> str | None:
    """Why no output may be written at `path`, or None. Refused: a FIFO, a device, a
    socket or a folder, and anything in /dev or /proc themselves (`/dev/stdout`, a link
    the system keeps: replacing it would break it for every program). A regular file,
    nothing, or a symbolic link elsewhere (whatever it names: it is replaced, never
    followed) may be written. Nothing is opened."""
    try:
        found = os.lstat(path)
    except OSError:
        found = None  # nothing there (or no folder: said when the file is written)
    kind = None if found is None or stat.S_ISLNK(found.st_mode) else _kind(found.st_mode)
    if kind is not None:
        return f"it is {kind}, not a regular file: refused"
    if _in_system_folder(path):
        return "it is a system file (in /dev or /proc): refused; for standard output, leave -o out"
    return None


def _checked(path: Path) -> int:
    """The permission bits the new file gets (a regular file's own, else 0644); raises
    WriteFailed when the path is refused."""
    why = refused(path)
    if why is not None:
        raise WriteFailed(path, OSError(errno.EINVAL, why))
    try:
        found = os.lstat(path)
    except OSError:
        return NEW_FILE_MODE
    return stat.S_IMODE(found.st_mode) if stat.S_ISREG(found.st_mode) else NEW_FILE_MODE


def write_output(path: Path, data: str | bytes | Iterable[bytes]) -> None:
    """Put a regular file holding `data` (UTF-8 when a str; pieces written one after
    another, never joined in memory) at `path` by the rule above. Raises WriteFailed,
    naming the file, when the path is refused or the file cannot be written; the old
    file (or link) is then as it was, and no temporary file is left."""
    mode = _checked(path)
    renamed_into_place(path, data.encode("utf-8") if isinstance(data, str) else data, mode, pause=True)


@contextlib.contextmanager
def output_file(path: Path) -> Iterator[BinaryIO]:
    """A file opened for writing that becomes `path` when the block ends without an
    exception (flushed, fsynced, renamed over it, the folder fsynced), for a writer that
    wants a file object (pyarrow's `ParquetWriter`); removed, `path` untouched, when it
    raises. Raises WriteFailed when the path is refused or cannot be written."""
    mode = _checked(path)
    temporary = temporary_name(path)
    try:
        fd = ops().create(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    except OSError as error:
        raise WriteFailed(path, error) from None
    handle = os.fdopen(fd, "wb")
    try:
        os.fchmod(fd, mode)
        yield handle
        handle.flush()
        ops().fsync(fd)
        handle.close()
        ops().replace(temporary, path)
        fsync_folder(path.parent)
    except BaseException as error:
        handle.close()
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError) and not isinstance(error, WriteFailed):
            raise WriteFailed(path, error) from None
        raise


def refused_appending(path: Path) -> str | None:
    """Why `path` cannot be appended to (`open_appending` would refuse it), or None: told
    by `lstat`, nothing opened. A symbolic link is refused (an append-only file cannot be
    replaced, and is never written through), as are a FIFO, a device, a socket, a folder."""
    try:
        found = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(found.st_mode):
        return "it is a symbolic link: refused, not written through"
    kind = _kind(found.st_mode)
    return None if kind is None else f"it is {kind}, not a regular file: refused"


def open_appending(path: Path, mode: int = 0o640) -> int:
    """A descriptor of `path` opened for appending (created when missing; read-write, so
    that `lines.append_to` can read back the last line's end): never through
    a symbolic link (`O_NOFOLLOW`), never waiting on a FIFO (`O_NONBLOCK`), and kept only
    when it is a regular file. Raises WriteFailed naming the file and why."""
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY
    try:
        fd = ops().create(path, flags, mode)
    except OSError as error:
        if error.errno == errno.ELOOP and os.path.islink(path):
            linked = "it is a symbolic link: refused, not written through"
            raise WriteFailed(path, OSError(errno.ELOOP, linked)) from None
        if error.errno == errno.ENXIO:  # a FIFO nobody reads
            raise WriteFailed(path, OSError(errno.ENXIO, "it is a FIFO, not a regular file: refused")) from None
        raise WriteFailed(path, error) from None
    kind = _kind(os.fstat(fd).st_mode)
    if kind is not None:
        os.close(fd)
        raise WriteFailed(path, OSError(errno.EINVAL, f"it is {kind}, not a regular file: refused"))
    os.set_blocking(fd, True)
    return fd
