"""Nika's rules (nika.md), each with a legal and an illegal case, set up from Position strings."""

from __future__ import annotations

import pytest

from referee.games.api import RESIGN, GameOverError, IllegalActionError, IllegalTurnError, SetupError
from referee.games.nika import ENGINE
from referee.games.nika.actions import ACTION_PATTERN, PASS, PhalanxMove, Rotate, Step, StepTo, parse_action
from referee.games.nika.board import BOARD, BoardDataError, parse_board
from referee.games.nika.squares import INDEX, START
from referee.games.nika.state import NikaState
from referee.judge.core.adjudicate import Verdict
from tests.helpers.judged import judged

EXAMPLE = "W:b2e,c2e,b3e,c3e R: B: K:d2w,e2w,d3w to:W"
"""nika.md's worked push: White on b2,c2,b3,c3 facing east, Black on d2,e2,d3 facing west."""


def new(position: str = START) -> NikaState:
    return ENGINE.new_state({"Position": position})


def play(position: str, *actions: str) -> tuple[NikaState, list[str]]:
    """Open the side to move's turn and play the actions; the events' texts."""
    state = new(position)
    side = state.to_move()
    assert side is not None
    state.begin_turn(side)
    events: list[str] = []
    for text in actions:
        events += [event.text for event in state.apply(parse_action(text))]
    return state, events


def refused(position: str, *actions: str) -> str:
    """The message of the last action, which must be illegal; the state is left unchanged."""
    state, _ = play(position, *actions[:-1])
    before = state.position()
    with pytest.raises(IllegalActionError) as error:
        state.apply(parse_action(actions[-1]))
    assert state.position() == before
    return error.value.message


def pieces(state: NikaState) -> set[str]:
    return {entry for field in state.position().split()[:4] for entry in field[2:].split(",") if entry}


def verdict(movetext: str, position: str | None = None, **tags: str) -> Verdict:
    return judged("nika", movetext, Position=position, **tags)


# -- the board is data ------------------------------------------------------------------


def test_board_areas_come_from_the_data_file() -> None:
    assert BOARD.files == "abcdefghijkl" and BOARD.height == 10
    victory = {BOARD.names[i]: "WRBK"[owner] for i, owner in enumerate(BOARD.victory_owner) if owner >= 0}
    rally = {BOARD.names[i]: "wrbk"[owner] for i, owner in enumerate(BOARD.rally_owner) if owner >= 0}
    assert victory == {"f10": "W", "g10": "W", "l5": "R", "l6": "R", "f1": "B", "g1": "B", "a5": "K", "a6": "K"}
    assert rally == {"f2": "w", "g2": "w", "b5": "r", "b6": "r", "f9": "b", "g9": "b", "k5": "k", "k6": "k"}
    assert "e5" not in INDEX and "d3" in INDEX and len(INDEX) == 120 - 24


def test_a_corrected_board_is_a_data_change() -> None:
    board = parse_board("2 . W\n1 # .\n")
    assert board.names == ("a1", "b1", "a2", "b2")
    assert board.playable == (False, True, True, True)
    assert board.victory_owner[3] == 0
    assert board.step[0][1] == 3 and board.step[3][1] == -1  # b1 north is b2; a1 is not board


def test_bad_board_data_is_refused() -> None:
    with pytest.raises(BoardDataError, match="unknown square mark"):
        parse_board("1 . x\n")
    with pytest.raises(BoardDataError, match="rectangle"):
        parse_board("2 . .\n1 .\n")


# -- positions --------------------------------------------------------------------------


def test_start_position_and_canonical_order() -> None:
    assert new().position() == START
    state = new("K:l7n,j4s R: B: W:d3w,d1w to:b")
    assert state.position() == "W:d1w,d3w R: B: K:j4s,l7n to:B"
    assert new(state.position()).position() == state.position()


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("W:e5n R: B: K: to:W", "not a square of the board"),
        ("W:d1n,d1s R: B: K: to:W", "two pieces"),
        ("W: R:f10n B: K: to:W", "enemies' victory area"),
        ("W:a1n,a2n,a3n,b1n,b2n,b3n,c1n R: B: K: to:W", "a city has 6"),
        ("W:d1n R: B: to:W", "lacks K:"),
        ("W:d1n R: B: K: to:X", "names no Nika city"),
        ("W:d1q R: B: K: to:W", "cannot read the piece"),
        ("W:f10n R:l5n B: K: to:W", "both teams"),
    ],
)
def test_unreadable_positions(position: str, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        new(position)
    assert verdict("", position).status == "malformed"


def test_allies_may_stand_in_each_others_victory_areas() -> None:
    state = new("W:f1n R:a5e B: K:l6w to:W")
    assert state.outcome() is None


def test_a_decided_position_is_a_finished_game_with_no_turns() -> None:
    finished = verdict("", "W: R: B:g1s K: to:R")
    assert (finished.status, finished.winners, finished.reason, finished.turns) == (
        "finished",
        ("Athens", "Messene"),
        "victory-area",
        0,
    )
    assert verdict("R: pass pass", "W: R: B:g1s K: to:R").status == "illegal"


def test_tags_players_and_variant() -> None:
    assert verdict("", Players="3").status == "ongoing"
    assert verdict("", Players="5").status == "malformed"
    assert verdict("", Variant="giant").status == "malformed"


# -- notation ---------------------------------------------------------------------------


def test_both_forms_of_a_single_move_and_canonical_groups() -> None:
    assert parse_action("d2-d3") == parse_action("D2-N") == Step("d2", "N")
    assert str(parse_action("d3+d1+d2-w")) == "d1+d2+d3-W"
    assert str(parse_action("c3+b2+c2+b3>e")) == "b2+c2+b3+c3>E"
    assert parse_action("d2>E") == Rotate(("d2",), "E")
    assert isinstance(parse_action("c2+b2-E"), PhalanxMove)
    assert parse_action("d2-d4") == StepTo("d2", "d4")
    assert str(parse_action("*B5>n")) == "*b5>N" and str(parse_action("PASS")) == "pass"


def test_the_quick_forms_of_reading_an_action_read_as_the_slow_ones() -> None:
    """The keywords in any case (a long s reads as an s ignoring case), a group out of
    order whose ranks have one and two digits, a non-ASCII letter left as written."""
    assert parse_action("Resign") is RESIGN and parse_action("pa\u017fs") is PASS
    assert str(parse_action("r10+r9+p10-n")) == "r9+p10+r10-N"
    assert str(parse_action("a10+b9+a9>S")) == "a9+b9+a10>S"
    assert parse_action("\u212a3-N") == Step("\u212a3", "N")


def test_action_forms_and_malformed_tokens() -> None:
    import re

    pattern = re.compile(ACTION_PATTERN, re.IGNORECASE)
    for text in ("d2-N", "d2-d3", "d1+d2+d3-W", "d2>E", "d1+d2>S", "*b5>N", "pass", "resign", "z9-S"):
        assert pattern.fullmatch(text), text
    for text in ("d1-Q", "d1", "d1+d2", "*b5-N", "d1-NE", "e2>X"):
        assert not pattern.fullmatch(text), text
    bad = verdict("1. W: d1-Q pass")
    assert bad.status == "malformed" and bad.error is not None and bad.error.column == 7


def test_a_square_off_the_board_is_illegal_not_malformed() -> None:
    off = verdict("1. W: z9-S pass")
    assert off.status == "illegal" and off.error is not None
    assert off.error.message == "z9 is not on the board"


# -- turns --------------------------------------------------------------------------------


def test_turn_order_and_round_numbers() -> None:
    assert verdict("1. W: pass pass R: pass pass B: pass pass 2. K: pass pass").status == "illegal"
    ok = verdict("1. W: d1-W pass R: pass pass B: pass pass K: pass pass 2. W: d2-W pass")
    assert (ok.status, ok.to_move) == ("ongoing", "Sparta")
    wrong = verdict("1. W: pass pass B: pass pass")
    assert wrong.status == "illegal" and wrong.error is not None
    assert (wrong.error.side, wrong.error.action) == ("Messene", None)
    assert "it is Sparta's turn" in wrong.error.message


def test_a_position_starts_round_one_with_its_side() -> None:
    ok = verdict("1. B: pass pass K: pass k4-N W: d1-W pass R: pass pass 2. B: pass", START[:-1] + "B")
    assert (ok.status, ok.to_move) == ("ongoing", "Messene")


def test_a_turn_holds_exactly_two_actions() -> None:
    assert "exactly two actions" in refused(START, "d1-W", "pass", "pass")
    short = verdict("1. W: d1-W R: pass pass")
    assert short.status == "illegal" and short.error is not None
    assert (short.error.round, short.error.side, short.error.action) == (1, "Athens", None)
    assert "exactly two actions" in short.error.message


def test_a_record_ending_inside_a_turn_leaves_that_city_to_move() -> None:
    assert verdict("1. W: d1-W").to_move == "Athens"
    assert verdict("1. W: d1-W pass").to_move == "Sparta"
    state, _ = play(START, "d1-W")
    assert state.to_move() == "Athens" and "c1+c2-W" not in map(str, state.legal_actions())
    state.apply(parse_action("d2-W"))
    assert state.legal_actions() == [] and state.can_end_turn()
    state.end_turn()
    assert state.to_move() == "Sparta"


def test_legal_actions_are_canonical_and_all_apply() -> None:
    state = new()
    listed = [str(action) for action in state.legal_actions()]
    assert "d1+d2+d3-W" in listed and "d1+d2-W" in listed and "d3+d2-W" not in listed
    assert "d3-N" not in listed and "d1-S" not in listed and "pass" in listed
    for action in state.legal_actions():
        twin = state.copy()
        twin.begin_turn("Athens")
        twin.apply(action)
    assert state.position() == START


# -- single moves ---------------------------------------------------------------------------


def test_spec_example_single_moves_make_a_phalanx() -> None:
    state, _ = play(START, "d1-W", "d2-W")
    assert {"c1w", "c2w"} <= pieces(state)
    state.end_turn()
    for side in ("Sparta", "Messene", "Thebes"):
        state.begin_turn(side)
        state.apply(parse_action("pass"))
        state.apply(parse_action("pass"))
        state.end_turn()
    state.begin_turn("Athens")
    state.apply(parse_action("c1+c2-W"))
    assert {"b1w", "b2w"} <= pieces(state)


def test_single_move_turns_then_steps() -> None:
    state, _ = play(START, "d1-E")
    assert "e1e" in pieces(state) and "d1w" not in pieces(state)


def test_single_move_routs_an_enemy_not_facing_it() -> None:
    state, events = play("W:c2e R: B: K:d2n to:W", "c2-E")
    assert events == ["d2 routed (Thebes)"]
    assert pieces(state) == {"d2e"} and "Thebes 6" in state.render()


def test_single_move_never_pushes_an_enemy_facing_it() -> None:
    assert "faces the mover" in refused("W:c2e R: B: K:d2w to:W", "c2-E")


def test_single_move_never_routs_own_or_allied_pieces() -> None:
    assert refused("W:c2e,d2n R: B: K: to:W", "c2-E") == "d2 is held by Athens's own piece"
    assert "an ally" in refused("W:c2e R: B:d2n K: to:W", "c2-E")


def test_single_move_stays_on_the_board() -> None:
    assert "leads off the board" in refused(START, "d1-S")
    assert "d4 is in the central area" in refused(START, "d3-N")
    assert "not next to" in refused(START, "d2-b2")


def test_single_move_into_victory_areas() -> None:
    assert "enemies' victory area" in refused("W: R:f9n B: K: to:R", "f9-N")
    state, _ = play("W:f2s R: B: K: to:W", "f2-S")  # Messene's victory area: open to its ally
    assert state.outcome() is None and pieces(state) == {"f1s"}


def test_only_the_citys_own_pieces_move() -> None:
    assert refused(START, "a4-S") == "the piece on a4 is Sparta's, not Athens's"
    assert refused(START, "e1-N") == "there is no piece on e1"


# -- rotations --------------------------------------------------------------------------------


def test_rotate_a_piece_and_a_phalanx() -> None:
    state, _ = play(START, "d2>N", "i1+i2+i3>N")
    assert {"d2n", "i1n", "i2n", "i3n"} <= pieces(state)


def test_a_rotate_must_change_the_facing() -> None:
    assert "must change the facing" in refused(START, "d2>W")
    assert "must change the facing" in refused(START, "d1+d2>W")


def test_a_group_must_be_a_phalanx() -> None:
    assert "face the same way" in refused(START, "d2>N", "d1+d2+d3>E")
    assert "not one connected group" in refused(START, "d1+d3>E")
    assert "not one connected group" in refused("W:c2e,d3e R: B: K: to:W", "c2+d3-E")  # diagonal
    assert "named twice" in refused(START, "d1+d1-W")
    assert "Sparta's, not Athens's" in refused(START, "d1+a4>N")


# -- phalanx moves --------------------------------------------------------------------------------


def test_a_phalanx_moves_only_the_way_it_faces() -> None:
    state, _ = play(START, "d1+d2+d3-W")
    assert {"c1w", "c2w", "c3w"} <= pieces(state)
    assert "moves only the way it faces" in refused(START, "d1+d2+d3-E")


def test_worked_example_a_tied_line_blocks_the_whole_phalanx() -> None:
    message = refused(EXAMPLE, "b2+c2+b3+c3-E")
    assert message == ("on rank 2 the phalanx weighs 2 against 2 from d2: a push needs more weight than the enemy line")


def test_worked_example_a_sub_phalanx_pushes() -> None:
    state, events = play(EXAMPLE, "b3+c3-E")
    assert events == ["d3 pushed to e3 (Thebes)"]
    assert pieces(state) == {"b2e", "c2e", "c3e", "d3e", "d2w", "e2w", "e3w"}


def test_worked_example_an_ally_adds_weight() -> None:
    assert "weighs 2 against 2" in refused("W:b2e,c2e,b3e,c3e R:e3n B: K:d2w,e2w,d3w to:W", "b3+c3-E")
    # The pieces behind the contact weigh whatever their facing; a third runner outweighs them.
    state, events = play("W:a3e,b3e,c3e R:e3n B: K:d3w to:W", "a3+b3+c3-E")
    assert events == ["e3 pushed to f3 (Sparta)", "d3 pushed to e3 (Thebes)"]


def test_a_chain_pushed_off_the_board_loses_its_last_piece() -> None:
    state, events = play("W:i2e,j2e,k2e R: B: K:l2w to:W", "i2+j2+k2-E")
    assert events == ["l2 pushed and routed (Thebes)"]
    assert pieces(state) == {"j2e", "k2e", "l2e"}


def test_a_chain_pushed_into_the_central_area_loses_its_last_piece() -> None:
    state, events = play("W:d1n,d2n R: B: K:d3s to:W", "d1+d2-N")
    assert events == ["d3 pushed and routed (Thebes)"]
    assert pieces(state) == {"d2n", "d3n"}


def test_a_pushed_piece_is_routed_by_any_piece_or_an_enemy_victory_area_beyond() -> None:
    _, events = play("W:a1e,b1e,c1e R: B:e1n K:d1w to:W", "a1+b1+c1-E")
    assert events == ["d1 pushed and routed (Thebes)"]
    _, events = play("W:b1e,c1e,d1e R: B: K:e1w to:W", "b1+c1+d1-E")
    assert events == ["e1 pushed and routed (Thebes)"]  # f1 is Messene's victory area
    state, events = play("W:l2n,l3n R: B: K:l4s to:W", "l2+l3-N")
    assert events == ["l4 pushed to l5 (Thebes)"]  # Sparta's area is open to its ally
    assert state.outcome() is None


def test_the_square_beyond_is_judged_before_the_move() -> None:
    # d1 belongs to the phalanx and moves on to e1, yet c1's push finds it held: c1 is routed.
    state, events = play("W:a1e,b1e,d1e,b2e,c2e,d2e R: B: K:c1w to:W", "a1+b1+d1+b2+c2+d2-E")
    assert events == ["c1 pushed and routed (Thebes)"]
    assert pieces(state) == {"b1e", "c1e", "e1e", "c2e", "d2e", "e2e"}


def test_a_rout_inside_a_push() -> None:
    state, events = play("W:b2e,c2e,b3e,c3e R: B: K:d2w,d3n to:W", "b2+c2+b3+c3-E")
    assert sorted(events) == ["d2 pushed to e2 (Thebes)", "d3 routed (Thebes)"]
    assert pieces(state) == {"c2e", "d2e", "c3e", "d3e", "e2w"}


def test_a_phalanx_never_pushes_or_routs_own_or_allied_pieces() -> None:
    assert "Athens's own piece on d3" in refused("W:b3e,c3e,d3n R: B: K: to:W", "b3+c3-E")
    assert "an ally" in refused("W:b3e,c3e R: B:d3n K: to:W", "b3+c3-E")


def test_every_run_must_stay_on_the_board_and_out_of_enemy_victory_areas() -> None:
    assert "leads off the board" in refused("W:k2e,l2e R: B: K: to:W", "k2+l2-E")
    assert "central area" in refused("W:c5e,c6e R: B: K: to:W", "c5+c6-E")
    assert "enemies' victory area" in refused("W: R:e9n,e10n B: K: to:R", "e9+e10>E", "e9+e10-E")


# -- rally -------------------------------------------------------------------------------------


def test_rally_onto_an_empty_square_of_the_own_rally_area() -> None:
    state, _ = play("W:d1w R: B: K: to:W", "*f2>N", "*g2>E")
    assert pieces(state) == {"d1w", "f2n", "g2e"}


def test_rally_refused() -> None:
    assert refused(START, "*f2>N") == "Athens has no routed piece to rally"
    assert "not in Athens's rally area (f2, g2)" in refused("W: R: B: K: to:W", "*b5>N")
    assert "not empty" in refused("W:f2n R: B: K: to:W", "*f2>N")


# -- the end of the game -------------------------------------------------------------------------


def test_victory_by_a_single_move_ends_the_turn_at_once() -> None:
    won = verdict("1. W: f9-N", "W:f9n R: B: K: to:W")
    assert (won.status, won.winners, won.reason) == ("finished", ("Athens", "Messene"), "victory-area")
    after = verdict("1. W: f9-N pass", "W:f9n R: B: K: to:W")
    assert after.status == "illegal" and after.error is not None and "the game ended" in after.error.message
    label = verdict("1. W: f9-N R: pass", "W:f9n R: B: K: to:W")
    assert label.status == "illegal" and label.error is not None and label.error.action is None


def test_the_ally_of_the_city_that_arrives_wins_too() -> None:
    won = verdict("1. B: g2-S", "W: R: B:g2s K: to:B")
    assert won.winners == ("Athens", "Messene")


def test_victory_by_a_push() -> None:
    state, events = play("W:l2n,l3n R:l4s B: K: to:W", "l2+l3-N")
    assert events == ["l4 pushed to l5 (Sparta)"]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Sparta", "Thebes")
    state, _ = play("W:f8n,f9n R: B: K: to:W", "f8+f9-N")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ("Athens", "Messene")


def test_resign_loses_for_the_whole_team() -> None:
    lost = verdict("1. W: pass pass R: resign")
    assert (lost.winners, lost.reason) == (("Athens", "Messene"), "resignation")
    assert verdict("1. W: resign pass").status == "illegal"


def test_draw_all_passed_four_turns() -> None:
    four = " ".join(f"{side}: pass pass" for side in "WRBK")
    drawn = verdict(f"1. {four}")
    assert (drawn.status, drawn.reason, drawn.turns) == ("finished", "all-passed", 4)
    three = verdict("1. W: pass pass R: pass pass B: pass pass K: pass k4-N 2. W: pass pass")
    assert three.status == "ongoing"


def test_draw_by_the_third_repetition() -> None:
    rounds = " ".join(
        f"{side}: {square}>N {square}>{back}"
        for side, square, back in (("W", "d1", "W"), ("R", "a4", "S"), ("B", "d8", "W"), ("K", "j4", "S"))
    )
    seven = verdict(f"1. {rounds} 2. {rounds.rsplit(' K:', 1)[0]}")
    assert seven.status == "ongoing"
    drawn = verdict(f"1. {rounds} 2. {rounds}")
    assert (drawn.status, drawn.reason, drawn.turns) == ("finished", "repetition", 8)


def test_both_draws_on_one_turn_is_all_passed() -> None:
    rounds = " ".join(
        f"{side}: {square}>N {square}>{back}"
        for side, square, back in (("W", "d1", "W"), ("R", "a4", "S"), ("B", "d8", "W"), ("K", "j4", "S"))
    )
    passes = " ".join(f"{side}: pass pass" for side in "WRBK")
    drawn = verdict(f"1. {rounds} 2. {passes}")
    assert (drawn.reason, drawn.turns) == ("all-passed", 8)


def test_draw_by_agreement() -> None:
    agreed = verdict("1. W: d1-W draw")
    assert (agreed.status, agreed.draw, agreed.reason) == ("finished", True, "agreement")
    state, _ = play(START, "d1-W")
    state.agree_draw()
    with pytest.raises(IllegalActionError, match="the game ended"):
        state.apply(parse_action("pass"))
    state.end_turn()
    with pytest.raises(GameOverError):
        state.begin_turn("Sparta")


def test_wrong_turn_errors_are_turn_errors() -> None:
    state = new()
    with pytest.raises(IllegalTurnError, match="round 1, not round 2"):
        state.begin_turn("Athens", number=2)
    assert state.begin_turn("Athens", number=1) is True


def test_render_shows_cities_facings_and_areas() -> None:
    text = new().render()
    assert "W<" in text and "R^" in text and "Kv" in text and "B>" in text
    assert "##" in text and "[W ]" in text and "(r )" in text and "Athens to move" in text


@pytest.mark.parametrize(
    "position",
    [
        START,
        EXAMPLE,
        "W:b1n,l2w,b4n,c9s R:g2e,c7s,b10n,d10s B:d8n,a9s,b9s,d9n,a10s K:b2s,b3s,a7e,a8n to:B",
        "W:c2e,b3e,c3e,g3n R:a2n,a3n,h9s,h10s B:g2e,a4s,b5s,h8n,j8n,i10w K:d3w,e3s,c4w to:R",
    ],
)
def test_legal_actions_are_exactly_the_actions_that_apply(position: str) -> None:
    """Every action of every form on the city's pieces and the whole board applies
    without error exactly when legal_actions lists it."""
    from itertools import combinations

    state = new(position)
    side = state.to_move()
    assert side is not None
    state.begin_turn(side)
    squares = [entry[:-1] for entry in state.position().split()[state.city][2:].split(",") if entry]
    candidates = ["pass"] + [f"*{name}>{f}" for name in INDEX for f in "NESW"]
    for size in range(1, len(squares) + 1):
        for group in combinations(squares, size):
            candidates += [f"{'+'.join(group)}{joint}{f}" for joint in "->" for f in "NESW"]
    applicable = set()
    for text in candidates:
        twin = state.copy()
        try:
            twin.apply(parse_action(text))
        except IllegalActionError:
            continue
        applicable.add(str(parse_action(text)))
    listed = [str(action) for action in state.legal_actions()]
    assert len(listed) == len(set(listed))
    assert set(listed) == applicable


# -- after the end of the game (NOTATION.md §6) ------------------------------------------


def test_a_turn_after_the_end_is_in_the_round_the_turn_order_gives_it() -> None:
    # Athens wins with its first action of round 1: Sparta's turn of round 1 would come next.
    after = verdict("1. W: f9-N R: pass pass", "W:f9n R: B: K: to:W")
    assert (after.status, after.error.round, after.error.side, after.error.action) == ("illegal", 1, "Sparta", None)
    assert "the game ended at turn 1 (Athens+Messene win (victory-area))" in after.error.message
    # Thebes resigns in the last turn of round 1: Athens's turn of round 2 would come next.
    after = verdict("1. W: pass pass R: pass pass B: pass pass K: resign W: pass pass")
    assert (after.error.round, after.error.side, after.error.action) == (2, "Athens", None)


def test_a_draw_after_the_end_carries_the_round_and_side_of_its_turn() -> None:
    won = verdict("1. W: f9-N draw", "W:f9n R: B: K: to:W")
    assert (won.status, won.error.round, won.error.side, won.error.action) == ("illegal", 1, "Athens", "draw")
    after_the_round = verdict("1. W: pass pass R: pass pass B: pass pass K: resign draw")
    assert (after_the_round.error.round, after_the_round.error.side) == (1, "Thebes")
    decided = verdict("draw", "W: R: B:g1s K: to:R")
    assert (decided.error.round, decided.error.side, decided.error.action) == (1, "Sparta", "draw")
    assert "the game had already ended" in decided.error.message
