"""Whole games played through `play` one submission at a time give the same file as
`format` of the same moves written at once (every game and player count)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.cli.exits import Problem
from referee.games import registry
from referee.judge import session
from referee.judge.services.random_playout import play as playout
from referee.live.play import submit

CASES = [(game, players) for game, info in registry.GAMES.items() for players in info.player_counts]
TURNS = {"nieuchess": 20}
NUMBER = re.compile(r"^\d+\.\s+")


def submissions(game: str, line: str, index: int, after_empty: bool = False) -> list[str]:
    """One turn line of a canonical record as one or more submissions, varied: with or
    without its round number and label, Nika's two actions one at a time. After an empty
    turn (a label alone, which leaves its side to move) the label must be written."""
    label, _, actions = NUMBER.sub("", line).partition(":")
    if after_empty:
        return [line]
    if game == "nika" and len(actions.split()) == 2:
        first, second = actions.split()
        return [f"{label}: {first}", second if index % 2 else f"{label}: {second}"]
    if index % 3 == 0 or "+" in label:
        return [line]
    if index % 3 == 1:
        return [f"{label}:{actions}"]
    return [actions.strip() or f"{label}:"]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_game_played_one_submission_at_a_time_equals_format(tmp_path: Path, game: str, players: int) -> None:
    for seed in ("one", "two"):
        played = playout(game, players, f"play-{seed}", max_turns=TURNS.get(game, 30))
        head, _, body = played.text.partition("\n\n")
        path = tmp_path / f"{game}-{players}-{seed}.rgn"
        path.write_text(head + "\n")
        lines = body.splitlines()
        for index, line in enumerate(lines):
            for text in submissions(game, line, index, index > 0 and lines[index - 1].endswith(":")):
                result = submit(path, text)
                assert result.exit_code == 0, (line, text, result.error)
        final = session.check([str(path)])
        (verdict,) = list(final)
        assert verdict.legal
        value = "*" if verdict.status == "ongoing" else ("draw" if verdict.draw else "+".join(verdict.winners))
        expected = tmp_path / "expected.rgn"
        expected.write_text(f'{head}\n[Result "{value}"]\n\n{body}')
        assert path.read_text() == _formatted(expected)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES)
def test_long_games_played_one_submission_at_a_time(tmp_path: Path, game: str, players: int) -> None:
    played = playout(game, players, "play-long", max_turns=200)
    head, _, body = played.text.partition("\n\n")
    path = tmp_path / "long.rgn"
    path.write_text(head + "\n")
    lines = body.splitlines()
    for index, line in enumerate(lines):
        for text in submissions(game, line, index, index > 0 and lines[index - 1].endswith(":")):
            assert submit(path, text).exit_code == 0
    expected = tmp_path / "expected.rgn"
    verdict = list(session.check([str(path)]))[0]
    value = "*" if verdict.status == "ongoing" else ("draw" if verdict.draw else "+".join(verdict.winners))
    expected.write_text(f'{head}\n[Result "{value}"]\n\n{body}')
    assert path.read_text() == _formatted(expected)


def _formatted(path: Path) -> str:
    """What `referee format` writes for a file of one record."""
    (formatted,) = session.format_records([str(path)])
    assert not isinstance(formatted, Problem)
    return formatted.data.decode("utf-8")
