"""Reading RGN: bytes in, one Record (or Malformed) per record out.

`iter_records` reads a binary stream (a file, standard input, a slow pipe) one record at a
time and yields each as soon as its text has arrived, so memory is bounded by the largest
record; `read` reads bytes held in memory. Each result carries the byte offset of its
`[Game` and its bytes exactly as read.

The fast path matches the tag section with one regular expression and reads the move
text's tokens from the one scanner (`notation.scanner`, one compiled regular expression
per game), building the model directly; it does not even import pyparsing. Only when
that scan meets text it cannot read does the detailed pyparsing grammar
(notation.grammar) parse the record, to say where and what was expected in a player's
words.
"""

from __future__ import annotations

import os
import re
import traceback
from collections.abc import Callable, Iterator
from typing import BinaryIO, NamedTuple

from referee.notation.dialect import Dialect
from referee.notation.lexicon import (
    TAG_NAME,
    TAG_VALUE,
    TERMINATIONS,
    last_move_index,
    round_value,
    shorten,
    unescape,
)
from referee.notation.model import (
    Comment,
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
    Turn,
    TurnItem,
    phrase,
)
from referee.notation.record_splitter import RawRecord, raw_records, split
from referee.notation.scanner import Scanner, scanner

DialectLookup = Callable[[str], Dialect | None]

GAME_VALUE = re.compile(r'\[Game\s+"([^"\n]*)"')


def game_dialect(text: str, dialects: DialectLookup) -> tuple[str, Dialect] | None:
    """The game a record's text opens with (`[Game "..."]` first) and its dialect, or None
    when it does not open so or names a game `dialects` does not know."""
    found = GAME_VALUE.match(text)
    if found is None:
        return None
    game = found.group(1).strip().lower()
    dialect = dialects(game)
    return None if dialect is None else (game, dialect)


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
    if raw.refused is not None:  # larger than the limit: only its first line was kept, and nothing is passed on
        span = Span(raw.line, raw.column)
        return Malformed(_sniff_game(raw.raw), span, NotationError(raw.refused, span), raw.offset, b"")
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
            NotationError(phrase("these bytes are not UTF-8 text"), _offset_span(before, len(before), start)),
        )
    game_match = GAME_VALUE.match(text)
    if game_match is None:
        return Malformed(None, start, NotationError(phrase('expected a tag [Game "..."] naming the game'), start))
    game_name = game_match.group(1).strip().lower()
    dialect = dialects(game_name)
    if dialect is None:
        quote_column = first_column + game_match.start(1) - 1  # the value's offset is the quote's column
        unknown = NotationError(
            phrase('unknown game "{game}"', game=shorten(game_match.group(1))), Span(first_line, quote_column)
        )
        return Malformed(shorten(game_name), start, unknown)
    try:
        try:
            record = _read_fast(text, first_line, dialect, game_name, first_column)
        except _Unreadable as unreadable:
            from referee.notation.grammar import grammar

            record = grammar(dialect).parse(text, first_line, first_column, unreadable.resume)
    except NotationError as error:
        return _malformed(game_name, start, error, _tags_before(text, error.span, start))
    repeated = _repeated(record.tags)
    if repeated is not None:
        return Malformed(game_name, start, repeated, tags=record.tags)
    return record


def _repeated(tags: tuple[Tag, ...]) -> NotationError | None:
    """The error of the first tag that repeats one before it, if any."""
    seen: set[str] = set()
    for tag in tags:
        if tag.name in seen:
            return NotationError(phrase("the tag {tag} appears twice", tag=shorten(tag.name)), tag.span)
        seen.add(tag.name)
    return None


def _malformed(game: str, start: Span, error: NotationError, tags: tuple[Tag, ...]) -> Malformed:
    """A record not RGN at `error`, with its `tags` read before it: a repeated tag among
    them is the error instead, being first in the text (NOTATION.md §5)."""
    repeated = _repeated(tags)
    return Malformed(game, start, error if repeated is None else repeated, tags=tags)


def _tags_before(text: str, at: Span, start: Span) -> tuple[Tag, ...]:
    """The tags of a record that stand before `at` (the tag section's tags that read, up to
    its first that does not), with their spans."""
    read = tag_section(text)
    if read is None:
        return ()
    lines = _Lines(text, start.line, start.column)
    tags = tuple(Tag(name, value, lines.span(offset)) for name, value, offset in read[0])
    return tuple(tag for tag in tags if tag.span < at)


def _offset_span(text: str, offset: int, start: Span) -> Span:
    """Where an offset of a record's text stands, the record starting at `start`."""
    newlines = text.count("\n", 0, offset)
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(start.line + newlines, column + (start.column - 1 if newlines == 0 else 0))


def _read_fast(text: str, first_line: int, dialect: Dialect, game: str, first_column: int = 1) -> Record:
    lines = _Lines(text, first_line, first_column)
    tags, tag_end = _read_tags(text, lines)
    items = tuple(_items(text, tag_end, lines, dialect))
    return Record(game, tags, items, Span(first_line, first_column))


def tag_section(text: str) -> tuple[list[tuple[str, str, int]], int] | None:
    """The one way every fast reader reads a record's tags: each tag's name, value
    (unescaped) and the offset of its `[`, in file order, and where the tag section ends;
    None when the text does not open with a tag section read this way (the grammar then
    says why). A repeated tag is not refused here: each reader says so in its own way."""
    section = TAG_SECTION.match(text)
    if section is None:
        return None
    tags = [
        (match.group(1), unescape(match.group(2)), match.start() + match.group(0).index("["))
        for match in TAG.finditer(text, 0, section.end())
    ]
    return tags, section.end()


def _read_tags(text: str, lines: _Lines) -> tuple[tuple[Tag, ...], int]:
    """The tags of the fast path (`tag_section`) and where the tag section ends."""
    read = tag_section(text)
    if read is None:
        raise _Unreadable(None)
    tags, tag_end = read
    return tuple(Tag(name, value, lines.span(offset)) for name, value, offset in tags), tag_end


_CUT = object()
"""Yielded by `_items` right after a turn it did not keep whole."""


def _items(
    text: str, pos: int, lines: _Lines, dialect: Dialect, limit: int | None = None, comments: bool = True
) -> Iterator[RecordItem]:
    """The move-text items from `pos`, one at a time (a turn once it is complete), so
    that a caller that keeps none holds one turn at a time. Raises _Unreadable.

    With `limit`, a turn keeps at most that many items and, when it held more, `_CUT`
    follows it; without `comments`, comments inside turns are not kept (they are read).
    The tokens are the one scanner's (`notation.scanner`); what each kind does is
    `_ItemReader`'s step for it, and a kind with no step is refused."""
    tokens = scanner(dialect)
    reader = _ItemReader(lines, dialect, tokens, limit, comments)
    steps, unread = reader.steps, reader.unread
    for token in tokens.tokens(text, pos):
        kind = token.lastindex
        if kind is None:  # the end of the text
            break
        read = steps.get(kind, unread)(token, kind)
        if read:
            yield from read
    yield from reader.closing()


_NONE: tuple[RecordItem, ...] = ()


class _ItemReader:
    """The model reader's state while it reads a move text (`_items`): the open turn and
    where the current top-level item (turn, comment, draw) starts. Each step takes a token
    of its kind and gives the items it completes."""

    def __init__(self, lines: _Lines, dialect: Dialect, tokens: Scanner, limit: int | None, comments: bool) -> None:
        self.lines, self.limit, self.comments = lines, limit, comments
        self.labels, self.parse_action = dialect.labels, dialect.parse_action
        self.tokens = tokens
        self.turn: list[TurnItem] | None = None
        self.cut = False  # the open turn is not kept whole
        self.header: tuple[int | None, str, Span] | None = None
        self.item_start: int | None = None
        self.texts: dict[str, str] = {}  # one string per distinct label and action text
        Step = Callable[[re.Match[str], int], tuple[RecordItem, ...]]
        self.steps: dict[int, Step] = {
            tokens.action: self.action,
            tokens.glyph: self.action,
            tokens.head: self.head,
            tokens.first: self.head,
            tokens.first_glyph: self.head,
            tokens.comment: self.comment,
            tokens.line: self.comment,
            tokens.lone: self.lone_glyph,
            **{group: self.termination for group in tokens.terminations},
        }

    def _kept(self, written: str) -> str:
        texts = self.texts
        if len(texts) > 4096:
            texts.clear()
        return texts.setdefault(written, written)

    def _full(self) -> bool:
        """Whether the open turn holds all it may keep."""
        return self.limit is not None and self.turn is not None and len(self.turn) >= self.limit

    def closing(self) -> tuple[RecordItem, ...]:
        """The open turn, closed (and the mark that it was not kept whole, if it was not)."""
        turn, header, was_cut = self.turn, self.header, self.cut
        self.turn, self.header = None, None
        if turn is None or header is None:
            return _NONE
        written, label, span = header
        bare = label.rstrip("+")
        closed = Turn(written, self.labels[bare.lower()], label != bare, label, span, tuple(turn))
        if not was_cut:
            return (closed,)
        self.cut = False
        return (closed, _CUT)  # type: ignore[return-value]

    def action(self, token: re.Match[str], kind: int) -> tuple[RecordItem, ...]:
        """An action (with its glyph)."""
        tokens = self.tokens
        self._move(token[tokens.action], token[tokens.glyph], token.start(tokens.action))
        return _NONE

    def _move(self, written: str, glyph: str | None, pos: int) -> None:
        turn = self.turn
        if turn is None:
            raise _Unreadable(self.item_start)
        written = self._kept(written)
        try:
            action = self.parse_action(written)
        except ValueError:
            raise _Unreadable(self.item_start) from None
        if self._full():
            self.cut = True
        else:
            turn.append(Move(action, written, self.lines.span(pos), glyph))

    def head(self, token: re.Match[str], kind: int) -> tuple[RecordItem, ...]:
        """A label, with its round number if one is written, and its turn's first action if
        the scanner read it with the label."""
        closed = self.closing()
        tokens = self.tokens
        self.item_start = token.start(tokens.head)
        number = token[tokens.number]
        label = token[tokens.label]
        at = self.lines.span(token.start(tokens.label))
        self.header = (None if number is None else round_value(number), self._kept(label[:-1]), at)
        self.turn = []
        if kind != tokens.head:
            self._move(token[tokens.first], token[tokens.first_glyph], token.start(tokens.first))
        return closed

    def comment(self, token: re.Match[str], kind: int) -> tuple[RecordItem, ...]:
        braced = kind == self.tokens.comment
        comment = Comment(token[kind], self.lines.span(token.start(kind) - 1), braced)  # (after its `{` or `;`)
        if self.turn is None:
            self.item_start = token.start(kind) - 1
            return (comment,)
        if self.comments and self._full():
            self.cut = True
        elif self.comments:
            self.turn.append(comment)
        return _NONE

    def termination(self, token: re.Match[str], kind: int) -> tuple[RecordItem, ...]:
        closed = self.closing()
        self.item_start = token.start(kind)
        return (*closed, TERMINATIONS[self.tokens.terminations[kind]](self.lines.span(self.item_start)))

    def lone_glyph(self, token: re.Match[str], kind: int) -> tuple[RecordItem, ...]:
        """A glyph standing apart from its action (passed over in a turn not kept whole,
        whose action may not be kept)."""
        if self.cut:
            return _NONE
        turn = self.turn
        last = last_move_index(turn) if turn else None
        move = None if last is None or turn is None else turn[last]
        if not isinstance(move, Move) or move.glyph is not None:
            raise _Unreadable(self.item_start)
        turn[last] = move._replace(glyph=token[kind])  # type: ignore[index]
        return _NONE

    def unread(self, token: re.Match[str], kind: int) -> tuple[RecordItem, ...]:
        """A kind read nowhere here (a round number not before a label, text that is no
        token, a kind of `TOKEN_KINDS` with no step): the grammar says what it is, from
        the item it stands in (a round number alone begins its own)."""
        if kind == self.tokens.lone_number:
            raise _Unreadable(token.start(kind))
        raise _Unreadable(self.item_start)


class Streamed(NamedTuple):
    """A record whose tags are read and whose move text is read on demand (`items`), one
    item at a time, for a caller that keeps none of them: see `open_streamed`."""

    game: str
    dialect: Dialect
    tags: tuple[Tag, ...]
    span: Span
    text: str
    body: int
    """Where the move text starts in `text`."""

    def items(self, limit: int | None = None, comments: bool = True) -> Iterator[RecordItem]:
        """The move-text items, read afresh on each call. Raises Unreadable where the
        fast path cannot read on (`explain` then says why).

        With `limit`, a turn keeps at most that many items (actions, and comments unless
        `comments` is false, which keeps none inside turns): a caller that asks for the
        item after a turn not kept whole gets TurnNotKept instead, and must read the record
        another way. (No game allows a turn of more than a few hundred actions, so a
        turn cut short is illegal before its cut, and the caller stops there.)"""
        lines = _Lines(self.text, self.span.line, self.span.column)
        lines.span(self.body)
        try:
            for item in _items(self.text, self.body, lines, self.dialect, limit, comments):
                if item is _CUT:
                    raise TurnNotKept(item)
                yield item
        except _Unreadable as unreadable:
            raise Unreadable(unreadable.resume) from None

    def explain(self, resume: int | None) -> ReadResult:
        """What the full reader makes of the record once `items` raised Unreadable: a
        Malformed saying where and why (or, should the grammar read it after all, the
        Record)."""
        from referee.notation.grammar import grammar

        try:
            record = grammar(self.dialect).parse(self.text, self.span.line, self.span.column, resume)
        except NotationError as error:
            return _malformed(self.game, self.span, error, self.tags)
        repeated = _repeated(record.tags)
        return record if repeated is None else Malformed(self.game, self.span, repeated, tags=record.tags)

    def repeated_tag(self) -> NotationError | None:
        """The error of a tag that appears twice, if one does."""
        return _repeated(self.tags)


class TurnNotKept(Exception):
    """Raised by `Streamed.items(limit)` when a turn it cut short has been read past."""


class Unreadable(Exception):
    """Raised by `Streamed.items`: the move text is not read on from the item starting at
    `resume`; `Streamed.explain(resume)` says why."""

    def __init__(self, resume: int | None) -> None:
        super().__init__(resume)
        self.resume = resume


def open_streamed(raw: RawRecord, dialects: DialectLookup) -> Streamed | None:
    """The record's tags read the fast way and its move text ready to be read one item at
    a time; None when that is not possible (not UTF-8, no or unknown game, a tag section
    the fast path does not read): `read_raw` then reads or explains the record."""
    data = raw.raw.replace(b"\r\n", b"\n") if b"\r" in raw.raw else raw.raw
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    del data
    opened = game_dialect(text, dialects)
    if opened is None:
        return None
    game, dialect = opened
    lines = _Lines(text, raw.line, raw.column)
    try:
        tags, body = _read_tags(text, lines)
    except _Unreadable:
        return None
    return Streamed(game, dialect, tags, Span(raw.line, raw.column), text, body)


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
