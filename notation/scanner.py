"""The one scanner of move text: one compiled regular expression per game, built from the
table of token kinds (`lexicon.TOKEN_KINDS`), which cuts a move text into tokens.

Every fast reader of move text reads these tokens and only these: the quick reader
(`notation.quick`, labels and actions for a replay, and the canonical text for the turn
token), the model reader (`notation.reader`, the record model with spans and comments)
and the quick reader's word tables (each word learnt by scanning it alone). The grammar
(`notation.grammar`) reads the same rows' expressions to explain a text that is not RGN.

The expression is the rows in the table's order, an alternative a row, each after the
white space before it (taken possessively, so that no alternative is tried inside it),
but for two rows read together: a round number is read with the label after it, and the
label with its turn's first action when the text goes on with one (most turns are written
so: one match a turn's head). A round number not before a label is its own alternative
(`lone_number`); anything else is `bad` (one character), and the end of the text, after
white space, matches with no group at all. So at any place one alternative matches and the
tokens follow each other: `finditer` is the scan, and `Match.lastindex`, the group closed
last, is the kind of each token (whatever groups an action pattern holds inside, the
kind's own group closes after them).
"""

from __future__ import annotations

import re
from functools import cache

from referee.notation.dialect import GLYPH_PATTERN, Dialect
from referee.notation.lexicon import KIND, NUMBER, TERMINATIONS, TOKEN_END, TOKEN_KINDS, label_regex


class Scanner:
    """One game's scanner: its expression (`pattern`, `tokens` its `finditer`) and the group
    of each kind of token, by which a reader knows a match's kind (`Match.lastindex`)."""

    def __init__(self, dialect: Dialect) -> None:
        label = label_regex(dialect)
        ends = "|".join(TERMINATIONS)
        # A turn's first action is read with its label only where reading it as the next
        # token would read it: no comment, round number, label or termination word (the
        # alternatives before the action's) begins there.
        first = (
            rf"(?:\s*+(?![{{;0-9]|{label}|(?:{ends}){TOKEN_END})"
            rf"(?P<first>{dialect.action_pattern})(?P<first_glyph>{GLYPH_PATTERN})?{TOKEN_END})?"
        )
        alternatives: list[str] = []
        kind_label = KIND["label"].token(dialect)
        for kind in TOKEN_KINDS:
            if kind.name == "number":
                continue  # read with its label (below), or alone just after
            if kind.name == "label":
                number = KIND["number"].token(dialect)
                alternatives.append(rf"(?P<head>(?:{number}\s*+)?{kind.token(dialect)}){first}")
                alternatives.append(rf"(?P<lone_number>{NUMBER})")
                continue
            alternatives.append(kind.token(dialect))
        alternatives += [r"(?P<bad>[\s\S])", r"$"]
        self.pattern = re.compile(
            r"\s*+(?:" + "|".join(alternatives) + ")", re.IGNORECASE | re.ASCII
        )  # ASCII: no Unicode look-alikes ("İ1-N" is not "i1-N")
        self.tokens = self.pattern.finditer
        groups = self.pattern.groupindex
        self.comment, self.line = groups["comment"], groups["line"]
        self.head, self.number, self.label = groups["head"], groups["number"], groups["label"]
        self.first, self.first_glyph = groups["first"], groups["first_glyph"]
        self.lone_number = groups["lone_number"]
        self.action, self.glyph = groups["action"], groups["glyph"]
        self.lone = groups["lone"]
        self.bad = groups["bad"]
        self.terminations = {groups[word]: word for word in TERMINATIONS}
        self.draw = groups["draw"]
        # A word standing alone (white space around it) that is one token by itself: a
        # label with its round number, `draw` or an action, the same rows' expressions
        # in the same order, anchored at both ends (`word`; the quick reader's word tables
        # learn each word so, see `notation.quick`).
        number, draw = KIND["number"].token(dialect), KIND["draw"].token(dialect)
        alone = re.compile(
            rf"(?P<head>{number}?{kind_label})|{draw}|(?P<action>{dialect.action_pattern})",
            re.IGNORECASE | re.ASCII,
        )
        self.word = alone.fullmatch
        self.word_head, self.word_draw = alone.groupindex["head"], alone.groupindex["draw"]
        self.word_action = alone.groupindex["action"]
        rows = {
            self.head: "label",
            self.first: "label",
            self.first_glyph: "label",
            self.lone_number: "number",
            self.glyph: "action",
            self.bad: "bad",
        }
        rows.update({groups[kind.name]: kind.name for kind in TOKEN_KINDS})
        self.kind: dict[int, str] = rows
        """The row of `TOKEN_KINDS` (its name) each group's match is a token of, by the group's
        index (`Match.lastindex`); `bad` for text that is no token. (A head is the label's:
        its round number and first action are its own tokens read with it.)"""

    def __repr__(self) -> str:
        return f"<Scanner of {len(self.kind)} groups>"


@cache
def scanner(dialect: Dialect) -> Scanner:
    """The scanner of a game's move text (one per game)."""
    return Scanner(dialect)
