"""Reading a well-formed record the quick way, for checking it: no record model at all.

`scan(text, dialects)` reads one record's text (LF line ends) and gives its game, its tags
and, in record order, only what a referee replays: a `Label` for each turn, each action as
the game's own value, `DRAW` for a `draw`. Comments and glyphs are passed over and no
position is kept, so reading costs one regular-expression match per token and nothing is
built per token but the action (each game's `parse_action` keeps the actions it has built).

It reads a subset of what `notation.reader` reads, and reads it the same way: anything it
does not read for certain (text that is not RGN, a repeated tag, a glyph standing apart
from its action, an action its game cannot build) gives None, and the caller reads the
record with the full reader, which says where the text stops being RGN and why. So a
record is read quickly only when the full reader would read it without complaint, into
the same tags, labels and actions.
"""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from notation.dialect import GLYPH_PATTERN, Dialect
from notation.lexicon import (
    COMMENT,
    LINE_COMMENT,
    NUMBER,
    TOKEN_END,
    action_token,
    label_regex,
    termination,
    unescape,
)
from notation.reader import GAME_VALUE, TAG, TAG_SECTION, DialectLookup

LABEL_CACHE = 4096
"""Labels kept per game, by their text as written with their round number (any mix of
capitals reads the same)."""


class Label(NamedTuple):
    """A turn's label: the side (long name), whether it is a `+` step, the round number written."""

    side: str
    step: bool
    number: int | None


class _Draw:
    def __repr__(self) -> str:
        return "DRAW"


DRAW = _Draw()
"""The `draw` termination, in the items of a `Scanned`."""


class Note(NamedTuple):
    """A comment, kept only when the canonical text is wanted (`scan(..., keep=True)`)."""

    text: str
    braced: bool


class Glyph(str):
    """A glyph written on the action before it (`!?`), kept only with `keep=True`."""

    __slots__ = ()


Item = Label | _Draw | Note | Glyph | object
"""A label, DRAW or an action (the game's own value); with `keep=True` also notes and glyphs."""


class Scanned(NamedTuple):
    """A record read the quick way."""

    game: str
    tags: dict[str, str]
    """Every tag, by name, in file order."""
    items: list[Item]
    """Labels, actions and draws in record order."""


def scan(text: str, dialects: DialectLookup, keep: bool = False) -> Scanned | None:
    """The record in `text` read the quick way, or None when the full reader must read it.

    With `keep`, comments (`Note`) and glyphs (`Glyph`, after their action) are kept among
    the items too, so that the record's canonical text can be written (`canonical_text`)."""
    game_match = GAME_VALUE.match(text)
    if game_match is None:
        return None
    game = game_match.group(1).strip().lower()
    dialect = dialects(game)
    if dialect is None:
        return None
    tag_section = TAG_SECTION.match(text)
    if tag_section is None:
        return None
    tags: dict[str, str] = {}
    for match in TAG.finditer(text, 0, tag_section.end()):
        name, value = match.group(1, 2)
        if name in tags:
            return None  # a repeated tag: the full reader says where
        tags[name] = unescape(value)
    items = _Reader.of(dialect, keep).items(text, tag_section.end())
    return None if items is None else Scanned(game, tags, items)


class _Reader:
    """The quick reader of one game's move text."""

    def __init__(self, dialect: Dialect, keep: bool = False) -> None:
        # The reader's token alternatives in the reader's order, each after the white space
        # before it (taken possessively, so no alternative is tried inside it). A glyph
        # standing apart is none of them (`bad`): such records go to the full reader.
        label = label_regex(dialect)
        # A label and the action after it in one match, as most turns are written: the
        # action is read only when reading it as the next token would (no comment, digit,
        # label or draw begins there, and the action alternative is the same pattern);
        # otherwise the label is read alone and what follows it as the next token.
        first = (
            rf"(?:\s*+(?![{{;0-9]|{label}|draw{TOKEN_END})"
            rf"(?P<first>{dialect.action_pattern})(?P<first_glyph>{GLYPH_PATTERN})?{TOKEN_END})?"
        )
        pattern = re.compile(
            r"\s*+(?:"
            rf"{COMMENT}"
            rf"|{LINE_COMMENT}"
            rf"|(?P<head>(?:(?P<number>{NUMBER})\s*+)?(?P<label>{label})){first}"
            rf"|(?P<lone>{NUMBER})"
            rf"|{termination('draw')}"
            rf"|{action_token(dialect)}"
            rf"|{termination('timeout')}"  # last: no action reads as "timeout", and actions come first
            r"|(?P<bad>[\s\S])"  # anything else: not read here
            r"|$"  # only white space is left
            ")",
            re.IGNORECASE | re.ASCII,
        )
        self.tokens = pattern.finditer
        # The tokens follow each other, since at any place one of them matches (`bad` at
        # worst, which stops the reading). Which kind of token matched, by
        # `Match.lastindex` (None for the end of the text): the last
        # group closed is the kind's own, whatever groups an action pattern holds inside
        # (`head` for a label, with its round number if any). A round number is read with
        # its label, as only white space may stand between them; a number standing alone is
        # not read here (the full reader says why).
        groups = pattern.groupindex
        self.action, self.head, self.draw = groups["action"], groups["head"], groups["draw"]
        self.glyph = groups["glyph"]
        self.first, self.first_glyph = groups["first"], groups["first_glyph"]
        self.refused = {groups["lone"], groups["timeout"], groups["bad"]}
        self.keep = keep
        self.noted = {groups["comment"]: "comment", groups["line"]: "line"}
        self.parse_action = dialect.parse_action
        self.sides = dialect.labels
        self.labels: dict[str, Label] = {}

    @staticmethod
    @cache
    def of(dialect: Dialect, keep: bool = False) -> _Reader:
        return _Reader(dialect, keep)

    def items(self, text: str, pos: int) -> list[Item] | None:
        """The labels, actions and draws of the move text from `pos`, or None."""
        labels, parse_action = self.labels, self.parse_action
        action, head, draw, glyph, keep = self.action, self.head, self.draw, self.glyph, self.keep
        first, first_glyph = self.first, self.first_glyph
        items: list[Item] = []
        append = items.append
        in_turn = False
        for token in self.tokens(text, pos):
            kind = token.lastindex
            if kind == action or (kind == glyph and not keep):  # an action (with its glyph)
                if not in_turn:
                    return None
                try:
                    append(parse_action(token[action]))
                except ValueError:
                    return None
            elif kind == first or kind == first_glyph:  # a label and its turn's first action
                written = token[head]
                label = labels.get(written) or self._label(written, token["label"], token["number"])
                if label is None:
                    return None
                append(label)
                in_turn = True
                try:
                    append(parse_action(token[first]))
                except ValueError:
                    return None
                if kind == first_glyph and keep:
                    append(Glyph(token[first_glyph]))
            elif kind == head:
                written = token[head]
                label = labels.get(written) or self._label(written, token["label"], token["number"])
                if label is None:
                    return None
                append(label)
                in_turn = True
            elif kind == draw:
                append(DRAW)
                in_turn = False
            elif kind in self.refused:
                return None  # not RGN, a number alone, a time-out (judged by the clock): the full reader reads it
            elif keep and kind is not None:  # kept: a comment, or an action with its glyph
                if kind == glyph:
                    if not in_turn:
                        return None
                    try:
                        append(parse_action(token[action]))
                    except ValueError:
                        return None
                    append(Glyph(token[glyph]))
                else:
                    noted = self.noted[kind]
                    append(Note(token[noted], noted == "comment"))
            # else a comment: passed over
        return items

    def _label(self, written: str, label: str, number: str | None) -> Label | None:
        """The label written `written` (its round number and colon included: `label` and
        `number` are its parts), now cached."""
        bare = label[:-1].rstrip("+")
        side = self.sides.get(bare.lower())
        if side is None:
            return None
        if len(self.labels) >= LABEL_CACHE:
            self.labels.clear()
        read = Label(side, label[:-1] != bare, None if number is None else int(number.rstrip(".")))
        self.labels[written] = read
        return read
