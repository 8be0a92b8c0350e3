"""Random playouts through the uniform game API: records for the conformance test and the
benchmark. Choices come from the seeded stream (purpose `playout`), so a playout is
reproducible; the games' own dice and tiles come from the record's Seed as usual."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.games import registry
from referee.games.api import GameState, Resign
from referee.games.engine_base import Engine
from referee.games.randomness import SeedStream
from referee.notation import writer
from referee.notation.model import Move, Record, Span, Tag, Turn

NOWHERE = Span(1, 1)


@dataclass
class Playout:
    """A played game: its canonical record text and the state it ended in."""

    record: Record
    text: str
    state: GameState[Any]
    actions: int


SPELLED_CANDIDATES = 8
"""With `spelled_out`, half the actions are the longest written of this many of a kind drawn."""


def play(
    game: str,
    players: int | None,
    seed: str,
    max_turns: int = 200,
    end_chance: int = 4,
    spelled_out: bool = False,
    purposeful: bool = False,
) -> Playout:
    """Play random legal actions from the start until the game ends or `max_turns` turns.

    Within a turn that may end early (Nieuchess), it ends with chance 1/`end_chance`.
    `resign` is left out of the choices, so games run their course. With `spelled_out`,
    each action is written in the longest form the game allows (`Engine.spelled_out`:
    Nieuchess's moves hex by hex), and half of them are the longest written of
    `SPELLED_CANDIDATES` legal actions of a kind drawn (long rides along the hot line).
    With `purposeful`, each legal action is drawn with the weight the game gives it
    (`Engine.preference`: advances, pushes, captures, battles weigh more), as people play;
    without, every legal action is as likely (uniform play).
    """
    engine = registry.engine(game)
    tags = {"Game": game, **engine.new_tags(players, f"{seed}-game", None)}
    state = engine.new_state(tags)
    choose = SeedStream(seed, "playout")
    turns: list[Turn] = []
    actions = 0
    while state.outcome() is None and len(turns) < max_turns:
        label = state.next_turn()
        if label is None:
            break
        side, step = label
        opens = state.begin_turn(side, step, None)
        number = state.round_number() if opens else None
        moves: list[Move] = []
        while state.outcome() is None:
            legal = [action for action in state.legal_actions() if not isinstance(action, Resign)]
            if not legal or (state.can_end_turn() and choose.below(end_chance) == 0):
                break
            action = _weighted(engine, state, legal, choose) if purposeful else legal[choose.below(len(legal))]
            if spelled_out:
                action = _spelled(engine, state, legal, action, choose)
            state.apply(action)
            moves.append(Move(action, str(action), NOWHERE))
        actions += len(moves)
        short = registry.GAMES[game].short_labels[side]
        turns.append(Turn(number, side, step, short + ("+" if step else ""), NOWHERE, tuple(moves)))
        if state.outcome() is None and len(turns) < max_turns:
            state.end_turn()
    record = Record(game, tuple(Tag(name, value, NOWHERE) for name, value in tags.items()), tuple(turns), NOWHERE)
    return Playout(record, writer.write(record, engine.dialect()), state, actions)


def _weighted(engine: Engine[Any], state: GameState[Any], legal: list[Any], choose: SeedStream) -> Any:
    """A legal action drawn with the weights of `Engine.preference` (uniformly when they are
    all 0): the game's own choices, only weighted."""
    weights = engine.preferences(state, legal)
    total = sum(weights)
    if total <= 0:
        return legal[choose.below(len(legal))]
    drawn = choose.below(total)
    for action, weight in zip(legal, weights, strict=True):
        if drawn < weight:
            return action
        drawn -= weight
    raise AssertionError("a draw below the total weight picks an action")  # pragma: no cover


def _spelled(engine: Engine[Any], state: GameState[Any], legal: list[Any], action: Any, choose: SeedStream) -> Any:
    """The action drawn in its longest written form, or (half the time) the longest written
    of a few legal actions drawn."""
    drawn = [action]
    if choose.below(2) == 0:  # others of its kind: a long move should not crowd out the battles
        others = (legal[choose.below(len(legal))] for _ in range(SPELLED_CANDIDATES - 1))
        drawn += [item for item in others if type(item) is type(action)]
    written = [engine.spelled_out(state, item) for item in drawn]
    return max(written, key=lambda item: len(str(item)))
