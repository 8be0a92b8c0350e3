"""The open-ended rule, once for every path (`referee.judge.core.replay_loop`): which actions may leave
a choice or a roll unwritten, on the neutral sequence of kinds every reader produces."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import registry
from referee.games.api import RuleError
from referee.games.numica.actions import Setup
from referee.judge.core.replay_loop import Broken, Phase, action_places, drive, open_ended
from referee.notation.quick import Label

# T: a label, a: an action, r: resign, e: draw or timeout
CASES = [
    (b"", set()),
    (b"Ta", {1}),  # the last action of the last turn
    (b"Taa", {2}),
    (b"TaaTa", {4}),  # an earlier turn's last action is not last
    (b"TaT", set()),  # a label after it, even with no action
    (b"TaTr", set()),  # a resign alone in its turn
    (b"Tar", {1}),  # the action before a resign in its turn
    (b"Tarr", {1, 2}),
    (b"Taee", {1}),  # before a draw, after draws
    (b"TaTe", set()),  # a draw after an empty turn
    (b"eTa", {2}),
    (b"TarrTae", {1, 2, 5}),
    (b"TaTaTr", set()),
]


@pytest.mark.parametrize(("kinds", "expected"), CASES)
def test_the_open_ended_rule(kinds: bytes, expected: set[int]) -> None:
    assert open_ended(kinds) == expected


def test_places_counted_among_the_actions() -> None:
    assert action_places(b"TaTaeTa", {3, 6}) == {1, 2}
    assert action_places(b"TarrTae", open_ended(b"TarrTae")) == {0, 1, 3}


class _Watch:
    """A watch that changes nothing: the loop then ends each turn with its own call."""

    def watching(self, begin_turn: Any, apply: Any, agree_draw: Any) -> tuple[Any, Any, Any]:
        return begin_turn, apply, agree_draw


@pytest.mark.parametrize("fast", [False, True], ids=["drive", "play_steps"])
def test_a_broken_rule_is_placed_and_worded_alike_on_both_loops(fast: bool) -> None:
    """The watched loop (`drive`) says where a rule broke: a turn that may not end is told
    from a turn that may not begin. The fused check's loop (`GameState.play_steps`, which
    ends the turn before a label in the same call as it begins the next) raises the same
    error, without the place."""
    engine = registry.engine("numica")

    def broken(steps: list[object]) -> tuple[int, Phase, str]:
        state = engine.new_state({"Game": "numica", "Seed": "drive"})
        with pytest.raises(Broken) as caught:
            drive(steps, state, set(), _Watch())
        assert caught.value.error is not None
        found = caught.value.at, caught.value.phase, caught.value.error.message
        if fast:  # the same error from the fused check's loop
            with pytest.raises(RuleError) as error:
                engine.new_state({"Game": "numica", "Seed": "drive"}).play_steps(steps, set())
            assert str(error.value) == found[2]
        return found

    red, blue = Label("Red", False, None), Label("Blue", False, None)
    setup = Setup("SSSSOOOO")
    at, phase, message = broken([red, setup, blue, red])  # Blue's turn holds no action
    assert (at, phase) == (
        3,
        Phase.ENDING,
    ) and message == "Blue's turn ended after no action: a Numica turn holds exactly one action"
    at, phase, message = broken([red, setup, red])  # the turn before ends, the next is not Red's
    assert (at, phase, message) == (2, Phase.BEGINNING, "it is Blue's turn, not Red's")
    at, phase, message = broken([red, setup, blue, setup, Label("Red", False, 2)])
    assert (at, phase) == (4, Phase.BEGINNING) and "round" in message
    assert (
        drive(
            [red, setup, blue, setup, Label("Red", False, 1)],
            engine.new_state({"Game": "numica", "Seed": "d"}),
            set(),
            _Watch(),
        )
        == 3
    )
