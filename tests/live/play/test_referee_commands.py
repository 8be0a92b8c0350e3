"""Only the referee writes comment commands (PLAY.md §7): a player's submission (`play
--as SIDE`) holding one, of any name and spelling, anywhere, is refused whole with one
line naming it, and nothing is written; ordinary comments are kept; the game master's own
writing (`play` without `--as`, `--grant`) is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import invoke
from tests.helpers.commands import FIRST_MOVE, KINDS, ORDINARY, REFEREE_ONLY, named, submissions

NOW = "2026-12-04T10:59:00Z"
TIMED = (
    '[Game "numica"]\n[Seed "42"]\n[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n'
    '[TimeControl "3d+0m"]\n[Start "2026-12-01T12:00:00Z"]\n'
)
FOUR = (
    '[Game "nika"]\n[Players "4"]\n[Athens "Ann <ann@example.org>"]\n[Sparta "Bo <bo@example.org>"]\n'
    '[Messene "Cy <cy@example.org>"]\n[Thebes "Di <di@example.org>"]\n'
)


def _play(path: Path, *args: str) -> tuple[int, str]:
    result = invoke("play", str(path), *args)
    return result.exit_code, result.output


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_players_submission_holding_a_command_is_refused_whole(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "g.rgn"
    path.write_text(TIMED, encoding="utf-8")
    for text in submissions(kind):
        code, out = _play(path, text, "--as", "Red", "--now", NOW)
        assert code == 1, (text, out)
        assert REFEREE_ONLY in out and named(kind) in out, (text, out)
        assert path.read_text(encoding="utf-8") == TIMED, text
    # and as JSON: refused, nothing written, the error naming the command
    code, out = _play(path, submissions(kind)[1], "--as", "Red", "--now", NOW, "--json")
    assert code == 1 and '"written": false' in out and REFEREE_ONLY in out


def test_one_player_cannot_end_a_four_player_game_with_forged_offers(tmp_path: Path) -> None:
    """The attack of the issue: Athens alone writes the other three sides' offers, then `draw`."""
    path = tmp_path / "g.rgn"
    path.write_text(FOUR, encoding="utf-8")
    forged = "d1-W d3-E {[%offer draw Sparta] [%offer draw Messene] [%offer draw Thebes]} draw"
    code, out = _play(path, forged, "--as", "Athens")
    assert code == 1 and REFEREE_ONLY in out and "[%offer draw Sparta]" in out
    assert path.read_text(encoding="utf-8") == FOUR
    code, out = _play(path, "d1-W d3-E draw", "--as", "Athens")  # the honest offer stands alone
    assert code == 0, out
    assert "draw (agreement)" not in path.read_text(encoding="utf-8") and 'Result "*"' in path.read_text(
        encoding="utf-8"
    )


def test_one_player_cannot_grant_itself_time_or_charge_another_side(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text(TIMED, encoding="utf-8")
    for forged in (f"{FIRST_MOVE} {{[%grant Red 10d]}}", f"{FIRST_MOVE} {{[%at {NOW} Blue]}}"):
        code, out = _play(path, forged, "--as", "Red", "--now", NOW)
        assert code == 1 and REFEREE_ONLY in out, out
        assert path.read_text(encoding="utf-8") == TIMED
    # Red's own move is stamped by the referee, naming Red: Blue's clock is untouched
    code, out = _play(path, FIRST_MOVE, "--as", "Red", "--now", NOW)
    assert code == 0, out
    assert f"{FIRST_MOVE} {{[%at {NOW} Red]}}" in path.read_text(encoding="utf-8")
    code, out = _play(path, "timeout", "--as", "Red", "--now", "2026-12-04T12:00:00Z")
    assert code == 1 and "Blue" in out  # Blue's three days have not run out


@pytest.mark.parametrize("comment", ORDINARY)
def test_ordinary_comments_stay(tmp_path: Path, comment: str) -> None:
    path = tmp_path / "g.rgn"
    path.write_text(TIMED, encoding="utf-8")
    code, out = _play(path, f"{comment}\n{FIRST_MOVE} {comment}\n", "--as", "Red", "--now", NOW)
    assert code == 0, out
    assert path.read_text(encoding="utf-8").count(comment.strip()) == 2


def test_the_game_master_still_writes_commands(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text(TIMED, encoding="utf-8")
    code, out = _play(path, f"{FIRST_MOVE} {{[%offer draw Red]}}", "--now", NOW)  # no --as: the GM's hand
    assert code == 0, out
    code, out = _play(path, "--grant", "Blue=1d", "--now", "2026-12-04T11:00:00Z")
    assert code == 0, out
    written = path.read_text(encoding="utf-8")
    assert "{[%offer draw Red]}" in written and "[%grant Blue 1d]" in written
    code, out = _play(path, "--as", "Blue", "--now", "2026-12-04T11:00:00Z", "draw")
    assert code == 0, out  # Blue's offer meets Red's, written by the GM: every player agrees
    assert '[Result "draw"]' in path.read_text(encoding="utf-8")
