"""Reading RGN files: bytes in, one Record (or Malformed) per record out.

The fast path matches the tag section with one regular expression and scans the move
text with one compiled regular expression per game, building the model directly; it
does not even import pyparsing. Only when that scan meets text it cannot read does the
detailed pyparsing grammar (notation.grammar) parse the record, to say where and what
was expected in a player's words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from notation.dialect import GLYPH_PATTERN, Dialect
from notation.lexicon import NUMBER, TAG_NAME, TAG_VALUE, TOKEN_END, label_regex, last_move_index, unescape
from notation.model import (
    Comment,
    Draw,
    Malformed,
    Move,
    NotationError,
    ReadResult,
    Record,
    RecordItem,
    Span,
    Tag,
    Turn,
    TurnItem,
)

DialectLookup = Callable[[str], Dialect | None]

BOM = b"\xef\xbb\xbf"
RECORD_START = re.compile(rb"^\[Game(?![A-Za-z0-9_])", re.MULTILINE)
GAME_VALUE = re.compile(r'\[Game\s+"([^"\n]*)"')

_TAG_SECTION = re.compile(rf"(?:\s*\[\s*{TAG_NAME}\s+{TAG_VALUE}\s*\])+")
_TAG = re.compile(rf"\s*\[\s*({TAG_NAME})\s+({TAG_VALUE})\s*\]")


class _Unreadable(Exception):
    """The fast path met text it cannot read; the detailed grammar will say why."""


def split_records(data: bytes) -> list[tuple[int, bytes]]:
    """The records of a file as (first line number, bytes). Text before the first
    `[Game` is ignored; a `[Game` at the start of a line always starts a record."""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    data = data.replace(b"\r\n", b"\n")
    starts = [match.start() for match in RECORD_START.finditer(data)]
    chunks = []
    line = 1
    previous = 0
    for index, start in enumerate(starts):
        line += data.count(b"\n", previous, start)
        previous = start
        end = starts[index + 1] if index + 1 < len(starts) else len(data)
        chunks.append((line, data[start:end]))
    return chunks


def read(data: bytes | str, dialects: DialectLookup) -> list[ReadResult]:
    """Every record of a file, read or explained."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return [read_record(chunk, line, dialects) for line, chunk in split_records(raw)]


def read_record(chunk: bytes, first_line: int, dialects: DialectLookup) -> ReadResult:
    try:
        text = chunk.decode("utf-8")
    except UnicodeDecodeError as error:
        before = chunk[: error.start].decode("utf-8", "replace")
        game = GAME_VALUE.match(before)
        return Malformed(
            game.group(1).strip().lower() if game else None,
            Span(first_line, 1),
            NotationError("these bytes are not UTF-8 text", _offset_span(before, len(before), first_line)),
        )
    game_match = GAME_VALUE.match(text)
    start = Span(first_line, 1)
    if game_match is None:
        return Malformed(None, start, NotationError('expected a tag [Game "..."] naming the game', start))
    game_name = game_match.group(1).strip().lower()
    dialect = dialects(game_name)
    if dialect is None:
        quote_column = game_match.start(1)  # the 0-based offset of the value is the quote's column
        unknown = NotationError(f'unknown game "{game_match.group(1)}"', Span(first_line, quote_column))
        return Malformed(game_name, start, unknown)
    try:
        try:
            record = _read_fast(text, first_line, dialect, game_name)
        except _Unreadable:
            from notation.grammar import grammar

            record = grammar(dialect).parse(text, first_line)
        _check_tags(record)
    except NotationError as error:
        return Malformed(game_name, start, error)
    return record


def _check_tags(record: Record) -> None:
    seen: set[str] = set()
    for tag in record.tags:
        if tag.name in seen:
            raise NotationError(f"the tag {tag.name} appears twice", tag.span)
        seen.add(tag.name)


def _offset_span(text: str, offset: int, first_line: int) -> Span:
    line_start = text.rfind("\n", 0, offset) + 1
    return Span(first_line + text.count("\n", 0, offset), offset - line_start + 1)


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
        rf"|(?P<action>{dialect.action_pattern})(?P<glyph>{GLYPH_PATTERN})?{TOKEN_END}"
        rf"|(?P<lone>{GLYPH_PATTERN}){TOKEN_END}",
        re.IGNORECASE | re.ASCII,  # no Unicode look-alikes: "İ1-N" is not "i1-N"
    )


def _read_fast(text: str, first_line: int, dialect: Dialect, game: str) -> Record:
    tag_section = _TAG_SECTION.match(text)
    if tag_section is None:
        raise _Unreadable
    tag_end = tag_section.end()
    tags: list[Tag] = []
    lines = _Lines(text, first_line)
    for match in _TAG.finditer(text, 0, tag_end):
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
    match_token = _scanner(dialect).match
    while pos < end:
        token = match_token(text, pos)
        if token is None:
            raise _Unreadable
        kind = token.lastgroup
        if kind == "ws":
            pos = token.end()
            continue
        if number is not None and kind != "label":
            raise _Unreadable  # a round number must be followed by its turn's label
        if kind in ("action", "glyph"):
            if turn is None:
                raise _Unreadable
            written = token.group("action")
            turn.append(Move(parse_action(written), written, lines.span(pos), token.group("glyph")))
        elif kind == "label":
            close()
            header = (number, token.group("label")[:-1], lines.span(pos))
            turn, number = [], None
        elif kind == "number":
            number = int(token.group("number").rstrip("."))
        elif kind in ("comment", "line"):
            comment = Comment(token.group(kind), lines.span(pos), kind == "comment")
            (turn if turn is not None else items).append(comment)
        elif kind == "draw":
            close()
            items.append(Draw(lines.span(pos)))
        else:  # a glyph standing apart from its action
            last = last_move_index(turn) if turn else None
            move = None if last is None or turn is None else turn[last]
            if not isinstance(move, Move) or move.glyph is not None:
                raise _Unreadable
            turn[last] = move._replace(glyph=token.group("lone"))  # type: ignore[index]
        pos = token.end()
    if number is not None:
        raise _Unreadable
    close()
    return Record(game, tuple(tags), tuple(items), Span(first_line, 1))


class _Lines:
    """Line and column of offsets visited in increasing order, counted incrementally."""

    def __init__(self, text: str, first_line: int) -> None:
        self.text = text
        self.line = first_line
        self.line_start = 0
        self.last = 0

    def span(self, offset: int) -> Span:
        newlines = self.text.count("\n", self.last, offset)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rfind("\n", self.last, offset) + 1
        self.last = offset
        return Span(self.line, offset - self.line_start + 1)
