"""`replay`, `show`, `show --svg`, `moves`, `format` and `stats` on the streamed path
(`referee.judge.fast.streamed_verdict.lean_replay`,
issue 34 "Memory"): the same steps, boards, canonical text and counts as the full record
model gives (the full path is taken by making `lean_replay` give up, as it does on a record
it cannot read)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import text_output
from referee.judge import session
from referee.judge.core.adjudicate import Played
from referee.judge.core.verdicts import Problem, Verdict
from referee.judge.services.archive_stats import Stats, collect
from referee.notation.model import Turn
from referee.pictures import picture_commands
from tests.helpers.big import pikemen_clocked
from tests.helpers.fuzzing import corpus, mutate
from tests.helpers.sweep import cases, spread
from tests.judge.fast.test_fused_check import PLAYOUT_KEYS, _mutated, over_playouts, playout


def _replayed(name: str) -> tuple[list[str], str]:
    """`replay` and `replay --json` of the first record of `name`, as printed."""
    lines: list[str] = []
    turn: list[Turn | None] = [None]

    def each(verdict: Verdict, played: Played) -> None:
        lines.extend(text_output.step_lines(played, turn[0]))
        lines.append(text_output.step_json(verdict, played))
        turn[0] = played.turn

    replayed = session.replay_steps(name, 1, each)
    end = text_output.problem_line(replayed) if isinstance(replayed, Problem) else text_output.replay_end(replayed)
    return lines, end


def _answered(call: Callable[[], Any], written: Callable[[Any], object]) -> object:
    """What a command answers: its usage error's words, its problem, or `written` of its result."""
    try:
        found = call()
    except session.UsageError as error:
        return str(error)
    return found if isinstance(found, Problem) else written(found)


def _shown(name: str, at: int | None) -> object:
    return _answered(
        lambda: session.show(name, 1, at), lambda shown: (text_output.shown_text(shown), text_output.shown_json(shown))
    )


def _drawn(name: str, at: int | None) -> object:
    """`show --svg` (with `--at`): the whole record's verdict and the picture drawn."""
    return _answered(
        lambda: session.drawn(name, 1, at),
        lambda whole: (whole.verdict, picture_commands.board_picture(whole if whole.cut is None else whole.cut)),
    )


def _moves(name: str) -> object:
    listed = session.moves(name, 1)
    if isinstance(listed, Problem):
        return listed
    return text_output.listed_text(listed), text_output.listed_json(listed)


def _everything(name: str, rounds: int) -> list[Any]:
    summary = Stats()
    found: list[Any] = [list(session.check([name], annotate=True)), list(session.check([name]))]
    found += [list(collect([name], summary)), summary]
    found += [_replayed(name), list(session.format_records([name])), _moves(name)]
    found += [_shown(name, at) for at in (None, 0, rounds // 2, rounds)]
    found += [_drawn(name, at) for at in (None, 0, 1, rounds // 2, rounds)]
    return found


def assert_same(data: bytes, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = folder / "t.rgn"
    path.write_bytes(data)
    rounds = data.count(b"\n") // 2
    streamed = _everything(str(path), rounds)
    with monkeypatch.context() as patched:
        patched.setattr("referee.judge.fast.streamed_verdict.lean_replay", lambda *_args, **_options: None)
        full = _everything(str(path), rounds)
    assert streamed == full, data.decode("utf-8", "replace")


@over_playouts
def test_the_streamed_commands_agree_on_random_playouts(
    game: str, players: int | None, index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(playout(game, players, index), tmp_path, monkeypatch)


def test_the_streamed_commands_agree_on_every_conformance_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for records in corpus().values():
        for record in spread(records, 8):
            assert_same(record, tmp_path, monkeypatch)


@settings(max_examples=cases(60, 15), deadline=None)
@given(st.integers(0, len(PLAYOUT_KEYS) - 1), st.randoms(use_true_random=False), st.integers(0, 10**6))
def test_the_streamed_commands_agree_on_mutated_records(
    tmp_path_factory: pytest.TempPathFactory, which: int, rng: random.Random, number: int
) -> None:
    folder = tmp_path_factory.mktemp("mutated")
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_same(_mutated(rng, playout(*PLAYOUT_KEYS[which])), folder, monkeypatch)
        assert_same(mutate(7, number), folder, monkeypatch)


def test_a_replay_the_streamed_path_gives_up_half_way_prints_each_action_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the streamed path give up after some actions (here a turn longer than it
    keeps), the full path gives the actions it had not given, and no action twice."""
    data = next(playout(*key) for key in PLAYOUT_KEYS if key[0] == "nika")
    path = tmp_path / "t.rgn"
    path.write_bytes(data)
    lines: list[str] = []
    before: list[int] = []  # the lines printed when the full path began
    full_way = session.judge

    def judge(*args: Any, **options: Any) -> Any:
        before.append(len(lines))
        return full_way(*args, **options)

    monkeypatch.setattr("referee.judge.fast.streamed_verdict.TURN_LIMIT", 1)  # Nika turns have two actions
    monkeypatch.setattr("referee.judge.session.judge", judge)
    session.replay_steps(str(path), 1, lambda verdict, played: lines.append(text_output.step_json(verdict, played)))
    assert before and 0 < before[0] < len(lines)
    full = session.replay(str(path), 1)
    assert not isinstance(full, Problem)
    assert lines == [text_output.step_json(full.verdict, played) for played in full.steps]


@pytest.mark.parametrize(
    "data",
    [b'[Game "pikemen"]\n\nR: h4(SE)\nB:\n', b'[Game "numica"]\n[Seed "s"]\n\nR: SSOOSOSO\nB: OOSSSOOS\nR: {none}\n'],
)
def test_moves_after_a_turn_with_no_action_agree(data: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record left ongoing after a turn label with no action: `moves` lists from that turn,
    which the streamed path never gives as a step (the full path reads the record whole)."""
    assert_same(data, tmp_path, monkeypatch)


TIMED_ENDINGS = ("flag", "timeout", "illegal", "ongoing", "stamp")

CLOCK_VALUES = [
    b'[Game "pikemen"]\n[TimeControl "1x"]\n[Start "2026-12-01T12:00:00Z"]\n\nR: h4(SE)\n',
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "yesterday"]\n\nR: h4(SE)\n',
    b'[Game "pikemen"]\n[TimeControl "1d"]\n\nR: h4(SE)\n',
    b'[Game "pikemen"]\n[Start "2026-12-01T12:00:00Z"]\n[TimeControl "1d"]\n\nR: h4(SE) {[%grant Red soon]}\n',
    b'[Game "pikemen"]\n[Result "Green wins"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T12:00:00 Red]}\n",
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n[Result "Green wins"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T12:00:00 Red]}\n",
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T13:00:00Z Red]} {[%at 2026-12-03T12:00:00Z Blue] noise}\n",
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T13:00:00Z Red]}\ntimeout {a word} {[%at 2026-12-03T12:00:00Z Blue]} {after}\n",
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T13:00:00Z Red]}\ntimeout {[%grant Blue 1d]} {[%at 2026-12-03T12:00:00Z Blue]}\n",
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T13:00:00Z Red]}\ntimeout\ntimeout {[%at 2026-12-03T12:00:00Z Blue]}\n",
    b'[Game "pikemen"]\n[TimeControl "1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    b"R: h4(SE) {[%at 2026-12-01T13:00:00Z Red]}\nB: c6(E) {[%at 2026-12-01T11:00:00Z Blue]}\n",
]
"""Timed records malformed only through a clock value (`format` passes them through as
read), a clock value after a `Result` naming no side and before it, timeouts with
comments between them and their stamp, a stamp before the previous one."""


TIMED_RECORDS = [pytest.param(pikemen_clocked(40, ending), id=ending) for ending in TIMED_ENDINGS] + [
    pytest.param(data, id=str(number)) for number, data in enumerate(CLOCK_VALUES)
]
"""A timed record of 40 turns with each of the `TIMED_ENDINGS`, then the `CLOCK_VALUES`."""


@pytest.mark.parametrize("data", TIMED_RECORDS)
def test_the_streamed_commands_agree_on_timed_records_and_clock_values(
    data: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(data, tmp_path, monkeypatch)


def test_format_passes_a_timed_record_malformed_by_a_clock_value_through(tmp_path: Path) -> None:
    for data in (*CLOCK_VALUES[:6], pikemen_clocked(8, "stamp")):
        path = tmp_path / "t.rgn"
        path.write_bytes(data)
        (formatted,) = session.format_records([str(path)])
        assert not isinstance(formatted, Problem) and formatted.verdict is not None
        assert formatted.data == data and formatted.verdict.status.value == "malformed"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TIMED_ENDINGS), st.randoms(use_true_random=False))
def test_the_streamed_commands_agree_on_mutated_timed_records(
    tmp_path_factory: pytest.TempPathFactory, ending: str, rng: random.Random
) -> None:
    folder = tmp_path_factory.mktemp("timed")
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_same(_mutated(rng, pikemen_clocked(16, ending)), folder, monkeypatch)
