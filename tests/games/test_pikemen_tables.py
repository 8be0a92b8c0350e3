"""Pikemen's kept values and tables answer as the rules compute them: whether the next
turn opens a round, the squares a charge passes over, the event of a piece turning."""

from __future__ import annotations

import random

import pytest

from referee.games.api import RESIGN, Event, EventKind
from referee.games.pikemen.board import FACINGS, PASSED, RAYS, SQUARE_NAMES
from referee.games.pikemen.state import _TURN_EVENTS, ENGINE, PikemenState


def opens_round(state: PikemenState) -> bool:
    """The rule as written: the first turn, or the order wrapped past the first seat."""
    seat = (state.mover - state.anchor) % len(state.sides)
    return state.last_seat is None or seat <= state.last_seat


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whether_the_next_turn_opens_a_round_follows_the_rule_through_random_games(players: int) -> None:
    """What the state keeps for the next turn (whether it opens a round, its round) is
    what the rule gives, before every turn and once the game is over."""
    rng = random.Random(players)
    for _ in range(30):
        state = ENGINE.new_state({"Players": str(players), "First": rng.choice(["Red", "Blue"])})
        turns = rounds = 0
        while not state.is_over and turns < 200:
            assert state._opens == opens_round(state)
            rounds += opens_round(state)
            assert state._due_round == state.round_number() == rounds
            side = state.to_move()
            assert side is not None
            assert state.begin_turn(side) == (rounds > state.round)
            assert state.round_number() == rounds
            actions = state.legal_actions()
            # now and then a resignation, so that sides leave the turn order
            action = RESIGN if players > 2 and rng.random() < 0.02 else rng.choice(actions[:-1])
            state.apply(action)
            state.end_turn()
            turns += 1
        assert state._opens == opens_round(state)
        assert state._due_round == state.round_number() == rounds + opens_round(state)


def test_charge_paths_are_the_squares_before_the_target_along_the_facing() -> None:
    for origin in range(64):
        for facing in range(8):
            ray = RAYS[origin][facing]
            assert PASSED[origin][facing] == {target: ray[: ray.index(target)] for target in ray}


def test_the_turn_events_read_as_the_square_and_the_new_facing() -> None:
    for square, name in enumerate(SQUARE_NAMES):
        for facing, written in enumerate(FACINGS):
            assert _TURN_EVENTS[square][facing] == (Event(EventKind.REORIENT, f"{name} turns {written}"),)
