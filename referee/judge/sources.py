"""Where records come from: `records(name)` is the one function that turns a file name
(`-` for standard input) into its records, read one after another.

Each item is a `Read`: the record's place in the source and what the streaming reader
made of it (a `Record`, a `Malformed`, or a `ReadCrash` when the reader itself failed on
it), which carries its bytes as read (for `format`, which passes malformed records
through) and its byte offset."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import BinaryIO, NamedTuple

from notation import reader
from notation.model import ReadCrash as ReadCrash
from notation.model import ReadItem
from notation.stream import RawRecord
from notation.stream import raw_records as stream_records
from referee.judge import compressed
from referee.judge.adjudicate import dialect_for
from referee.judge.errors import UnreadableError


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


def records(name: str) -> Iterator[Read]:
    """The records of a file or of standard input, one at a time, each as soon as its text
    has arrived (memory is bounded by the largest record, not the source). Raises
    UnreadableError when the source cannot be opened or read."""
    for number, raw in raw_records(name):
        yield Read(number, reader.read_raw(raw, dialect_for))


def raw_records(name: str) -> Iterator[tuple[int, RawRecord]]:
    """The records of a file or of standard input as cut from it, not yet read, with
    their places (1 = first), each as soon as its text has arrived. Raises
    UnreadableError when the source cannot be opened or read."""
    with open_source(name) as stream:
        try:
            yield from enumerate(stream_records(stream), start=1)
        except OSError as error:
            raise unreadable(name, error) from None


@contextmanager
def open_source(name: str) -> Iterator[BinaryIO]:
    """A file opened for reading bytes, or standard input for `-` (left open after use),
    decompressed when it is gzip, bzip2, xz or Zstandard (`referee.judge.compressed`).
    Raises UnreadableError when it cannot be opened, or its compression not read."""
    with _opened(name) as stream:
        try:
            found = compressed.decompressed(stream, name)
        except OSError as error:
            raise unreadable(name, error) from None
        yield found


def _opened(name: str) -> AbstractContextManager[BinaryIO]:
    """The source's bytes as stored: a file opened for reading, or standard input."""
    if name == "-":
        if sys.stdin is None:
            raise UnreadableError("cannot read standard input: it is closed")
        return nullcontext(sys.stdin.buffer)
    try:
        return open(name, "rb")
    except OSError as error:
        raise unreadable(name, error) from None


def unreadable(name: str, error: OSError) -> UnreadableError:
    what = "standard input" if name == "-" else name
    return UnreadableError(f"cannot read {what}: {error.strerror or error}")
