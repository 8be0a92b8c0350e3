"""Pikemen's kept values and tables answer as the rules compute them: whether the next
turn opens a round and its round, the squares a charge passes over, the event of a piece
turning, what a written turn or charge names, and the actions played from them."""

from __future__ import annotations

import random

import pytest

from referee.games.api import RESIGN, Event, EventKind, IllegalActionError
from referee.games.pikemen.actions import _CHARGE, _REORIENT, Charge, Reorient, parse_action
from referee.games.pikemen.board import FACINGS, PASSED, RAYS, SQUARE_NAMES
from referee.games.pikemen.state import ENGINE, PikemenState
from referee.games.pikemen.tables import charge_events, line_of, turn_events, turn_of


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
            assert state.begin_turn(side) == opens_round(state)
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
            expected = (Event(EventKind.REORIENT, f"{name} turns {written}"),)
            assert turn_events(name, written) == expected
            assert turn_of(Reorient(name, written)) == (square, facing, expected)
    assert turn_of(Reorient("i1", "N")) is None


def test_a_charge_s_line_is_its_squares_the_facing_it_needs_and_the_squares_passed() -> None:
    for origin, source in enumerate(SQUARE_NAMES):
        ahead = {target: (facing, passed) for facing in range(8) for target, passed in PASSED[origin][facing].items()}
        for target, goal in enumerate(SQUARE_NAMES):
            for capture in (False, True):
                for written in (None, *FACINGS):
                    action = Charge(source, goal, capture, written)
                    line = line_of(action)
                    if target not in ahead or (written is not None and FACINGS.index(written) == ahead[target][0]):
                        assert line is None, action
                        continue
                    facing, passed = ahead[target]
                    events = () if capture else charge_events(action)
                    new = facing if written is None else FACINGS.index(written)
                    assert line == (origin, target, facing, passed, new, capture, events), action
    assert line_of(Charge("a1", "a9")) is None and line_of(Charge("z1", "a1")) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_written_action_plays_as_the_rules_checked_one_by_one_play_it(players: int) -> None:
    """`_apply` plays the usual legal turn and charge at once from its tables: on the
    positions of random games, every turn in place and every charge or capture of the
    board (legal or not) gives the same events, board and error as the rules checked
    one by one (`_reorient`, `_checked_charge`)."""
    rng = random.Random(52 + players)
    actions: list[Reorient | Charge] = [Reorient(name, facing) for name in SQUARE_NAMES for facing in FACINGS]
    for _ in range(4):
        state = ENGINE.new_state({"Players": str(players)})
        for turn in range(60):
            if state.is_over:
                break
            side = state.to_move()
            assert side is not None
            if turn % 6 == 5:
                origins = [square for square, piece in enumerate(state.board) if piece is not None]
                for origin in rng.sample(origins, 4):
                    actions += [
                        Charge(SQUARE_NAMES[origin], SQUARE_NAMES[target], capture, facing)
                        for target in range(64)
                        for capture in (False, True)
                        for facing in (None, rng.choice(FACINGS))
                    ]
                ahead = [  # (every charge and capture along a piece's facing: the rules' every case)
                    Charge(SQUARE_NAMES[origin], SQUARE_NAMES[target], capture)
                    for origin, piece in enumerate(state.board)
                    if piece is not None and piece[2] < 8
                    for target in RAYS[origin][piece[2]]
                    for capture in (False, True)
                ]
                for action in rng.sample(actions, 300) + ahead + state.legal_actions()[:-1]:
                    assert played(state, action, fast=True) == played(state, action, fast=False), action
            state.begin_turn(side)
            legal = state.legal_actions()[:-1]  # (played the purposeful way: captures are often open)
            state.apply(rng.choices(legal, [ENGINE.preference(state, action) for action in legal])[0])
            state.end_turn()


def played(state: PikemenState, action: Reorient | Charge, fast: bool) -> tuple[object, ...]:
    """What playing `action` on a copy of `state` gives: its events or error, the board."""
    twin = state.copy()
    twin.begin_turn(twin.due_side())
    try:
        if fast:
            outcome: object = twin.apply(action)
        elif isinstance(action, Reorient):
            outcome = twin._reorient(action)
        else:
            outcome = twin._checked_charge(action)
    except IllegalActionError as error:
        outcome = str(error)
    return outcome, tuple(twin.board), tuple(twin.scores), tuple(twin.counts)


def by_pattern(text: str) -> object:
    """An action text read by the patterns alone, as `parse_action` reads what is not canonical."""
    if text.lower() == "resign":
        return RESIGN
    charge = _CHARGE.fullmatch(text)
    if charge:
        origin, mark, target, facing = charge.groups()
        return Charge(origin.lower(), target.lower(), mark.lower() == "x", facing.upper() if facing else None)
    reorient = _REORIENT.fullmatch(text)
    return None if reorient is None else Reorient(reorient.group(1).lower(), reorient.group(2).upper())


def test_an_action_text_reads_the_same_by_its_characters_places_as_by_the_patterns() -> None:
    """`parse_action` reads a canonical text by its characters' places: every text of the
    board's squares, and texts near them (other cases, squares off the board, a facing
    missing its parenthesis), read as the patterns read them, or fail as they fail."""
    rng = random.Random(52)
    squares = [*SQUARE_NAMES, "a9", "i1", "a10", "E1", "z99"]
    suffixes = ["", *(f"({facing})" for facing in FACINGS), "(ne)", "()", "(N", "(NE", "N)", "(X)", "(NE))", "x"]
    texts = [f"{square}{suffix}" for square in squares for suffix in suffixes]
    texts += [
        f"{rng.choice(squares)}{rng.choice('-xX')}{rng.choice(squares)}{rng.choice(suffixes)}" for _ in range(20000)
    ]
    texts += ["resign", "RESIGN", "e1-", "e1x", "e1", "e", "", "e1-e5(NE)x", "e1--e5"]
    for text in texts:
        expected = by_pattern(text)
        parse_action.cache_clear()
        if expected is None:
            with pytest.raises(ValueError):
                parse_action(text)
        else:
            found = parse_action(text)
            assert (found, type(found)) == (expected, type(expected)), text
