"""Append-only files end at a line boundary whatever failed (docs/files.md): `league.log`,
`mail.log`, `--log-file`, `imap-handled.tsv`, every line any of them gets, goes through
`append_to`.

Two rules, for the two ways a line can be cut short:

- An append that fails (a full disk leaving the bytes that fit, an I/O error at the
  fsync) truncates the file back to the length it had before, at once: the line is not
  there, and the command says it could not write it.
- A process killed in the middle of its `write`, or a machine that lost the end of a file,
  can leave a last line with no end: before appending, the bytes after the file's last
  newline are removed (every writer of these files writes whole lines, so such a tail is
  only ever the remainder of an append cut short, whose operation either did not happen
  or is completed from its journal, which records the length the file had before it:
  `at`). A line added by hand must end with a newline, as every editor writes it.
"""

from __future__ import annotations

import contextlib
import errno
import os

from referee.store.ops import ops

_CHUNK = 1 << 16


def whole_length(fd: int) -> int:
    """The length of the file's whole lines: its size when it is empty or ends with a
    newline, else the offset just past its last newline (0 when it has none). Reads back
    from the end, a chunk at a time: linear in the tail it skips, bounded by the file."""
    size = os.fstat(fd).st_size
    end = size
    while end > 0:
        start = max(0, end - _CHUNK)
        chunk = os.pread(fd, end - start, start)
        if end == size and chunk.endswith(b"\n"):
            return size
        found = chunk.rfind(b"\n")
        if found >= 0:
            return start + found + 1
        end = start
    return 0


def holds_at(fd: int, data: bytes, at: int) -> bool:
    """Whether the file holds `data` at offset `at` (a journal's line appended already)."""
    if os.fstat(fd).st_size < at + len(data):
        return False
    got = bytearray()
    while len(got) < len(data):
        piece = os.pread(fd, len(data) - len(got), at + len(got))
        if not piece:
            return False
        got += piece
    return bytes(got) == data


def append_to(fd: int, data: bytes, at: int | None = None, *, sync: bool = True) -> bool:
    """Append `data` (whole lines) with one `write` to `fd` (opened read-write and for
    appending), then fsync it (unless `sync` is False: a journal's replay fsyncs each log
    once, before the journal is removed); False, and nothing written, when a journal's line is found
    already at `at`. The file is first cut back to `at` when given and not past its end (a
    journal's append done again), else to its whole lines; on any failure it is cut back to
    that length again. Raises OSError (ENOSPC for a short write)."""
    if at is not None and holds_at(fd, data, at):
        return False
    size = os.fstat(fd).st_size
    start = at if at is not None and at <= size else whole_length(fd)
    if start < size:
        ops().truncate(fd, start)
    try:
        written = ops().write(fd, data)
        if written != len(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # a short append: the disk is full
        if sync:
            ops().fsync(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            ops().truncate(fd, start)  # not a fragment left behind: the line is not there
        raise
    return True
