"""Did you mean (PLAY.md §1.4): up to three legal actions, those of the same piece first,
then the nearest by edit distance of canonical texts; in `play` and in `check --json`."""

from __future__ import annotations

import json
from pathlib import Path

from referee.games import registry
from referee.judge.core.did_you_mean import edit_distance, origin, suggestions
from referee.live.play import submit
from tests.helpers.cli import invoke

EXAMPLE_HASH = "sha256:50d858e0985ecc7f60418aaf0cc5ab587f42c2570a884095a9e8ccacd0f6545c"


def start(game: str) -> object:
    return registry.engine(game).new_state({"Game": game})


def test_edit_distance_counts_insertions_deletions_and_substitutions() -> None:
    assert edit_distance("e4-e6", "e4-e6") == 0
    assert edit_distance("e4-e6", "e4-d5") == 2
    assert edit_distance("d1-W", "d1>W") == 1
    assert edit_distance("", "abc") == 3 and edit_distance("abcd", "abc") == 1
    assert origin("g6+h6xh7#4") == "g6" and origin("D1-W") == "d1" and origin("pass") is None


def test_the_same_piece_comes_first_even_when_another_is_as_near() -> None:
    state = start("nika")
    found = suggestions(state, "d3>W")  # d3>W is not legal; i3>W is as near but another piece
    assert len(found) == 3
    assert all(text.startswith("d3") for text in found)
    assert found == ["d3-W", "d3>N", "d3>E"]  # distance 1 each, in the engine's order


def test_without_a_same_piece_the_nearest_texts_win() -> None:
    state = start("nika")
    found = suggestions(state, "i4-E")  # no piece on i4
    assert found[0] in ("i1-E", "i2-E", "i3-E")
    assert all(edit_distance("i4-E", text) == 1 for text in found)


def test_a_written_text_is_compared_in_canonical_form() -> None:
    state = start("nika")
    assert suggestions(state, "D3>w") == suggestions(state, "d3>W")


def test_no_more_than_the_limit() -> None:
    state = start("nika")
    assert len(suggestions(state, "pass!", limit=3)) == 3
    assert len(suggestions(state, "d3>W", limit=1)) == 1


def test_play_errors_carry_suggestions(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text('[Game "nika"]\n')
    result = submit(path, "d3>W")
    assert result.suggestions == ["d3-W", "d3>N", "d3>E"]
    assert "did you mean: d3-W, d3>N, d3>E?" in result.text()
    assert result.verdict["suggestions"] == result.suggestions


def test_check_json_offers_suggestions_for_an_illegal_action(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text('[Game "nika"]\n1. W: d1-W d3>W\n')
    verdict = json.loads(invoke("check", "--json", str(path)).output)
    assert verdict["status"] == "illegal" and verdict["error"]["action"] == "d3>W"
    assert verdict["suggestions"][0].startswith("d3") and len(verdict["suggestions"]) <= 3
    path.write_text('[Game "nika"]\n1. W: d1-W d2-W\n')
    assert json.loads(invoke("check", "--json", str(path)).output)["suggestions"] == []


def test_suggestions_never_show_a_secret_die(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text(f'[Game "nieuchess"]\n[SeedHash "{EXAMPLE_HASH}"]\n[Position "R:j20,k21,a1 B:j21,x30 to:R"]\n\n')
    result = submit(path, "j20xk22", seed="example")
    assert result.exit_code == 1 and result.suggestions
    assert all("#" not in text for text in result.suggestions)
    assert result.suggestions[0].startswith("j20")
