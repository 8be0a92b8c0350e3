"""A submission placed after the record it continues (PLAY.md §1): its turns, the parts
it writes onto a battle that awaits them, and the checks of who may write what; and the
refusal a submission meets. `referee.live.play.core` judges what this module places."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from referee.games import registry
from referee.games.api import Event, EventKind
from referee.games.engine_base import Engine
from referee.judge.core.adjudicate import Replay
from referee.judge.core.verdicts import Verdict
from referee.live.play import submission
from referee.notation.lexicon import shorten
from referee.notation.model import Adjudicated, Comment, Draw, Move, Record, RecordItem, Span, Timeout, Turn

NOWHERE = Span(1, 1)


class Refusal(Exception):
    def __init__(self, message: str, verdict: Verdict | None = None, suggestions: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.verdict = verdict
        self.suggestions = list(suggestions)


class Plan:
    """The combined record's move text: the record's items with the submission appended
    (its battle part written onto the awaiting battle, its first turn merged into the
    turn the record left open). `relocate` maps spans of the record that the submission
    changed to the submission's own line and column."""

    def __init__(self, record: Record, current: Replay, sub: submission.Submission | None) -> None:
        self.record = record
        self.sub = sub
        self.items: list[RecordItem] = list(record.items)
        self.relocate: dict[Span, Span] = {}
        self.submitted: set[int] = set()
        self.actions = False
        self.awaiting: Move | None = None
        self.awaited_text: str | None = None  # the awaiting battle as the record holds it
        self.turn_index = next((i for i in range(len(self.items) - 1, -1, -1) if isinstance(self.items[i], Turn)), None)
        verdict = current.verdict
        pending = current.state.pending() if current.state is not None else None
        if self.turn_index is not None and pending in ("roll", "choice"):
            moves = self._turn(self.turn_index).moves
            self.awaiting = moves[-1] if moves else None
        if sub is None:
            return
        if sub.part is not None:
            self._write_part(sub.part, pending, current)
        if sub.record is None:
            return
        rest = list(sub.record.items)
        lead = 0  # comments before the first label go with the turn they precede
        while lead < len(rest) - 1 and isinstance(rest[lead], Comment):
            lead += 1
        first = rest[lead]
        open_turn = self._turn(self.turn_index) if self.turn_index is not None else None
        if open_turn is not None and not any(
            isinstance(item, Draw | Timeout | Adjudicated) for item in self.items[self.turn_index or 0 :]
        ):
            self.relocate[open_turn.span] = submission.local(first.span)
            if (
                isinstance(first, Turn)
                and first.side == open_turn.side
                and first.step == open_turn.step
                and verdict.to_move == open_turn.side
            ):
                if first.number is not None and first.number != verdict.round:
                    where = submission.local(first.span)
                    raise Refusal(
                        f"submission: {record.game}: illegal: line {where.line}, col {where.column}: "
                        f"this turn is in round {verdict.round}, not round {shorten(str(first.number))}"
                    )
                assert self.turn_index is not None
                comments = tuple(item for item in rest[:lead] if isinstance(item, Comment))
                self.items[self.turn_index] = open_turn._replace(items=open_turn.items + comments + first.items)
                rest = rest[lead + 1 :]
                self._note(first)
        for item in rest:
            if isinstance(item, Turn):
                self._note(item)
            self.actions = self.actions or isinstance(item, Turn | Draw | Timeout | Adjudicated)
        self.items.extend(rest)

    def _turn(self, index: int) -> Turn:
        item = self.items[index]
        assert isinstance(item, Turn)
        return item

    def _note(self, turn: Turn) -> None:
        for move in turn.moves:
            self.submitted.add(id(move))
            self.actions = True

    def _write_part(self, part: submission.Part, pending: str | None, current: Replay) -> None:
        """Write a roll or choice onto the battle that awaits it."""
        where = f"submission: {self.record.game}: illegal: line {part.span.line}, col {part.span.column}"
        awaiting = self.awaiting
        if awaiting is None or self.turn_index is None:
            raise Refusal(f'{where}: nothing awaits "{part.text}": no battle awaits a roll or a choice')
        dialect = registry.engine(self.record.game).dialect()
        combined = f"{awaiting.action}{part.text}"
        if not re.fullmatch(dialect.action_pattern, combined, re.IGNORECASE | re.ASCII):
            message = current.state.pending_message() if current.state is not None else None
            raise Refusal(f'{where}: the battle {awaiting.action} awaits {message}, which "{part.text}" does not give')
        action = dialect.parse_action(combined)
        self.awaited_text = str(awaiting.action)
        move = Move(action, str(action), awaiting.span, awaiting.glyph)
        turn = self._turn(self.turn_index)
        items = tuple(move if item is awaiting else item for item in turn.items)
        self.items[self.turn_index] = turn._replace(items=items)
        self.relocate[awaiting.span] = part.span
        self.submitted.add(id(move))
        self.awaiting = move
        self.actions = True

    def submission_turns(self) -> list[Turn]:
        if self.sub is None or self.sub.record is None:
            return []
        return [item for item in self.sub.record.items if isinstance(item, Turn)]

    def check_sides(self, side: str) -> None:
        """`--as SIDE`: every turn of the submission must be that side's."""
        for turn in self.submission_turns():
            if turn.side != side:
                where = submission.local(turn.span)
                raise Refusal(
                    f"the submission holds a turn of {turn.side} (line {where.line}, col {where.column}): "
                    f"{side} may submit only its own turns"
                )

    def check_no_rolls(self) -> None:
        """While the seed is secret and its key is not at hand, rolls come from the game
        master's key later, never from a player's text. (With the key, a written roll must
        equal the stream's, PLAY.md §3: the replay with the seed checks it.)"""
        engine = registry.engine(self.record.game)
        syntax = engine.chance_syntax()
        part = self.sub.part if self.sub is not None else None
        written = part is not None and syntax is not None and syntax.writes_roll(part.text)
        for turn in self.submission_turns():
            written = written or any(rolled(engine, move.action) for move in turn.moves)
        if written:
            raise Refusal(
                "this game's dice are secret: every roll is drawn by the game master's key "
                "(referee play --seed-file), never written in a submission; leave the roll out"
            )

    def last_move(self) -> Move | None:
        for item in reversed(self.items):
            if isinstance(item, Turn):
                return item.moves[-1] if item.moves else None
        return None

    def move_at(self, span: Span) -> Move | None:
        for item in self.items:
            if isinstance(item, Turn):
                for move in item.moves:
                    if move.span == span:
                        return move
        return None

    def cut_after(self, last: Move) -> list[RecordItem]:
        """The items up to and including the action `last` (its turn cut after it)."""
        kept: list[RecordItem] = []
        for item in self.items:
            if isinstance(item, Turn) and any(move is last for move in item.moves):
                index = next(i for i, sub in enumerate(item.items) if sub is last)
                kept.append(item._replace(items=item.items[: index + 1]))
                return kept
            kept.append(item)
        return kept


def with_roll(engine: Engine[Any], move: Move, events: tuple[Event, ...]) -> Move | None:
    """A battle with the roll and result its replay gave written in, where the text
    left them out (a roll the seed drew, the result of a roll of physical dice)."""
    chance = engine.chance_of(move.action)
    if chance is None:
        return None
    roll, outcome = chance
    for event in events:
        if event.kind == EventKind.ROLL and roll is None:
            die = event.data.get("die")
            roll = die if isinstance(die, int) else None
        elif event.kind == EventKind.RESULT and outcome is None:
            result = event.data.get("result")
            outcome = result if isinstance(result, str) else None
    if (roll, outcome) == tuple(chance) or roll is None or outcome is None:
        return None
    written = engine.with_chance(move.action, roll, outcome)
    return Move(written, str(written), move.span, move.glyph)


def rolled(engine: Engine[Any], action: object) -> bool:
    """Whether an action has a die written on it (a battle's roll)."""
    chance = engine.chance_of(action)
    return chance is not None and chance.roll is not None


def replace_moves(items: Sequence[RecordItem], filled: dict[int, Move]) -> list[RecordItem]:
    out: list[RecordItem] = []
    for item in items:
        if isinstance(item, Turn) and any(id(move) in filled for move in item.moves):
            item = item._replace(
                items=tuple(filled.get(id(sub), sub) if isinstance(sub, Move) else sub for sub in item.items)
            )
        out.append(item)
    return out
