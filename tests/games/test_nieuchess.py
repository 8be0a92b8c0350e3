"""Nieuchess rules (nieuchess.md): each rule with a legal and an illegal case.

Most cases start from a `Position`; a `CRT` tag of 66 identical codes forces a battle's
result, and records without a seed take their written rolls as given.
"""

from __future__ import annotations

import re

import pytest

from referee.games.api import IllegalActionError, IllegalTurnError, SetupError
from referee.games.nieuchess import ENGINE
from referee.games.nieuchess.actions import Battle, Invasion, Move, Place, Setup, parse_action
from referee.games.nieuchess.board import BOARD, INDEX, NAMES, RED, SIZE, STANDARD_CRT, odds_column, read_crt_tag
from referee.games.nieuchess.state import NieuchessState
from referee.games.randomness import Dice, effective_seed, seed_hash
from referee.judge.core.adjudicate import Verdict, adjudicate, read_source


def crt(code: str) -> str:
    return " ".join([code] * 66)


def record(*turns: str, **tags: str) -> str:
    head = '[Game "nieuchess"]\n' + "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return head + "\n" + "\n".join(turns) + "\n"


def verdict(*turns: str, **tags: str) -> Verdict:
    (result,) = read_source(record(*turns, **tags).encode())
    return adjudicate(result).verdict


def state(position: str, **tags: str) -> NieuchessState:
    """A state from a Position with the first turn (Red's, unless `to:B`) already open."""
    game = ENGINE.new_state({"Position": position, **tags})
    label = game.next_turn()
    assert label is not None
    game.begin_turn(*label)
    return game


def act(game: NieuchessState, text: str, last: bool = False):
    return game.apply(parse_action(text), last)


def illegal(game: NieuchessState, text: str, fragment: str, last: bool = False) -> None:
    before = game.position()
    with pytest.raises(IllegalActionError, match=fragment):
        act(game, text, last)
    assert game.position() == before, "a refused action leaves the state unchanged"


def first_moves(position: str, legal: list[str], refused: dict[str, str]) -> None:
    """Each of `legal` played, and each of `refused` refused with its words (`illegal`), as the
    first action of the first turn of a fresh state of `position`."""
    for text in legal:
        act(state(position), text)
    for text, words in refused.items():
        illegal(state(position), text, words)


# -- the map and the table ------------------------------------------------------


def test_neighbours_follow_odd_r_and_are_symmetric() -> None:
    assert sorted(NAMES[n] for n in BOARD.neighbours[INDEX["e8"]]) == ["d8", "e7", "e9", "f7", "f8", "f9"]
    assert sorted(NAMES[n] for n in BOARD.neighbours[INDEX["e9"]]) == ["d10", "d8", "d9", "e10", "e8", "f9"]
    for hex_ in range(SIZE):
        for n in BOARD.neighbours[hex_]:
            assert hex_ in BOARD.neighbours[n]
            assert BOARD.distance(hex_, n) == 1


def test_map_features_are_read_from_data() -> None:
    assert sorted(NAMES[c.star] for c in BOARD.centres) == ["g33", "g4", "s33", "s4"]
    assert [c.side for c in BOARD.centres if NAMES[c.star] in ("g4", "s4")] == [0, 0]
    assert len(BOARD.red) == 20
    assert [NAMES[h] for h in range(SIZE) if BOARD.hot[h]] == [f"m{rank}" for rank in range(5, 33)]
    assert BOARD.embarkation[INDEX["b4"]] and BOARD.embarkation[INDEX["a4"]]  # a red hex next to red
    assert not BOARD.embarkation[INDEX["c4"]]
    assert BOARD.terrain[INDEX["g20"]] == "#"


def test_the_rule_texts_crt_cells() -> None:
    three, two = odds_column(3, 1), odds_column(2, 1)
    assert [STANDARD_CRT[roll - 1][three] for roll in (4, 5, 6)] == ["DB2", "EX", "DE"]
    assert STANDARD_CRT[5][two] == "AE"


@pytest.mark.parametrize(
    ("attackers", "defenders", "column"),
    [
        (1, 1, "1-1"),
        (2, 1, "2-1"),
        (3, 2, "1-1"),
        (5, 2, "2-1"),
        (1, 2, "1-2"),
        (2, 3, "1-2"),
        (2, 2, "1-1"),
        (1, 6, "1-6"),
        (6, 1, "6-1"),
        (1, 4, "1-4"),
    ],
)
def test_odds_rounding(attackers: int, defenders: int, column: str) -> None:
    from referee.games.nieuchess.board import ODDS

    assert ODDS[odds_column(attackers, defenders)] == column


def test_a_crt_tag_replaces_the_table() -> None:
    table = read_crt_tag(",".join(["de"] * 66))
    assert all(code == "DE" for row in table for code in row)
    with pytest.raises(ValueError, match="66"):
        read_crt_tag(" ".join(["DE"] * 65))
    game = state("R:g8,a1 B:h8,y36", CRT=crt("DE"))
    act(game, "g8xh8#1=DE")  # the standard table would say AB2
    assert verdict("1. R: g8xh8#1", Position="R:g8,a1 B:h8,y36", CRT="AE DE").status == "malformed"


# -- notation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "e4-g7",
        "e4-f5-f6-g7",
        "b4>y33",
        "g6+h6xh7#4=DB2(h7-h8-h9)",
        "g6xh7+h8#5=EX(-g6,-h7)",
        "x9xy8#2=AB2(x9-w9-v9,-y8)",
        "g4",
        "resign",
        "setup a1 b1 c1",
    ],
)
def test_canonical_forms_read_back(text: str) -> None:
    action = parse_action(text.upper() if text != "resign" else text)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_action_types() -> None:
    assert parse_action("e4-g7") == Move(("e4", "g7"))
    assert parse_action("b4>y33") == Invasion("b4", "y33")
    assert parse_action("g4") == Place("g4")
    assert isinstance(parse_action("g6+h6xh7"), Battle)
    assert parse_action("SETUP A1 b2") == Setup(("a1", "b2"))
    illegal(state("R:e8,a1 B:y36"), "e8-e09", "e09 is off the map")


# -- setup ----------------------------------------------------------------------

RED_SETUP = "setup " + " ".join(f"{f}{r}" for r in (1, 2) for f in "abcdefghij")
BLUE_SETUP = "setup " + " ".join(f"{f}{r}" for r in (36, 35) for f in "abcdefghij")


def test_setup_turns_first_side_first() -> None:
    assert verdict(f"R: {RED_SETUP}", f"B: {BLUE_SETUP}", "1. R: a2-a3").status == "ongoing"
    blue_first = verdict(f"B: {BLUE_SETUP}", f"R: {RED_SETUP}", "1. B: a35-a34", First="Blue")
    assert blue_first.status == "ongoing" and blue_first.to_move == "Red"
    wrong = verdict(f"B: {BLUE_SETUP}")
    assert wrong.status == "illegal" and "Red first, then Blue" in wrong.error.message


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        (RED_SETUP.rsplit(" ", 1)[0], "all 20 pawns, not 19"),
        (RED_SETUP.replace("j2", "j19"), "j19 is on Blue's half"),
        (RED_SETUP.replace("j2", "b13"), "b13 is a gray hex"),
        (RED_SETUP.replace("j2", "a1"), "a1 is listed twice"),
        (RED_SETUP.replace("j2", "z2"), "z2 is off the map"),
    ],
)
def test_bad_setups(setup: str, fragment: str) -> None:
    result = verdict(f"R: {setup}")
    assert result.status == "illegal" and fragment in result.error.message
    assert result.error.round is None


def test_a_setup_turn_has_no_round_number() -> None:
    result = verdict(f"1. R: {RED_SETUP}")
    assert result.status == "illegal" and result.error.action is None


# -- movement -------------------------------------------------------------------


def test_moves_up_to_five_steps() -> None:
    game = state("R:e8,a1 B:y36")
    act(game, "e8-f8-g8-h8-i8-j8")
    game = state("R:e8,a1 B:y36")
    act(game, "e8-j8")
    illegal(state("R:e8,a1 B:y36"), "e8-f8-g8-h8-i8-j8-k8", "at most 5 steps, not 6")
    illegal(state("R:e8,a1 B:y36"), "e8-k8", "no legal path")


def test_through_friendly_pawns_never_onto_them_nor_into_enemies() -> None:
    first_moves("R:e8,f8,a1 B:y36", ["e8-f8-g8"], {"e8-f8": "held by Red's own pawn"})
    first_moves("R:e8,a1 B:f8,y36", [], {"e8-f8-g8": "held by a Blue pawn"})
    first_moves(
        "R:e8,a1 B:y36",
        [],
        {
            "e8-e10-e11": "not neighbours",
            "e8-m40": "m40 is off the map",
            "e8-e8": "another hex",
            "f8-g8": "f8 is empty",
        },
    )


def test_zone_of_control_stops_a_move() -> None:
    act(state("R:e8,a1 B:h8,y36"), "e8-f8-g8")
    illegal(state("R:e8,a1 B:h8,y36"), "e8-f8-g8-g9", "must stop on g8")
    illegal(state("R:e8,a1 B:h8,y36"), "e8-j8", "no legal path")
    act(state("R:e8,a1 B:y36"), "e8-j8")  # the same move with no enemy in the way


def test_a_controlled_hex_held_by_a_friend_cannot_be_entered() -> None:
    illegal(state("R:e8,g8,a1 B:h8,y36"), "e8-f8-g8-g9", "cannot be entered")


def test_withdrawal_from_a_controlled_hex() -> None:
    first_moves("R:g8,a1 B:h8,y36", ["g8-f8-e8", "g8-h9"], {"g8-h9-h10": "must stop on h9"})


def test_hot_line_ride_is_not_counted() -> None:
    first_moves("R:m10,a1 B:y36", ["m10-m30"], {})
    first_moves("R:k10,a1 B:y36", ["k10-l10-m10-m11-m12-m13-m14-m15-m16-m17", "k10-m25"], {})


def test_a_ride_is_stopped_by_a_pawn() -> None:
    first_moves(
        "R:m10,m15,a1 B:y36",
        [],
        {"m10-m20": "no legal path", "m10-m11-m12-m13-m14-m15-m16-m17-m18": "blocked by the pawn on m15"},
    )
    first_moves("R:m10,a1 B:m15,y36", [], {"m10-m11-m12-m13-m14-m15-m16-m17-m18": "must stop on m14"})


def test_a_ride_is_stopped_by_control() -> None:
    first_moves(
        "R:m10,a1 B:n16,y36",
        ["m10-m16"],
        {"m10-m17": "no legal path", "m10-m11-m12-m13-m14-m15-m16-m17": "must stop on m16"},
    )


def test_no_leaving_the_line_after_riding() -> None:
    illegal(state("R:m10,a1 B:y36"), "m10-m11-m12-m13-m14-m15-m16-m17-l17", "may not leave it")
    act(state("R:m10,a1 B:y36"), "m10-m11-m12-m13-m14-l14")  # five ordinary steps are no ride


def test_each_pawn_moves_once() -> None:
    game = state("R:e8,a1 B:y36")
    act(game, "e8-f8")
    illegal(game, "f8-g8", "already moved")
    act(game, "a1-b1")


def test_no_move_after_a_battle() -> None:
    game = state("R:g8,a1 B:h8,y36", CRT=crt("DE"))
    act(game, "g8xh8#1")
    illegal(game, "a1-b1", "no move after a battle")


# -- invasions ------------------------------------------------------------------

EMBARK = [NAMES[h] for h in range(SIZE) if BOARD.embarkation[h] and BOARD.half[h] == 0 and BOARD.terrain[h] != RED]
TARGETS = [NAMES[h] for h in BOARD.red]


def test_invasion_from_an_embarkation_hex_to_any_vacant_red_hex() -> None:
    game = state("R:b4,e8 B:y36")
    events = act(game, "b4>y33")
    assert "lands on y33" in str(events[0])
    illegal(state("R:b4,e8 B:y36"), "e8>y33", "not an embarkation hex")
    illegal(state("R:b4,e8 B:y36"), "b4>e9", "not a red invasion hex")
    illegal(state("R:b4,e8 B:y33"), "b4>y33", "not vacant")
    game = state("R:b4,e8 B:y36")
    act(game, "b4-b5")
    illegal(game, "b5>y33", "already moved")


@pytest.mark.parametrize(("left", "allowed"), [(2, 10), (1, 5), (0, 0)])
def test_invasion_limits(left: int, allowed: int) -> None:
    pawns = ",".join(EMBARK[:11])
    game = state(f"R:{pawns} B:y36 inv:R={left},B=2")
    for origin, target in list(zip(EMBARK, TARGETS, strict=False))[:allowed]:
        act(game, f"{origin}>{target}")
    origin, target = EMBARK[allowed], TARGETS[allowed]
    illegal(game, f"{origin}>{target}", "invasion")


def test_invasions_are_counted_per_five_placements() -> None:
    pawns = ",".join(EMBARK[:11])
    game = state(f"R:{pawns} B:y36")
    for origin, target in list(zip(EMBARK, TARGETS, strict=False))[:5]:
        act(game, f"{origin}>{target}")
    assert "inv:R=1,B=2" in game.position()
    act(game, f"{EMBARK[5]}>{TARGETS[5]}")
    assert "inv:R=0,B=2" in game.position()


# -- combat ---------------------------------------------------------------------


def test_engaged_pawns_must_fight() -> None:
    result = verdict("1. R: a1-b1", "B: y36-x36", Position="R:g8,a1 B:h8,y36")
    assert result.status == "illegal"
    assert result.error.action is None and result.error.line == 4 and result.error.column == 4
    assert "g8" in result.error.message and "h8" in result.error.message
    pending = verdict("1. R: a1-b1", Position="R:g8,a1 B:h8,y36")
    assert (pending.status, pending.pending, pending.to_move) == ("ongoing", "battle", "Red")
    fought = verdict("1. R: a1-b1 g8xh8#1=DE", "B: y36-x36", Position="R:g8,a1 B:h8,y36", CRT=crt("DE"))
    assert fought.status == "ongoing"


def test_every_attacker_next_to_every_defender() -> None:
    illegal(state("R:g8,e8,a1 B:h8,y36", CRT=crt("DE")), "g8+e8xh8#1", "e8 is not next to h8")
    act(state("R:g8,h9,a1 B:h8,y36", CRT=crt("DE")), "g8+h9xh8#1")


def test_a_pawn_fights_once() -> None:
    game = state("R:g8,a1 B:h8,h9,y36", CRT=crt("DE"))
    act(game, "g8xh8#1")
    illegal(game, "g8xh9#1", "already fought")
    illegal(state("R:g8,a1 B:h8,y36", CRT=crt("DE")), "g8xh8+h8#1", "named twice")
    illegal(state("R:g8,a1 B:h8,y36", CRT=crt("DE")), "g8xg9#1", "g9 is empty")


def test_the_seeded_die_and_written_rolls() -> None:
    die = Dice("example").roll()  # RANDOM.md: the first die of "example" is 6
    result = STANDARD_CRT[die - 1][odds_column(1, 1)]
    game = state("R:g8,a1 B:h8,y36", Seed="example")
    events = act(game, f"g8xh8#{die}={result}")
    assert any(event.kind == "roll" and str(die) in event.text for event in events)
    wrong = 1 + die % 6
    illegal(state("R:g8,a1 B:h8,y36", Seed="example"), f"g8xh8#{wrong}", f"die of this battle is {die}")
    other = "DE" if result != "DE" else "AE"
    illegal(state("R:g8,a1 B:h8,y36", Seed="example"), f"g8xh8={other}", f"gives {result}, not {other}")
    illegal(state("R:g8,a1 B:h8,y36", Seed="example"), "g8xh8#7", "1 to 6")


def test_seed_hash_must_match_a_revealed_seed() -> None:
    good = verdict("1. R: a1-b1", Position="R:e8,a1 B:y36", Seed="example", SeedHash=seed_hash("example"))
    assert good.status == "ongoing" and good.rolls_as_given is False
    bad = verdict("1. R: a1-b1", Position="R:e8,a1 B:y36", Seed="example", SeedHash=seed_hash("other"))
    assert bad.status == "malformed" and "SeedHash" in bad.error.message
    with pytest.raises(SetupError):
        ENGINE.new_state({"SeedHash": "sha256:xyz"})


def test_secret_seed_rolls_are_taken_as_given() -> None:
    tags = {"Position": "R:g8,a1 B:h8", "SeedHash": seed_hash("secret"), "CRT": crt("DE")}
    done = verdict("1. R: g8xh8#2", **tags)
    assert done.status == "finished" and done.rolls_as_given is True
    pending = verdict("1. R: g8xh8", **tags)
    assert (pending.status, pending.pending) == ("ongoing", "roll")
    missing = verdict("1. R: g8xh8 a1-b1", **tags)
    assert missing.status == "illegal" and "roll must be written" in missing.error.message
    dice = verdict("1. R: g8xh8", Position="R:g8,a1 B:h8,y36", CRT=crt("DE"))
    assert (dice.pending, dice.rolls_as_given) == ("roll", True)


def test_attackers_eliminated() -> None:
    game = state("R:g8,a1 B:h8,y36", CRT=crt("AE"))
    events = act(game, "g8xh8#3=AE")
    assert "R:a1 B:h8,y36" in game.position()
    assert [event.kind for event in events][:3] == ["odds", "roll", "result"]
    illegal(state("R:g8,a1 B:h8,y36", CRT=crt("AE")), "g8xh8#3=AE(-g8)", "no choices")


def test_defenders_eliminated() -> None:
    game = state("R:g8,h9,a1 B:h8,y36", CRT=crt("DE"))
    events = act(game, "g8+h9xh8#3=DE")
    assert "B:y36" in game.position()
    assert any(event.kind == "elimination" and "h8" in event.text for event in events)
    assert any("odds 2-1" in event.text for event in events)


def test_exchange_choice() -> None:
    game = state("R:g8,h9,a1 B:h8,y36", CRT=crt("EX"))
    act(game, "g8+h9xh8#5=EX(-h8,-h9)")
    assert game.position().startswith("R:a1,g8 B:y36")
    illegal(state("R:g8,h9,a1 B:h8,y36", CRT=crt("EX")), "g8+h9xh8#5=EX(-g8,-h9)", "exactly one attacker")
    # the example quotes this battle's pawns, not squares from elsewhere
    illegal(
        state("R:g8,h9,a1 B:h8,y36", CRT=crt("EX")), "g8+h9xh8#5=EX(h8-i8-j8)", re.escape("write them as (-g8,-h8)")
    )
    illegal(state("R:g8,h9,a1 B:h8,y36", CRT=crt("EX")), "g8+h9xh8#5=EX", "losses must be written")
    act(state("R:g8,h9,a1 B:h8,y36", CRT=crt("EX")), "g8+h9xh8#5=EX(-g8)")  # one defender: no choice needed
    act(state("R:g8,a1 B:h8,y36", CRT=crt("EX")), "g8xh8#5=EX")
    pending = verdict("1. R: g8+h9xh8#5", Position="R:g8,h9,a1 B:h8,y36", CRT=crt("EX"))
    assert (pending.status, pending.pending, pending.to_move) == ("ongoing", "choice", "Red")


def test_defenders_retreat_chosen_by_the_attacker() -> None:
    game = state("R:g8,a1 B:h8,y36", CRT=crt("DB2"))
    events = act(game, "g8xh8#1=DB2(h8-i8-j8)")
    assert "B:j8,y36" in game.position()
    assert any(event.kind == "retreat" for event in events)
    board = "R:g8,a1 B:h8,y36"
    illegal(state(board, CRT=crt("DB2")), "g8xh8#1=DB2(h8-h7-h6)", "next to a pawn of the winner")
    illegal(state(board, CRT=crt("DB2")), "g8xh8#1=DB2(h8-i8)", "exactly 2 steps")
    illegal(state(board, CRT=crt("DB2")), "g8xh8#1=DB2(-h8)", "h8 can retreat")
    illegal(state("R:g8,a1 B:h8,j8,y36", CRT=crt("DB2")), "g8xh8#1=DB2(h8-i8-j8)", "not empty")
    illegal(state(board, CRT=crt("DB2")), "g8xh8#1=DB2", "retreats must be written")
    pending = verdict("1. R: g8xh8#1", Position=board, CRT=crt("DB2"))
    assert (pending.status, pending.pending, pending.to_move) == ("ongoing", "choice", "Red")


def test_a_blocked_retreat_eliminates() -> None:
    board = "R:g8,i8,a1 B:h8,y36"
    game = state(board, CRT=crt("DB2"))
    events = act(game, "g8+i8xh8#1=DB2")
    assert "B:y36" in game.position()
    assert any(event.kind == "elimination" for event in events)
    act(state(board, CRT=crt("DB2")), "g8+i8xh8#1=DB2(-h8)")
    illegal(state(board, CRT=crt("DB2")), "g8+i8xh8#1=DB2(h8-h9-h10)", "next to a pawn of the winner")


def test_attackers_retreat_chosen_by_the_defender() -> None:
    game = state("R:g8,a1 B:h8,y36", CRT=crt("AB2"))
    act(game, "g8xh8#2=AB2(g8-f8-e8)")
    assert game.position().startswith("R:a1,e8 ")
    illegal(state("R:g8,a1 B:h8,y36", CRT=crt("AB2")), "g8xh8#2=AB2(g8-h9-h10)", "next to a pawn of the winner")
    pending = verdict("1. R: g8xh8#2", Position="R:g8,a1 B:h8,y36", CRT=crt("AB2"))
    assert (pending.pending, pending.to_move) == ("choice", "Blue")


def test_the_army_destroyed() -> None:
    won = verdict("1. R: g8xh8#4", Position="R:g8 B:h8", CRT=crt("DE"), Result="Red")
    assert (won.status, won.winners, won.reason, won.result_matches) == ("finished", ("Red",), "army-destroyed", True)
    lost = verdict("1. R: g8xh8#4", Position="R:g8 B:h8", CRT=crt("AE"))
    assert lost.winners == ("Blue",)
    both = verdict("1. R: g8xh8#4", Position="R:g8 B:h8", CRT=crt("EX"))
    assert (both.status, both.draw, both.reason) == ("finished", True, "army-destroyed")
    after = verdict("1. R: g8xh8#4 a1-b1", Position="R:g8,a1 B:h8", CRT=crt("DE"))
    assert after.status == "illegal" and "the game ended" in after.error.message
    decided = verdict("", Position="R:g8 B:")
    assert (decided.status, decided.winners) == ("finished", ("Red",))


def test_resign_and_agreed_draw() -> None:
    resigned = verdict("1. R: a1-b1 resign", Position="R:g8,a1 B:h8")
    assert (resigned.winners, resigned.reason) == (("Blue",), "resignation")
    drawn = verdict("1. R: a1-b1", "draw", Position="R:e8,a1 B:y36")
    assert (drawn.draw, drawn.reason) == (True, "agreement")


# -- replacements ---------------------------------------------------------------


def replacement(position: str, step: str) -> Verdict:
    return verdict("1... B:", step, "2. R:", Position=position + " to:B")


def test_one_replacement_with_a_centre_and_a_pawn_beyond() -> None:
    assert replacement("R:k25,a1 B:y36", "R+: g4").status == "ongoing"
    result = replacement("R:k25,a1 B:y36", "R+: g4 s4")
    assert result.status == "illegal" and "both centres" in result.error.message


def test_two_replacements_need_both_centres_and_two_pawns_beyond() -> None:
    assert replacement("R:k25,l25,a1 B:y36", "R+: g4 s4").status == "ongoing"
    held = replacement("R:k25,l25,a1 B:h4,y36", "R+: s4 g4")
    assert held.status == "illegal" and "does not control the centre of g4" in held.error.message


def test_replacement_conditions_refused() -> None:
    cases = {
        "R:k10,a1 B:y36": "a Red pawn on Blue's half",
        "R:k25,a1 B:h4,y36": "does not control",
        "R:k25,g4,a1 B:y36": "occupied",
    }
    for position, fragment in cases.items():
        result = replacement(position, "R+: g4")
        assert result.status == "illegal" and fragment in result.error.message, position
    assert "not one of Red's stars" in replacement("R:k25,a1 B:y36", "R+: g33").error.message
    full = ",".join(f"{f}{r}" for r in (25, 26) for f in "jklmnopqrs")
    assert "no eliminated pawn" in replacement(f"R:{full} B:y36", "R+: g4").error.message
    assert replacement("R:k25,a1 B:h4,y36", "R+: s4").status == "ongoing"


def test_replacement_steps_come_after_the_complete_turn() -> None:
    early = verdict("1. R: a1-b1", "R+: g4", Position="R:k25,a1 B:y36")
    assert early.status == "illegal" and early.error.action is None
    twice = verdict("1... B:", "R+: g4", "R+: s4", Position="R:k25,l25,a1 B:y36 to:B")
    assert twice.status == "illegal" and "already had its replacement step" in twice.error.message
    both = verdict("1... B:", "B+: g33", "R+: g4", "2. R:", Position="R:k25,a1 B:y36,k10 to:B")
    assert both.status == "ongoing"


# -- order of play, positions ---------------------------------------------------


def test_round_numbers_with_a_position_giving_the_second_side() -> None:
    assert verdict("1... B: y36-x36", "2. R: a1-b1", Position="R:a1 B:y36 to:B").status == "ongoing"
    wrong = verdict("1... B: y36-x36", "1. R: a1-b1", Position="R:a1 B:y36 to:B")
    assert wrong.status == "illegal" and "round 2, not round 1" in wrong.error.message
    side = verdict("1. R: a1-b1", "2. R: b1-c1", Position="R:a1 B:y36")
    assert side.status == "illegal" and "Blue's turn" in side.error.message


def test_position_strings_round_trip() -> None:
    text = "R:g4,o7,g12 B:j19,n20 inv:R=1,B=0 to:B"
    game = ENGINE.new_state({"Position": text})
    assert game.position() == text
    assert ENGINE.new_state({"Position": game.position()}).position() == text
    assert ENGINE.new_state({"Position": "R:a1 B:y36"}).position() == "R:a1 B:y36 inv:R=2,B=2 to:R"


@pytest.mark.parametrize(
    "text",
    [
        "R:g20 B:y36",
        "R:a1,a1 B:y36",
        "R:a1 B:a1",
        "R:" + ",".join(f"{f}1" for f in "abcdefghijklmnopqrstu") + " B:y36",
        "R:a1 B:y36 inv:R=3",
        "R:a1 B:y36 to:G",
        "R:a1 B:y36 foo:1",
        "R:z1 B:y36",
        "B:y36",
    ],
)
def test_bad_positions_are_malformed(text: str) -> None:
    with pytest.raises(SetupError):
        ENGINE.new_state({"Position": text})


def test_bad_tags_are_malformed() -> None:
    for tags in ({"First": "Green"}, {"Variant": "giant"}, {"CRT": "DE"}, {"Seed": ""}):
        with pytest.raises(SetupError):
            ENGINE.new_state(tags)


# -- listing legal actions ------------------------------------------------------


def test_every_listed_action_applies() -> None:
    game = state("R:g8,i8,h10,b4,m10,a1 B:h8,h9,y36", Seed="listing")
    listed = game.legal_actions()
    kinds = {type(action) for action in listed}
    assert {Move, Invasion, Battle} <= kinds
    assert Move(("m10", "m30")) in listed
    for action in listed:
        twin = game.copy()
        twin.apply(action)
    assert game.can_end_turn() is False


def test_listed_battles_can_complete_the_turn() -> None:
    game = state("R:g8,i8,h10,a1 B:h8,h9,y36", Seed="complete")
    for _ in range(10):
        battles = [action for action in game.legal_actions() if isinstance(action, Battle)]
        if not battles:
            break
        game.apply(battles[-1])
    assert game.can_end_turn()
    game.end_turn()


def test_replacement_stars_are_listed_in_a_step() -> None:
    game = ENGINE.new_state({"Position": "R:k25,l25,a1 B:y36 to:B"})
    game.begin_turn("Blue")
    game.end_turn()
    assert game.next_turn() == ("Red", True)
    game.begin_turn("Red", True)
    assert [str(action) for action in game.legal_actions()] == ["g4", "s4"]
    with pytest.raises(IllegalTurnError):
        game.end_turn()  # a step places at least one pawn


def test_the_side_to_move_at_the_end_of_a_record() -> None:
    moved = verdict("1. R: a1-b1", Position="R:a1 B:y36")
    assert (moved.to_move, moved.round) == ("Blue", 1)  # Red's turn may end here
    begun = verdict("1. R: a1-b1", "B:", Position="R:a1 B:y36")
    assert (begun.to_move, begun.round) == ("Blue", 1)
    second = verdict("1. R: a1-b1", "B: y36-x36", Position="R:a1 B:y36")
    assert (second.to_move, second.round) == ("Red", 2)


# -- the shipped examples -------------------------------------------------------


def test_examples() -> None:
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "examples"
    found = {}
    for path in [*folder.glob("nieuchess-*.rgn"), *folder.glob("broken/nieuchess-*.rgn")]:
        (result,) = read_source(path.read_bytes())
        found[path.stem.removeprefix("nieuchess-")] = adjudicate(result).verdict
    assert found["finished"].status == "finished" and found["finished"].result_matches
    assert (found["pending-retreat"].status, found["pending-retreat"].pending) == ("ongoing", "choice")
    assert found["wrong-roll"].status == "illegal" and "die of this battle" in found["wrong-roll"].error.message


# -- the verdicts of the amended spec (NOTATION.md §6, nieuchess.md) -------------------


def where(result: Verdict) -> tuple[object, ...]:
    """An illegal verdict's location: line, column, round, side, action."""
    assert result.status == "illegal" and result.error is not None
    error = result.error
    return (error.line, error.column, error.round, error.side, error.action)


def test_a_turn_after_the_end_is_at_its_label_in_the_round_the_turn_order_gives() -> None:
    # Lines: 1 Game, 2 Position (and 3 CRT when given), then a blank line and the turns.
    first_resigns = verdict("1. R: a1-b1 resign", "B: y36-x36", Position="R:a1 B:y36")
    assert where(first_resigns) == (5, 1, 1, "Blue", None)
    assert "the game ended" in first_resigns.error.message
    second_resigns = verdict("1. R: a1-b1", "B: resign", "2. R: b1-c1", Position="R:a1 B:y36")
    assert where(second_resigns) == (6, 4, 2, "Red", None)  # the label after its round number
    from_blue = verdict("1... B: y36-x36 resign", "2. R: a1-b1", Position="R:a1 B:y36 to:B")
    assert where(from_blue) == (5, 4, 2, "Red", None)
    destroyed = verdict("1. R: g8xh8#4", "B: y36-x36", Position="R:g8 B:h8", CRT=crt("DE"))
    assert where(destroyed) == (6, 1, 1, "Blue", None)
    drawn = verdict("1. R: a1-b1", "B: y36-x36", "draw", "2. R: b1-c1", Position="R:a1 B:y36")
    assert where(drawn) == (7, 4, 2, "Red", None)
    setup = " ".join(f"{f}1" for f in "abcdefghijklmnopqrst")
    in_setup = verdict(f"R: setup {setup}", "B: resign", "1. R: a1-a2")
    assert where(in_setup) == (5, 4, 1, "Red", None)
    before_setup = verdict(f"R: setup {setup} resign", "B: resign")
    assert where(before_setup) == (4, 1, None, "Blue", None)


def test_a_choice_left_unwritten_before_draw_or_resign_is_no_error() -> None:
    tags = {"Position": "R:g8,h9,a1 B:h8,y36", "CRT": crt("EX")}
    unwritten = verdict("1. R: g8+h9xh8#2=EX", **tags)
    assert (unwritten.status, unwritten.pending, unwritten.to_move) == ("ongoing", "choice", "Red")
    mid_record = verdict("1. R: g8+h9xh8#2=EX", "B: y36-x36", **tags)
    assert mid_record.status == "illegal" and "losses must be written" in mid_record.error.message
    drawn = verdict("1. R: g8+h9xh8#2=EX", "draw", **tags)
    assert (drawn.status, drawn.draw, drawn.reason) == ("finished", True, "agreement")
    resigned = verdict("1. R: g8+h9xh8#2=EX resign", **tags)
    assert (resigned.status, resigned.winners, resigned.reason) == ("finished", ("Blue",), "resignation")
    after_draw = verdict("1. R: g8+h9xh8#2=EX", "draw", "B: y36-x36", **tags)
    assert where(after_draw) == (7, 1, 1, "Blue", None) and "the game ended" in after_draw.error.message
    after_resign = verdict("1. R: g8+h9xh8#2=EX resign", "B: y36-x36", **tags)
    assert where(after_resign) == (6, 1, 1, "Blue", None)
    roll = verdict("1. R: g8xh8", "draw", "B: y36-x36", Position="R:g8,a1 B:h8,y36")
    assert where(roll) == (6, 1, 1, "Blue", None)  # a roll left unwritten before the draw


def test_with_a_choice_pending_the_side_that_makes_it_is_to_move() -> None:
    board = {"Position": "R:g8,a1 B:h8,y36"}
    for code, chooser in (("DB2", "Red"), ("AB2", "Blue"), ("EX", "Red")):
        two = {"Position": "R:g8,h9,a1 B:h8,y36"} if code == "EX" else board
        result = verdict(f"1. R: {'g8+h9' if code == 'EX' else 'g8'}xh8#3", CRT=crt(code), **two)
        assert (result.status, result.pending, result.to_move) == ("ongoing", "choice", chooser), code
    blue_attacks = verdict("1... B: h8xg8#3", Position="R:g8,a1 B:h8,y36 to:B", CRT=crt("DB2"))
    assert (blue_attacks.pending, blue_attacks.to_move) == ("choice", "Blue")
    blue_loses = verdict("1... B: h8xg8#3", Position="R:g8,a1 B:h8,y36 to:B", CRT=crt("AB2"))
    assert (blue_loses.pending, blue_loses.to_move) == ("choice", "Red")
    roll = verdict("1... B: h8xg8", Position="R:g8,a1 B:h8,y36 to:B", CRT=crt("AB2"))
    assert (roll.pending, roll.to_move) == ("roll", "Blue")


@pytest.mark.parametrize("count", ["²", "٢", "9" * 5000, "0" * 5000 + "3", "-1", "+1", "1.0", ""])
def test_odd_numbers_of_invasions_are_malformed_not_a_crash(count: str) -> None:
    text = f"R:a1 B:y36 inv:R={count}"
    with pytest.raises(SetupError, match="inv:R="):
        ENGINE.new_state({"Position": text})
    result = verdict("", Position=text)
    assert result.status == "malformed" and result.error is not None
    assert len(result.error.message) < 200, "a long token is quoted by its prefix only"


def test_leading_zeros_still_count() -> None:
    assert ENGINE.new_state({"Position": "R:a1 B:y36 inv:R=01"}).position().endswith("inv:R=1,B=2 to:R")


SALTED_DICE = [5, 2, 2, 1, 2, 6, 5, 2, 3, 2, 4, 3, 4, 3, 5, 2, 5, 1, 6, 2]  # RANDOM.md §5
BLUE_SALTED_DICE = [5, 4, 6, 3, 6, 1, 1, 6, 3, 2, 2, 6, 5, 6, 2, 4, 5, 3, 5, 4]


def test_salts_name_the_dice_stream_and_the_seed_hash_commits_to_the_seed_alone() -> None:
    salts = {"RedSalt": "ann-7", "BlueSalt": "bo 42"}
    both = Dice(effective_seed("example", [("Red", "ann-7"), ("Blue", "bo 42")]))
    assert [both.roll() for _ in range(20)] == SALTED_DICE
    committed = {"Seed": "example", "SeedHash": seed_hash("example")}
    # Each battle of a salted record draws the next die of the salted stream.
    board = "R:g8,g10,a1 B:h8,h10,y36"
    written = f"g8xh8#{SALTED_DICE[0]}=DE g10xh10#{SALTED_DICE[1]}=DE"
    result = verdict(f"1. R: {written}", Position=board, CRT=crt("DE"), **committed, **salts)
    assert (result.status, result.rolls_as_given) == ("ongoing", False), result
    reordered = {"BlueSalt": "bo 42", "RedSalt": "ann-7", "First": "Blue"}  # Red's salt first all the same
    swapped = verdict(f"1. R: {written}", Position=board + " to:R", CRT=crt("DE"), **committed, **reordered)
    assert swapped.status == "ongoing", swapped
    unsalted = verdict(f"1. R: {written}", Position=board, CRT=crt("DE"), **committed)
    assert unsalted.status == "illegal" and "die of this battle is 6" in unsalted.error.message
    blue_only = f"1. R: g8xh8#{BLUE_SALTED_DICE[0]}=DE g10xh10#{BLUE_SALTED_DICE[1]}=DE"
    assert verdict(blue_only, Position=board, CRT=crt("DE"), Seed="example", BlueSalt="bo 42").status == "ongoing"
    with pytest.raises(SetupError, match="RedSalt"):
        ENGINE.new_state({"Seed": "example", "RedSalt": ""})


def test_replacement_steps_at_fault_are_in_the_round_of_the_turn_they_follow() -> None:
    position = "R:k25,l25,a1 B:y36"
    twice = verdict("1. R: a1-b1", "B: y36-x36", "R+: g4", "R+: s4", Position=position)
    assert where(twice) == (7, 1, 1, "Red", None) and "already had its replacement step" in twice.error.message
    from_blue = verdict("1... B: y36-x36", "R+: g4", "R+: s4", Position=position + " to:B")
    assert where(from_blue) == (6, 1, 1, "Red", None)
    later = verdict("1. R: a1-b1", "B: y36-x36", "2. R: b1-c1", "B: x36-w36", "R+: g4", "R+: s4", Position=position)
    assert where(later) == (9, 1, 2, "Red", None)
    empty = verdict("1. R: a1-b1", "B: y36-x36", "R+:", "2. R: b1-c1", Position=position)
    assert where(empty) == (6, 1, 1, "Red", None) and "places 1 or 2 pawns" in empty.error.message
    after_the_end = verdict("1. R: a1-b1", "B: y36-x36 resign", "R+: g4", Position=position)
    assert where(after_the_end) == (6, 1, 1, "Red", None) and "the game ended" in after_the_end.error.message
    setup = " ".join(f"{f}1" for f in "abcdefghijklmnopqrst")
    after_setup = verdict(f"R: setup {setup}", f"B: setup {setup.replace('1', '36')}", "R+: g4")
    assert where(after_setup) == (5, 1, 1, "Red", None) and "end of a complete turn" in after_setup.error.message
    # The step itself, written with its round number, and a replay up to round 1 count it in round 1.
    text = record("1. R: a1-b1", "B: y36-x36", "1. R+: g4", "2. R: b1-c1", Position=position)
    (result,) = read_source(text.encode())
    assert adjudicate(result).verdict.status == "ongoing"
    replay = adjudicate(result, cut_at=1).cut
    assert replay is not None and replay.state is not None and "R:b1,g4,k25,l25 " in replay.state.position()


@pytest.mark.parametrize("roll", ["٣", "³", "３"])
def test_a_roll_is_an_ascii_digit(roll: str) -> None:
    result = verdict(f"1. R: g8xh8#{roll}", Position="R:g8,a1 B:h8,y36")
    assert result.status == "malformed", result


def test_a_draw_after_the_end_carries_the_round_and_side_of_its_turn() -> None:
    resigned = verdict("1. R: a1-b1", "B: resign", "draw", Position="R:a1 B:y36")
    assert where(resigned) == (6, 1, 1, "Blue", "draw") and "already ended" in resigned.error.message
    destroyed = verdict("1. R: g8xh8#4", "draw", Position="R:g8 B:h8", CRT=crt("DE"))
    assert where(destroyed) == (6, 1, 1, "Red", "draw")
    decided = verdict("draw", Position="R:g8 B:")  # before any turn: the turn that was due
    assert where(decided) == (4, 1, 1, "Red", "draw")


@pytest.mark.parametrize(
    "turn",
    [
        "R: " + RED_SETUP.replace("j2", "l120"),
        "1. R: a1-l120",
        "1. R: a2-a3-l120",
        "1. R: a1xl120",
        "1. R: a1>l120",
        "1. R: a2-a3 1. B: a35-a34 R+: l120",
    ],
)
def test_a_hex_with_a_three_digit_rank_is_off_the_map_not_malformed(turn: str) -> None:
    """nieuchess.md: a hex off the map in an action is illegal, whatever its rank's digits."""
    from referee.judge import session
    from referee.notation.record_splitter import split

    turns = [turn] if turn.startswith("R: setup") else [f"R: {RED_SETUP}", f"B: {BLUE_SETUP}", turn]
    data = record(*turns, Seed="s").encode()
    for found in (verdict(*turns, Seed="s"), session.check_raw(split(data)[0], "t.rgn", 1, False)):
        assert found.status == "illegal", found
        assert found.error is not None and "l120 is off the map" in found.error.message
