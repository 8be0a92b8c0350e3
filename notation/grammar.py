"""The RGN grammar of NOTATION.md §1-3 in pyparsing, element by element.

This is the detailed, named grammar: every element says in words what it expects, `-`
after an unambiguous prefix puts an error where the mistake is, and parse actions build
the model's typed objects. The reader uses it to explain text its fast path rejects (and
the tests use it as an oracle for the fast path); it is built only for a game whose
record needs it.
"""

from __future__ import annotations

import re
from functools import cache

import pyparsing as pp

from notation.dialect import GLYPH_PATTERN, Dialect
from notation.lexicon import NUMBER, TAG_NAME, TAG_VALUE, TOKEN_END, WORD, label_regex, last_move_index, unescape
from notation.model import Comment, Draw, Move, NotationError, Record, RecordItem, Span, Tag, Turn


class RgnGrammar:
    """The detailed grammar of one game's records. `parse(text, first_line)` gives a
    Record or raises NotationError at the first place the text stops being RGN."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self._first_line = 1
        self._text = ""
        self.record = self._build()

    def _span(self, loc: int) -> Span:
        return Span(self._first_line + pp.lineno(loc, self._text) - 1, pp.col(loc, self._text))

    def _fail(self, loc: int, message: str) -> None:
        raise pp.ParseFatalException(self._text, loc, message)

    def _build(self) -> pp.ParserElement:
        dialect = self.dialect
        hint = dialect.label_hint()
        example = f'an action such as "{dialect.example_action}"'

        tag_name = pp.Regex(TAG_NAME).set_name("a tag name such as Event")
        tag_value = pp.Regex(TAG_VALUE).set_name('a quoted tag value such as "Ann" (the only escapes are \\" and \\\\)')
        tag = (pp.Suppress("[") - tag_name - tag_value - pp.Suppress("]")).set_name(
            'a tag such as [Event "Club night"]'
        )
        tag.set_parse_action(lambda s, loc, t: Tag(t[0], unescape(t[1]), self._span(loc)))

        braced = pp.Regex(r"\{[^}]*\}").set_name("a comment in braces")
        braced.set_parse_action(lambda s, loc, t: Comment(t[0][1:-1], self._span(loc)))
        unclosed = pp.Literal("{").set_name("a comment")
        unclosed.set_parse_action(lambda s, loc, t: self._fail(loc, 'this comment is never closed: expected "}"'))
        line_comment = pp.Regex(r";[^\n]*").set_name("a comment")
        line_comment.set_parse_action(lambda s, loc, t: Comment(t[0][1:], self._span(loc), False))
        comment = (braced | line_comment | unclosed).set_name("a comment")

        number = pp.Regex(NUMBER).set_name('a round number such as "12."')
        number.set_parse_action(lambda t: int(t[0].rstrip(".")))
        label = pp.Regex(label_regex(dialect), flags=re.IGNORECASE | re.ASCII).set_name(hint)
        label.set_parse_action(lambda s, loc, t: (t[0], self._span(loc)))
        draw = pp.Regex(rf"draw{TOKEN_END}", flags=re.IGNORECASE | re.ASCII).set_name('"draw"')
        draw.set_parse_action(lambda s, loc, t: Draw(self._span(loc)))
        glyph = pp.Regex(rf"(?:{GLYPH_PATTERN}){TOKEN_END}").set_name('a glyph such as "!?"')
        glyph.set_parse_action(lambda t: ("glyph", t[0]))
        action = pp.Regex(
            rf"(?P<text>{dialect.action_pattern})(?P<glyph>{GLYPH_PATTERN})?{TOKEN_END}",
            flags=re.IGNORECASE | re.ASCII,
        ).set_name(example)
        action.set_parse_action(self._make_move)

        boundary = number | label | draw
        bad_word = pp.Regex(WORD).set_name(example)
        bad_word.set_parse_action(lambda s, loc, t: self._explain_token(loc, t[0]))
        bad_in_turn = ~boundary + bad_word
        turn_items = pp.ZeroOrMore(comment | action | glyph | bad_in_turn)
        unnumbered = pp.Empty().set_parse_action(lambda: [None])
        header = (number - label) | (unnumbered + label)
        turn = (header - pp.Group(turn_items)).set_name("a turn")
        turn.set_parse_action(self._make_turn)

        stray_word = pp.Regex(WORD).set_name(hint)
        stray_word.set_parse_action(lambda s, loc, t: self._explain_stray(loc, t[0]))
        stray = ~boundary + stray_word
        movetext = pp.ZeroOrMore(turn | comment | draw | stray)
        record = pp.Group(pp.OneOrMore(tag)) - pp.Group(movetext) - pp.StringEnd().set_name(hint)
        return record.parse_with_tabs()  # a tab is one column, as the contract counts

    def _make_move(self, s: str, loc: int, tokens: pp.ParseResults) -> tuple[str, Move]:
        text = tokens["text"]
        try:
            action = self.dialect.parse_action(text)
        except ValueError as error:
            self._fail(loc, str(error))
        return ("move", Move(action, text, self._span(loc), tokens.get("glyph")))

    def _make_turn(self, s: str, loc: int, tokens: pp.ParseResults) -> Turn:
        number, (label_text, span), items = tokens[0], tokens[1], tokens[2]
        built: list = []
        for item in items:
            if isinstance(item, Comment):
                built.append(item)
            elif item[0] == "move":
                built.append(item[1])
            elif (last := last_move_index(built)) is not None and built[last].glyph is None:
                built[last] = built[last]._replace(glyph=item[1])
            else:
                self._fail(loc, "a glyph must follow an action")
        label = label_text[:-1]
        step = label.endswith("+")
        side = self.dialect.labels[label.rstrip("+").lower()]
        return Turn(number, side, step, label, span, tuple(built))

    def _explain_token(self, loc: int, token: str) -> None:
        """Say why a word inside a turn is no action: the action grammar's own words."""
        if token.endswith(":"):
            self._fail(loc, f"expected {self.dialect.label_hint()}, found {token!r}")
        if token in "};":
            self._fail(loc, f"expected {self.dialect.label_hint()} or an action, found {token!r}")
        bare = re.sub(rf"(?:{GLYPH_PATTERN})$", "", token)
        detail = ""
        try:
            self.dialect.action_element().parse_string(bare, parse_all=True)
        except pp.ParseBaseException as error:
            if error.loc > 0:
                expected = error.msg[:1].lower() + error.msg[1:]
                detail = f": after {bare[: error.loc]!r}, {expected}"
        self._fail(loc, f'expected an action such as "{self.dialect.example_action}", found {token!r}{detail}')

    def _explain_stray(self, loc: int, token: str) -> None:
        self._fail(loc, f"expected {self.dialect.label_hint()}, found {token!r}")

    def parse(self, text: str, first_line: int = 1) -> Record:
        self._text, self._first_line = text, first_line
        try:
            tags, items = self.record.parse_string(text, parse_all=True)
        except pp.ParseBaseException as error:
            message = error.msg
            if message.startswith("Expected "):
                message = "expected " + message[len("Expected ") :]
            found = text[error.loc :].split(None, 1)
            if found and "found" not in message and "never closed" not in message:
                message += f", found {found[0]!r}"
            raise NotationError(message, self._span(error.loc)) from None
        finally:
            self._text = ""
        record_items: list[RecordItem] = list(items)
        game = tags[0].value.strip().lower()
        return Record(game, tuple(tags), tuple(record_items), tags[0].span)


@cache
def grammar(dialect: Dialect) -> RgnGrammar:
    return RgnGrammar(dialect)
