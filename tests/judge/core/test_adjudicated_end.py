"""The `adjudicated` termination and its `{[%adjudicated RULE RESULT]}` (LEAGUE.md §6):
check recomputes draw and score, takes gm as given, and calls illegal what the rule does
not give."""

from __future__ import annotations

import pytest

from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.core.verdicts import Status


def verdict(text: str):  # type: ignore[no-untyped-def]
    return adjudicate(read_source(text.encode())[0]).verdict


PIKEMEN_3 = '[Game "pikemen"]\n[Players "3"]\n\n1. R: f3(N)\n'


@pytest.mark.parametrize(
    ("decision", "winners", "draw"),
    [("draw draw", [], True), ("score draw", [], True), ("gm Blue", ["Blue"], False), ("GM red", ["Red"], False)],
)
def test_a_decision_its_rule_gives_the_game_to_its_winners(decision: str, winners: list[str], draw: bool) -> None:
    found = verdict(PIKEMEN_3 + f"adjudicated {{[%adjudicated {decision}]}}\n")
    assert found.status == Status.FINISHED
    assert found.outcome is not None and found.outcome.reason == "adjudication"
    assert list(found.outcome.winners) == winners and found.outcome.draw is draw


@pytest.mark.parametrize(
    ("decision", "message"),
    [
        ("draw Red", "adjudication by draw gives a draw, not Red"),
        ("score Red", "adjudication by score gives a draw (Red 0, Yellow 0, Blue 0), not Red"),
        ("gm Green", "names no side of pikemen"),
        ("gm Red+Yellow+Blue", "names every side still in the game: that is a draw"),
        ("gm", "takes a rule"),
        ("fate Red", "unknown rule"),
    ],
)
def test_a_decision_its_rule_does_not_give_is_illegal_at_its_brace(decision: str, message: str) -> None:
    found = verdict(PIKEMEN_3 + f"adjudicated {{[%adjudicated {decision}]}}\n")
    assert found.status == Status.ILLEGAL
    assert found.error is not None and message in found.error.message
    assert (found.error.line, found.error.column) == (5, 13)


def test_score_ranks_the_sides_still_in_the_game() -> None:
    from referee.games import registry

    state = registry.engine("pikemen").new_state({"Players": "3"})
    state.scores[:] = [2, 5, 1]
    from referee.judge.core.adjudicated_end import Rule, by_rule

    assert state.sides == ("Red", "Yellow", "Blue")
    assert by_rule(state, Rule.SCORE) == ("Yellow",)
    state.counts[1] = 0  # Yellow has left the game: its score no longer counts
    assert by_rule(state, Rule.SCORE) == ("Red",)
    state.scores[:] = [3, 0, 3]
    assert by_rule(state, Rule.SCORE) == ()


def test_score_in_a_game_without_a_score_is_illegal() -> None:
    found = verdict('[Game "nika"]\n\n1. W: d1-W\nadjudicated {[%adjudicated score draw]}\n')
    assert found.status == Status.ILLEGAL and found.error is not None
    assert "nika keeps no score" in found.error.message


def test_adjudicated_needs_its_command_and_nothing_may_follow() -> None:
    found = verdict(PIKEMEN_3 + "adjudicated { a note }\n")
    assert found.status == Status.ILLEGAL and found.error is not None
    assert "no {[%adjudicated RULE RESULT]}" in found.error.message and found.error.column == 1
    after = verdict(PIKEMEN_3 + "adjudicated {[%adjudicated draw draw]}\nY: f8(S)\n")
    assert after.status == Status.ILLEGAL and after.error is not None
    assert "the game ended" in after.error.message


def test_the_result_tag_is_compared_with_the_decision() -> None:
    text = '[Game "pikemen"]\n[Result "draw"]\n\n1. R: d1(N)\nadjudicated {[%adjudicated draw draw]}\n'
    assert verdict(text).result_matches is True
    assert verdict(text.replace('"draw"]', '"Red"]', 1)).result_matches is False


def test_a_timed_record_takes_the_stamp_after_the_decision() -> None:
    text = (
        '[Game "pikemen"]\n[TimeControl "7d+0d"]\n[Start "2026-12-01T00:00:00Z"]\n\n'
        "1. R: d1(N) {[%at 2026-12-02T00:00:00Z Red]}\n"
        "adjudicated {[%adjudicated gm Red]} {[%at 2026-12-20T00:00:00Z Blue]}\n"
    )
    found = verdict(text)
    assert found.status == Status.FINISHED and found.outcome is not None
    assert found.outcome.winners == ("Red",) and found.outcome.reason == "adjudication"
