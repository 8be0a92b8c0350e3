"""One file written whole (PLAY.md §4): a hidden temporary file in the same folder
(`.FILE.tmp-XXXXXXXX`, which no `*.rgn` pattern matches), written, fsynced, renamed over
the file, and the folder fsynced; a crash at any instant leaves the old content or the
new, never half. Every call that changes a file goes through `referee.store.ops`.

An operation that writes more than one file stages them in a journal instead
(`referee.store.journal`), which writes each of them this way or by renaming its staged
copy."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from referee.store.lines import append_to
from referee.store.lock import target_of
from referee.store.ops import WriteFailed, fsync_folder, ops, write_all

SLOW_WRITE_ENV = "REFEREE_PLAY_SLOW_WRITE"
"""Test hook: seconds to pause in the middle of writing the temporary file and again
before the rename, to widen the window a crash test aims at. Unset in normal use."""

NEW_FILE_MODE = 0o644


def temporary_name(path: Path) -> Path:
    """A hidden name beside `path` that never ends in `.rgn`."""
    return path.with_name(f".{path.name}.tmp-{secrets.token_hex(4)}")


def _pause() -> None:
    delay = os.environ.get(SLOW_WRITE_ENV)
    if delay:
        with contextlib.suppress(ValueError):
            time.sleep(float(delay))


def mode_of(path: Path, default: int = NEW_FILE_MODE) -> int:
    """The permission bits `path` has (to keep them), `default` for a new file."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:  # none there (or no folder where one should be: said when it is written)
        return default


def write_file(path: Path, data: bytes | Iterable[bytes], mode: int, *, pause: bool = False) -> None:
    """Create `path` (never there before) holding `data` (or its pieces, one after
    another), fsynced, with `mode`."""
    fd = ops().create(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        os.fchmod(fd, mode)
        if isinstance(data, bytes) and pause:
            half = len(data) // 2
            write_all(fd, data[:half])
            _pause()
            write_all(fd, data[half:])
        elif isinstance(data, bytes):
            write_all(fd, data)
        else:
            for number, piece in enumerate(data):
                if pause and number == 1:  # (pieces: paused after the first)
                    _pause()
                write_all(fd, piece)
        ops().fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, text: str | bytes, mode: int | None = None) -> None:
    """Replace the referee's own file `path` (a game file, a ledger: not a path the user
    names for an output, which `referee.store.outputs` writes) by `text` (UTF-8 when it is
    a str) so that a crash at any instant leaves the old or the new content. Keeps the
    file's permission bits when it exists (`mode` for a new file, else 0644). A symbolic
    link is written through to the file it names (the link stays: a game file is locked
    as the file it names, PLAY.md §4); a path naming anything but a regular file (a FIFO,
    a device, a folder) is refused, never opened. Raises WriteFailed, naming the file."""
    path = target_of(path)
    try:
        found = path.stat()
    except FileNotFoundError:
        found = None
    except OSError as error:
        raise WriteFailed(path, error) from None
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise WriteFailed(path, OSError(errno.EINVAL, "not a regular file: refused"))
    bits = found.st_mode & 0o7777 if found is not None else (mode if mode is not None else NEW_FILE_MODE)
    renamed_into_place(path, text.encode("utf-8") if isinstance(text, str) else text, bits, pause=True)


def renamed_into_place(path: Path, data: bytes | Iterable[bytes], mode: int, *, pause: bool = False) -> None:
    """A temporary file beside `path` written (`data`, or its pieces one after another)
    and fsynced, renamed over `path` (whatever stands there: a link is replaced), the
    folder fsynced; the temporary file removed on any failure (one raised while the
    pieces are made too). Raises WriteFailed, naming `path`."""
    try:
        temporary = temporary_name(path)
        try:
            write_file(temporary, data, mode, pause=pause)
            if pause:
                _pause()
            ops().replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        fsync_folder(path.parent)
    except WriteFailed:
        raise
    except OSError as error:
        raise WriteFailed(path, error) from None


def replace_atomically(path: Path, text: str | bytes, mode: int = NEW_FILE_MODE) -> None:
    """Put a new regular file holding `text` at `path` whatever stands there, written as
    `write_atomically` writes (temporary file, fsync, rename, fsync of the folder), but
    never through it: a symbolic link, a pipe or a device at `path` is itself replaced,
    never followed nor written to (a folder the referee does not trust: `league site -o`).
    Raises WriteFailed, naming the file."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    renamed_into_place(path, data, mode)


def create_atomically(path: Path, text: str | bytes, mode: int = NEW_FILE_MODE) -> None:
    """Create `path` holding `text`, never replacing a file already there (raises
    FileExistsError): written to a temporary file, fsynced, then linked to its name, so
    that a crash or a full disk leaves no half-written file (a key file, say). Where the
    file system cannot link, the file is created exclusively and written in place."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    temporary = temporary_name(path)
    try:
        try:
            write_file(temporary, data, mode)
            try:
                ops().link(temporary, path)
            except FileExistsError:
                raise
            except OSError as error:
                if error.errno not in (1, 18, 38, 95):  # EPERM, EXDEV, ENOSYS, EOPNOTSUPP: no links here
                    raise
                _create_in_place(path, data, mode)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        fsync_folder(path.parent)
    except FileExistsError:
        raise
    except WriteFailed:
        raise
    except OSError as error:
        raise WriteFailed(path, error) from None


def _create_in_place(path: Path, data: bytes, mode: int) -> None:
    try:
        write_file(path, data, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


def append_line(path: Path, data: bytes) -> None:
    """Append `data` (whole lines) with one `write` on a file opened for appending (so that
    lines of processes writing at once never mix), then fsync it; a last line left without
    its end by a dead run is removed first, and a failed append leaves the file as it was
    (`referee.store.lines`). Raises WriteFailed."""
    try:
        flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        fd = ops().create(path, flags, 0o640)  # never through a link, never waiting on a FIFO
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file: refused")
            os.set_blocking(fd, True)
            append_to(fd, data)
        finally:
            os.close(fd)
    except OSError as error:
        raise WriteFailed(path, error) from None
