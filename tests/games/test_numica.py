"""Numica's rules (numica.md), each with a legal and an illegal case."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.games.numica.state import ENGINE, INDEX, TILE_SETS
from referee.judge.core.adjudicate import Verdict, adjudicate, read_source
from referee.judge.core.verdict_words import turn_text
from tests.helpers.judged import judged


def tiles_with(placed: dict[str, str], variant: str = "standard") -> str:
    """A legal tile layout with the given tiles on the given squares, the rest filled in."""
    left = Counter(TILE_SETS[variant])
    left.subtract(placed.values())
    filler = iter(sorted(left.elements()))
    by_index = {INDEX[square]: tile for square, tile in placed.items()}
    return "".join(by_index.get(i) or next(filler) for i in range(64))


def verdict(movetext: str, position: str | None = None, **tags: str) -> Verdict:
    if "Seed" not in tags and position is None and "Tiles" not in tags:
        tags["Seed"] = "rules"
    return judged("numica", movetext, Position=position, **tags)


RED_RESERVE = ["f5", "g5", "h5", "f6", "g6", "h6", "f7", "h7"]
BLUE_RESERVE = ["b5", "c5", "b6", "c6", "b7", "c7", "d7", "e7"]


def padded(pieces: str, reserve: list[str]) -> str:
    """The pieces, plus moved pieces on reserve squares up to 4 square and 4 round, so that
    a test decides itself which pieces are captured."""
    listed = [p for p in pieces.split(",") if p]
    squares = iter(reserve)
    for shape in "SO":
        listed += [f"{next(squares)}{shape}*" for _ in range(4 - sum(p[2] == shape for p in listed))]
    return ",".join(listed)


def position(tiles: dict[str, str], red: str, blue: str, to: str = "R", pad: bool = True) -> str:
    if pad:
        red, blue = padded(red, RED_RESERVE), padded(blue, BLUE_RESERVE)
    return f"tiles:{tiles_with(tiles)} R:{red} B:{blue} to:{to}"


def illegal(v: Verdict, words: str) -> None:
    assert v.status == "illegal", v
    assert v.error is not None and words in v.error.message, v.error


def test_setups_place_the_back_rows_then_red_moves() -> None:
    v = verdict("R: SSOOSOSO B: OSOSOSOS")
    assert (v.status, v.to_move, v.round, v.turns) == ("ongoing", "Red", 1, 2)


def first_moves(start: str, legal: list[str], refused: dict[str, str]) -> None:
    """Red's first turn from the position `start`, `1. R: ` and then each of `legal` (the game
    goes on) and each of `refused` (illegal, with its words in the error)."""
    for move in legal:
        assert verdict(f"1. R: {move}", start).status == "ongoing", move
    for move, words in refused.items():
        illegal(verdict(f"1. R: {move}", start), words)


@pytest.mark.parametrize("setup", ["SSSOOOOO", "SSOOSOS", "SSOOSOSOS"])
def test_a_setup_needs_four_square_and_four_round_pieces(setup: str) -> None:
    illegal(verdict(f"R: {setup}"), "4 square (S) and 4 round (O)")


def test_a_setup_turn_carries_no_round_number() -> None:
    v = verdict("1. R: SSOOSOSO")
    illegal(v, "setup turn carries no round number")
    assert (v.error.round, v.error.side, v.error.action) == (None, "Red", None)


def test_number_tiles_move_exactly_that_far_jumping_over_pieces() -> None:
    start = position({"a1": "3"}, "a1S*,a2O*", "h8S*", "R")
    first_moves(start, ["a1-a4", "a1-d4"], {"a1-a3": "a piece on a 3 tile moves exactly 3 squares"})


def test_knight_tiles() -> None:
    start = position({"d4": "K"}, "d4S*", "h8S*")
    first_moves(start, ["d4-e6"], {"d4-d6": "moves like a knight"})


def test_rook_tiles_slide_but_not_through_pieces() -> None:
    start = position({"a1": "R"}, "a1S*,a3O*", "h8S*")
    first_moves(start, ["a1-h1"], {"a1-a5": "moves like a rook, not through pieces"})


def test_bishop_tiles() -> None:
    start = position({"c1": "B"}, "c1S*", "h8S*,e3O*")
    first_moves(start, ["c1xe3"], {"c1-c4": "moves like a bishop", "c1-f4": "moves like a bishop"})


def test_x_tiles_go_to_any_empty_square_and_never_capture() -> None:
    start = position({"b2": "X"}, "b2S*", "h8S*,g7O*")
    first_moves(start, ["b2-g2"], {"b2xg7": "moves only to an empty square"})


def test_never_onto_ones_own_piece() -> None:
    start = position({"a1": "1"}, "a1S*,a2O*", "h8S*")
    illegal(verdict("1. R: a1-a2", start), "a2 is held by Red's own piece")


def test_the_x_marker_must_match_the_target() -> None:
    start = position({"a1": "1", "c1": "1"}, "a1S*,c1O*", "a2O*,h8S*")
    first_moves(start, ["a1xa2"], {"a1-a2": "write a1xa2", "c1xc2": "c2 is empty: write c1-c2"})


def test_first_move_capture_rule() -> None:
    fresh = position({"a1": "1", "c1": "1"}, "a1S,c1O*", "a2O,c2S,h8S*")
    illegal(verdict("1. R: a1xa2", fresh), "first-move capture rule")
    assert verdict("1. R: c1xc2", fresh).status == "ongoing"  # the capturer has moved
    moved_target = position({"a1": "1"}, "a1S", "a2O*,h8S*")
    assert verdict("1. R: a1xa2", moved_target).status == "ongoing"


@pytest.mark.parametrize(
    ("blue", "wins"),
    [
        ("a2S*,b8S*,c8O*,d8O*,e8O*", True),  # 3 square captured with this one
        ("a2O*,b8S*,c8S*,d8S*,e8O*", True),  # 3 round
        ("a2S*,b8S*,c8S*,d8O*,e8O*", True),  # 2 square and 2 round
        ("a2S*,b8S*,c8S*,d8O*,e8O*,f8O*", False),
    ],  # 2 square and 1 round: not yet
)
def test_capture_victory(blue: str, wins: bool) -> None:
    v = verdict(
        "1. R: a1xa2",
        position({"a1": "1"}, "a1S*", blue, pad=False).replace("R:a1S*", "R:" + padded("a1S*", RED_RESERVE)),
    )
    if wins:
        assert (v.status, v.winners, v.reason) == ("finished", ("Red",), "captures")
    else:
        assert v.status == "ongoing"


def test_a_side_with_no_legal_move_loses() -> None:
    """Blue's 5-tile pieces block each other; its unmoved piece on e1 (a 1 tile) is ringed
    by unmoved Red pieces it may not capture on its first move."""
    tiles = {"a1": "1", "e1": "1", "c8": "5", "h8": "5", "c3": "5", "h3": "5"}
    red = "a1S*,d1S,f1S,d2O,e2O,f2O"
    stuck = position(tiles, red, "c8S*,h8S*,c3O*,h3O*,e1O", pad=False)
    v = verdict("1. R: a1-a2", stuck)
    assert (v.status, v.winners, v.reason) == ("finished", ("Red",), "no-moves")
    free = position(tiles, red, "c8S*,h8S*,c3O*,h3O*,e1O*", pad=False)
    assert verdict("1. R: a1-a2", free).status == "ongoing"


def test_resign_and_agreed_draw() -> None:
    v = verdict("R: SSOOSOSO B: resign")
    assert (v.status, v.winners, v.reason) == ("finished", ("Red",), "resignation")
    v = verdict("R: SSOOSOSO B: OSOSOSOS draw")
    assert (v.status, v.draw, v.reason) == ("finished", True, "agreement")
    illegal(verdict("R: SSOOSOSO B: resign R: a1-a2"), "the game ended")
    late_draw = verdict("R: SSOOSOSO B: resign draw")
    illegal(late_draw, "the game had already ended")
    assert late_draw.error.action == "draw"


def test_turn_labels_and_round_numbers_must_be_right() -> None:
    v = verdict("R: SSOOSOSO R: OSOSOSOS")
    illegal(v, "it is Blue's turn, not Red's")
    assert v.error.action is None
    illegal(verdict("R: SSOOSOSO B: OSOSOSOS 2. R: a1-a2"), "round 1, not round 2")


def test_off_board_squares_are_illegal_not_malformed() -> None:
    illegal(verdict("R: SSOOSOSO B: OSOSOSOS 1. R: z9-a2"), "z9 is not on the board")


def test_a_turn_with_no_action_is_illegal_at_its_label() -> None:
    v = verdict("R: SSOOSOSO B: R: a1-a2")
    illegal(v, "Blue's turn ended after no action: a Numica turn holds exactly one action")
    assert (v.error.line, v.error.column, v.error.side, v.error.action) == (4, 13, "Blue", None)


def test_one_action_per_turn() -> None:
    v = verdict("1. R: a1-a2 a2-a3", position({"a1": "1", "a2": "1"}, "a1S*", "h8S*"))
    illegal(v, "exactly one action")
    assert v.error.action == "a2-a3"


def test_tiles_and_seed_must_agree_and_hold_the_variant_set() -> None:
    assert verdict("", Seed="x", Tiles=ENGINE.new_state({"Seed": "x"}).tiles).status == "ongoing"
    assert verdict("", Seed="x", Tiles=ENGINE.new_state({"Seed": "y"}).tiles).status == "malformed"
    assert verdict("", Tiles="1" * 64).status == "malformed"
    assert verdict("", Variant="warpspawn", Seed="x").status == "ongoing"
    assert verdict("", Variant="giant", Seed="x").status == "malformed"


def test_a_record_without_seed_tiles_or_position_is_malformed() -> None:
    (result,) = read_source(b'[Game "numica"]\nR: SSOOSOSO\n')
    v = adjudicate(result).verdict
    assert v.status == "malformed" and "Seed or a Tiles tag" in v.error.message


@pytest.mark.parametrize("bad", ["tiles:123 R:a1S B:h8S to:R", "R:a1S B:h8S to:R", "BOGUS", "x to:Q"])
def test_a_bad_position_is_malformed(bad: str) -> None:
    assert verdict("", bad).status == "malformed"


def test_position_strings_read_back() -> None:
    text = position({"a1": "1"}, "a1S*,c1O", "a2O*,h8S", "B", pad=False)
    assert ENGINE.new_state({"Position": text}).position() == text
    tiles = text.split()[0]
    any_order = f"to:b B:h8s,a2O* r:c1O,a1S* {tiles}"
    assert ENGINE.new_state({"Position": any_order}).position() == text


def test_a_decided_position_is_finished_with_no_turns() -> None:
    v = verdict("", position({}, "a1S*", "a8S*,b8O*", "R").replace(padded("a8S*,b8O*", BLUE_RESERVE), "a8S*,b8O*"))
    assert (v.status, v.winners, v.reason, v.turns) == ("finished", ("Red",), "captures", 0)


# -- after the end of the game (NOTATION.md §6) ------------------------------------------

# Red has lost 2 square pieces: Blue's a3xa2 takes a third and wins.
BLUE_WINS = position({"a3": "1", "f1": "1"}, "a2S*,f1S*,b1O*,c1O*,d1O*,e1O*", padded("a3S*", BLUE_RESERVE), pad=False)


def test_a_turn_after_a_win_is_in_the_round_the_turn_order_gives_it() -> None:
    won = verdict("1. R: f1-f2 B: a3xa2", BLUE_WINS)
    assert (won.status, won.winners, won.reason) == ("finished", ("Blue",), "captures")
    after = verdict("1. R: f1-f2 B: a3xa2 R: f2-f3", BLUE_WINS)
    illegal(after, "the game ended at turn 2 (Blue wins (captures))")
    assert (after.error.round, after.error.side, after.error.action) == (2, "Red", None)
    # Red's win in round 1 leaves Blue's turn of round 1 next.
    red_wins = position({"a1": "1"}, "a1S*", "a2S*,b8S*,c8O*,d8O*,e8O*", pad=False).replace(
        "R:a1S*", "R:" + padded("a1S*", RED_RESERVE)
    )
    after = verdict("1. R: a1xa2 B: b8-b7", red_wins)
    assert (after.status, after.error.round, after.error.side, after.error.action) == ("illegal", 1, "Blue", None)


def test_a_turn_after_a_resignation_is_in_the_round_the_turn_order_gives_it() -> None:
    after_setup = verdict("R: SSOOSOSO B: resign R: a1-a2")
    assert (after_setup.error.round, after_setup.error.side) == (1, "Red")
    in_setup = verdict("R: resign B: OSOSOSOS")
    assert (in_setup.status, in_setup.error.round, in_setup.error.side) == ("illegal", None, "Blue")
    in_round = verdict("1. R: f1-f2 B: resign R: f2-f3", BLUE_WINS)
    assert (in_round.error.round, in_round.error.side, in_round.error.action) == (2, "Red", None)


def test_a_draw_after_the_end_carries_the_round_and_side_of_its_turn() -> None:
    late = verdict("1. R: f1-f2 B: a3xa2 draw", BLUE_WINS)
    assert (late.status, late.error.round, late.error.side, late.error.action) == ("illegal", 1, "Blue", "draw")
    assert turn_text(late.error) == 'turn 1 Blue, "draw"'
    decided = position({}, "a1S*", "a8S*,b8O*", "B").replace(padded("a8S*,b8O*", BLUE_RESERVE), "a8S*,b8O*")
    before_any_turn = verdict("draw", decided)
    assert (before_any_turn.error.round, before_any_turn.error.side, before_any_turn.error.action) == (
        1,
        "Blue",
        "draw",
    )
    illegal(before_any_turn, "the game had already ended (Red wins (captures))")


# -- the common tags ------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["5", "1", "02x", "²", "9" * 5000])
def test_a_players_tag_other_than_2_is_malformed(players: str) -> None:
    v = verdict("", Players=players)
    assert v.status == "malformed" and "numica is played by 2 players" in v.error.message
    assert len(v.error.message) < 120
    assert verdict("", Players="2").status == "ongoing"


@pytest.mark.parametrize(
    ("variant", "status"), [("", "malformed"), (" Warpspawn ", "ongoing"), ("STANDARD", "ongoing")]
)
def test_a_variant_tag_is_read_as_written_even_empty(variant: str, status: str) -> None:
    v = verdict("", Variant=variant)
    assert v.status == status, v
    assert status == "ongoing" or "unknown variant" in v.error.message


def test_the_seed_must_match_its_seed_hash() -> None:
    from referee.games.randomness import seed_hash

    assert verdict("", Seed="rules", SeedHash=seed_hash("rules")).status == "ongoing"
    wrong = verdict("", Seed="rules", SeedHash=seed_hash("other"))
    assert wrong.status == "malformed" and "does not match the SeedHash" in wrong.error.message
    assert verdict("", Seed="rules", SeedHash="sha256:12").status == "malformed"
    assert verdict("", Seed="").status == "malformed"


def test_salts_name_the_stream_that_lays_out_the_tiles() -> None:
    from referee.games.randomness import effective_seed, shuffled

    salted = ENGINE.new_state({"Seed": "rules", "RedSalt": "ann-7", "BlueSalt": "bo 42"})
    expected = "".join(shuffled(TILE_SETS["standard"], effective_seed("rules", [("Red", "ann-7"), ("Blue", "bo 42")])))
    assert salted.tiles == expected != ENGINE.new_state({"Seed": "rules"}).tiles
    # Any order of the tags: the salts go in the game's side order; GreenSalt is an unknown tag.
    assert (
        ENGINE.new_state({"BlueSalt": "bo 42", "GreenSalt": "x", "RedSalt": "ann-7", "Seed": "rules"}).tiles == expected
    )
    assert verdict("", RedSalt="").status == "malformed"
