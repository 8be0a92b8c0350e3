"""A fuzz of players' submissions (PLAY.md §7) through `referee.live.play.submit` with
`as_side`, the entry of `play --as` and of every mail the gateway plays: random comment
commands (any name, case, spacing, arguments, several at once, malformed, unclosed) put
anywhere in a submission are never accepted; random ordinary comments with a legal move
always are. Seeded: the same cases every run; 500 + 200 in the default run, 10,000 + 1,000
under `-m slow`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.live.play import submit
from tests.helpers.commands import REFEREE_ONLY, random_ordinary, random_submission

GAME = '[Game "numica"]\n[Seed "42"]\n[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n'


def _no_command_accepted(folder: Path, cases: int, seed: int) -> None:
    rng = random.Random(seed)
    path = folder / "g.rgn"
    path.write_text(GAME, encoding="utf-8")
    for _ in range(cases):
        text = random_submission(rng)
        result = submit(path, text, as_side=rng.choice(("Red", "Red", "Blue")))
        assert result.exit_code == 1 and not result.written, text
        assert result.error is not None and REFEREE_ONLY in result.error, (text, result.error)
        assert path.read_text(encoding="utf-8") == GAME, text


def _ordinary_comments_accepted(folder: Path, cases: int, seed: int) -> None:
    rng = random.Random(seed)
    path = folder / "g.rgn"
    for _ in range(cases):
        path.write_text(GAME, encoding="utf-8")
        text, comment = random_ordinary(rng)
        result = submit(path, text, as_side="Red")
        assert result.exit_code == 0 and result.written, (text, result.error)
        assert comment in path.read_text(encoding="utf-8"), text


def test_random_commands_in_submissions_are_never_accepted(tmp_path: Path) -> None:
    _no_command_accepted(tmp_path, 500, seed=29)


def test_random_ordinary_comments_with_a_legal_move_are_accepted(tmp_path: Path) -> None:
    _ordinary_comments_accepted(tmp_path, 200, seed=29)


@pytest.mark.slow
def test_ten_thousand_random_commands_are_never_accepted(tmp_path: Path) -> None:
    _no_command_accepted(tmp_path, 10_000, seed=2029)
    _ordinary_comments_accepted(tmp_path, 1_000, seed=2029)
