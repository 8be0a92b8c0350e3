"""Where records come from: `records(name)` is the one function that turns a file name
(`-` for standard input) into its records, read one after another.

Each item is a `Read`: the record's place in the source, what the reader made of it (a
`Record`, a `Malformed`, or a `ReadCrash` when the reader itself failed on it) and its
bytes as read (for `format`, which passes malformed records through)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import BinaryIO, NamedTuple

from notation import reader
from notation.model import ReadResult
from referee.adjudicate import dialect_for
from referee.errors import UnreadableError


class ReadCrash(NamedTuple):
    """A record on which the reader failed with an exception it did not foresee."""

    game: str | None
    line: int
    error: Exception


class Read(NamedTuple):
    number: int
    result: ReadResult | ReadCrash
    raw: bytes
    line: int = 1
    """The line of the file the record's text starts on."""


def records(name: str) -> Iterator[Read]:
    """The records of a file or of standard input, in order. Raises UnreadableError
    when the source cannot be opened or read."""
    with open_source(name) as stream:
        try:
            chunks = reader.split_records(stream.read())
            for index, (line, chunk) in enumerate(chunks, start=1):
                yield Read(index, _read_one(chunk, line), chunk, line)
        except OSError as error:
            raise _unreadable(name, error) from None


def _read_one(chunk: bytes, line: int) -> ReadResult | ReadCrash:
    try:
        return reader.read_record(chunk, line, dialect_for)
    except Exception as error:  # a bug of the reader: this record gets its own verdict
        game = reader.GAME_VALUE.match(chunk.decode("utf-8", "replace"))
        return ReadCrash(game.group(1).strip().lower() if game else None, line, error)


def open_source(name: str) -> AbstractContextManager[BinaryIO]:
    """A file opened for reading bytes, or standard input for `-` (left open after use)."""
    if name == "-":
        if sys.stdin is None:
            raise UnreadableError("cannot read standard input: it is closed")
        return nullcontext(sys.stdin.buffer)
    try:
        return open(name, "rb")
    except OSError as error:
        raise _unreadable(name, error) from None


def _unreadable(name: str, error: OSError) -> UnreadableError:
    what = "standard input" if name == "-" else name
    return UnreadableError(f"cannot read {what}: {error.strerror or error}")
