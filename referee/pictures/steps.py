"""A record's positions after every action, for the replay page.

The adjudicator lists the actions it replayed (`keep_steps=True`) and the state it ended
in; this module drives a fresh state of the same game through those actions again with
the public game API and notes what each one leaves: the position string, the side to
move, the round and the outcome. The adjudicator's own verdict stays the authority; if
the second drive ever disagrees with it, the frames stop there.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.games import registry
from referee.games.api import Event, GameState
from referee.judge.core.adjudicate import Replay, open_ended
from referee.judge.core.verdict_words import turn_text
from referee.judge.core.verdicts import Status
from referee.notation.model import Comment, Move, Record, Turn
from referee.pictures.drawing import heading


class Frame(NamedTuple):
    """The board after one action (or at the start, `move` None): what the page shows."""

    turn: int
    label: str
    move: str | None
    events: tuple[Event, ...]
    position: str
    heading: str
    illegal: str | None = None
    notes: tuple[str, ...] = ()
    """The comments written after this action (stamps `[%at ...]` among them), as written."""


def turn_label(round_number: int | None, turn: Turn) -> str:
    where = "setup" if round_number is None else f"round {round_number}"
    return f"{where}, {turn.side}{' (replacement step)' if turn.step else ''}"


def _notes(record: Record) -> dict[int, tuple[str, ...]]:
    """The comments of a record by the action they follow (`id` of its Move): a comment
    before a turn's first action goes with that action, one between turns with the last
    action before it. A comment between the tags and the first turn is left out (nothing
    has happened yet to annotate)."""
    found: dict[int, list[str]] = {}
    last: Move | None = None
    waiting: list[str] = []
    for item in record.items:
        if isinstance(item, Comment):
            if last is not None:
                found.setdefault(id(last), []).append(item.text.strip())
            continue
        if not isinstance(item, Turn):
            continue
        opened = False
        for part in item.items:
            if isinstance(part, Move):
                found.setdefault(id(part), []).extend(waiting)
                waiting, last, opened = [], part, True
            elif isinstance(part, Comment):
                if opened and last is not None:
                    found.setdefault(id(last), []).append(part.text.strip())
                else:
                    waiting.append(part.text.strip())
    return {key: tuple(value) for key, value in found.items() if value}


def frames(replay: Replay, title: str) -> list[Frame]:
    """The start and the board after every replayed action; for an illegal record a last
    frame shows the illegal action (or turn) on the board it was played on."""
    record = replay.record
    if record is None or replay.state is None:
        return []
    state: GameState[Any] = registry.engine(record.game).new_state(record.tag_map)
    found = [Frame(-1, "start", None, (), state.position(), heading(state, title))]
    open_ended_moves = open_ended(record)
    comments = _notes(record)
    remaining = list(reversed(replay.steps))
    try:
        for number, turn in enumerate(record.turns):
            if not remaining:
                break
            if number:
                state.end_turn()
            state.begin_turn(turn.side, turn.step, turn.number)
            for move in turn.moves:
                if not remaining or remaining[-1].move is not move:
                    break
                played = remaining.pop()
                events = state.apply(move.action, move in open_ended_moves)
                label = turn_label(played.round, turn)
                shown = heading(state, title)
                notes = comments.get(id(move), ())
                found.append(Frame(number, label, move.text, events, state.position(), shown, None, notes))
    except ValueError:
        return found
    final = replay.state
    error = replay.verdict.error
    if replay.verdict.status == Status.ILLEGAL and error is not None:
        label = turn_text(error).split(", ")[0]
        spot = (error.line, error.column)
        at_turn = max((number for number, t in enumerate(record.turns) if tuple(t.span) <= spot), default=0)
        found.append(Frame(at_turn, label, error.action, (), final.position(), heading(final, title), error.message))
    else:
        found[-1] = found[-1]._replace(heading=heading(final, title))
    return found
