"""Conditional moves in the record (PLAY.md §9): the canonical queue and its commitment,
the comment commands `%queued`, `%by-queue` and `%revealed`, and what `check` verifies.

    {[%queued Red sha256:H]}        a queue committed (`none`: a queue cleared)
    {[%by-queue Red]}               the next turn is Red's reply, played from its queue
    {[%revealed Red NONCE LINE | LINE]}   the queue revealed: its nonce and canonical lines

A queue line is `if CONDITION then REPLY ...`; its turns are compared by their canonical
text (`turn_text`: label and actions, no round number, glyph or comment). Until a side's
queue is revealed its commands are taken as given; once revealed, each reveal must hash to
its commitment and each reply must be the one its queue gives. Nothing here names a game.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from referee.games import registry
from referee.judge.core.verdicts import ErrorReport, QueueState, Status, Verdict
from referee.notation.comment_commands import Command, CommandSyntaxError, read_commands
from referee.notation.model import Comment, Record, Span, Turn

QUEUED = "queued"
BY_QUEUE = "by-queue"
REVEALED = "revealed"
NAMES = (QUEUED, BY_QUEUE, REVEALED)
CLEARED = "none"
MAX_LINES = 64
MAX_BYTES = 64 * 1024
NONCE_BITS = 128
_MENTION = re.compile(rb"\[%(?:queued|by-queue|revealed)[\s\]]")
_WORD = re.compile(r"(?<!\S)(if|then)(?!\S)", re.IGNORECASE)


def mentions(raw: bytes) -> bool:
    """Whether a record's bytes may hold a command of conditional moves (cheap, for `check`)."""
    return _MENTION.search(raw) is not None


def commitment(nonce: str, canonical: str) -> str:
    """`sha256:H`, H the SHA-256 of `nonce_hex + "\\n" + canonical queue`."""
    return "sha256:" + hashlib.sha256(f"{nonce}\n{canonical}".encode()).hexdigest()


def canonical_queue(lines: Iterable[str]) -> str:
    """The lines sorted and joined by `\\n`, with a final `\\n` (each line already canonical)."""
    return "".join(f"{line}\n" for line in sorted(lines))


def queue_lines(canonical: str) -> list[str]:
    return [line for line in canonical.split("\n") if line]


def reveal_command(side: str, nonce: str, canonical: str) -> Command:
    """`[%revealed Red NONCE LINE | LINE]`: the canonical queue with ` | ` between its lines."""
    return Command(REVEALED, (side, nonce, *" | ".join(queue_lines(canonical)).split()))


def revealed_queue(args: Sequence[str]) -> str:
    """The canonical queue a reveal's arguments after the side and nonce give."""
    lines = " ".join(args).split(" | ") if args else []
    return canonical_queue(line.strip() for line in lines if line.strip())


@dataclass(frozen=True)
class Step:
    """One `if CONDITION then REPLY` of a line: the conditions' turns and the reply's."""

    conditions: tuple[str, ...]
    reply: str


@dataclass(frozen=True)
class Line:
    """A canonical queue line, read back into its steps."""

    steps: tuple[Step, ...]

    def prefixes(self) -> Iterator[tuple[tuple[str, ...], str, bool]]:
        """For each `then`: the turns before it, its reply, and whether more follows."""
        before: tuple[str, ...] = ()
        for number, step in enumerate(self.steps):
            before += step.conditions
            yield before, step.reply, number + 1 < len(self.steps)
            before += (step.reply,)


def read_line(text: str) -> Line:
    """A canonical line (`if B: e8-e3(E) then R: d1-d2(SE) ...`) as its steps. A line of
    another shape gives the steps it can (a reveal's text is checked by its hash, not here)."""
    words = _WORD.split(text)
    steps: list[Step] = []
    conditions: list[str] = []
    pending: str | None = None
    for index in range(1, len(words) - 1, 2):
        word, body = words[index].lower(), words[index + 1].strip()
        if word == "if":
            pending = "if"
            conditions = _turns(body)
        elif pending == "if":
            steps.append(Step(tuple(conditions), body))
            pending = None
    return Line(tuple(steps))


_LABEL = re.compile(r"(?:^|\s)(?=[A-Za-z]+\+?:)")


def _turns(text: str) -> list[str]:
    """The turns of a condition's canonical text, each from its label."""
    return [part.strip() for part in _LABEL.split(text) if part.strip()]


def reply_after(lines: Iterable[Line], played: Sequence[str]) -> tuple[str, bool] | None:
    """The reply a queue gives after the turns `played` since its commitment, and whether
    a line goes on after it; None when no line's conditions up to a `then` equal them."""
    wanted = tuple(played)
    found: tuple[str, bool] | None = None
    for line in lines:
        for before, reply, more in line.prefixes():
            if before == wanted:
                found = (reply, more or (found is not None and found[1]))
    return found


def turn_text(turn: Turn, game: str, bare: bool = False) -> str:
    """A turn's canonical text as a queue compares it: its short label and its actions,
    without round number, glyphs or comments; `bare`: battles as declared (a reply's roll
    is drawn when it is played, so the queue holds it without)."""
    engine = registry.engine(game)
    dialect = engine.dialect()
    syntax = engine.chance_syntax() if bare else None
    actions = [str(move.action) for move in turn.moves]
    if syntax is not None:
        actions = [syntax.bare(action) for action in actions]
    label = dialect.short_labels[turn.side] + ("+" if turn.step else "") + ":"
    return " ".join([label, *actions])


# -- the record's commands, in the order they stand -------------------------------------------


@dataclass(frozen=True)
class Mark:
    """One command of conditional moves where it stands: `turns` is how many turn labels
    precede it in the record."""

    name: str
    args: tuple[str, ...]
    span: Span
    turns: int

    @property
    def side(self) -> str | None:
        return self.args[0] if self.args else None


def marks(record: Record) -> list[Mark]:
    """The queue commands of a record, in record order (comments inside turns included:
    a comment after a turn's last action stands before the next turn)."""
    found: list[Mark] = []
    turns = 0
    for item in record.items:
        if isinstance(item, Turn):
            turns += 1
            for sub in item.items:
                if isinstance(sub, Comment):
                    found += _marks_of(sub, turns)
        elif isinstance(item, Comment):
            found += _marks_of(item, turns)
    return found


def _marks_of(comment: Comment, turns: int) -> list[Mark]:
    if not comment.braced:
        return []
    try:
        commands = read_commands(comment.text)
    except CommandSyntaxError:
        return []
    return [Mark(c.name, c.args, comment.span, turns) for c in commands if c.name in NAMES]


def record_turns(record: Record) -> list[Turn]:
    return [item for item in record.items if isinstance(item, Turn)]


# -- what check verifies ----------------------------------------------------------------------


class _Broken(Exception):
    def __init__(self, mark: Mark, side: str | None, message: str) -> None:
        super().__init__(message)
        self.span, self.turns, self.side, self.message = mark.span, mark.turns, side, message


def verified(record: Record | None, verdict: Verdict, rounds: Sequence[int | None] = ()) -> Verdict:
    """A legal record's verdict with its queues verified (PLAY.md §9): illegal at the `{`
    of the first command that does not match (named by the turn it stands before, or
    the last turn; `rounds`: each turn's round, as the replay gives them), else with each
    side's queue state."""
    if record is None or verdict.status not in (Status.FINISHED, Status.ONGOING):
        return verdict
    found = marks(record)
    if not found:
        return verdict
    try:
        states = _verify(record, found, verdict.status == Status.FINISHED)
    except _Broken as broken:
        turns = record_turns(record)
        at = min(broken.turns, len(turns) - 1)
        side = turns[at].side if turns else None
        number = rounds[at] if 0 <= at < len(rounds) else None
        error = ErrorReport(broken.span.line, broken.span.column, number, side, None, broken.message)
        return verdict._replace(
            status=Status.ILLEGAL,
            error=error,
            outcome=None,
            ongoing=None,
            turns=None,
            result_matches=None,
            token=None,
            clock=None,
        )
    return verdict._replace(queues=states)


def _verify(record: Record, found: list[Mark], finished: bool) -> tuple[QueueState, ...]:
    turns = record_turns(record)
    game = record.game
    info = registry.GAMES[game]
    commitments: dict[str, list[Mark]] = {}
    reveals: dict[str, list[Mark]] = {}
    in_force: dict[str, Mark | None] = {}
    replies: list[tuple[Mark, Mark]] = []
    for mark in found:
        side = info.side(mark.side or "")
        if side is None:
            raise _Broken(mark, None, f"%{mark.name} names no side of {game}: {mark.side or '(none)'}")
        if mark.name == QUEUED:
            if len(mark.args) != 2:
                raise _Broken(mark, side, f"%queued is written [%queued {side} sha256:H] or [%queued {side} none]")
            if mark.args[1] != CLEARED:
                commitments.setdefault(side, []).append(mark)
                in_force[side] = mark
            else:
                in_force[side] = None
        elif mark.name == REVEALED:
            reveals.setdefault(side, []).append(mark)
        else:
            queue = in_force.get(side)
            if queue is None:
                raise _Broken(mark, side, f"{side}'s reply at line {mark.span.line} follows no queue of {side}'s")
            replies.append((mark, queue))
    queues: dict[int, list[Line]] = {}
    for side, shown in reveals.items():
        committed = commitments.get(side, [])
        for number, reveal in enumerate(shown):
            if number >= len(committed):
                raise _Broken(reveal, side, f"{side}'s reveal at line {reveal.span.line} has no commitment")
            queued = committed[number]
            if len(reveal.args) < 2:
                raise _Broken(reveal, side, f"{side}'s reveal at line {reveal.span.line} holds no nonce")
            canonical = revealed_queue(reveal.args[2:])
            if commitment(reveal.args[1], canonical) != queued.args[1]:
                raise _Broken(
                    reveal,
                    side,
                    f"{side}'s reveal at line {reveal.span.line} does not match the commitment "
                    f"at line {queued.span.line}",
                )
            queues[id(queued)] = [read_line(line) for line in queue_lines(canonical)]
    for mark, queue in replies:
        lines = queues.get(id(queue))
        if lines is None:
            continue  # not revealed yet: taken as given
        side = info.side(mark.side or "")
        assert side is not None
        if mark.turns >= len(turns) or turns[mark.turns].side != side:
            raise _Broken(mark, side, f"{side}'s reply at line {mark.span.line} is followed by no turn of {side}'s")
        reply = turns[mark.turns]
        between = turns[queue.turns : mark.turns]
        played = [turn_text(turn, game, bare=turn.side == side) for turn in between]
        given = reply_after(lines, played)
        written = turn_text(reply, game, bare=True)
        if given is None or given[0] != written:
            own = [number for number, turn in enumerate(between) if turn.side == side]
            after = ", ".join(played[own[-1] + 1 if own else 0 :]) or "nothing"
            raise _Broken(
                mark,
                side,
                f"{side}'s reply {' '.join(written.split()[1:])} at line {mark.span.line} is not what the queue "
                f"committed at line {queue.span.line} gives after {after}",
            )
    if finished:
        for side, committed in commitments.items():
            shown = reveals.get(side, [])
            if len(shown) < len(committed):
                missing = committed[len(shown)]
                raise _Broken(
                    missing,
                    side,
                    f"{side}'s queue committed at line {missing.span.line} is never revealed after the game's end",
                )
    sides = [side for side in info.sides if side in commitments or side in reveals]
    return tuple(
        QueueState(
            side,
            len(commitments.get(side, [])),
            len(reveals.get(side, [])),
            True if reveals.get(side) else None,
        )
        for side in sides
    )


# -- what the replay page shows (referee.pictures) ---------------------------------------------


def holds_marks(item: object) -> bool:
    """Whether a record item (a comment, or a turn's comments) holds a queue command."""
    if isinstance(item, Comment):
        return bool(_marks_of(item, 0))
    return isinstance(item, Turn) and any(isinstance(sub, Comment) and _marks_of(sub, 0) for sub in item.items)


def page_view(record: Record, offset: int = 0) -> dict[str, object] | None:
    """For the replay page: the turns (their index among the record's turns) played from a
    queue, and each revealed queue's lines with those never triggered marked; None when
    the record holds no queue command. `offset`: the turns of the whole record before
    `record`'s items (a page made as a stream keeps the items from the first command on)."""
    found = marks(record)
    if not found:
        return None
    turns = record_turns(record)
    replies = sorted({offset + mark.turns for mark in found if mark.name == BY_QUEUE and mark.turns < len(turns)})
    info = registry.GAMES[record.game]
    committed: dict[str, list[Mark]] = {}
    for mark in found:
        side = info.side(mark.side or "")
        if mark.name == QUEUED and side is not None and len(mark.args) == 2 and mark.args[1] != CLEARED:
            committed.setdefault(side, []).append(mark)
    shown: list[dict[str, object]] = []
    seen: dict[str, int] = {}
    for mark in found:
        side = info.side(mark.side or "")
        if mark.name != REVEALED or side is None or len(mark.args) < 2:
            continue
        number = seen.get(side, 0)
        seen[side] = number + 1
        queue = committed.get(side, [])[number] if number < len(committed.get(side, [])) else None
        start = queue.turns if queue is not None else len(turns)
        played = [turn_text(turn, record.game, bare=turn.side == side) for turn in turns[start:]]
        lines = []
        for text in queue_lines(revealed_queue(mark.args[2:])):
            steps = read_line(text).steps
            first = steps[0].conditions if steps else ()
            lines.append({"line": text, "triggered": tuple(played[: len(first)]) == first})
        shown.append({"side": side, "lines": lines})
    return {"replies": replies, "revealed": shown}
