"""A queue as a player writes it (PLAY.md §9): `if CONDITION then REPLY ...` lines, read
and checked whole against the game from its end, and put in canonical form.

Every line is replayed through the engine after the record (every CONDITION and REPLY
in order, rolls as written): a fault is refused with the line and column where it
stands and, for an illegal action, the rule and what the player may have meant.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass

from referee.games import registry
from referee.judge.core import action_forms, queue_check
from referee.judge.core.adjudicate import Replay, adjudicate
from referee.judge.core.continued_replay import continued
from referee.judge.core.did_you_mean import suggestions as suggest
from referee.judge.core.verdict_words import turn_text, verdict_line
from referee.judge.core.verdicts import Status
from referee.live.play import submission
from referee.notation.lexicon import NUMBER, TOKEN_END, label_regex
from referee.notation.model import Record, Span, Turn
from referee.speech import N_

_WORD = re.compile(r"(?<!\S)(if|then)(?!\S)", re.IGNORECASE)
TOO_LARGE = N_("the queue is too large: at most {lines} lines and {size} KB (PLAY.md §8)").format(
    lines=queue_check.MAX_LINES, size=queue_check.MAX_BYTES // 1024
)

REPEATED = N_("a queue line is `if CONDITION then REPLY`, repeated")


class QueueRefusal(Exception):
    """A queue refused whole: why (with line and column), and did-you-mean."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.suggestions = list(suggestions)


@dataclass(frozen=True)
class Segment:
    """The text after one `if` or `then` word of a line, and the column it starts at."""

    word: str
    start: int
    end: int


def split_lines(text: str) -> list[tuple[int, str]]:
    """The queue's lines that hold anything, with their numbers (from 1); refused when
    too large."""
    if len(text.encode("utf-8")) > queue_check.MAX_BYTES:
        raise QueueRefusal(TOO_LARGE)
    lines = [(number, line) for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), 1) if line.strip()]
    if len(lines) > queue_check.MAX_LINES:
        raise QueueRefusal(TOO_LARGE)
    if not lines:
        raise QueueRefusal("the queue holds no line: write `if CONDITION then REPLY` (or --clear to remove a queue)")
    return lines


def checked(current: Replay, side: str, text: str) -> str:
    """The canonical queue of `text`, for `side`, on the game replayed as `current` (an
    ongoing game that awaits another side's turn). Raises QueueRefusal."""
    record = current.record
    assert record is not None
    lines = split_lines(text)
    canonical: list[str] = []
    given: dict[tuple[str, ...], tuple[str, int]] = {}
    for number, line in lines:
        turns = _checked_line(current, record, side, number, line)
        canonical.append(_canonical(turns))
        for before, reply, _ in queue_check.Line(_steps(turns)).prefixes():
            other = given.setdefault(before, (reply, number))
            if other[0] != reply:
                twice = N_(
                    "it gives {reply} after the same conditions as line {other}, "
                    "which gives {given}: a queue gives one reply to one sequence of turns"
                )
                raise QueueRefusal(f"queue line {number}: {twice.format(reply=reply, other=other[1], given=other[0])}")
    return queue_check.canonical_queue(sorted(set(canonical)))


def _steps(turns: list[tuple[str, str]]) -> tuple[queue_check.Step, ...]:
    steps: list[queue_check.Step] = []
    conditions: list[str] = []
    for word, turn in turns:
        if word == "if":
            conditions.append(turn)
        else:
            steps.append(queue_check.Step(tuple(conditions), turn))
            conditions = []
    return tuple(steps)


def _canonical(turns: list[tuple[str, str]]) -> str:
    words: list[str] = []
    last = ""
    for word, turn in turns:
        if word != last or word == "then":
            words.append(word)
        words.append(turn)
        last = word
    return " ".join(words)


def _where(number: int, column: int) -> str:
    return f"queue line {number}, col {column}"


def _at(number: int, column: int, why: str) -> QueueRefusal:
    """A fault at a place of a queue line: `why` is a message of the catalogue (filled in),
    which a reader's language says again (referee/spoken_lines.py `queue_line`)."""
    return QueueRefusal(f"{_where(number, column)}: {why}")


def _segments(number: int, line: str) -> list[Segment]:
    words = list(_WORD.finditer(line))
    first = len(line) - len(line.lstrip())
    if not words or words[0].start() != first:
        raise _at(number, first + 1, REPEATED)
    segments: list[Segment] = []
    for index, found in enumerate(words):
        word = found.group(1).lower()
        expected = "if" if index % 2 == 0 else "then"
        if word != expected:
            wrong = N_('expected "{expected}", found "{found}"').format(expected=expected, found=found.group(1))
            raise _at(number, found.start() + 1, wrong)
        end = words[index + 1].start() if index + 1 < len(words) else len(line)
        if not line[found.end() : end].strip():
            what = (
                N_('"if" must be followed by a condition (turns of other sides)')
                if word == "if"
                else N_('"then" must be followed by a reply (your turn)')
            )
            raise _at(number, found.start() + 1, what)
        segments.append(Segment(word, found.end(), end))
    if segments[-1].word != "then":
        raise _at(number, len(line.rstrip()) + 1, N_("the line must end with `then REPLY`"))
    return segments


def _checked_line(current: Replay, record: Record, side: str, number: int, line: str) -> list[tuple[str, str]]:
    """One line checked; its turns as (`if` or `then`, canonical turn text)."""
    command = submission.command_in(line)
    if command is not None:
        column = line.find("[%")
        column = line.rfind("{", 0, column) + 1 if column >= 0 else 1
        raise _at(number, column, submission.command_refusal(command))
    for opener in "{;":
        if opener in line:
            raise _at(number, line.index(opener) + 1, N_("a queue line holds no comments"))
    segments = _segments(number, line)
    engine = registry.engine(record.game)
    dialect = engine.dialect()
    label = re.compile(rf"\s*(?:{NUMBER}|{label_regex(dialect)}|timeout{TOKEN_END})", re.IGNORECASE | re.ASCII)
    own = dialect.short_labels[side] + ":"
    chars = list(line)
    for segment in segments:
        begins = segment.start - (2 if segment.word == "if" else 4)
        chars[begins : segment.start] = " " * (segment.start - begins)
        if not label.match(line, segment.start):
            body = line[segment.start : segment.end]
            if segment.word == "if":
                at = segment.start + len(body) - len(body.lstrip()) + 1
                named = N_("a condition names the side of each turn (B: e8-e3(E))")
                raise _at(number, at, named)
            if len(own) <= 4:
                chars[begins : begins + len(own)] = own
    moves = "".join(chars)
    try:
        read = submission.read(moves, record.game, None)
    except submission.SubmissionError as error:  # (its span is the line's own)
        raise _at(number, error.span.column, error.message) from None
    if read.part is not None or read.record is None:
        raise _at(number, 1, REPEATED)
    turns: list[tuple[str, str]] = []
    by_segment: list[list[Turn]] = [[] for _ in segments]
    starts = [segment.start - 4 for segment in segments]  # a turn belongs to the last word before it
    for item in read.record.items:
        column = submission.local(item.span).column
        if not isinstance(item, Turn):
            raise _at(number, column, N_("a queue holds turns only (no draw or timeout)"))
        at = max(bisect.bisect_left(starts, column) - 1, 0)
        by_segment[at].append(item)
    for segment, held in zip(segments, by_segment, strict=True):
        if not held:
            followed = N_('"{word}" must be followed by a turn').format(word=segment.word)
            raise _at(number, segment.start, followed)
        for turn in held:
            column = submission.local(turn.span).column
            if segment.word == "if" and turn.side == side:
                others = N_("a condition holds turns of the other sides, not {side}'s: {side}'s turns are its replies")
                raise _at(number, column, others.format(side=side))
            if segment.word == "if" and turn.number is not None:
                raise _at(number, column, N_("a condition is written without round numbers"))
            if segment.word == "then" and turn.side != side:
                whose = N_("a reply is a turn of {side}'s, not {other}'s").format(side=side, other=turn.side)
                raise _at(number, column, whose)
            for move in turn.moves:
                chance = engine.chance_of(move.action)
                if chance is None:
                    continue
                at = submission.local(move.span).column
                if segment.word == "if" and (chance.roll is None or chance.result is None):
                    syntax = engine.chance_syntax()
                    rolled = N_("a battle in a condition is written with its roll and result")
                    if syntax is not None:
                        rolled = N_("a battle in a condition is written with its roll and result ({example})").format(
                            example=syntax.rolled
                        )
                    raise _at(number, at, rolled)
                if segment.word == "then" and chance.roll is not None:
                    unrolled = N_("a reply's battle is rolled when it is played: leave the roll out")
                    raise _at(number, at, unrolled)
        if segment.word == "then" and len(held) != 1:
            column = submission.local(held[1].span).column
            raise _at(number, column, N_("a reply is one turn"))
        turns += [(segment.word, queue_check.turn_text(turn, record.game)) for turn in held]
    _replayed(current, record, read.record, number)
    return turns


def _replayed(current: Replay, record: Record, line: Record, number: int) -> None:
    """The line replayed after the record: refused at its first illegal action."""
    combined = record._replace(items=record.items + line.items)
    replayed = continued(current, combined, "queue") or adjudicate(combined, "queue", keep_steps=True)
    verdict = replayed.verdict
    if verdict.status in (Status.FINISHED, Status.ONGOING):
        return
    error = verdict.error
    if error is None or not submission.in_submission(Span(error.line, error.column)):
        raise QueueRefusal(f"queue line {number}: {verdict_line(verdict)}")
    where = submission.local(Span(error.line, error.column))
    hints: list[str] = []
    if error.action is not None and replayed.state is not None:
        hints = suggest(replayed.state, error.action, hide_rolls=action_forms.secret(combined.tag_map))
    raise QueueRefusal(f"{_where(number, where.column)}: {turn_text(error)}: {error.message}", hints)
