"""Pikemen's rules (pikemen.md), each with a legal and an illegal case, for 2, 3 and 4 players."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from referee.games.api import RESIGN, IllegalActionError, IllegalTurnError, SetupError
from referee.games.pikemen import ENGINE
from referee.games.pikemen.actions import DIALECT, Charge, Reorient, parse_action
from referee.games.registry import PIKEMEN
from referee.judge.core.adjudicate import Verdict, read_source
from referee.notation.model import Malformed
from tests.helpers.judged import judged

SIDES = {2: ("Red", "Blue"), 3: ("Red", "Yellow", "Blue"), 4: ("Red", "Yellow", "Blue", "Green")}
OPENING = {
    2: {"R": "h1(N)", "B": "a8(S)"},
    3: {"R": "h4(N)", "Y": "a1(N)", "B": "a8(S)"},
    4: {"R": "h1(N)", "Y": "a1(N)", "B": "a8(S)", "G": "h8(S)"},
}
"""A legal first action for each side, by player count: a large piece turning."""


def first_round(players: int, **replaced: str) -> str:
    """Round 1 in which every side turns a large piece (or plays what `replaced` says)."""
    return "1. " + " ".join(f"{label}: {replaced.get(label, move)}" for label, move in OPENING[players].items())


def verdict(movetext: str, players: int | None = None, position: str | None = None, **tags: str) -> Verdict:
    given = {"Players": None if players is None else str(players), "Position": position}
    return judged("pikemen", movetext, **(given | tags))  # (a test of the Players tag gives it as a tag)


def illegal(v: Verdict, words: str) -> None:
    assert v.status == "illegal", v
    assert v.error is not None and words in v.error.message, v.error


def first_moves(start: str, players: int, legal: list[str], refused: dict[str, str]) -> None:
    """Red's first turn from the position `start`, `1. R: ` and then each of `legal` (the game
    goes on) and each of `refused` (illegal, with its words in the error)."""
    for move in legal:
        assert verdict(f"1. R: {move}", players, start).status == "ongoing", move
    for move, words in refused.items():
        illegal(verdict(f"1. R: {move}", players, start), words)


def malformed(v: Verdict, words: str) -> None:
    assert v.status == "malformed", v
    assert v.error is not None and words in v.error.message, v.error


def empty_fields(players: int, **pieces: str) -> str:
    """Position fields for every side of the player count, with the given pieces."""
    return " ".join(f"{side}:{pieces.get(side, '')}" for side in SIDES[players])


def position(players: int, to: str = "Red", score: str = "", **pieces: str) -> str:
    text = empty_fields(players, **pieces)
    if score:
        text += f" score:{score}"
    return f"{text} to:{to}"


# -- setups and sides ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(2, 5), (3, 4), (4, 3)])
def test_each_side_starts_with_its_stash_all_upright(players: int, each: int) -> None:
    state = ENGINE.new_state({"Players": str(players)})
    fields = dict(field.split(":", 1) for field in state.position().split())
    assert tuple(name for name in fields if name not in ("score", "to")) == SIDES[players]
    for side in SIDES[players]:
        pieces = fields[side].split(",")
        assert Counter(piece[2] for piece in pieces) == {"S": each, "M": each, "L": each}
        assert all(piece[3:] == "U" for piece in pieces)
    assert fields["to"] == "Red"


def test_the_two_player_setup_is_abstractplays() -> None:
    text = ENGINE.new_state({}).position()
    assert text.startswith("Red:d1SU,e1MU,f1LU,g1LU,h1LU,e2SU,f2MU,g2MU,h2LU,f3SU,g3MU,h3LU,g4SU,h4MU,h5SU ")
    assert "Blue:a4SU,a5MU,b5SU,a6LU,b6MU,c6SU,a7LU,b7MU,c7MU,d7SU,a8LU,b8LU,c8LU,d8MU,e8SU " in text


@pytest.mark.parametrize("players", ["1", "5", "two", ""])
def test_players_must_be_2_3_or_4(players: str) -> None:
    malformed(verdict("", Players=players), "2, 3 or 4 players")


def test_an_unknown_variant_is_malformed() -> None:
    malformed(verdict("", Variant="giant"), "unknown variant")


# -- turn order and rounds -------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "movetext"),
    [
        (2, "1. R: h5(N) B: a4(S) 2. R: h5(W)"),
        (3, "1. R: f6(W) Y: d3(N) B: d6(S) 2. R: f6(N)"),
        (4, "1. R: f3(W) Y: c3(N) B: c6(S) G: f6(S) 2. R: f3(N)"),
    ],
)
def test_turns_go_clockwise_from_red(players: int, movetext: str) -> None:
    v = verdict(movetext, players)
    assert (v.status, v.to_move) == ("ongoing", SIDES[players][1])


@pytest.mark.parametrize(
    ("players", "movetext", "side"),
    [
        (2, "1. R: h5(N) R: h5(W)", "Red"),
        (3, "1. R: f6(W) B: d6(S)", "Blue"),
        (4, "1. R: f3(W) Y: c3(N) G: f6(S)", "Green"),
    ],
)
def test_a_label_out_of_turn_is_illegal(players: int, movetext: str, side: str) -> None:
    v = verdict(movetext, players)
    illegal(v, "turn, not")
    assert (v.error.side, v.error.action) == (side, None)


@pytest.mark.parametrize(("players", "label", "side"), [(2, "Y", "Yellow"), (2, "G", "Green"), (3, "Green", "Green")])
def test_a_label_naming_a_side_not_in_the_game_is_illegal(players: int, label: str, side: str) -> None:
    v = verdict(f"1. R: h5(N) {label}: a4(S)", players)
    illegal(v, f"{side} does not play in a {players}-player game")


@pytest.mark.parametrize(("players", "first", "second"), [(2, "Blue", "Red"), (3, "Y", "Blue"), (4, "Green", "Red")])
def test_the_first_tag_chooses_who_opens_round_1(players: int, first: str, second: str) -> None:
    side = PIKEMEN.side(first)
    state = ENGINE.new_state({"Players": str(players), "First": first})
    assert state.to_move() == side
    assert state.begin_turn(side, number=1) is True
    state.apply(RESIGN if players > 2 else Reorient("a4", "N"))
    assert state.to_move() == second
    state.end_turn()
    assert state.begin_turn(second, number=1) is False


def test_a_first_tag_naming_no_side_of_the_game_is_malformed() -> None:
    malformed(verdict("", 2, First="Green"), "First tag")
    assert verdict("", 4, First="Green").to_move == "Green"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_numbers_must_be_right(players: int) -> None:
    red_again = OPENING[players]["R"].replace("N", "E")
    assert verdict(f"{first_round(players)} 2. R: {red_again}", players).status == "ongoing"
    assert verdict(f"{first_round(players)} 2... R: {red_again}", players).status == "ongoing"
    v = verdict(f"{first_round(players)} 3. R: {red_again}", players)
    illegal(v, "round 2, not round 3")
    assert (v.error.round, v.error.side, v.error.action) == (2, "Red", None)
    second = list(OPENING[players].items())[1]
    illegal(verdict(f"1. R: {OPENING[players]['R']} 2. {second[0]}: {second[1]}", players), "not round 2")


def test_a_turn_holds_exactly_one_action() -> None:
    v = verdict("1. R: h5(N) h4(N)")
    illegal(v, "exactly one action")
    assert v.error.action == "h4(N)"
    illegal(verdict("1. R: B: a4(N)"), "ended after no action: a Pikemen turn holds exactly one action")
    assert verdict("1. R:").to_move == "Red"


# -- sides with no pieces are skipped ----------------------------------------------------


@pytest.mark.parametrize(
    ("players", "pieces", "movetext", "wrong"),
    [
        (3, {"Red": "h1LN", "Blue": "a8LS"}, "1. R: h1(E) B: a8(E) 2. R: h1(S)", "1. R: h1(E) Y: a1(N)"),
        (
            4,
            {"Red": "h1LN", "Yellow": "a1LN", "Green": "h8LS"},
            "1. R: h1(E) Y: a1(E) G: h8(W) 2. R: h1(S)",
            "1. R: h1(E) Y: a1(E) B: a8(N)",
        ),
    ],
)
def test_a_side_with_no_pieces_is_skipped(players: int, pieces: dict[str, str], movetext: str, wrong: str) -> None:
    start = position(players, **pieces)
    assert verdict(movetext, players, start).status == "ongoing"
    illegal(verdict(wrong, players, start), "no pieces left and is skipped")


def test_a_side_that_loses_its_last_piece_is_skipped_and_rounds_go_on() -> None:
    start = position(3, Red="h1LW", Yellow="a1SU,a2LU", Blue="e1SN")
    v = verdict("1. R: h1xe1 Y: a1(N) 2. R: e1(N) Y: a1(E) 3. R: e1(W)", 3, start)
    assert (v.status, v.to_move) == ("ongoing", "Yellow")
    illegal(verdict("1. R: h1xe1 Y: a1(N) B: a8(N)", 3, start), "it is Red's turn")


def test_round_1_opens_with_the_positions_side_and_rounds_turn_over_at_its_seat_once_it_is_gone() -> None:
    start = position(4, to="Green", Red="h1LN", Blue="a8LS", Green="a3SU")
    out = "1. G: a3(E) R: h1(W) B: a8xa3"
    v = verdict(f"{out} 2. R: h1(N) B: a3(N) 3. R: h1(E)", 4, start)
    assert (v.status, v.to_move) == ("ongoing", "Blue")
    illegal(verdict(f"{out} 1... R: h1(N)", 4, start), "round 2, not round 1")


# -- charges ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_upright_piece_cannot_charge(players: int) -> None:
    square = {2: "h5", 3: "f5", 4: "f3"}[players]
    assert verdict(f"1. R: {square}({'W'})", players).status == "ongoing"
    illegal(verdict(f"1. R: {square}-c{square[1]}", players), "an upright piece cannot charge")


def test_a_charge_goes_any_number_of_empty_squares_the_way_the_piece_faces() -> None:
    start = position(2, Red="a1LN", Blue="h8LU")
    for movetext in ("1. R: a1-a2", "1. R: a1-a8", "1. R: a1-a5(SE)", "1. R: a1-a4(U)"):
        assert verdict(movetext, 2, start).status == "ongoing", movetext
    illegal(verdict("1. R: a1-b2", 2, start), "b2 is not in the direction the piece on a1 faces (N)")


def test_a_charge_must_move_at_least_one_square() -> None:
    illegal(verdict("1. R: a1-a1(E)", 2, position(2, Red="a1LN", Blue="h8LU")), "at least one square")


def test_a_charge_cannot_jump_over_a_piece() -> None:
    start = position(2, Red="a1LN,a3SU", Blue="h8LU")
    first_moves(start, 2, ["a1-a2"], {"a1-a5": "blocked by Red's upright small piece on a3"})


def test_a_charge_ends_on_the_first_piece_in_its_path() -> None:
    start = position(2, Red="a1LN", Blue="a3SN,a5SN,h8LU")
    first_moves(start, 2, ["a1xa3"], {"a1xa5": "blocked by Blue's small piece facing N on a3"})


@pytest.mark.parametrize("square", ["z9", "i1", "a9", "a10"])
def test_a_square_off_the_board_is_illegal_not_malformed(square: str) -> None:
    illegal(verdict(f"1. R: {square}(N)"), f"{square} is not on the board")
    illegal(verdict(f"1. R: h1-{square}"), "not on the board")


def test_only_ones_own_pieces_move() -> None:
    illegal(verdict("1. R: a4(N)"), "the piece on a4 is Blue's, not Red's")
    illegal(verdict("1. R: c4(N)"), "there is no piece on c4")


# -- captures --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_any_piece_not_upright_can_be_taken_even_by_a_smaller_one(players: int) -> None:
    victim = SIDES[players][-1]
    start = position(players, Red="a1SN", **{victim: "a5LE,h8LU"})
    v = verdict("1. R: a1xa5", players, start)
    assert v.status == "ongoing"
    state = ENGINE.new_state({"Players": str(players), "Position": start})
    state.begin_turn("Red")
    events = state.apply(Charge("a1", "a5", True))
    assert "Red scores 3" in events[0].text
    assert "score:Red=3," in state.position()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_upright_piece_falls_only_to_a_strictly_larger_one(players: int) -> None:
    victim = SIDES[players][1]
    start = position(players, Red="a1MN,b1SN", **{victim: "a5SU,b5SU,h8LU"})
    first_moves(start, players, ["a1xa5"], {"b1xb5": "an upright piece can only be captured by a larger one"})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_large_upright_piece_can_never_be_captured(players: int) -> None:
    victim = SIDES[players][1]
    start = position(players, Red="a1LN,b1LN", **{victim: "a5LU,b5LW,h8SU"})
    first_moves(start, players, ["b1xb5"], {"a1xa5": "a large upright piece can never be captured"})


def test_one_cannot_take_ones_own_piece() -> None:
    start = position(2, Red="a1LN,a5SN", Blue="h8LU")
    first_moves(start, 2, [], {"a1xa5": "held by Red's own piece", "a1-a5": "held by Red's own piece"})


def test_x_is_written_exactly_when_the_move_captures() -> None:
    start = position(2, Red="a1LN", Blue="a5SE,h8LU")
    first_moves(
        start,
        2,
        ["a1xa5", "a1-a4"],
        {"a1-a5": "a capture is written a1xa5", "a1xa4": "a4 is empty, so nothing is captured"},
    )


# -- facings ---------------------------------------------------------------------------


def test_a_written_facing_must_differ_from_the_old_one() -> None:
    start = position(2, Red="a1LN,c1MU", Blue="h8LU")
    first_moves(
        start,
        2,
        ["a1-a3(NE)", "a1-a3", "c1(NW)"],
        {
            "a1-a3(N)": "already faces N: a written facing must differ",
            "c1(U)": "already stands upright (U)",
            "a1(N)": "already faces N",
        },
    )


def test_a_charge_without_a_facing_keeps_the_old_one() -> None:
    state = ENGINE.new_state({"Position": position(2, Red="a1LNE", Blue="h8LU")})
    state.begin_turn("Red")
    state.apply(Charge("a1", "c3"))
    assert "c3LNE" in state.position()


# -- the end of the game -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_first_side_to_reach_12_points_wins(players: int) -> None:
    scores = ",".join(f"{side}=10" if side == "Red" else f"{side}=0" for side in SIDES[players])
    other = SIDES[players][1]
    start = position(players, score=scores, Red="a1LN,b1LN", **{other: "a5MN,b5SN,h8LU"})
    v = verdict("1. R: a1xa5", players, start)
    assert (v.status, v.winners, v.reason) == ("finished", ("Red",), "score")
    short = verdict("1. R: b1xb5", players, start)
    assert (short.status, short.to_move) == ("ongoing", other)


def test_the_target_tag_raises_the_score_to_win() -> None:
    start = position(2, score="Red=10,Blue=0", Red="a1LN", Blue="a5MN,h8LU")
    assert verdict("1. R: a1xa5", 2, start, Target="15").status == "ongoing"
    won = verdict("1. R: a1xa5", 2, position(2, score="Red=13", Red="a1LN", Blue="a5MN,h8LU"), Target="15")
    assert (won.winners, won.reason) == (("Red",), "score")


@pytest.mark.parametrize("target", ["0", "-3", "twelve", "12.5"])
def test_a_target_that_is_no_number_of_points_is_malformed(target: str) -> None:
    malformed(verdict("", Target=target), "Target tag")


def test_an_action_after_the_end_is_illegal() -> None:
    start = position(2, score="Red=11", Red="a1LN", Blue="a5MN,h8LU")
    first_moves(start, 2, [], {"a1xa5 B: h8(S)": "the game ended at turn 1", "a1xa5 h8(S)": "the game ended at turn 1"})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_last_side_with_pieces_wins(players: int) -> None:
    last = SIDES[players][-1]
    label = PIKEMEN.short_labels[last]
    two_left = position(players, Red="a1LN", **{last: "a5SN,h8SN"})
    v = verdict(f"1. R: a1xa5 {label}: h8(W) 2. R: a5(E)", players, two_left)
    assert (v.status, v.to_move) == ("ongoing", last)
    one_left = position(players, Red="a1LN", **{last: "a5SN"})
    end = verdict("1. R: a1xa5", players, one_left)
    assert (end.status, end.winners, end.reason) == ("finished", ("Red",), "last-player")


def test_a_capture_that_reaches_the_target_and_takes_the_last_piece_is_a_score_win() -> None:
    start = position(2, score="Red=11", Red="a1LN", Blue="a5SN")
    v = verdict("1. R: a1xa5", 2, start)
    assert (v.winners, v.reason) == (("Red",), "score")


def test_a_position_already_decided_is_finished_with_no_turns() -> None:
    won = verdict("", 2, position(2, score="Red=12", Red="a1LN", Blue="a5SN"))
    assert (won.status, won.winners, won.reason, won.turns) == ("finished", ("Red",), "score", 0)
    alone = verdict("", 3, position(3, to="Yellow", Yellow="a1LN"))
    assert (alone.status, alone.winners, alone.reason) == ("finished", ("Yellow",), "last-player")
    illegal(verdict("1. Y: a1(E)", 3, position(3, to="Yellow", Yellow="a1LN")), "already over in the Position")


def test_with_two_players_resigning_gives_the_other_side_the_game() -> None:
    v = verdict("1. R: resign")
    assert (v.status, v.winners, v.reason) == ("finished", ("Blue",), "resignation")
    v = verdict("1. R: h5(N) B: RESIGN")
    assert (v.winners, v.reason) == (("Red",), "resignation")
    illegal(verdict("1. R: h5(N) resign"), "exactly one action")


@pytest.mark.parametrize("players", [3, 4])
def test_with_three_or_four_players_a_resigning_side_leaves_with_its_pieces(players: int) -> None:
    red_again = OPENING[players]["R"].replace("N", "E")
    played = f"{first_round(players, Y='resign')} 2. R: {red_again}"
    v = verdict(played, players)
    assert (v.status, v.to_move) == ("ongoing", "Blue")
    illegal(verdict(played + " Y: a1(E)", players), "Yellow has resigned")
    state = ENGINE.new_state({"Players": str(players)})
    state.begin_turn("Red")
    state.apply(RESIGN)
    assert state.to_move() == "Yellow" and state.outcome() is None
    assert state.position().startswith("Red: Yellow:")


@pytest.mark.parametrize("players", [3, 4])
def test_a_resignation_that_leaves_one_side_is_a_last_player_win(players: int) -> None:
    start = position(players, Red="a1LN", Blue="a8LS")
    v = verdict("1. R: resign", players, start)
    assert (v.status, v.winners, v.reason) == ("finished", ("Blue",), "last-player")
    two_left = position(players, Red="a1LN", Yellow="c1LN", Blue="a8LS")
    assert verdict("1. R: resign", players, two_left).to_move == "Yellow"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_agreed_draw(players: int) -> None:
    v = verdict(f"1. R: {OPENING[players]['R']} draw", players)
    assert (v.status, v.draw, v.reason) == ("finished", True, "agreement")
    assert verdict(f"{first_round(players)} draw", players).draw
    illegal(verdict(f"1. R: {OPENING[players]['R']} draw {SIDES[players][1][0]}: a1(S)", players), "the game ended")


# -- the Position string ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_position_strings_read_back_to_the_same_state(players: int) -> None:
    state = ENGINE.new_state({"Players": str(players)})
    for _ in range(30):
        state.begin_turn(state.due_side())
        actions = [action for action in state.legal_actions() if action is not RESIGN]
        captures = [action for action in actions if isinstance(action, Charge) and action.capture]
        state.apply((captures or actions)[len(actions) // 3 % len(captures or actions)])
        text = state.position()
        assert ENGINE.new_state({"Players": str(players), "Position": text}).position() == text
        if state.outcome():
            break
        state.end_turn()


def test_position_fields_come_in_any_order_scores_default_to_0_and_case_does_not_matter() -> None:
    state = ENGINE.new_state({"Position": "to:blue blue:A5mne red:E1LU score:red=3"})
    assert state.position() == "Red:e1LU Blue:a5MNE score:Red=3,Blue=0 to:Blue"


@pytest.mark.parametrize(
    ("players", "text", "words"),
    [
        (2, "Red:e1LU Blue:a5SU to:Green", "names no side"),
        (2, "Red:e1LU Blue:a5SU Yellow: to:Red", "Yellow does not play in a 2-player game"),
        (3, "Red:e1LU Blue:a5SU to:Red", "no field for Yellow"),
        (2, "Red:e1LU Blue: to:Blue", "Blue is to move but has no pieces"),
        (2, "Red:e1LU Blue:e1SU to:Red", "e1 holds two pieces"),
        (2, "Red:e1LQ Blue:a5SU to:Red", 'cannot read the piece "e1LQ"'),
        (2, "Red:i1LU Blue:a5SU to:Red", 'cannot read the piece "i1LU"'),
        (2, "Red:e1LU Blue:a5SU", "side to move is missing"),
        (2, "Red:e1LU Blue:a5SU score:Red=x to:Red", 'cannot read the score "Red=x"'),
        (2, "Red:e1LU Blue:a5SU score:Red=12,Blue=13 to:Red", "more than one side"),
        (4, "Red:a1LU,b1LU,c1LU,d1LU Yellow: Blue: Green:h8SU to:Red", "more than 3 large pieces"),
        (2, "Red:e1LU Blue:a5SU to:Red wind:N", 'unknown field "wind:"'),
    ],
)
def test_a_position_that_cannot_be_read_is_malformed(players: int, text: str, words: str) -> None:
    with pytest.raises(SetupError) as caught:
        ENGINE.new_state({"Players": str(players), "Position": text})
    assert words in caught.value.message and caught.value.tag == "Position"
    malformed(verdict("", players, text), words)


# -- notation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("h5-h7(N)", Charge("h5", "h7", False, "N")),
        ("e1-e5", Charge("e1", "e5")),
        ("E1XE5", Charge("e1", "e5", True)),
        ("e1xe5(sw)", Charge("e1", "e5", True, "SW")),
        ("a4(NE)", Reorient("a4", "NE")),
        ("A4(u)", Reorient("a4", "U")),
        ("Resign", RESIGN),
    ],
)
def test_abstractplay_move_strings_are_read_in_any_case(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert str(action) == (text.lower() if action is RESIGN else str(action))


def test_canonical_text_has_lower_case_squares_and_upper_case_facings() -> None:
    assert str(parse_action("E1XE5(sw)")) == "e1xe5(SW)"
    assert str(parse_action("H5-H7(n)")) == "h5-h7(N)"


@pytest.mark.parametrize("token", ["e1(NNE)", "d1-Q", "e1", "e1-e5(", "e1-e5NE", "e1(N", "e1e5", "e1-(N)"])
def test_tokens_of_no_action_form_are_malformed(token: str) -> None:
    assert not re.fullmatch(DIALECT.action_pattern, token, re.IGNORECASE)
    v = verdict(f"1. R: {token}")
    assert v.status == "malformed", v
    assert v.error is not None and token in v.error.message


def test_the_malformed_message_names_what_was_expected() -> None:
    v = verdict("1. R: e1(NNE)")
    assert '")" closing the facing' in v.error.message
    v = verdict("1. R: e1(Q)")
    assert 'a facing such as "NE"' in v.error.message


def test_a_glyph_may_follow_an_action() -> None:
    assert verdict("1. R: h5(N)!? B: a4(S)?").status == "ongoing"


def test_a_record_pasted_from_abstractplay_with_labels_added_checks() -> None:
    game = "1. Red: h5(N) Blue: a4(E)\n2. Red: h5-h8(W) Blue: a4-f4(N)"
    ok = verdict(game)
    assert (ok.status, ok.to_move) == ("ongoing", "Red")
    illegal(verdict(game + "\n3. Red: h8xe8"), "an upright piece can only be captured by a larger one")


# -- the API around the rules ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_listed_action_is_legal_and_canonical(players: int) -> None:
    state = ENGINE.new_state({"Players": str(players), "First": SIDES[players][-1]})
    for _ in range(12):
        state.begin_turn(state.due_side())
        actions = state.legal_actions()
        assert RESIGN in actions
        assert len(set(map(str, actions))) == len(actions)
        for action in actions:
            assert parse_action(str(action)) == action
            state.copy().apply(action)
        charges = [action for action in actions if isinstance(action, Charge)]
        state.apply(charges[-1] if charges else actions[0])
        assert state.legal_actions() == [] and state.can_end_turn()
        state.end_turn()


def test_legal_actions_list_charges_with_every_new_facing_and_captures() -> None:
    state = ENGINE.new_state({"Position": position(2, Red="a1LN,c1MU", Blue="a3SU,h8LU")})
    listed = {str(action) for action in state.legal_actions()}
    assert {"a1-a2", "a1-a2(U)", "a1-a2(NE)", "a1xa3", "a1xa3(S)", "c1(N)", "resign"} <= listed
    assert "a1-a2(N)" not in listed and "a1(N)" not in listed and "c1(U)" not in listed
    assert not any(action.startswith("c1-") or action.startswith("c1x") for action in listed)
    # 8 reorients each, 2 targets x 9 variants for the charging piece, resign.
    assert len(listed) == 8 + 8 + 2 * 9 + 1


def test_an_illegal_action_leaves_the_state_unchanged() -> None:
    state = ENGINE.new_state({"Players": "3"})
    before = state.position()
    with pytest.raises(IllegalTurnError):
        state.begin_turn("Blue")
    state.begin_turn("Red")
    with pytest.raises(IllegalActionError):
        state.apply(Charge("f5", "c5"))
    assert state.position() == before and state.to_move() == "Red"


def test_render_draws_sizes_facings_and_a_legend() -> None:
    state = ENGINE.new_state({"Position": position(2, Red="e1LNE", Blue="a5SU")})
    drawing = state.render()
    assert "RL:NE" in drawing and "BS:U" in drawing
    assert "U upright" in drawing and "Red to move" in drawing


def test_the_dialect_reads_labels_of_all_four_colours() -> None:
    (record,) = read_source(b'[Game "pikemen"]\n[Players "4"]\n1. R: h1(N) Yellow: a1(N) b: a8(S) GREEN: h8(S)')
    assert not isinstance(record, Malformed)
    assert [turn.side for turn in record.items] == ["Red", "Yellow", "Blue", "Green"]


# -- after the end of the game (NOTATION.md §6) ------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_a_turn_after_a_win_is_in_the_round_the_turn_order_gives_it(players: int) -> None:
    scores = ",".join(f"{side}=10" if side == "Red" else f"{side}=0" for side in SIDES[players])
    other = SIDES[players][1]
    start = position(players, score=scores, Red="a1LN,b1LN", **{other: "a5MN,b5SN,h8LU"})
    after = verdict("1. R: a1xa5 Y: b5(S)", players, start)
    illegal(after, "the game ended at turn 1 (Red wins (score))")
    assert (after.error.round, after.error.side, after.error.action) == (1, "Yellow", None)


def test_a_turn_after_the_last_turn_of_a_round_is_in_the_next_round() -> None:
    start = position(2, score="Red=0,Blue=10", Red="a1MN,h1LU", Blue="a8LS")
    won = verdict("1. R: h1(N) B: a8xa1", 2, start)
    assert (won.status, won.winners, won.reason) == ("finished", ("Blue",), "score")
    after = verdict("1. R: h1(N) B: a8xa1 R: h1-h5", 2, start)
    assert (after.status, after.error.round, after.error.side, after.error.action) == ("illegal", 2, "Red", None)


@pytest.mark.parametrize("players", [2, 3])
def test_a_draw_after_the_end_carries_the_round_and_side_of_its_turn(players: int) -> None:
    late = verdict(f"{first_round(players)} 2. R: resign draw", players)
    if players == 2:
        assert (late.status, late.error.round, late.error.side, late.error.action) == ("illegal", 2, "Red", "draw")
    else:  # Red leaves the game; it goes on.
        assert late.status == "finished" and late.reason == "agreement"
    decided = position(players, Red="a1LN")
    early = verdict("draw", players, decided)
    assert (early.status, early.error.round, early.error.side, early.error.action) == ("illegal", 1, "Red", "draw")


def test_the_ongoing_round_is_the_round_of_the_side_to_move() -> None:
    v = verdict(first_round(4), 4)
    assert (v.status, v.to_move, v.round) == ("ongoing", "Red", 2)
    v = verdict("1. R: h1(N) Y: a1(N)", 4)
    assert (v.to_move, v.round) == ("Blue", 1)


# -- the common tags ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1" * 5000, "¹²", "٣", "-3", " 15x"])
def test_numbers_int_would_refuse_or_misread_are_malformed_with_a_short_message(text: str) -> None:
    for v in (
        verdict("", None, None, Target=text),
        verdict("", None, None, Players=text),
        verdict("", 2, position(2, score=f"Red={text}", Red="a1LN", Blue="h8LU")),
    ):
        assert v.status == "malformed" and len(v.error.message) < 160, v


def test_seeds_and_their_hashes_are_tags_pikemen_does_not_use() -> None:
    """Pikemen draws nothing: `Seed` and `SeedHash` are ignored, even when they disagree or
    cannot be read (NOTATION.md §3, issue 45 item 16)."""
    from referee.games.randomness import seed_hash

    assert verdict("", 2, Seed="s", SeedHash=seed_hash("s")).status == "ongoing"
    assert verdict("", 2, Seed="s", SeedHash=seed_hash("t")).status == "ongoing"
    assert verdict("", 2, SeedHash="md5:abc", RedSalt="").status == "ongoing"
