"""The detailed verdict read as a stream (`referee.judge.fast.streamed_verdict`, issue 19 item 11): the same
verdicts, turn tokens and suggestions as the full record model, at a memory cost bounded
by a small multiple of the record's size whatever path judges it."""

from __future__ import annotations

import gc
import random
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.judge import session
from referee.judge.core.adjudicate import dialect_for
from referee.judge.core.verdicts import Verdict
from referee.judge.fast.streamed_verdict import lean_verdict
from referee.judge.sources.record_sources import Read
from referee.notation.reader import read_raw
from referee.notation.record_splitter import RawRecord, split
from tests.helpers.fuzzing import mutate
from tests.helpers.sweep import cases
from tests.judge.fast.test_fused_check import PLAYOUT_KEYS, _mutated, conformance_judged, over_playouts, playout


def full(raw: RawRecord, number: int, annotate: bool) -> Verdict:
    judged = session.judge(Read(number, read_raw(raw, dialect_for)), "t.rgn")
    return session.annotate_verdict(judged) if annotate else judged.verdict


def assert_same(data: bytes) -> int:
    """Both ways on every record of `data`, plain and annotated; how many the lean way judged."""
    lean = 0
    for number, raw in enumerate(split(data), start=1):
        for annotate in (False, True):
            found = lean_verdict(raw, "t.rgn", number, annotate)
            expected = full(raw, number, annotate)
            if found is not None:
                lean += 1
                assert found == expected, raw.raw.decode("utf-8", "replace")
            assert session.check_raw(raw, "t.rgn", number, annotate) == expected
    return lean


@over_playouts
def test_the_lean_path_judges_random_playouts_as_the_full_path(game: str, players: int | None, index: int) -> None:
    data = playout(game, players, index)
    assert assert_same(data) == 2
    (raw,) = split(data)
    verdict = lean_verdict(raw, "t.rgn", 1, annotate=True)
    assert verdict is not None and verdict.token is not None  # the token is hashed as the record streams


def test_the_lean_path_agrees_on_every_conformance_record() -> None:
    judged, total = conformance_judged(assert_same)
    assert judged > 2 * total * 3 // 4  # of two paths a record


@settings(max_examples=cases(150, 30), deadline=None)
@given(st.integers(0, len(PLAYOUT_KEYS) - 1), st.randoms(use_true_random=False))
def test_the_lean_path_agrees_on_mutated_playouts(which: int, rng: random.Random) -> None:
    assert_same(_mutated(rng, playout(*PLAYOUT_KEYS[which])))


@settings(max_examples=cases(150, 30), deadline=None)
@given(st.integers(0, 10**6))
def test_the_lean_path_agrees_on_fuzzed_conformance_records(number: int) -> None:
    assert_same(mutate(7, number))


CYCLE = b"R: h4(SE)\nB: c6(E)\nR: h4(S)\nB: c6(SE)\n"


def _peak(raw: RawRecord, annotate: bool) -> tuple[Verdict, int]:
    """The verdict and the peak of Python's allocations while checking the record, once
    the modules and caches a first check loads are in place."""
    head = raw.raw[:300].rsplit(b"\n", 1)[0].rsplit(b" ", 1)[0] + b"\n"
    for tiny in (head, head + b"x1-x\n", head + b"d1-W\n"):
        for mode in (False, True):
            session.check_raw(split(tiny)[0], "warm.rgn", 1, mode)
    gc.collect()
    tracemalloc.start()
    try:
        verdict = session.check_raw(raw, "t.rgn", 1, annotate)
        return verdict, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    ("ending", "annotate", "status"),
    [
        (b"R: h4(S)\n", False, "illegal"),  # the last action breaks a rule: the detailed path
        (b"R: h4(SX)\n", False, "malformed"),  # the last action is not RGN: the grammar explains
        (b"", True, "ongoing"),  # check --json: the token hashes the canonical text
        (b"R: h4(S)\n", True, "illegal"),  # check --json of an illegal record: suggestions
    ],
)
def test_a_long_record_costs_a_small_multiple_of_its_size(ending: bytes, annotate: bool, status: str) -> None:
    """A 200 KB, 20,000-turn record, judged the detailed way: Python's allocations peak
    under 10 times its size (the full record model took about 50 times)."""
    data = b'[Game "pikemen"]\n\n' + CYCLE * 5000 + ending
    (raw,) = split(data)
    verdict, peak = _peak(raw, annotate)
    assert verdict.status == status
    assert verdict.error is None or verdict.error.line == 20003
    assert peak < 10 * len(data), f"{peak / len(data):.1f} times the record's size"


def test_a_turn_of_many_actions_is_replayed_from_its_first_ones() -> None:
    """One Nika turn of 40,000 actions (200 KB): illegal at its second, found so without
    keeping the turn whole."""
    data = b'[Game "nika"]\n\n1. W: ' + b"d1-W " * 40_000 + b"\n"
    (raw,) = split(data)
    for annotate in (False, True):
        verdict, peak = _peak(raw, annotate)
        assert verdict == full(raw, 1, annotate)
        assert verdict.status == "illegal" and verdict.error is not None and verdict.error.action == "d1-W"
        assert peak < 10 * len(data), f"{peak / len(data):.1f} times the record's size"


def test_a_turn_longer_than_kept_that_is_not_found_illegal_goes_the_full_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a game ever allow a turn longer than the items kept, the full path judges it."""
    monkeypatch.setattr("referee.judge.fast.streamed_verdict.TURN_LIMIT", 1)
    data = next(playout(*key) for key in PLAYOUT_KEYS if key[0] == "nika")
    (raw,) = split(data)
    assert lean_verdict(raw, "t.rgn", 1) is None  # Nika turns have two actions
    assert session.check_raw(raw, "t.rgn", 1, annotate=True) == full(raw, 1, True)
    assert_same(data)


def test_round_numbers_of_a_long_record_do_not_fill_the_quick_readers_caches() -> None:
    """A record of 10,000 numbered rounds, checked both ways: its round numbers past 999,
    one a round, are not kept by the quick reader (they cost its caches more than the
    record; issue 34), and its peak stays a small multiple of its size. (10,000 rounds
    still fail each check should the numbers be kept, KEPT_DIGITS 9: 10,009 words learnt,
    22 times the size; or the numbered labels' cache never be cleared: 20,003 kept, 27
    times; 30,000 took three times as long.)"""
    from referee.notation.quick import LABEL_CACHE, _Reader

    turns = b"".join(b"%d. R: h4(SE)\nB: c6(E)\n%d. R: h4(S)\nB: c6(SE)\n" % (n, n + 1) for n in range(1, 10_000, 2))
    data = b'[Game "pikemen"]\n\n' + turns + b"10001. R: h4(SX)\n"
    (raw,) = split(data)
    for annotate in (False, True):
        reader = _Reader.of(dialect_for("pikemen"), annotate)
        words = len(reader.word_kinds)
        verdict, peak = _peak(raw, annotate)
        assert verdict.status == "malformed"
        assert peak < 20 * len(data), f"{peak / len(data):.1f} times the record's size"
        assert len(reader.word_kinds) - words < 2 * 1000 + 100 and len(reader.numbered) <= LABEL_CACHE
