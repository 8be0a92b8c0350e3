"""`replay`, `show`, `show --svg`, `moves`, `format` and `stats` on the streamed path (`referee.judge.lean.lean_replay`,
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

from referee.cli import render
from referee.judge import session
from referee.judge.adjudicate import Played
from referee.judge.stats import Stats, collect
from referee.judge.verdicts import Problem, Verdict
from referee.notation.model import Turn
from referee.pictures import commands
from tests.helpers.fuzzing import corpus, mutate
from tests.judge.test_fused import PLAYOUT_KEYS, _mutated, playout


def _replayed(name: str) -> tuple[list[str], str]:
    """`replay` and `replay --json` of the first record of `name`, as printed."""
    lines: list[str] = []
    turn: list[Turn | None] = [None]

    def each(verdict: Verdict, played: Played) -> None:
        lines.extend(render.step_lines(played, turn[0]))
        lines.append(render.step_json(verdict, played))
        turn[0] = played.turn

    replayed = session.replay_steps(name, 1, each)
    end = render.problem_line(replayed) if isinstance(replayed, Problem) else render.replay_end(replayed)
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
        lambda: session.show(name, 1, at), lambda shown: (render.shown_text(shown), render.shown_json(shown))
    )


def _drawn(name: str, at: int | None) -> object:
    """`show --svg` (with `--at`): the whole record's verdict and the picture drawn."""
    return _answered(
        lambda: session.drawn(name, 1, at),
        lambda whole: (whole.verdict, commands.board_picture(whole if whole.cut is None else whole.cut)),
    )


def _moves(name: str) -> object:
    listed = session.moves(name, 1)
    if isinstance(listed, Problem):
        return listed
    return render.listed_text(listed), render.listed_json(listed)


def _everything(name: str, rounds: int) -> list[Any]:
    summary = Stats()
    found: list[Any] = [list(collect([name], summary)), summary]
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
        patched.setattr("referee.judge.lean.lean_replay", lambda *_args, **_options: None)
        full = _everything(str(path), rounds)
    assert streamed == full, data.decode("utf-8", "replace")


@pytest.mark.parametrize(("game", "players", "index"), PLAYOUT_KEYS, ids=lambda value: str(value)[:12])
def test_the_streamed_commands_agree_on_random_playouts(
    game: str, players: int | None, index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(playout(game, players, index), tmp_path, monkeypatch)


def test_the_streamed_commands_agree_on_every_conformance_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for records in corpus().values():
        for record in records:
            assert_same(record, tmp_path, monkeypatch)


@settings(max_examples=60, deadline=None)
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

    monkeypatch.setattr("referee.judge.lean.TURN_LIMIT", 1)  # Nika turns have two actions
    monkeypatch.setattr("referee.judge.session.judge", judge)
    session.replay_steps(str(path), 1, lambda verdict, played: lines.append(render.step_json(verdict, played)))
    assert before and 0 < before[0] < len(lines)
    full = session.replay(str(path), 1)
    assert not isinstance(full, Problem)
    assert lines == [render.step_json(full.verdict, played) for played in full.steps]


@pytest.mark.parametrize(
    "data",
    [b'[Game "pikemen"]\n\nR: h4(SE)\nB:\n', b'[Game "numica"]\n[Seed "s"]\n\nR: SSOOSOSO\nB: OOSSSOOS\nR: {none}\n'],
)
def test_moves_after_a_turn_with_no_action_agree(data: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record left ongoing after a turn label with no action: `moves` lists from that turn,
    which the streamed path never gives as a step (the full path reads the record whole)."""
    assert_same(data, tmp_path, monkeypatch)
