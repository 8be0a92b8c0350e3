"""The record model: what the reader builds and the writer writes.

Plain immutable values. They are NamedTuples rather than frozen dataclasses because the
reader makes one per token: a tuple is built several times faster and its class costs a
tenth of the import time, which `referee check` pays on every run. Actions are the
game's own typed objects (the dialect builds them); this module knows nothing of any
game's rules.
"""

from __future__ import annotations

from typing import NamedTuple


class Span(NamedTuple):
    """Where a token starts: line and column, both counted from 1 (a tab is one column)."""

    line: int
    column: int

    def __str__(self) -> str:
        return f"line {self.line}, col {self.column}"


class Tag(NamedTuple):
    name: str
    value: str
    span: Span


class Comment(NamedTuple):
    """A `{...}` or `;...` comment, kept for the writer. `text` excludes the delimiters."""

    text: str
    span: Span
    braced: bool = True

    def __str__(self) -> str:
        return f"{{{self.text}}}" if self.braced else f";{self.text}"


class Move(NamedTuple):
    """One action as written: its typed value, its text, an optional glyph, where it starts."""

    action: object
    text: str
    span: Span
    glyph: str | None = None


class Draw(NamedTuple):
    """The `draw` termination: a draw agreed by all players."""

    span: Span


class Timeout(NamedTuple):
    """The `timeout` termination (TIME.md §4): the side the game awaits loses on time."""

    span: Span


class Adjudicated(NamedTuple):
    """The `adjudicated` termination (LEAGUE.md §6): the game master decided the game at
    the season's end; the `{[%adjudicated RULE RESULT]}` after it says how."""

    span: Span


TurnItem = Move | Comment | Draw


class Turn(NamedTuple):
    """One side's turn: `[number] label ":" {action [glyph] | comment}`.

    `side` is the long side name; `step` marks a `+` (Nieuchess replacement step) label;
    `label` is the label as written, for messages.
    """

    number: int | None
    side: str
    step: bool
    label: str
    span: Span
    items: tuple[TurnItem, ...]

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(item for item in self.items if isinstance(item, Move))


RecordItem = Turn | Comment | Draw | Timeout | Adjudicated


class Record(NamedTuple):
    """One game record: its tags in file order, then its move text items.

    `offset` is the byte offset of its `[Game` in the input and `raw` its bytes exactly as
    read (both set by the reader; a record built otherwise has 0 and b"")."""

    game: str
    tags: tuple[Tag, ...]
    items: tuple[RecordItem, ...]
    span: Span
    offset: int = 0
    raw: bytes = b""

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(item for item in self.items if isinstance(item, Turn))

    def tag(self, name: str) -> str | None:
        for tag in self.tags:
            if tag.name == name:
                return tag.value
        return None

    def tag_span(self, name: str) -> Span | None:
        for tag in self.tags:
            if tag.name == name:
                return tag.span
        return None

    @property
    def tag_map(self) -> dict[str, str]:
        return {tag.name: tag.value for tag in self.tags}


def phrase(template: str, /, **params: object) -> str:
    """A message, or a phrase a message takes as one parameter (`phrase("file {file}",
    file="c")`), as its English text. Marked so, its template is in the referee's catalogue,
    and what a player is shown is said in the player's language (referee/speech.py
    `rule_text`) while the notation and the engines know nothing of languages."""
    return template.format(**params) if params else template


def alternatives(text: str) -> list[str] | None:
    """The parts of a list of alternatives as the grammar's detail quotes it, pyparsing's
    way (`{a charge such as "e1-e5(NE)" | a facing in parentheses such as "(NE)"}`, each
    part a named phrase), for a player's language to join them in its own words; None for
    any other text. A part may be such a list itself; braces inside quotes are a part's. A
    comment command as a player wrote it (`{[%draw-offer Red | Blue]}`) is never a list."""
    if len(text) < 2 or text[0] != "{" or text[-1] != "}" or text.startswith("{[%"):
        return None
    parts, depth, quoted, start = [], 0, False, 1
    for index in range(1, len(text) - 1):
        char = text[index]
        if char == '"':
            quoted = not quoted
        elif quoted:
            continue
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return None  # `{a} and {b}`: the first brace closes before the end
        elif depth == 0 and text.startswith(" | ", index):
            parts.append(text[start:index])
            start = index + 3
    parts.append(text[start:-1])
    return parts if len(parts) > 1 and depth == 0 and not quoted and all(parts) else None


class SpanError(ValueError):
    """An error at a place in a text: its `message`, and the `span` it is at (the error's
    text is `span: message`)."""

    def __init__(self, message: str, span: Span) -> None:
        super().__init__(f"{span}: {message}")
        self.message = message
        self.span = span


class NotationError(SpanError):
    """Text that is not RGN: where it stops being RGN and what was expected there."""


class Malformed(NamedTuple):
    """A record the reader could not read: its game (if known), where it starts, the error,
    its byte offset and its bytes exactly as read (what `format` passes through).

    `tags` are the record's tags read before the error (all of them when the error is in
    the move text), for the referee to check their values: of several errors that make a
    record malformed, the verdict names the first in the text (NOTATION.md §5)."""

    game: str | None
    span: Span
    error: NotationError
    offset: int = 0
    raw: bytes = b""
    tags: tuple[Tag, ...] = ()


ReadResult = Record | Malformed


class ReadCrash(NamedTuple):
    """A record whose reading met an unforeseen error: a bug of the reader or of a game's
    notation, not of the record. The reader yields it in the record's place and goes on
    with the next record; the referee gives it a verdict with status `error`.

    `message` is one line, `TypeName: text`; `where` is the innermost `file:line` of the
    failure (for a bug report)."""

    game: str | None
    span: Span
    offset: int
    raw: bytes
    message: str
    where: str


ReadItem = Record | Malformed | ReadCrash
"""What `notation.reader.iter_records` yields for each record of its input."""
