"""Reading RGN: bytes in, one Record (or Malformed) per record out.

`iter_records` reads a binary stream (a file, standard input, a slow pipe) one record at a
time and yields each as soon as its text has arrived, so memory is bounded by the largest
record; `read` reads bytes held in memory. Each result carries the byte offset of its
`[Game` and its bytes exactly as read.

The fast path matches the tag section with one regular expression and scans the move
text with one compiled regular expression per game, building the model directly; it
does not even import pyparsing. Only when that scan meets text it cannot read does the
detailed pyparsing grammar (notation.grammar) parse the record, to say where and what
was expected in a player's words.
"""

from __future__ import annotations

import os
import re
import traceback
from collections.abc import Callable, Iterator
from functools import cache
from typing import BinaryIO

from notation.dialect import GLYPH_PATTERN, Dialect
from notation.lexicon import NUMBER, TAG_NAME, TAG_VALUE, TOKEN_END, label_regex, last_move_index, shorten, unescape
from notation.model import (
    Comment,
    Draw,
    Malformed,
    Move,
    NotationError,
    ReadCrash,
    ReadItem,
    ReadResult,
    Record,
    RecordItem,
    Span,
    Tag,
    Timeout,
    Turn,
    TurnItem,
)
from notation.stream import RawRecord, raw_records, split

DialectLookup = Callable[[str], Dialect | None]

GAME_VALUE = re.compile(r'\[Game\s+"([^"\n]*)"')

TAG_SECTION = re.compile(rf"(?:\s*\[\s*{TAG_NAME}\s+{TAG_VALUE}\s*\])+")
TAG = re.compile(rf"\s*\[\s*({TAG_NAME})\s+({TAG_VALUE})\s*\]")


class _Unreadable(Exception):
    """The fast path met text it cannot read; the detailed grammar will say why.

    `resume` is where the move-text item holding the unreadable text starts (None in the
    tag section): all before it was read, so the grammar need only explain from there."""

    def __init__(self, resume: int | None = None) -> None:
        super().__init__(resume)
        self.resume = resume


def iter_records(stream: BinaryIO, dialects: DialectLookup) -> Iterator[ReadItem]:
    """The records of a binary stream, read or explained one at a time, each as soon as its
    text has arrived (when the next `[Game` starts or the input ends).

    Yields a Record, a Malformed (the text is not RGN) or a ReadCrash (reading met an
    unforeseen error, a bug: the next record is read all the same), each with `offset` and
    `raw`. An input with no record yields nothing."""
    for raw in raw_records(stream):
        yield read_raw(raw, dialects)


def read_raw(raw: RawRecord, dialects: DialectLookup) -> ReadItem:
    """One record cut from its input: read, explained, or its reader's crash reported."""
    try:
        return _read_raw(raw, dialects)
    except Exception as error:  # noqa: BLE001 - whatever goes wrong stays with this record
        return ReadCrash(
            _sniff_game(raw.raw), Span(raw.line, raw.column), raw.offset, raw.raw, _one_line(error), _where(error)
        )


def _read_raw(raw: RawRecord, dialects: DialectLookup) -> ReadResult:
    result = read_record(raw.raw.replace(b"\r\n", b"\n"), raw.line, dialects, raw.column)
    return result._replace(offset=raw.offset, raw=raw.raw)


def read(data: bytes | str, dialects: DialectLookup) -> list[ReadResult]:
    """Every record of a text held in memory, read or explained. Unlike `iter_records`, an
    unforeseen error (a bug) is raised, not reported in the record's place."""
    return [_read_raw(raw, dialects) for raw in split(data.encode("utf-8") if isinstance(data, str) else data)]


def split_records(data: bytes) -> list[tuple[int, bytes]]:
    """The records of a file as (first line number, bytes with CRLF read as LF)."""
    return [(raw.line, raw.raw.replace(b"\r\n", b"\n")) for raw in split(data)]


def _sniff_game(raw: bytes) -> str | None:
    game = GAME_VALUE.match(raw[:200].decode("utf-8", "replace"))
    return game.group(1).strip().lower() if game else None


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {shorten(text, 200)}" if text else type(error).__name__


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    frame = frames[-1]
    parent, name = os.path.split(frame.filename)
    return f"{os.path.basename(parent)}/{name}:{frame.lineno}"


def read_record(chunk: bytes, first_line: int, dialects: DialectLookup, first_column: int = 1) -> ReadResult:
    """One record's bytes (LF line ends), starting at `first_line`, `first_column`."""
    start = Span(first_line, first_column)
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as error:
        before = chunk[: error.start].decode("utf-8", "replace")
        game = GAME_VALUE.match(before)
        return Malformed(
            game.group(1).strip().lower() if game else None,
            start,
            NotationError("these bytes are not UTF-8 text", _offset_span(before, len(before), start)),
        )
    game_match = GAME_VALUE.match(text)
    if game_match is None:
        return Malformed(None, start, NotationError('expected a tag [Game "..."] naming the game', start))
    game_name = game_match.group(1).strip().lower()
    dialect = dialects(game_name)
    if dialect is None:
        quote_column = first_column + game_match.start(1) - 1  # the value's offset is the quote's column
        unknown = NotationError(f'unknown game "{shorten(game_match.group(1))}"', Span(first_line, quote_column))
        return Malformed(shorten(game_name), start, unknown)
    try:
        try:
            record = _read_fast(text, first_line, dialect, game_name, first_column)
        except _Unreadable as unreadable:
            from notation.grammar import grammar

            record = grammar(dialect).parse(text, first_line, first_column, unreadable.resume)
        _check_tags(record)
    except NotationError as error:
        return Malformed(game_name, start, error)
    return record


def _check_tags(record: Record) -> None:
    seen: set[str] = set()
    for tag in record.tags:
        if tag.name in seen:
            raise NotationError(f"the tag {shorten(tag.name)} appears twice", tag.span)
        seen.add(tag.name)


def _offset_span(text: str, offset: int, start: Span) -> Span:
    """Where an offset of a record's text stands, the record starting at `start`."""
    newlines = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(start.line + newlines, column + (start.column - 1 if newlines == 0 else 0))


@cache
def _scanner(dialect: Dialect) -> re.Pattern[str]:
    """One regex for every token of a game's move text; `lastgroup` names the kind."""
    return re.compile(
        r"(?P<ws>\s+)"
        r"|\{(?P<comment>[^}]*)\}"
        r"|;(?P<line>[^\n]*)"
        rf"|(?P<number>{NUMBER})"
        rf"|(?P<label>{label_regex(dialect)})"
        rf"|(?P<draw>draw){TOKEN_END}"
        rf"|(?P<timeout>timeout){TOKEN_END}"
        rf"|(?P<action>{dialect.action_pattern})(?P<glyph>{GLYPH_PATTERN})?{TOKEN_END}"
        rf"|(?P<lone>{GLYPH_PATTERN}){TOKEN_END}",
        re.IGNORECASE | re.ASCII,  # no Unicode look-alikes: "İ1-N" is not "i1-N"
    )


def _read_fast(text: str, first_line: int, dialect: Dialect, game: str, first_column: int = 1) -> Record:
    tag_section = TAG_SECTION.match(text)
    if tag_section is None:
        raise _Unreadable(None)
    tag_end = tag_section.end()
    tags: list[Tag] = []
    lines = _Lines(text, first_line, first_column)
    for match in TAG.finditer(text, 0, tag_end):
        tags.append(
            Tag(match.group(1), unescape(match.group(2)), lines.span(match.start() + match.group(0).index("[")))
        )
    items: list[RecordItem] = []
    turn: list[TurnItem] | None = None
    header: tuple[int | None, str, Span] | None = None
    number: int | None = None
    labels = dialect.labels
    parse_action = dialect.parse_action

    def close() -> None:
        nonlocal turn, header
        if turn is not None and header is not None:
            written, label, span = header
            bare = label.rstrip("+")
            items.append(Turn(written, labels[bare.lower()], label != bare, label, span, tuple(turn)))
        turn, header = None, None

    pos, end = tag_end, len(text)
    item_start: int | None = None  # where the current top-level item (turn, comment, draw) starts
    match_token = _scanner(dialect).match
    while pos < end:
        token = match_token(text, pos)
        if token is None:
            raise _Unreadable(item_start)
        kind = token.lastgroup
        if kind == "ws":
            pos = token.end()
            continue
        if number is not None and kind != "label":
            raise _Unreadable(item_start)  # a round number must be followed by its turn's label
        if kind in ("action", "glyph"):
            if turn is None:
                raise _Unreadable(item_start)
            written = token.group("action")
            try:
                action = parse_action(written)
            except ValueError:
                raise _Unreadable(item_start) from None
            turn.append(Move(action, written, lines.span(pos), token.group("glyph")))
        elif kind == "label":
            close()
            if number is None:
                item_start = pos
            header = (number, token.group("label")[:-1], lines.span(pos))
            turn, number = [], None
        elif kind == "number":
            item_start = pos
            number = int(token.group("number").rstrip("."))
        elif kind in ("comment", "line"):
            comment = Comment(token.group(kind), lines.span(pos), kind == "comment")
            if turn is None:
                item_start = pos
                items.append(comment)
            else:
                turn.append(comment)
        elif kind == "draw":
            close()
            item_start = pos
            items.append(Draw(lines.span(pos)))
        elif kind == "timeout":
            close()
            item_start = pos
            items.append(Timeout(lines.span(pos)))
        else:  # a glyph standing apart from its action
            last = last_move_index(turn) if turn else None
            move = None if last is None or turn is None else turn[last]
            if not isinstance(move, Move) or move.glyph is not None:
                raise _Unreadable(item_start)
            turn[last] = move._replace(glyph=token.group("lone"))  # type: ignore[index]
        pos = token.end()
    if number is not None:
        raise _Unreadable(item_start)
    close()
    return Record(game, tuple(tags), tuple(items), Span(first_line, first_column))


class _Lines:
    """Line and column of offsets visited in increasing order, counted incrementally."""

    def __init__(self, text: str, first_line: int, first_column: int = 1) -> None:
        self.text = text
        self.line = first_line
        self.line_start = 1 - first_column  # the text may start inside its first line
        self.last = 0

    def span(self, offset: int) -> Span:
        newlines = self.text.count("\n", self.last, offset)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rfind("\n", self.last, offset) + 1
        self.last = offset
        return Span(self.line, offset - self.line_start + 1)
