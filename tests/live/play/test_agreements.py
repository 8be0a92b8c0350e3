"""Agreements (PLAY.md §6): draw and undo offers recorded as `[%offer ...]` comment
commands, a draw or an undo only when every player's offer stands, the undone turn kept
as a comment, and the game master's `play` without `--as` as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.errors import UsageError
from referee.games import registry
from referee.judge.core.adjudicate import read_source
from referee.live.play.agreement import split_request
from referee.live.play.offers import Offer, OfferKind, addresses, offers_in, players, standing
from referee.notation.model import Comment, Record, Span
from tests.helpers.cli import invoke
from tests.helpers.play import play

NIKA = (
    '[Game "nika"]\n[Players "4"]\n[Athens "Ann <ann@example.org>"]\n[Sparta "Bo <bo@example.org>"]\n'
    '[Messene "Ann <ANN@Example.org>"]\n[Thebes "di@example.org"]\n\n'
)
"""Ann holds Athens and Messene (one player, whatever the case of her address)."""
NIKA_NO_ADDRESSES = '[Game "nika"]\n[Athens "Ann"]\n\n'
PIKEMEN_3 = (
    '[Game "pikemen"]\n[Players "3"]\n[Red "ann@example.org"]\n[Yellow "Bo <bo@example.org>"]\n'
    '[Blue "Cy <cy@example.org>"]\n\n'
)
NIEUCHESS = '[Game "nieuchess"]\n[Position "R:j20,k21,a1 B:j21,x30 to:R"]\n\n'


def game(tmp_path: Path, text: str, name: str = "game.rgn") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def check(path: Path) -> dict[str, object]:
    done = invoke("check", "--json", str(path))
    verdict: dict[str, object] = json.loads(done.stdout.splitlines()[0])
    return verdict


def move_text(path: Path) -> str:
    return path.read_text().partition("\n\n")[2]


# -- offers in the record -------------------------------------------------------------


def test_offers_are_read_in_any_label_form_one_or_more_per_comment() -> None:
    nika = registry.GAMES["nika"]
    one = Comment("[%offer draw r]", Span(1, 1))
    two = Comment(" [%offer UNDO sparta] [%at 2026-12-01T12:00:00Z W]  [%offer draw Thebes]", Span(1, 1))
    assert offers_in(one, nika) == (Offer(OfferKind.DRAW, "Sparta"),)
    assert offers_in(two, nika) == (Offer(OfferKind.UNDO, "Sparta"), Offer(OfferKind.DRAW, "Thebes"))


@pytest.mark.parametrize(
    "text",
    [
        "[%offer resign Red]",  # another kind: an ordinary comment
        "[%offer draw Purple]",  # no side of the game
        "[%offer draw]",
        "[%offer draw Red Blue]",
        "[%offer draw Red] please",  # not wholly commands
        "offer draw Red",
        "[%clk 0:03]",
    ],
)
def test_anything_else_records_no_offer(text: str) -> None:
    assert offers_in(Comment(text, Span(1, 1)), registry.GAMES["nika"]) == ()
    assert offers_in(Comment("[%offer draw Red]", Span(1, 1), braced=False), registry.GAMES["nika"]) == ()


def test_a_side_tag_names_its_player_by_address_in_lower_case() -> None:
    assert addresses("Ann <Ann@Example.org>") == ("ann@example.org",)
    assert addresses("ann@example.org") == ("ann@example.org",)
    assert addresses("Ann") == ()
    assert addresses("Ann <ann@example.org>, Bo <bo@example.org>") == ("ann@example.org", "bo@example.org")


def test_sides_sharing_an_address_are_one_player_also_in_a_team_tag(tmp_path: Path) -> None:
    tags = (
        '[Game "nika"]\n[Athens "Ann <ann@example.org>, Bo <bo@example.org>"]\n[Sparta "BO@example.org"]\n'
        '[Messene "Cy"]\n\n'
    )
    [record] = read_source(tags.encode())
    assert isinstance(record, Record)
    state = registry.engine("nika").new_state(record.tag_map)
    found = players(record, registry.GAMES["nika"], state)
    assert [player.sides for player in found] == [("Athens", "Sparta"), ("Messene",), ("Thebes",)]
    assert found[0].addresses == ("ann@example.org", "bo@example.org") and found[1].addresses == ()


def test_offers_never_make_a_record_illegal_and_check_accepts_a_draw_without_offers(tmp_path: Path) -> None:
    odd = game(
        tmp_path,
        NIKA + "1. W: d1-W {[%offer draw Purple]} d2-W {[%offer draw]} {[%offer resign W]}\n"
        "R: {[%offer undo Sparta] [%offer draw W]} a4-S a3-S {[%offer draw Red] nice}\n",
    )
    assert check(odd)["status"] == "ongoing"
    drawn = game(tmp_path, NIKA + "1. W: d1-W d2-W\ndraw\n", "drawn.rgn")
    verdict = check(drawn)
    assert verdict["status"] == "finished" and verdict["reason"] == "agreement"
    offered_out_of_turn = game(tmp_path, NIKA + "{[%offer undo K]}\n1. W: d1-W d2-W\n", "early.rgn")
    assert check(offered_out_of_turn)["status"] == "ongoing"


def test_an_offer_stands_until_the_next_action_and_a_stamp_grant_or_offer_does_not_end_it() -> None:
    [record] = read_source(
        (
            NIKA + "1. W: d1-W {[%offer draw Sparta]} d2-W {[%offer draw Thebes]}\n"
            "{[%at 2026-12-01T12:00:00Z Sparta]} {[%grant Sparta 1d]} {[%offer undo Messene]}\n"
        ).encode()
    )
    assert isinstance(record, Record)
    offers = standing(record, registry.GAMES["nika"])
    assert offers == (Offer(OfferKind.DRAW, "Thebes"), Offer(OfferKind.UNDO, "Messene"))


# -- who may offer, and the draw ------------------------------------------------------


def test_one_side_saying_draw_is_an_offer_not_the_end_of_a_four_player_game(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "d1-W d2-W")
    offered = play(path, "draw", as_side="Sparta")
    assert offered.exit_code == 0 and offered.written and offered.agreement == "draw-offered"
    assert offered.verdict["status"] == "ongoing" and offered.verdict["to_move"] == "Sparta"
    assert move_text(path) == "1. W: d1-W d2-W {[%offer draw Sparta]}\n"
    assert '[Result "*"]' in path.read_text()
    assert "Sparta offers a draw; still to agree: Athens/Messene, Thebes" in offered.events


def test_an_offer_is_accepted_whoever_is_to_move_and_every_player_must_agree(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "d1-W d2-W")
    assert play(path, "draw", as_side="Thebes").verdict["to_move"] == "Sparta"  # Thebes is not to move
    assert play(path, "draw", as_side="b").agreement == "draw-offered"  # Ann, by her second city (Messene)
    again = play(path, "draw", as_side="Athens")  # Ann's offer already stands: still Sparta's is missing
    assert again.exit_code == 0 and again.agreement == "draw-offered"
    assert again.events == ["Athens offers a draw; still to agree: Sparta (Athens/Messene's offer already stood)"]
    agreed = play(path, "draw", as_side="Sparta")
    assert agreed.exit_code == 0 and agreed.agreement == "drawn"
    assert agreed.verdict["status"] == "finished" and agreed.verdict["reason"] == "agreement"
    # The draw is written instead of the last offer, after the others' offers, which stay.
    offers = "{[%offer draw Thebes]} {[%offer draw Messene]} {[%offer draw Athens]}"
    assert move_text(path) == f"1. W: d1-W d2-W {offers}\ndraw\n"
    assert '[Result "draw"]' in path.read_text()
    verdict = check(path)
    assert verdict["status"] == "finished" and verdict["reason"] == "agreement" and verdict["result_matches"]
    assert play(path, "draw", as_side="Sparta").exit_code == 1  # the game is over


def test_a_move_declines_the_offers_that_stand(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "draw", as_side="Athens")
    play(path, "draw", as_side="Sparta")
    play(path, "d1-W d2-W")  # Athens moves: the offers end
    renewed = play(path, "draw", as_side="Thebes")
    assert renewed.agreement == "draw-offered" and "still to agree: Athens/Messene, Sparta" in renewed.events[0]
    moved = play(path, "a4-S a3-S draw", as_side="Sparta")  # Sparta's move ends every offer, its own too
    assert moved.agreement == "draw-offered" and "still to agree: Athens/Messene, Thebes" in moved.events[0]


def test_moves_and_then_draw_are_the_moves_and_an_offer(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    result = play(path, "d1-W d2-W draw", as_side="Athens")
    assert result.exit_code == 0 and result.agreement == "draw-offered"
    assert move_text(path) == "1. W: d1-W d2-W {[%offer draw Athens]}\n"
    assert play(path, "a4-S a3-S draw", as_side="Thebes").error == "Sparta is to move, not Thebes"
    assert play(path, "a4-S zz draw", as_side="Sparta").exit_code == 1
    assert move_text(path) == "1. W: d1-W d2-W {[%offer draw Athens]}\n"  # all or nothing


def test_moves_and_an_offer_are_refused_whole_with_the_board_as_it_stands(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN_3)
    before = path.read_text()
    refused = play(path, "resign draw", as_side="Red")  # Red leaves the game: it can offer nothing
    assert refused.exit_code == 1 and not refused.written and "Red has left the game" in (refused.error or "")
    assert refused.verdict["to_move"] == "Red" and refused.next.startswith("Red to move")
    assert path.read_text() == before


def test_a_label_before_the_word_is_the_offering_sides_turn_not_yet_begun(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    assert play(path, "R: draw", as_side="Sparta").agreement == "draw-offered"  # Athens is to move
    assert play(path, "{ tired } Thebes: draw", as_side="k").agreement == "draw-offered"
    assert move_text(path) == "{[%offer draw Sparta]}\n{[%offer draw Thebes]}\n"
    wrong = play(path, "W: draw", as_side="Sparta")
    assert wrong.exit_code == 1 and wrong.error == "Athens is to move, not Sparta"
    assert play(path, "W: undo").exit_code == 1  # the game master's undo: nothing to take back


def test_a_side_with_no_address_is_a_player_of_its_own(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA_NO_ADDRESSES)
    for side in ("Athens", "Sparta", "Messene"):
        assert play(path, "draw", as_side=side).agreement == "draw-offered"
    assert play(path, "draw", as_side="Thebes").agreement == "drawn"


def test_sides_that_have_left_are_no_longer_players(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN_3 + "1. R: resign\n")  # Red's pieces leave the game
    left = play(path, "draw", as_side="Red")
    assert left.exit_code == 1 and "Red has left the game" in (left.error or "")
    assert play(path, "draw", as_side="Blue").agreement == "draw-offered"
    assert play(path, "draw", as_side="Yellow").verdict["reason"] == "agreement"


def test_a_roll_written_onto_a_battle_declared_before_the_offer_does_not_end_it(tmp_path: Path) -> None:
    path = game(tmp_path, NIEUCHESS)
    play(path, "j20+k21xj21")
    play(path, "draw", as_side="Blue")
    play(path, "#2", as_side="Red")
    assert move_text(path) == "1. R: j20+k21xj21#2=DB2 {[%offer draw Blue]}\n"
    assert play(path, "draw", as_side="Red").agreement == "drawn"


def test_the_game_masters_draw_ends_the_game_at_once_as_before(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "d1-W d2-W")
    done = play(path, "draw")
    assert done.exit_code == 0 and done.verdict["reason"] == "agreement" and done.agreement is None
    assert move_text(path) == "1. W: d1-W d2-W\nR:\ndraw\n"  # Sparta's label implied, as before


def test_the_request_word_is_the_last_word_outside_comments() -> None:
    assert split_request("draw") == (None, OfferKind.DRAW)
    assert split_request("  UNDO \n") == (None, OfferKind.UNDO)
    assert split_request("d1-W d2-W\ndraw") == ("d1-W d2-W", OfferKind.DRAW)
    assert split_request("d1-W {shall we draw}") == ("d1-W {shall we draw}", None)
    assert split_request("d1-W ; or draw") == ("d1-W ; or draw", None)
    assert split_request("d1-Wdraw") == ("d1-Wdraw", None)


# -- undo -----------------------------------------------------------------------------


def test_undo_by_every_player_takes_the_last_turn_back_as_a_comment(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "d1-W d2-W!? { the west flank } R: a4-S { then } a3-S?")
    assert play(path, "draw", as_side="Thebes").agreement == "draw-offered"
    assert play(path, "undo", as_side="Sparta").agreement == "undo-offered"
    assert play(path, "undo", as_side="Thebes").agreement == "undo-offered"
    done = play(path, "undo", as_side="Athens")
    assert done.exit_code == 0 and done.agreement == "undone"
    assert done.verdict["to_move"] == "Sparta" and done.verdict["status"] == "ongoing"
    # Glyphs and inner comments dropped; every standing offer (the draw too) ends.
    assert move_text(path) == "1. W: d1-W d2-W!? { the west flank } {undone by agreement: R: a4-S a3-S}\n"
    assert check(path)["status"] == "ongoing"
    assert play(path, "undo", as_side="Sparta").agreement == "undo-offered"  # a fresh start: nothing stands


def test_offers_standing_before_the_undone_turn_end_with_it(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "d1-W d2-W")
    play(path, "draw", as_side="Athens")  # stands, then ended by Sparta's move
    play(path, "a4-S a3-S")
    for side in ("Sparta", "Thebes", "Messene"):
        play(path, "undo", as_side=side)
    assert move_text(path) == "1. W: d1-W d2-W {undone by agreement: R: a4-S a3-S}\n"
    assert play(path, "draw", as_side="Sparta").events[0].endswith("still to agree: Athens/Messene, Thebes")


def test_an_open_turn_is_taken_back_with_its_actions_so_far(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA_NO_ADDRESSES)
    play(path, "d1-W")
    for side in ("Athens", "Sparta", "Messene", "Thebes"):
        result = play(path, "undo", as_side=side)
    assert result.agreement == "undone" and result.verdict["to_move"] == "Athens"
    assert move_text(path) == "{undone by agreement: 1. W: d1-W}\n"


def test_stamps_and_grants_in_or_after_the_undone_turn_stay_after_the_comment(tmp_path: Path) -> None:
    path = game(
        tmp_path,
        NIKA_NO_ADDRESSES + "1. W: d1-W d2-W\nR: a4-S {[%at 2026-12-01T12:00:00Z Sparta]} a3-S "
        "{[%grant Sparta 1d] [%offer undo Athens]} {[%at 2026-12-02T09:00:00Z Thebes]}\n",
    )
    for side in ("Sparta", "Messene", "Thebes"):
        play(path, "undo", as_side=side)
    assert move_text(path) == (
        "1. W: d1-W d2-W {undone by agreement: R: a4-S a3-S} {[%at 2026-12-01T12:00:00Z Sparta]} "
        "{[%grant Sparta 1d]} {[%at 2026-12-02T09:00:00Z Thebes]}\n"
    )


def test_an_earlier_undo_stays_in_the_record_when_the_turn_before_it_is_undone(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA_NO_ADDRESSES + "1. W: d1-W d2-W\nR: a4-S a3-S\n")
    assert play(path, "undo").agreement == "undone"
    assert play(path, "undo").agreement == "undone"
    assert move_text(path) == (
        "{undone by the game master: 1. W: d1-W d2-W}\n{undone by the game master: R: a4-S a3-S}\n"
    )
    nothing = play(path, "undo")
    assert nothing.exit_code == 1 and "nothing to take back" in (nothing.error or "")


def test_the_game_masters_undo_takes_the_turn_back_at_once(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    play(path, "d1-W d2-W R: a4-S a3-S")
    done = invoke("play", str(path), "undo")
    assert done.exit_code == 0, done.stdout
    assert "the last turn is taken back: R: a4-S a3-S" in done.stdout
    # no player agreed: the comment says who took it back (docs/play.md)
    assert move_text(path).endswith("{undone by the game master: R: a4-S a3-S}\n")


def test_undo_is_refused_past_a_roll_or_a_battle_result(tmp_path: Path) -> None:
    path = game(tmp_path, NIEUCHESS)
    play(path, "j20+k21xj21#2=DB2(j21-i22-i23)")
    before = path.read_text()
    refused = play(path, "undo")  # the game master's
    assert refused.exit_code == 1 and not refused.written
    assert "holds a roll or a battle result" in (refused.error or "")
    assert path.read_text() == before
    # An offer is accepted whoever makes it (and says that the undo will be refused) ...
    offered = play(path, "undo", as_side="Blue")
    assert offered.exit_code == 0 and offered.agreement == "undo-offered"
    warning = "but it will be refused: the last turn (1. R: j20+k21xj21#2=DB2(j21-i22-i23)) holds a roll"
    assert warning in offered.events[0]
    # ... but the agreement it would complete is refused, and nothing is written.
    offered_text = path.read_text()
    refused = play(path, "undo", as_side="Red")
    assert refused.exit_code == 1 and not refused.written and "holds a roll or a battle result" in (refused.error or "")
    assert path.read_text() == offered_text


def test_a_roll_drawn_from_a_public_seed_is_seen_too(tmp_path: Path) -> None:
    path = game(tmp_path, NIEUCHESS.replace("[Position", '[Seed "abc"]\n[Position'))
    play(path, "j20+k21xj21")  # the seed draws the die at once
    refused = play(path, "undo")
    assert refused.exit_code == 1 and "1. R: j20+k21xj21#4=DB2" in (refused.error or "")


def test_a_declared_battle_awaiting_its_roll_may_be_taken_back(tmp_path: Path) -> None:
    path = game(tmp_path, NIEUCHESS)
    play(path, "j20+k21xj21")
    done = play(path, "undo")
    assert done.exit_code == 0 and move_text(path) == "{undone by the game master: 1. R: j20+k21xj21}\n"


def test_undo_is_refused_when_the_game_is_over_and_nothing_is_written(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA + "1. W: d1-W d2-W\ndraw\n")
    before = path.read_text()
    for options in ({}, {"as_side": "Sparta"}):
        refused = play(path, "undo", **options)
        assert refused.exit_code == 1 and "the game is over" in (refused.error or "")
    assert path.read_text() == before
    done = invoke("play", str(path), "undo", "--as", "Sparta")
    assert done.exit_code == 1


def test_a_salt_is_not_given_with_an_offer_alone(tmp_path: Path) -> None:
    path = game(tmp_path, NIEUCHESS.replace("[Position", f'[SeedHash "sha256:{"0" * 64}"]\n[Position'))
    for moves in ("draw", "R: draw"):
        with pytest.raises(UsageError, match="--salt is written with moves or alone"):
            play(path, moves, as_side="Red", salts=[("Red", "ann-7")])
    assert "Salt" not in path.read_text()


def test_undo_is_sent_alone(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    refused = play(path, "d1-W d2-W undo", as_side="Athens")
    assert refused.exit_code == 1 and "undo is sent alone" in (refused.error or "")
    assert move_text(path) == ""


def test_offers_honour_expect_dry_run_and_json(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA)
    stale = play(path, "draw", as_side="Sparta", expect="0-0000000000")
    assert stale.exit_code == 1 and "the board has changed" in (stale.error or "")
    dry = play(path, "draw", as_side="Sparta", dry_run=True)
    assert dry.exit_code == 0 and not dry.written and move_text(path) == ""
    done = invoke("play", str(path), "draw", "--as", "Sparta", "--json", "--expect", str(dry.token))
    assert done.exit_code == 1  # the token names the state the dry run would have made, not this one
    token = check(path)["token"]
    done = invoke("play", str(path), "draw", "--as", "Sparta", "--json", "--expect", str(token))
    data = json.loads(done.stdout)
    assert done.exit_code == 0 and data["agreement"] == "draw-offered" and data["written"] is True
    assert data["token"] == check(path)["token"]
