"""Issue 19, items 1 and 2: where a Nieuchess battle's missing choice is reported, a
`Result` that names no side, and `to:` of a finished game's position string
(NOTATION.md §6, §9)."""

from __future__ import annotations

import pytest

from notation.stream import split
from referee import session
from referee.fused import quick_verdict
from referee.verdicts import Status, Verdict

BATTLE = '[Game "nieuchess"]\n[Seed "x"]\n[Position "R:m10 B:m13 to:R"]\n\n1. R: m10-m12 m12xm13\n'


def verdicts(text: str) -> tuple[Verdict, Verdict | None]:
    """The detailed verdict of the one record in `text`, and the fused path's (or None)."""
    (raw,) = split(text.encode("utf-8"))
    detailed = session.check_raw(raw, "t.rgn", 1, annotate=True)
    return detailed, quick_verdict(raw, "t.rgn", 1)


@pytest.mark.parametrize("after", ["B: resign\n", "B: draw\n", "B:\n", "B: { thinking }\n"])
def test_a_battle_missing_its_retreat_is_illegal_at_the_battle_when_a_bare_label_follows(after: str) -> None:
    detailed, fused = verdicts(BATTLE + after)
    assert fused is None  # an illegal record: the detailed path words it
    assert detailed.status == Status.ILLEGAL
    error = detailed.error
    assert error is not None
    assert (error.line, error.column, error.round, error.side, error.action) == (5, 15, 1, "Red", "m12xm13")
    assert "retreats must be written" in error.message
    assert "unfought" not in error.message


def test_the_same_battle_followed_by_a_move_is_reported_alike() -> None:
    detailed, _ = verdicts(BATTLE + "B: m13-m15\n")
    assert detailed.error is not None
    assert (detailed.error.line, detailed.error.column, detailed.error.action) == (5, 15, "m12xm13")


@pytest.mark.parametrize(
    ("after", "status"),
    [("", Status.ONGOING), ("draw\n", Status.FINISHED), ("resign\n", Status.FINISHED)],
)
def test_a_battle_missing_its_retreat_stays_pending_at_the_end_or_before_draw_or_resign(
    after: str, status: Status
) -> None:
    detailed, fused = verdicts(BATTLE.rstrip("\n") + " " + after)
    assert detailed.status == status
    assert fused == detailed._replace(token=None, suggestions=())
