"""Listing and weighing Nieuchess's legal actions, made cheap for the bench's playouts
(issue 52): the moves in destination form are made once and shared, and the weights of
purposeful play are worked out for all the legal actions at once, each the same as
`preference` gives it alone."""

from __future__ import annotations

import random

import pytest

from referee.games import registry
from referee.games.api import Resign
from referee.games.nieuchess.actions import Move, destination_moves
from referee.games.nieuchess.board import NAMES
from referee.games.nieuchess.state import NieuchessState


def _states(seed: str, steps: int) -> list[NieuchessState]:
    """States along a random game (setups, moves, battles, replacement steps), one a step."""
    engine = registry.engine("nieuchess")
    state = engine.new_state({"Game": "nieuchess", **engine.new_tags(None, seed, None)})
    assert isinstance(state, NieuchessState)
    chooser = random.Random(seed)
    seen: list[NieuchessState] = []
    while len(seen) < steps and state.outcome() is None:
        label = state.next_turn()
        assert label is not None
        state.begin_turn(*label, None)
        while state.outcome() is None:
            legal = [action for action in state.legal_actions() if not isinstance(action, Resign)]
            if not legal or (state.can_end_turn() and chooser.randrange(3) == 0):
                break
            seen.append(state.copy())
            state.apply(chooser.choice(legal))
        if state.outcome() is None:
            state.end_turn()
    return seen


def test_the_weights_at_once_are_each_actions_own_preference() -> None:
    engine = registry.engine("nieuchess")
    kinds: set[int] = set()
    for state in _states("weights", 150):
        legal = state.legal_actions()
        weights = engine.preferences(state, legal)
        assert weights == [engine.preference(state, action) for action in legal]
        kinds.update(weights)
    assert {1, 6, 100}.issubset(kinds)  # moves going nowhere, advancing, into contact were met
    spelled = Move(("e4", "e5", "e6"))  # a move without its hex numbers is weighed as `preference` does
    state = _states("spelled", 30)[-1]
    assert engine.preferences(state, [spelled]) == [engine.preference(state, spelled)]


@pytest.mark.parametrize("game", ["nika", "numica", "pikemen"])
def test_the_other_games_weigh_each_action_alone(game: str) -> None:
    engine = registry.engine(game)
    state = engine.new_state({"Game": game, **engine.new_tags(None, "alone", None)})
    label = state.next_turn()
    assert label is not None
    state.begin_turn(*label, None)
    legal = state.legal_actions()
    assert engine.preferences(state, legal) == [engine.preference(state, action) for action in legal]


def test_the_listed_moves_are_the_moves_of_each_destination_made_once() -> None:
    for state in _states("listing", 60):
        turn = state.turn
        assert turn is not None
        listed = [action for action in state.legal_actions() if isinstance(action, Move)]
        expected = [
            Move((NAMES[origin], NAMES[target]), (origin, target))
            for origin in state.field.pawns(turn.side)
            if origin not in turn.moved
            for target in state.field.destinations(turn.side, origin)
        ]
        assert listed == expected and [move.hexes for move in listed] == [move.hexes for move in expected]
        assert [str(move) for move in listed] == [str(move) for move in expected]
    first = destination_moves(40, (1 << 41) | (1 << 65) | (1 << 12))
    assert [move.hexes for move in first] == [(40, 12), (40, 41), (40, 65)]  # board order
    again = destination_moves(40, (1 << 12) | (1 << 99))
    assert again[0] is first[0]  # one value for each origin and target


def test_the_moves_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.games.nieuchess import actions

    monkeypatch.setattr(actions, "MOVES_KEPT", 4)
    for origin in range(100, 110):
        moves = destination_moves(origin, (1 << 200) | (1 << 201) | (1 << 202))
        assert [move.hexes for move in moves] == [(origin, 200), (origin, 201), (origin, 202)]
        assert len(actions._MOVES) <= 4 + 3
