"""Where records come from: `raw_records(name)` is the one function that turns a file name
(`-` for standard input) into its records, cut one after another as they arrive; each
command reads them (`notation.reader.read_raw`) or streams them (`referee.judge.fast.streamed_verdict`).

A `Read` is a record's place in the source and what the streaming reader
made of it (a `Record`, a `Malformed`, or a `ReadCrash` when the reader itself failed on
it), which carries its bytes as read (for `format`, which passes malformed records
through) and its byte offset."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import BinaryIO, NamedTuple

from referee.errors import UnreadableError
from referee.judge.sources import decompress, parquet_rows
from referee.notation.model import ReadCrash as ReadCrash
from referee.notation.model import ReadItem
from referee.notation.record_splitter import DECOMPRESSED, ENDLESS, RawRecord, ReadingStopped, size_text
from referee.notation.record_splitter import MAX_RECORD as MAX_RECORD  # (the default bound: `--max-record-bytes`)
from referee.notation.record_splitter import raw_records as stream_records


class Read(NamedTuple):
    """One record of a source: its place (1 = first) and what the reader made of it."""

    number: int
    result: ReadItem

    @property
    def raw(self) -> bytes:
        """The record's bytes exactly as read."""
        return self.result.raw

    @property
    def line(self) -> int:
        """The line of the source its `[Game` stands on."""
        return self.result.span.line


def raw_records(name: str, max_record: int = MAX_RECORD) -> Iterator[tuple[int, RawRecord]]:
    """The records of a file or of standard input as cut from it, not yet read, with
    their places (1 = first), each as soon as its text has arrived; one larger than
    `max_record` bytes comes refused (`--max-record-bytes`, given by the command that
    reads, never kept for a later reader). Raises
    UnreadableError when the source cannot be opened or read. A Parquet file is read as a
    table, a record per row (`referee.judge.sources.parquet_rows`)."""
    if parquet_rows.is_parquet(name):
        yield from parquet_rows.raw_records(name, max_record)
        return
    with _source(name) as (stream, may_not_end, where):
        try:
            found = stream_records(stream, max_record=max_record, endless=may_not_end, where=where)
            yield from enumerate(found, start=1)
        except OSError as error:
            raise unreadable(name, error) from None
        except ReadingStopped as error:
            raise UnreadableError(f"{_what(name)}: {error}") from None


@contextmanager
def open_source(name: str) -> Iterator[BinaryIO]:
    """A file opened for reading bytes, or standard input for `-` (left open after use),
    decompressed when it is gzip, bzip2, xz or Zstandard (`referee.judge.sources.decompress`).
    Raises UnreadableError when it cannot be opened, or its compression not read."""
    with _source(name) as (found, _, _):
        yield found


@contextmanager
def _source(name: str) -> Iterator[tuple[BinaryIO, bool, str]]:
    """The source decompressed, whether it may never end (a pipe or a device, told from
    the stream as stored; or compressed: its decompressed size bounded by nothing, PLAY.md
    §8 applied to the decompressed bytes), and how a stop names it."""
    with _opened(name) as stream:
        may_not_end = endless(stream)
        try:
            found, kind = decompress.opened(stream, name)
        except OSError as error:
            raise unreadable(name, error) from None
        if kind is not None:
            yield found, True, DECOMPRESSED
        else:
            yield found, may_not_end, ENDLESS


def _opened(name: str) -> AbstractContextManager[BinaryIO]:
    """The source's bytes as stored: a file opened for reading, or standard input for `-`.
    A named source must be a regular file: a FIFO, a device or a folder is refused
    (UnreadableError) before anything is read from it."""
    if name == "-":
        if sys.stdin is None:
            raise UnreadableError("cannot read standard input: it is closed")
        return nullcontext(sys.stdin.buffer)
    return open_regular(name)


def open_regular(name: str | os.PathLike[str], what: str | None = None) -> BinaryIO:
    """A regular file opened for reading bytes; UnreadableError for anything else (a FIFO
    is opened without waiting for a writer, and refused). `what` names it in errors."""
    label = what or str(name)
    try:
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise UnreadableError(f"cannot read {label}: {error.strerror or error}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"
            raise UnreadableError(f"cannot read {label}: it is {kind}, not a regular file")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def endless(stream: BinaryIO) -> bool:
    """Whether a stream may never end: anything but a regular file (a pipe, a device)."""
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return False  # a stream in memory ends


def read_bounded(name: str | os.PathLike[str], limit: int, what: str | None = None) -> bytes:
    """The whole of a regular file (or of standard input for `-`), at most `limit` bytes:
    a larger input is refused (UnreadableError naming the limit), never read beyond
    `limit + 1` bytes; a FIFO or a device given by name is refused unread."""
    label = what or _what(str(name))
    try:
        with open_source(str(name)) if str(name) == "-" else open_regular(name, label) as stream:
            return read_stream_bounded(stream, limit, label)
    except OSError as error:
        raise UnreadableError(f"cannot read {label}: {error.strerror or error}") from None


def read_stream_bounded(stream: BinaryIO, limit: int, what: str) -> bytes:
    """At most `limit` bytes of an open stream, to its end; UnreadableError when it holds
    more. Read a piece at a time: nothing the size of the limit is allocated in advance."""
    pieces: list[bytes] = []
    total = 0
    while total <= limit:
        piece = stream.read(min(_PIECE, limit + 1 - total))
        if not piece:
            break
        pieces.append(piece)
        total += len(piece)
    if total > limit:
        raise UnreadableError(f"{what} is larger than {size_text(limit)}: refused, not read")
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


_PIECE = 1 << 20


PASSPHRASE_BYTES = 1024
"""The most of a passphrase read from standard input (`mail --add-player`, `league add --key`)."""
KEY_BYTES = 4096
"""The most of a key file (`--seed-file`, `keys/ID.key`) read: one line, the seed."""


def read_stdin_bounded(limit: int, what: str) -> bytes:
    """All of standard input, at most `limit` bytes (UnreadableError beyond, or when closed)."""
    if sys.stdin is None:
        raise UnreadableError(f"cannot read {what}: standard input is closed")
    try:
        return read_stream_bounded(sys.stdin.buffer, limit, what)
    except OSError as error:
        raise UnreadableError(f"cannot read {what}: {error.strerror or error}") from None


def _what(name: str) -> str:
    return "standard input" if name == "-" else name


def unreadable(name: str, error: OSError) -> UnreadableError:
    return UnreadableError(f"cannot read {_what(name)}: {error.strerror or error}")
