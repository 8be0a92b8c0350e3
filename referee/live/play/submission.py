"""Reading a submission: RGN move text that continues a record (PLAY.md §1).

Three things set a submission apart from a record's move text:
- it may start with an action, the label of the side to move being implied;
- it may start with what a battle awaits, written alone as the battle token
  would hold it: a roll `#4`, a choice `(h7-h8-h9)` or `(-g6,-h7)`, or several of these (its pattern is the game's:
  `Engine.lone_part`);
- its lines and columns are its own, so that errors point inside it;
- it never holds a comment command (`{[%...]}`, PLAY.md §7): those are the referee's word
  in the record (stamps, grants, offers), written by the referee alone. `command_in` finds
  one in a player's text, the way the record reader finds comments.

The move text is read by the record reader behind a `[Game]` tag on a line numbered
`OFFSET`, so that its line n gets the number OFFSET + n: spans from the submission never
meet spans from the game file, whatever the file's length.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from referee.games import registry
from referee.notation import reader
from referee.notation.lexicon import NUMBER, TOKEN_END, label_regex
from referee.notation.model import Malformed, Record, Span, SpanError
from referee.speech import N_

OFFSET = 1_000_000_000
_SKIP = re.compile(r"(?:\s+|\{[^}]*\}|;[^\n]*)*")


_OPENER = re.compile(r"[{;]")
_LEAD = re.compile("[\\s\u00ad\u200b\u200c\u200d\u2060\ufeff]*")
"""White space of any kind and characters that print as nothing, before a comment's `[%`."""
REFEREE_ONLY = N_("comment commands are written by the referee")


def command_in(text: str) -> str | None:
    """The first comment command a player's text holds, as written (at most 60 characters
    shown), or None (PLAY.md §7). Comments are found as the record reader finds them: `{`
    opens a braced comment up to the next `}` (an unclosed one runs to the end), `;` a
    comment to the end of its line, which holds no command. A braced comment holds commands
    when its text, after any white space (of any kind, wider than the readers' own), starts
    with `[%`, whatever the name, case, spacing or arguments that follow: readers that would
    not take it as a command today are no reason to let a player write it."""
    position = 0
    while (found := _OPENER.search(text, position)) is not None:
        start = found.start()
        if text[start] == ";":
            end = text.find("\n", start)
            if end < 0:
                return None
            position = end + 1
            continue
        end = text.find("}", start + 1)
        inner = text[start + 1 : end if end >= 0 else len(text)]
        stripped = inner[_LEAD.match(inner).end() :]  # type: ignore[union-attr]  # matches ""
        if stripped.startswith("[%"):
            close = stripped.find("]")
            command = stripped[: close + 1] if 0 <= close < 60 else stripped[:57] + "..."
            return "".join(char if char.isprintable() else " " for char in command)
        if end < 0:
            return None
        position = end + 1
    return None


def command_refusal(command: str) -> str:
    """The one line that refuses a player's text holding `command` (PLAY.md §7)."""
    refusal = N_("{command} is a comment command, and {referee_only}: a player's submission never holds one")
    return refusal.format(command="{" + command + "}", referee_only=REFEREE_ONLY)


class SubmissionError(SpanError):
    """Text of the submission that is not RGN move text; `span` is inside the submission."""


@dataclass(frozen=True)
class Part:
    """What a battle awaits, written alone at the start of a submission."""

    text: str
    span: Span


@dataclass(frozen=True)
class Submission:
    """A submission read: an optional battle part, then its move text as a record whose
    spans are shifted by OFFSET lines (`record` is None when only comments or nothing
    follow the part). `implied` says the first turn's label was implied."""

    part: Part | None
    record: Record | None
    implied: bool


def local(span: Span) -> Span:
    """A span of the shifted move text as a line and column of the submission itself."""
    if span.line <= OFFSET:
        return Span(1, 1)  # the implied label, which stands before the submission's text
    return Span(span.line - OFFSET, span.column)


def in_submission(span: Span) -> bool:
    return span.line >= OFFSET


@functools.cache
def _part(pattern: str) -> re.Pattern[str]:
    """A game's lone part (`Engine.lone_part`), ending where its token ends."""
    return re.compile(f"(?:{pattern}){TOKEN_END}", re.ASCII)


def _span(text: str, offset: int) -> Span:
    line_start = text.rfind("\n", 0, offset) + 1
    return Span(text.count("\n", 0, offset) + 1, offset - line_start + 1)


def read(moves: str, game: str, to_move: str | None) -> Submission:
    """Read MOVES for `game`, implying the label of `to_move` when it starts with an
    action. Raises SubmissionError for text that is not RGN move text."""
    text = moves.lstrip("\ufeff").replace("\r\n", "\n")
    engine = registry.engine(game)
    dialect = engine.dialect()
    position = _SKIP.match(text, 0)
    start = position.end() if position else 0
    part: Part | None = None
    found = _part(engine.lone_part()).match(text, start)
    if found:
        part = Part(found.group(0), _span(text, start))
        text = text[:start] + " " * len(found.group(0)) + text[found.end() :]
        position = _SKIP.match(text, found.end())
        start = position.end() if position else found.end()
    if start >= len(text):
        return Submission(part, None, False)
    explicit = re.compile(
        rf"{NUMBER}|{label_regex(dialect)}|timeout{TOKEN_END}|adjudicated{TOKEN_END}", re.IGNORECASE | re.ASCII
    )
    implied = not explicit.match(text, start)
    head = f'[Game "{game}"]'
    if implied:
        if to_move is None:
            raise SubmissionError(N_("the game awaits no turn: nothing can be played"), _span(text, start))
        head += f" {dialect.short_labels[to_move]}:"
    chunk = (head + "\n" + text).encode("utf-8")
    pieces = reader.split_records(chunk)
    if len(pieces) != 1:
        second = text.find("[Game")
        raise SubmissionError(
            N_('a submission is move text: it cannot start a new record with [Game "..."]'), _span(text, second)
        )
    result = reader.read_record(chunk, OFFSET, lambda name: dialect if name == game else None)
    if isinstance(result, Malformed):
        raise SubmissionError(result.error.message, local(result.error.span))
    extra = [tag for tag in result.tags if tag.name != "Game"]
    if extra:
        raise SubmissionError(
            N_("a submission is move text: tags such as [{tag}] belong in the game file").format(tag=extra[0].name),
            local(extra[0].span),
        )
    if not result.items:
        return Submission(part, None, False)
    return Submission(part, result, implied)
