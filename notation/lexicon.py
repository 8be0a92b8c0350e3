"""The words of RGN as regular expressions, shared by the fast reader and the detailed
grammar so that both read the same language. No pyparsing here: reading well-formed
records never imports it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from referee.notation.dialect import GLYPH_PATTERN, Dialect
from referee.notation.model import Adjudicated, Comment, Draw, Move, Timeout, Turn

TOKEN_END = r"(?=\s|[{;]|$)"
TAG_NAME = r"[A-Za-z0-9_]+"
# Unrolled ("normal* (special normal*)*") rather than an alternation under `*`: Python's
# regex engine keeps a backtracking frame per repetition of a group, about 170 bytes a
# character for `(?:a|b)*`, but none for a repeated single character class.
TAG_VALUE = r'"[^"\\\n]*(?:\\["\\][^"\\\n]*)*"'
NUMBER = r"[0-9]+\.(?:\.\.)?"
"""A round number: ASCII digits (any number of them: NOTATION.md §3 compares it by its value,
whatever its length), then `.` or `...`. Other digits (`²`, `١`) are no round number."""
QUOTE_LIMIT = 40
WORD = r"[^\s{};]+|[};]"


ROUND_DIGITS = 18
"""A round number of more significant digits than this is read as a `LongRound`, never
converted: no record holds that many rounds, so it is wrong whatever it says."""


class LongRound(int):
    """A round number too long to be any round (`ROUND_DIGITS`): an int that equals no round
    (its value is -1), written as its digits (leading zeros left out). Its digits are never
    converted, which for thousands of them would be slow, and refused by `int()` past
    Python's limit (4,300 digits)."""

    digits: str

    def __new__(cls, digits: str) -> LongRound:
        made = super().__new__(cls, -1)
        made.digits = digits
        return made

    def __eq__(self, other: object) -> bool:  # (to no int, to a LongRound of the same digits)
        return isinstance(other, LongRound) and other.digits == self.digits

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.digits)

    def __str__(self) -> str:
        return self.digits

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(self.digits, spec)


def round_value(written: str) -> int:
    """The value of a round number as written (`12.`, `0001...`, 5,000 digits): compared by
    its value, whatever its length (NOTATION.md §3, amended)."""
    digits = written.rstrip(".").lstrip("0")
    if len(digits) <= ROUND_DIGITS:
        return int(digits) if digits else 0
    return LongRound(digits)


def shorten(token: str, limit: int = QUOTE_LIMIT) -> str:
    """At most `limit` characters of a token, then an ellipsis: messages never quote a
    long token whole."""
    return token if len(token) <= limit else token[:limit] + "…"


def quote(token: str, limit: int = QUOTE_LIMIT) -> str:
    """A token for a message, in quotes, shortened."""
    return repr(shorten(token, limit))


def unescape(quoted: str) -> str:
    """A tag value without its quotes, `\\"` and `\\\\` resolved."""
    if "\\" not in quoted:  # nearly every value: nothing to resolve
        return quoted[1:-1]
    return re.sub(r'\\(["\\])', r"\1", quoted[1:-1])


COMMENT = r"\{(?P<comment>[^}]*)\}"
"""A braced comment; its text is the group `comment`."""
LINE_COMMENT = r";(?P<line>[^\n]*)"
"""A `;` comment to the end of its line; its text is the group `line`."""
TERMINATIONS: dict[str, type[Draw] | type[Timeout] | type[Adjudicated]] = {
    "draw": Draw,
    "timeout": Timeout,
    "adjudicated": Adjudicated,
}
"""The table of termination words (NOTATION.md §3, §9) and the record item each reads as:
every reader builds its termination tokens from it (each read as a group of its own name),
and the writer writes each item back as its word. `draw` comes first: the quick reader
reads it as an item, and leaves a record with any other termination to the model reader
(a time-out is judged by the clock)."""

TERMINATION_WORDS: dict[type, str] = {item: word for word, item in TERMINATIONS.items()}
"""Each termination item's word."""


def termination(word: str) -> str:
    """A termination word as a token: the group named after it."""
    return rf"(?P<{word}>{word}){TOKEN_END}"


def terminations(words: Iterable[str] = TERMINATIONS) -> str:
    """Alternatives of the regular expression, each `|` first, for the termination words `words`."""
    return "".join(f"|{termination(word)}" for word in words)


def action_token(dialect: Dialect) -> str:
    """An action of the game with its glyph, if any (groups `action` and `glyph`)."""
    return rf"(?P<action>{dialect.action_pattern})(?P<glyph>{GLYPH_PATTERN})?{TOKEN_END}"


def label_regex(dialect: Dialect) -> str:
    """A turn's label: a side, `+` (NOTATION.md §3 allows it in every game: in a game
    without replacement steps, the game finds the label illegal), then `:`."""
    return rf"(?:{dialect.label_pattern})\+?:"


def lone_glyph_token() -> str:
    """A glyph standing apart from its action (group `lone`): it belongs to the action before it."""
    return rf"(?P<lone>{GLYPH_PATTERN}){TOKEN_END}"


class TokenKind(NamedTuple):
    """A row of `TOKEN_KINDS`: one kind of token of the move text."""

    name: str
    """The kind's name: the group its token reads as in `token`'s expression (`Match.lastgroup`)."""
    token: Callable[[Dialect], str]
    """Its regular expression in a game's move text (read case-insensitively, ASCII only)."""
    sample: Callable[[Dialect], tuple[str, str]]
    """A move text holding a token of the kind, and that token (tests/notation/test_token_kinds.py)."""
    item: type
    """The record item (`notation.model`) the token is read into or belongs to."""


def _first_label(dialect: Dialect) -> str:
    return f"{next(iter(dialect.short_labels.values()))}:"


def _turn(dialect: Dialect, after: str) -> str:
    """A turn of the game: its first label, its example action, then `after`."""
    return f"{_first_label(dialect)} {dialect.example_action} {after}"


def _termination_kind(word: str, item: type) -> TokenKind:
    """The row of a termination word (a row of `TERMINATIONS`)."""
    return TokenKind(word, lambda _: termination(word), lambda d: (_turn(d, word), word), item)


TOKEN_KINDS: tuple[TokenKind, ...] = (
    TokenKind("comment", lambda d: COMMENT, lambda d: (_turn(d, "{a note}"), "{a note}"), Comment),
    TokenKind("line", lambda d: LINE_COMMENT, lambda d: (_turn(d, "; a note"), "; a note"), Comment),
    TokenKind(
        "number", lambda d: f"(?P<number>{NUMBER})", lambda d: (f"12. {_turn(d, '')}", "12."), Turn
    ),  # with the label after it
    TokenKind("label", lambda d: f"(?P<label>{label_regex(d)})", lambda d: (_turn(d, ""), _first_label(d)), Turn),
    *(_termination_kind(word, item) for word, item in TERMINATIONS.items()),
    TokenKind("action", action_token, lambda d: (_turn(d, ""), d.example_action), Move),
    TokenKind("lone", lambda d: lone_glyph_token(), lambda d: (_turn(d, "!?"), "!?"), Move),
)
"""The kinds of token of a move text, in the order the one scanner tries them
(`notation.scanner`, an alternative a row, after white space; a round number is read
with the label after it): each row's expression is read by every reader of move text
(the scanner's readers, the model reader and the quick reader, and the grammar of
`notation.grammar`), so a new kind is a new row here, its item in `notation.model`, and
what it means in `games/` or `referee/judge/` (docs/design.md, "Adding a token kind").
`tests/notation/test_token_kinds.py` checks that each row's sample scans to its kind and
reads the same in the grammar and the model reader."""

KIND: dict[str, TokenKind] = {kind.name: kind for kind in TOKEN_KINDS}
"""The rows of `TOKEN_KINDS` by name."""


def last_move_index(items: Sequence[object]) -> int | None:
    """Where the turn's latest action stands: a glyph standing apart belongs to it."""
    for index in range(len(items) - 1, -1, -1):
        if isinstance(items[index], Move):
            return index
    return None
