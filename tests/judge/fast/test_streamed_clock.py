"""Timed records on the streamed path (`referee.judge.fast.streamed_clock` beside `referee.judge.fast.streamed_verdict`,
issue 34 "Memory"): the same verdicts, clocks, turn tokens and command outputs as the full
record model gives, on records of every game with stamps, grants, timeouts, late
submissions, entries out of order and entries that cannot be read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.judge.core.verdicts import Status
from referee.judge.fast.streamed_verdict import lean_verdict
from referee.notation.record_splitter import split
from tests.helpers.timed import GAPS, IN_TIME, timed
from tests.judge.fast import test_streamed_replay, test_streamed_verdict
from tests.judge.fast.test_fused_check import PLAYOUT_KEYS, _mutated, playout


def _records(seed: int, odd: float) -> list[bytes]:
    """Seed 0: every game played in time; the others with late submissions too."""
    rng = random.Random(seed)
    return [timed(playout(*key), rng, odd, IN_TIME if seed == 0 else GAPS) for key in PLAYOUT_KEYS]


@pytest.mark.parametrize("seed", range(4))
def test_timed_playouts_are_judged_as_the_full_path_judges_them(seed: int) -> None:
    records = _records(seed, odd=0.02 * seed)
    judged = sum(test_streamed_verdict.assert_same(data) for data in records)
    assert judged == 2 * len(records)  # every one on the streamed path, plain and annotated


def test_the_timed_records_reach_every_verdict_and_carry_a_clock() -> None:
    statuses, clocks = set(), 0
    for seed in range(4):
        for data in _records(seed, odd=0.02 * seed):
            ((_, raw),) = enumerate(split(data), start=1)
            verdict = lean_verdict(raw, "t.rgn", 1)
            assert verdict is not None
            statuses.add(verdict.status)
            clocks += verdict.clock is not None
    assert {Status.FINISHED, Status.ONGOING, Status.ILLEGAL, Status.MALFORMED} <= statuses
    assert clocks > 10


@pytest.mark.parametrize("seed", range(3))
def test_mutated_timed_records_are_judged_as_the_full_path_judges_them(seed: int) -> None:
    rng = random.Random(100 + seed)
    for key in PLAYOUT_KEYS:
        test_streamed_verdict.assert_same(_mutated(rng, timed(playout(*key), rng, odd=0.05)))


@pytest.mark.parametrize("seed", range(2))
def test_the_streamed_commands_agree_on_timed_records(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for data in _records(10 + seed, odd=0.03):
        test_streamed_replay.assert_same(data, tmp_path, monkeypatch)


@pytest.mark.parametrize(
    "ending",
    [
        "timeout {[%at 2026-12-20T12:00:00Z B]}",  # in time: illegal at the word
        "timeout {[%at 2027-03-01T12:00:00Z B]}",  # after the deadline: finished
        "timeout {note} {[%at 2027-03-01T12:00:00Z B]}",  # comments between: the stamp still closes it
        "timeout",  # no stamp: illegal
        "timeout R: e1-c2",  # no stamp before the next turn
        "timeout {[%grant B 1d]} {[%at 2027-03-01T12:00:00Z B]}",  # a grant first: no stamp closes it
    ],
)
def test_a_timeout_looks_ahead_for_its_stamp_as_the_full_path(ending: str) -> None:
    data = (
        '[Game "numica"]\n[Seed "42"]\n[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
        "R: SSOOSOSO {[%at 2026-12-01T13:00:00Z R]}\nB: OOSSSOOS {[%at 2026-12-01T14:00:00Z B]}\n"
        "R: e1-c2 {[%at 2026-12-01T15:00:00Z R]}\n" + ending + "\n"
    ).encode()
    assert test_streamed_verdict.assert_same(data) == 2
