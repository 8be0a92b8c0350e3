"""The RGN grammar of NOTATION.md §1-3 in pyparsing, element by element.

This is the detailed, named grammar: every element says in words what it expects, `-`
after an unambiguous prefix puts an error where the mistake is, and parse actions build
the model's typed objects. The reader uses it to explain text its fast path rejects (and
the tests use it as an oracle for the fast path); it is built only for a game whose
record needs it.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from functools import cache

import pyparsing as pp

from referee.notation.dialect import GLYPH_PATTERN, Dialect
from referee.notation.lexicon import (
    KIND,
    TAG_NAME,
    TAG_VALUE,
    TERMINATIONS,
    WORD,
    last_move_index,
    quote,
    round_value,
    shorten,
    unescape,
)
from referee.notation.model import (
    Adjudicated,
    Comment,
    Draw,
    Move,
    NotationError,
    Record,
    RecordItem,
    Span,
    Tag,
    Timeout,
    Turn,
    TurnItem,
    phrase,
)


class RgnGrammar:
    """The detailed grammar of one game's records. `parse(text, first_line)` gives a
    Record or raises NotationError at the first place the text stops being RGN."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._first_line = 1
        self._first_column = 1
        self._text = ""
        self._offset = 0  # where self._text starts in the record's text
        self._line_starts: array[int] = array("q", [0])
        self.tail: pp.ParserElement = pp.Empty()
        self._whole_action = re.compile(
            rf"(?:{dialect.action_pattern})?(?:{GLYPH_PATTERN})?", flags=re.IGNORECASE | re.ASCII
        )
        self.record = self._build()

    def _span(self, loc: int) -> Span:
        """Line and column of an offset: a binary search over the record's line starts,
        so explaining an error late in a long record costs no more than reading it."""
        loc += self._offset
        index = bisect_right(self._line_starts, loc) - 1
        column = loc - self._line_starts[index] + 1
        return Span(self._first_line + index, column + (self._first_column - 1 if index == 0 else 0))

    def _fail(self, loc: int, message: str) -> None:
        raise pp.ParseFatalException(self._text, loc, message)

    def _build(self) -> pp.ParserElement:
        dialect = self.dialect
        hint = dialect.label_hint()
        example = phrase("an action such as {example}", example=f'"{dialect.example_action}"')

        tag_name = pp.Regex(TAG_NAME).set_name(phrase("a tag name such as Event"))
        tag_value = pp.Regex(TAG_VALUE).set_name(
            phrase('a quoted tag value such as "Ann" (the only escapes are \\" and \\\\)')
        )
        tag = (pp.Suppress("[") - tag_name - tag_value - pp.Suppress("]")).set_name(
            phrase('a tag such as [Event "Club night"]')
        )
        tag.set_parse_action(lambda s, loc, t: Tag(t[0], unescape(t[1]), self._span(loc)))

        braced = pp.Regex(KIND["comment"].token(dialect)).set_name(phrase("a comment in braces"))
        braced.set_parse_action(lambda s, loc, t: Comment(t["comment"], self._span(loc)))
        unclosed = pp.Literal("{").set_name(phrase("a comment"))
        unclosed.set_parse_action(
            lambda s, loc, t: self._fail(loc, phrase('this comment is never closed: expected "}"'))
        )
        line_comment = pp.Regex(KIND["line"].token(dialect)).set_name(phrase("a comment"))
        line_comment.set_parse_action(lambda s, loc, t: Comment(t["line"], self._span(loc), False))
        comment = (braced | line_comment | unclosed).set_name(phrase("a comment"))

        number = pp.Regex(KIND["number"].token(dialect)).set_name(phrase('a round number such as "12."'))
        number.set_parse_action(lambda t: round_value(t[0]))
        label = pp.Regex(KIND["label"].token(dialect), flags=re.IGNORECASE | re.ASCII).set_name(hint)
        label.set_parse_action(lambda s, loc, t: (t[0], self._span(loc)))
        termination = pp.MatchFirst([self._termination(word, item) for word, item in TERMINATIONS.items()])
        glyph = pp.Regex(KIND["lone"].token(dialect)).set_name(phrase('a glyph such as "!?"'))
        glyph.set_parse_action(lambda s, loc, t: ("glyph", t[0], loc))
        action = pp.Regex(KIND["action"].token(dialect), flags=re.IGNORECASE | re.ASCII).set_name(example)
        action.set_parse_action(self._make_move)

        boundary = number | label | termination
        bad_word = pp.Regex(WORD).set_name(example)
        bad_word.set_parse_action(lambda s, loc, t: self._explain_token(loc, t[0], s))
        bad_in_turn = ~boundary + bad_word
        turn_items = pp.ZeroOrMore(comment | action | glyph | bad_in_turn)
        unnumbered = pp.Empty().set_parse_action(lambda: [None])
        header = (number - label) | (unnumbered + label)
        turn = (header - pp.Group(turn_items)).set_name(phrase("a turn"))
        turn.set_parse_action(self._make_turn)

        stray_word = pp.Regex(WORD).set_name(hint)
        stray_word.set_parse_action(lambda s, loc, t: self._explain_stray(loc, t[0]))
        stray = ~boundary + stray_word
        movetext = pp.ZeroOrMore(turn | comment | termination | stray)
        record = pp.Group(pp.OneOrMore(tag)) - pp.Group(movetext) - pp.StringEnd().set_name(hint)
        self.tail = (pp.Group(movetext) - pp.StringEnd().set_name(hint)).parse_with_tabs()
        return record.parse_with_tabs()  # a tab is one column, as the contract counts

    def _termination(self, word: str, item: type[Draw] | type[Timeout] | type[Adjudicated]) -> pp.ParserElement:
        """The termination word `word` (its row of `TOKEN_KINDS`), read as its item."""
        element = pp.Regex(KIND[word].token(self.dialect), flags=re.IGNORECASE | re.ASCII).set_name(f'"{word}"')
        element.set_parse_action(lambda s, loc, t: item(self._span(loc)))
        return element

    def _make_move(self, s: str, loc: int, tokens: pp.ParseResults) -> tuple[str, Move]:
        text = tokens["action"]
        try:
            action = self.dialect.parse_action(text)
        except ValueError as error:
            self._fail(loc, str(error))
        glyph: str | None = tokens["glyph"] if "glyph" in tokens else None
        return ("move", Move(action, text, self._span(loc), glyph))

    def _make_turn(self, s: str, loc: int, tokens: pp.ParseResults) -> Turn:
        number, (label_text, span), items = tokens[0], tokens[1], tokens[2]
        built: list[TurnItem] = []
        for item in items:
            if isinstance(item, Comment):
                built.append(item)
            elif item[0] == "move":
                built.append(item[1])
            else:
                last = last_move_index(built)
                move = None if last is None else built[last]
                if not isinstance(move, Move) or move.glyph is not None or last is None:
                    self._fail(item[2], phrase("a glyph must follow an action"))
                    continue
                built[last] = move._replace(glyph=item[1])
        label = label_text[:-1]
        step = label.endswith("+")
        side = self.dialect.labels[label.rstrip("+").lower()]
        return Turn(number, side, step, label, span, tuple(built))

    def _explain_token(self, loc: int, token: str, text: str = "") -> None:
        """Say why a word inside a turn is no action: the action grammar's own words. A word
        that is an action (or a glyph) but for a `}` right after it: the `}` is at fault."""
        after = loc + len(token)
        if text[after : after + 1] == "}" and self._whole_action.fullmatch(token):
            self._fail(after, _or_action(self.dialect.label_hint(), quote("}")))
        if token.endswith(":"):
            self._fail(loc, _expected(self.dialect.label_hint(), quote(token)))
        if token in "};":
            self._fail(loc, _or_action(self.dialect.label_hint(), quote(token)))
        bare = re.sub(rf"(?:{GLYPH_PATTERN})$", "", token)
        example, found = f'"{self.dialect.example_action}"', quote(token)
        try:
            self.dialect.action_element().parse_string(bare, parse_all=True)
        except pp.ParseBaseException as error:
            if error.loc > 0:
                expected = shorten(_lowered(error.msg), 200)
                self._fail(
                    loc,
                    phrase(
                        "expected an action such as {example}, found {found}: after {before}, {expected}",
                        example=example,
                        found=found,
                        before=quote(bare[: error.loc]),
                        expected=expected,
                    ),
                )
        self._fail(loc, phrase("expected an action such as {example}, found {found}", example=example, found=found))

    def _explain_stray(self, loc: int, token: str) -> None:
        self._fail(loc, _expected(self.dialect.label_hint(), quote(token)))

    def parse(self, text: str, first_line: int = 1, first_column: int = 1, resume: int | None = None) -> Record:
        """The record of `text`, which starts at `first_line`, `first_column` of its input.

        `resume`, when given, is the start of a move-text item (a turn, a comment, `draw`)
        before which the text is known to be RGN: the error, which must lie after it, is
        sought from there, so that explaining an error late in a long record costs about
        what reading it costs. Should that part read without error, the whole is parsed."""
        self._first_line, self._first_column = first_line, first_column
        # An array, not a list: 8 bytes a line instead of about 36 (a long record has many).
        self._line_starts = array("q", [0])
        self._line_starts.extend(match.end() for match in _NEWLINE.finditer(text))
        try:
            if resume:
                self._parse(self.tail, text, resume)
            return self._record(self._parse(self.record, text, 0))
        finally:
            self._text, self._offset, self._line_starts = "", 0, array("q", [0])

    def _parse(self, element: pp.ParserElement, text: str, start: int) -> pp.ParseResults:
        self._text, self._offset = text[start:] if start else text, start
        try:
            return element.parse_string(self._text, parse_all=True)
        except pp.ParseBaseException as error:
            message = error.msg
            if message.startswith("Expected "):
                message = "expected " + message[len("Expected ") :]
            loc = error.loc
            found = _FOUND.match(self._text, loc)
            if found and "found" not in message and "never closed" not in message:
                if message.startswith("expected "):
                    message = _expected(message.removeprefix("expected "), quote(found.group()))
                else:
                    message += f", found {quote(found.group())}"
            elif not self._text[loc:].strip():
                # At the end of the record (a round number, say, with nothing after it): right
                # after its last word, not past the blank lines that lead to the next record.
                loc = min(loc, len(self._text.rstrip()))
            raise NotationError(message, self._span(loc)) from None

    def _record(self, results: pp.ParseResults) -> Record:
        tags, items = results
        record_items: list[RecordItem] = list(items)
        game = tags[0].value.strip().lower()
        return Record(game, tuple(tags), tuple(record_items), tags[0].span)


_NEWLINE = re.compile("\n")
_FOUND = re.compile(r"\S{1,41}")  # enough of the next word to quote (quote() shortens it)


@cache
def grammar(dialect: Dialect) -> RgnGrammar:
    return RgnGrammar(dialect)


def _expected(what: str, found: str) -> str:
    return phrase("expected {what}, found {found}", what=what, found=found)


def _or_action(label: str, found: str) -> str:
    return phrase("expected {label} or an action, found {found}", label=label, found=found)


def _lowered(message: str) -> str:
    """pyparsing's `Expected X` as a message's part: `expected X`."""
    if message.startswith("Expected "):
        what = message.removeprefix("Expected ")
        if what == _END_OF_TEXT:  # pyparsing's own name of the end of an action (`parse_all`)
            what = phrase("end of text")  # marked, so that the catalogue says it in a language
        return phrase("expected {what}", what=what)
    return message[:1].lower() + message[1:]


_END_OF_TEXT = "end of text"
