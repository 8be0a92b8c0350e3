"""Numica's shortcuts answer as the full rules do: the has-a-move test against the full
move generation, the per-side piece squares against the board, slide paths against rays."""

from __future__ import annotations

import random

from referee.games.api import Reason
from referee.games.numica.actions import Step
from referee.games.numica.state import ENGINE, INDEX, PATHS, RAYS, SIDES, NumicaState


def random_position(rng: random.Random) -> NumicaState:
    """A start with random tiles, then random pieces (moved or not) on random squares."""
    state = ENGINE.new_state({"Seed": f"tables {rng.random()}"})
    squares = rng.sample(range(64), rng.randint(2, 16))
    board: list[tuple[int, str, bool] | None] = [None] * 64
    for number, square in enumerate(squares):
        board[square] = (number % 2, rng.choice("SO"), rng.random() < 0.5)
    return NumicaState(state.tiles, board, rng.randint(0, 1), 0)


def test_the_has_a_move_test_answers_as_the_full_move_generation_on_random_positions() -> None:
    rng = random.Random(20261123)
    answers = set()
    for _ in range(3000):
        state = random_position(rng)
        for side in (0, 1):
            full = next(state._moves(side), None) is not None
            assert state._has_move(side) == full, state.position()
            answers.add(full)
    assert answers == {True, False}  # both answers were seen


def test_the_piece_squares_follow_the_board_through_random_games_and_copies_do_not_share_them() -> None:
    rng = random.Random(7)
    for game in range(40):
        state = ENGINE.new_state({"Seed": f"placed {game}"})
        twin = None
        while not state.is_over:
            side = state.to_move()
            assert side is not None
            state.begin_turn(side)
            state.apply(rng.choice(state.legal_actions()))
            state.end_turn()
            for who in (0, 1):
                on_board = {i for i, piece in enumerate(state.board) if piece is not None and piece[0] == who}
                assert state.placed[who] == on_board
            if twin is None and state.round_number() == 3:
                twin = state.copy()
                kept = (set(twin.placed[0]), set(twin.placed[1]))
        if twin is not None:
            assert (twin.placed[0], twin.placed[1]) == kept


def test_slide_paths_list_the_squares_a_slide_passes_over() -> None:
    for tile, table in RAYS.items():
        for origin in range(64):
            ends = {}
            for ray in table[origin]:
                for i, square in enumerate(ray):
                    ends[square] = ray[:i]
            assert PATHS[tile][origin] == ends


def test_a_move_leaves_the_other_side_a_move_exactly_when_the_full_generation_finds_one() -> None:
    # The has-a-move test after a move first tries the move it found for that side last
    # time (`_proofs`), which the move played may have taken away (the piece captured, the
    # square it reached now held): every answer is checked against the full generation.
    rng = random.Random(20261126)
    for _ in range(600):
        start = random_position(rng)
        if start.is_over:
            continue
        mover = start.side
        start._has_move(1 - mover)  # (a move of the other side kept, which may not last)
        for action in start.legal_actions():
            state = start.copy()
            state.begin_turn(SIDES[mover])
            state.apply(action)
            outcome = state.outcome()
            if outcome is not None and outcome.reason is Reason.CAPTURES:
                continue
            stuck = next(state._moves(1 - mover), None) is None
            assert (outcome is not None and outcome.reason is Reason.NO_MOVES) == stuck, (start.position(), action)


def test_a_side_whose_last_move_found_is_captured_is_looked_at_again_and_may_have_none() -> None:
    # Blue's six pieces on a1-c2 are walled in by Red's unmoved pieces (an unmoved piece
    # cannot capture one): Blue's only move is h8's, kept as Blue's move, until Red takes it.
    board: list[tuple[int, str, bool] | None] = [None] * 64
    for name, shape in zip(("a1", "b1", "c1", "a2", "b2", "c2"), "SSSOOO", strict=True):
        board[INDEX[name]] = (1, shape, False)
    for name, shape in zip(("d1", "d2", "d3", "a3", "b3", "c3"), "SSSOOO", strict=True):
        board[INDEX[name]] = (0, shape, False)
    board[INDEX["h8"]] = (1, "O", True)
    board[INDEX["g7"]] = (0, "O", True)
    state = NumicaState("1" * 64, board, 0, 0)
    assert state._has_move(1) and state.outcome() is None
    state.begin_turn("Red")
    state.apply(Step("g7", "h8", True))
    assert state.outcome() == (("Red",), Reason.NO_MOVES)
