"""The open-ended rule, once for every path (`referee.judge.drive`): which actions may leave
a choice or a roll unwritten, on the neutral sequence of kinds every reader produces."""

from __future__ import annotations

import pytest

from referee.judge.drive import action_places, open_ended

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
