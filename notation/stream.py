"""Cutting a byte stream into records as their text arrives (NOTATION.md §1, §3).

A record starts at its `[Game` tag and runs to the next record's `[Game` or the end of the
input. A `[Game` (not followed by a letter, digit or `_`) starts a record:

- anywhere in the text before the first record (a mail saying "Here is my move: [Game ..."),
- after leading white space on its line, always, even inside an unclosed `{` comment, so
  one broken record never swallows the next,
- anywhere in move text outside a `{}` or `;` comment and outside a quoted tag value (two
  records joined on one line by a mail program).

The splitter scans only complete lines (a `[Game` never spans lines), keeps as state only
whether it is inside a braced comment, a `;` comment or a quoted value, and holds in memory
only the record being cut and the block read after it: peak memory is bounded by the
largest record, not by the input.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

BOM = b"\xef\xbb\xbf"
WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
"""Byte-order marks of UTF-32 and UTF-16 text (UTF-32 LE first: its mark starts like UTF-16 LE's)."""
BLOCK = 1 << 16

_GAME = rb"\[Game(?![A-Za-z0-9_])"
_START = re.compile(_GAME)
_NAME_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_LINE_START_GAME = re.compile(rb"^[ \t]*(" + _GAME + rb")", re.MULTILINE)
# A quoted value ends at its closing quote or its line's end; written unrolled so that a
# long value costs no memory per character in the regex engine.
_IN_QUOTES = re.compile(rb'[^"\\\n]*(?:\\[^\n][^"\\\n]*)*')

_OUTSIDE_STATE, _BRACES, _LINE_COMMENT, _QUOTES = range(4)


class RawRecord(NamedTuple):
    """One record's bytes exactly as read, and where it starts in the input."""

    offset: int
    """The byte offset of its `[Game` in the input (a byte-order mark counts)."""
    line: int
    """The line its `[Game` stands on, counted from 1."""
    column: int
    """The column of its `[Game` in that line, counted in characters from 1."""
    raw: bytes


class Splitter:
    """Feed it blocks of bytes; it returns the records completed so far."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._base = 0  # input offset of _buffer[0]
        self._line = 1  # line of _buffer[0]
        self._column = 1  # column of _buffer[0] in its line
        self._in_record = False  # _buffer[0] is the current record's [Game
        self._position = 0  # where scanning resumes in _buffer
        self._state = _OUTSIDE_STATE
        self._bom_checked = False
        self._wide: codecs.IncrementalDecoder | None = None  # UTF-16/32 text, read as UTF-8

    def feed(self, data: bytes, end: bool = False) -> list[RawRecord]:
        """Take the next block (`end`: the input ends after it) and return the records it completes."""
        buffer = self._buffer
        if self._wide is not None:
            data = self._wide.decode(data, end).encode("utf-8", "replace")
        buffer += data
        if not self._bom_checked:
            if len(buffer) < 4 and not end:
                return []
            self._bom_checked = True
            if buffer.startswith(BOM):
                del buffer[: len(BOM)]
                self._base = len(BOM)
            for mark, encoding in WIDE_BOMS:
                if buffer.startswith(mark):
                    # Text saved as UTF-16 or UTF-32 (a Windows editor's "Unicode") is
                    # decoded as it arrives, its mark dropped: offsets, lines and columns
                    # from here on count the text as UTF-8.
                    self._wide = codecs.getincrementaldecoder(encoding)("replace")
                    text = self._wide.decode(bytes(buffer), end)
                    buffer[:] = text.encode("utf-8", "replace")
                    self._base = len(mark)
                    break
        limit = len(buffer) if end else buffer.rfind(b"\n") + 1
        done: list[RawRecord] = []
        while self._position < limit:
            base = self._base
            if not self._in_record:
                self._find_first(limit)
            else:
                start = self._scan(limit)
                if start is not None:
                    done.append(self._cut(start))
            limit -= self._base - base  # dropping bytes moves every index
        if end and self._in_record and buffer:
            done.append(self._cut(len(buffer)))
        return done

    def _find_first(self, limit: int) -> None:
        """Before the first record: any `[Game` starts it; complete lines before it are dropped."""
        match = _START.search(self._buffer, self._position, limit)
        if match is None:
            self._drop(limit)
            return
        self._drop(match.start())
        self._in_record = True
        self._position, self._state = 5, _OUTSIDE_STATE

    def _scan(self, limit: int) -> int | None:
        """Scan on from the last position; the start of the next record, if reached.

        Outside comments and values, the next `{`, `;`, `"` and `[Game` are each found by a
        plain byte search and remembered until passed, so that the text between them is
        gone over at the speed of `bytes.find`, not of a regular expression."""
        buffer, position = self._buffer, self._position
        ahead: dict[bytes, int] = {}  # the next occurrence of each, or `limit` when none

        def next_of(what: bytes) -> int:
            at = ahead.get(what, -1)
            if at < position:
                at = buffer.find(what, position, limit)
                while what == b"[Game" and 0 <= at < len(buffer) - 5 and buffer[at + 5] in _NAME_BYTES:
                    at = buffer.find(what, at + 1, limit)  # "[Gamesmanship" is no Game tag
                ahead[what] = limit if at < 0 else at
            return ahead[what]

        while position < limit:
            state = self._state
            if state == _OUTSIDE_STATE:
                game = next_of(b"[Game")
                found = min(next_of(b"{"), next_of(b";"), next_of(b'"'), game)
                if found >= limit:
                    position = limit
                    break
                if found == game:
                    self._position = game
                    return game
                self._state = {0x7B: _BRACES, 0x3B: _LINE_COMMENT, 0x22: _QUOTES}[buffer[found]]
                position = found + 1
            elif state == _BRACES:
                close = buffer.find(b"}", position, limit)
                end = limit if close < 0 else close
                match = _LINE_START_GAME.search(buffer, position, end)
                if match is not None:
                    self._position = match.start(1)
                    return match.start(1)
                if close < 0:
                    position = limit
                    break
                self._state, position = _OUTSIDE_STATE, close + 1
            elif state == _LINE_COMMENT:
                newline = buffer.find(b"\n", position, limit)
                if newline < 0:
                    position = limit
                    break
                self._state, position = _OUTSIDE_STATE, newline + 1
            else:
                inside = _IN_QUOTES.match(buffer, position, limit)
                position = inside.end() if inside else position
                if position < limit:  # the closing quote or the line's end
                    self._state, position = _OUTSIDE_STATE, position + 1
        self._position = position
        return None

    def _cut(self, end: int) -> RawRecord:
        """The current record, ending at `end`; the next one (if any) starts there."""
        raw = bytes(self._buffer[:end])
        record = RawRecord(self._base, self._line, self._column, raw)
        self._drop(end)
        self._position, self._state = 5, _OUTSIDE_STATE
        return record

    def _drop(self, end: int) -> None:
        """Forget the first `end` bytes of the buffer, keeping count of lines and columns."""
        buffer = self._buffer
        newlines = buffer.count(b"\n", 0, end)
        line_start = buffer.rfind(b"\n", 0, end) + 1
        if newlines:
            self._line += newlines
            self._column = 1
        self._column += len(buffer[line_start:end].decode("utf-8", "replace"))
        del buffer[:end]
        self._base += end
        self._position = max(0, self._position - end)


def raw_records(stream: BinaryIO, block: int = BLOCK) -> Iterator[RawRecord]:
    """The records of a binary stream, each as soon as its text has arrived: when the next
    `[Game` starts or the input ends. Reads what is available (a slow pipe is not waited
    on for a full block)."""
    read = getattr(stream, "read1", None) or stream.read
    splitter = Splitter()
    while True:
        data = read(block)
        if not data:
            yield from splitter.feed(b"", end=True)
            return
        yield from splitter.feed(data)


def split(data: bytes) -> list[RawRecord]:
    """Every record of bytes held in memory."""
    return Splitter().feed(data, end=True)
