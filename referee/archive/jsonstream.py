"""JSON values one after another from a byte stream: one value, a JSON array of values,
or JSON Lines (values one per line, or simply one after another), read a block at a time.

`json_values(stream, limit)` yields, for each value in turn, its place (1 = first) and
either the decoded value or a `Broken` saying why it cannot be read. Memory is bounded by
`limit`, the most bytes one value may take: a value larger than that is `Broken` and
skipped unread past the limit. After a value that is not JSON, a stream of values resumes
at the next line that starts with `{` (JSON Lines lose only the broken line); inside an
array the values after a broken one cannot be told apart, so the rest of the array is one
`Broken` entry that says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO, NamedTuple

BLOCK = 1 << 16
_WHITE = b" \t\r\n"


class Broken(NamedTuple):
    """A value that could not be read, and why (one line)."""

    reason: str
    fatal: bool = False
    """True when nothing after it in the source can be read."""


class _Buffer:
    """The bytes read but not yet decoded, refilled from the stream a block at a time."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.data = b""
        self.at = 0
        self.ended = False
        self.line = 1

    def fill(self, want: int) -> bool:
        """Read until `want` bytes wait past `at` or the stream ends; whether any came."""
        if self.ended:
            return False
        if self.at:
            self.line += self.data.count(b"\n", 0, self.at)
            self.data, self.at = self.data[self.at :], 0
        came = False
        while len(self.data) < want:
            block = self.stream.read(max(BLOCK, want - len(self.data)))
            if not block:
                self.ended = True
                break
            self.data += block
            came = True
        return came

    def skip_white(self, extra: bytes = b"") -> int | None:
        """The next byte that is not white space (nor in `extra`), or None at the end."""
        while True:
            while self.at < len(self.data) and self.data[self.at] in _WHITE + extra:
                self.at += 1
            if self.at < len(self.data):
                return self.data[self.at]
            if not self.fill(BLOCK):
                return None

    def line_at(self, at: int) -> int:
        return self.line + self.data.count(b"\n", 0, at)


def json_values(stream: BinaryIO, limit: int) -> Iterator[tuple[int, Any | Broken]]:
    """Each JSON value of the stream with its place (see the module's text)."""
    buffer = _Buffer(stream)
    first = buffer.skip_white()
    if first is None:
        return
    in_array = first == ord("[")
    if in_array:
        buffer.at += 1
    number = 0
    while True:
        following = buffer.skip_white(b"," if in_array else b"")
        if following is None:
            if in_array:
                number += 1
                yield number, Broken("the JSON array is not closed: its end is missing", fatal=True)
            return
        if in_array and following == ord("]"):
            buffer.at += 1
            if buffer.skip_white() is not None:
                yield number + 1, Broken("text after the end of the JSON array", fatal=True)
            return
        number += 1
        value = _one_value(buffer, limit)
        if isinstance(value, Broken):
            if in_array:
                yield number, value._replace(reason=value.reason + "; the rest of the array cannot be read", fatal=True)
                return
            yield number, value
            if not _next_object_line(buffer):
                return
            continue
        yield number, value


def _one_value(buffer: _Buffer, limit: int) -> Any | Broken:
    """The value that starts at the buffer's place, reading more while it may be cut."""
    decoder = json.JSONDecoder()
    while True:
        chunk = buffer.data[buffer.at : buffer.at + limit]
        more = not buffer.ended and len(chunk) < limit  # (what is missing may still come)
        try:
            text, bad = chunk.decode("utf-8"), None
        except UnicodeDecodeError as error:
            text, bad = chunk[: error.start].decode("utf-8"), error.start
        try:
            value, end = decoder.raw_decode(text)
        except RecursionError:
            return Broken(f"line {buffer.line_at(buffer.at)}: nested too deeply to be read")
        except json.JSONDecodeError as error:
            cut = error.pos >= len(text) - 1 or error.msg.startswith("Unterminated string")
            if not (cut and more):
                return _why(buffer, chunk, text, bad, error, cut, limit)
        else:
            if end < len(text) or not more or isinstance(value, dict | list):
                buffer.at += len(text[:end].encode("utf-8"))
                return value
        buffer.fill(len(buffer.data) - buffer.at + max(BLOCK, len(chunk)))


def _why(
    buffer: _Buffer, chunk: bytes, text: str, bad: int | None, error: json.JSONDecodeError, cut: bool, limit: int
) -> Broken:
    """Why a value cannot be read, located by its line in the source."""
    if bad is not None and cut:
        return Broken(f"line {buffer.line_at(buffer.at + bad)}: bytes that are not UTF-8")
    if cut and len(chunk) >= limit:
        return Broken(f"larger than {limit} bytes: refused, not read")
    first_line = text.split("\n", 1)[0]
    if error.lineno > 1:  # (JSON Lines: say what is wrong with the value's own line, when it is)
        try:
            json.JSONDecoder().raw_decode(first_line)
        except json.JSONDecodeError as own:
            error = own
    line = buffer.line_at(buffer.at) + error.lineno - 1
    return Broken(f"line {line}, col {error.colno}: not JSON: {error.msg}")


def _next_object_line(buffer: _Buffer) -> bool:
    """Move past the broken value to the next line that starts with `{`; False at the end."""
    while True:
        newline = buffer.data.find(b"\n{", buffer.at)
        if newline >= 0:
            buffer.at = newline + 1
            return True
        buffer.at = max(buffer.at, len(buffer.data) - 1)
        if not buffer.fill(BLOCK):
            return False
