"""`referee play` (PLAY.md §1-2): a submission continues the one game in FILE, all or
nothing, and the file is rewritten in canonical form with the computed Result."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from referee.live.play import UsageError, turn_token
from tests.helpers.cli import invoke
from tests.helpers.play import play
from tests.helpers.process import run_referee

NIKA = '[Game "nika"]\n[Event "Club night"]\n[Athens "Ann"]\n\n{ The opening. }\n'
NUMICA_FINISHED = '[Game "numica"]\n[Seed "cli"]\n[Result "Red"]\n\nR: SSOOSOSO\nB: resign\n'
NIKA_ILLEGAL = '[Game "nika"]\n\n1. W: d1-W a1-S\n'
TOKEN = re.compile(r"^\d+-[0-9a-f]{10}$")


@pytest.fixture
def nika(tmp_path: Path) -> Path:
    path = tmp_path / "game.rgn"
    path.write_text(NIKA)
    return path


def test_an_implied_label_is_the_side_to_move(tmp_path: Path) -> None:
    implied, explicit = tmp_path / "a.rgn", tmp_path / "b.rgn"
    implied.write_text(NIKA)
    explicit.write_text(NIKA)
    assert play(implied, "d1-W d2-W").exit_code == 0
    assert play(explicit, "W: d1-W d2-W").exit_code == 0
    assert implied.read_text() == explicit.read_text()
    assert "1. W: d1-W d2-W" in implied.read_text()


def test_the_record_is_rewritten_in_canonical_form_keeping_tags_and_comments(nika: Path) -> None:
    result = play(nika, "  w:   d1-w\n  D2-W  { west flank }  R: a4-S ; Sparta replies\n")
    assert result.exit_code == 0 and result.written
    assert nika.read_text() == (
        '[Game "nika"]\n[Athens "Ann"]\n[Event "Club night"]\n[Result "*"]\n\n'
        "{ The opening. }\n1. W: d1-W d2-W { west flank }\nR: a4-S ; Sparta replies\n"
    )


def test_an_open_turn_is_continued_by_the_first_actions(nika: Path) -> None:
    assert play(nika, "d1-W").exit_code == 0
    assert play(nika, "d2-W").exit_code == 0
    assert play(nika, "R: a4-S").exit_code == 0
    assert play(nika, "R: a3-S").exit_code == 0  # an explicit label of the open turn continues it too
    assert nika.read_text().endswith("1. W: d1-W d2-W\nR: a4-S a3-S\n")


def test_a_turn_is_not_continued_once_its_side_no_longer_has_the_move(nika: Path) -> None:
    play(nika, "d1-W d2-W")
    result = play(nika, "W: d3-W")
    assert result.exit_code == 1 and not result.written
    assert "it is Sparta's turn" in (result.error or "") or "Sparta" in (result.error or "")


def test_result_is_star_while_the_game_goes_on_and_the_computed_result_at_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text('[Game "numica"]\n[Seed "cli"]\n\n')  # no Result tag: it is added
    assert play(path, "SSOOSOSO").exit_code == 0
    assert '[Result "*"]' in path.read_text()
    result = play(path, "B: resign")
    assert result.exit_code == 0
    assert '[Result "Red"]' in path.read_text()
    assert result.next.startswith("game over: Red wins (resignation)")
    assert result.verdict["status"] == "finished" and result.verdict["result_matches"] is True


def test_a_finished_or_illegal_record_is_refused_with_its_verdict(tmp_path: Path) -> None:
    for text, status in ((NUMICA_FINISHED, "finished"), (NIKA_ILLEGAL, "illegal")):
        path = tmp_path / f"{status}.rgn"
        path.write_text(text)
        result = play(path, "d1-W")
        assert result.exit_code == 1 and not result.written
        assert result.verdict["status"] == status
        assert path.read_text() == text


@pytest.mark.parametrize("count", [0, 2])
def test_a_file_must_hold_one_game(tmp_path: Path, count: int) -> None:
    path = tmp_path / "g.rgn"
    path.write_text("hello\n" + NIKA * count)
    with pytest.raises(UsageError, match=f"must hold one game, it holds {count}"):
        play(path, "d1-W")
    result = invoke("play", str(path), "d1-W")
    assert result.exit_code == 2
    assert f"must hold one game, it holds {count}" in result.output


def test_an_illegal_action_writes_nothing_and_is_located_in_the_submission(nika: Path) -> None:
    before = nika.read_text()
    result = play(nika, "d1-W\n  d2-W R: a4-S a3-S\nB: z9-S")
    assert result.exit_code == 1 and not result.written
    assert nika.read_text() == before
    error = result.verdict["error"]
    assert (error["line"], error["column"], error["action"]) == (3, 4, "z9-S")
    assert result.error is not None
    assert 'line 3, col 4: turn 1 Messene, action 1 "z9-S"' in result.error


def test_a_turn_error_is_located_at_its_label_in_the_submission(nika: Path) -> None:
    result = play(nika, "d1-W d2-W\nR: a4-S B: i8-E")
    error = result.verdict["error"]
    assert (error["line"], error["column"], error["action"]) == (2, 1, None)
    play(nika, "d1-W")
    result = play(nika, "R: a4-S")  # the open turn of Athens is cut short: at the submission's start
    assert result.exit_code == 1
    assert (result.verdict["error"]["line"], result.verdict["error"]["column"]) == (1, 1)


def test_text_that_is_not_rgn_is_refused_with_its_place(nika: Path) -> None:
    result = play(nika, "d1-W\nd2-Q")
    assert result.exit_code == 1 and not result.written
    assert result.error is not None and "malformed: line 2, col 1" in result.error


def test_a_submission_is_move_text_only(nika: Path) -> None:
    for text in ('[Event "x"] W: d1-W', 'W: d1-W\n[Game "nika"]\n'):
        result = play(nika, text)
        assert result.exit_code == 1 and not result.written, text


def test_an_empty_submission_is_refused(nika: Path) -> None:
    result = play(nika, "  { nothing } ")
    assert result.exit_code == 1 and result.error == "the submission holds no action"


def test_as_refuses_the_wrong_side(nika: Path) -> None:
    result = play(nika, "d1-W d2-W", as_side="Blue")
    assert result.exit_code == 1 and result.error == "Athens is to move, not Messene"
    result = play(nika, "d1-W d2-W R: a4-S", as_side="W")
    assert result.exit_code == 1 and "holds a turn of Sparta" in (result.error or "")
    assert play(nika, "d1-W d2-W", as_side="athens").exit_code == 0
    with pytest.raises(UsageError, match="not a side of nika"):
        play(nika, "a4-S", as_side="Purple")


def test_expect_applies_a_move_only_to_the_state_it_was_written_for(nika: Path) -> None:
    token = play(nika, "d1-W d2-W", dry_run=True).verdict["token"]
    first = play(nika, "d1-W d2-W", dry_run=True)
    assert first.exit_code == 0 and not first.written
    current = submit_token(nika)
    stale = play(nika, "d1-W d2-W", expect="0-0000000000")
    assert stale.exit_code == 1 and "not 0-0000000000" in (stale.error or "")
    assert play(nika, "d1-W d2-W", expect=current).exit_code == 0
    again = play(nika, "R: a4-S", expect=current)
    assert again.exit_code == 1 and not again.written
    assert token != current  # the dry run named the state after the move


def submit_token(path: Path) -> str:
    result = invoke("check", "--json", str(path))
    return str(json.loads(result.output)["token"])


def test_dry_run_writes_nothing_and_reports_everything(nika: Path) -> None:
    before = nika.read_text()
    result = play(nika, "d1-W d2-W", dry_run=True)
    assert result.exit_code == 0 and not result.written and result.dry_run
    assert nika.read_text() == before
    assert result.verdict["to_move"] == "Sparta"
    assert not list(nika.parent.glob(".*tmp*"))


def test_the_token_is_turns_and_the_hash_of_the_canonical_text_without_result(nika: Path) -> None:
    result = play(nika, "d1-W d2-W")
    text = nika.read_text()
    assert result.token is not None and TOKEN.match(result.token)
    bare = text.replace('[Result "*"]\n', "")
    assert result.token == f"1-{hashlib.sha256(bare.encode()).hexdigest()[:10]}"
    assert result.token == turn_token(1, bare)
    assert result.verdict["turns"] == 1


def test_any_change_to_the_record_changes_the_token(nika: Path) -> None:
    play(nika, "d1-W d2-W")
    token = submit_token(nika)
    text = nika.read_text()
    nika.write_text(text.replace("d2-W", "d2-W { a comment }"))
    with_comment = submit_token(nika)
    nika.write_text(text.replace('[Event "Club night"]', '[Event "Club day"]'))
    with_tag = submit_token(nika)
    nika.write_text(text.replace('[Result "*"]', ""))
    without_result = submit_token(nika)
    assert len({token, with_comment, with_tag}) == 3
    assert without_result == token


def test_token_is_in_check_json_show_and_show_json_and_null_when_not_legal(nika: Path, tmp_path: Path) -> None:
    token = play(nika, "d1-W d2-W").token
    assert submit_token(nika) == token
    shown = invoke("show", str(nika))
    assert f"token: {token}" in shown.output
    shown_json = json.loads(invoke("show", "--json", str(nika)).output)
    assert shown_json["token"] == token and shown_json["verdict"]["token"] == token
    illegal = tmp_path / "illegal.rgn"
    illegal.write_text(NIKA_ILLEGAL)
    assert json.loads(invoke("check", "--json", str(illegal)).output)["token"] is None


def test_text_output_has_the_verdict_events_board_and_next(nika: Path) -> None:
    play(nika, "d1-W d2-W")
    result = invoke("play", str(nika), "a4-S a3-S B: i8-E")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{nika}:1: nika: ongoing: Messene to move, round 1"
    assert "routed:" in result.output  # the board
    token = json.loads(invoke("check", "--json", str(nika)).output)["token"]
    assert lines[-1] == f"next: Messene to move (token {token})"


def test_json_output_has_the_verdict_fields_and_play_fields(nika: Path) -> None:
    result = invoke("play", "--json", str(nika), "d1-W d2-W")
    assert result.exit_code == 0
    data = json.loads(result.output)
    for field in ("source", "record", "game", "status", "turns", "to_move", "error", "message"):
        assert field in data
    assert data["written"] is True and data["events"] == [] and data["suggestions"] == []
    assert TOKEN.match(data["token"])
    refused = json.loads(invoke("play", "--json", str(nika), "R: a9-S").output)
    assert refused["written"] is False and refused["status"] == "illegal" and refused["suggestions"]


def test_moves_from_standard_input(nika: Path) -> None:
    assert invoke("play", str(nika), stdin="d1-W d2-W\n").exit_code == 0
    assert invoke("play", str(nika), "-", stdin="R: a4-S a3-S\n").exit_code == 0
    assert nika.read_text().endswith("1. W: d1-W d2-W\nR: a4-S a3-S\n")


def test_usage_errors_exit_2(nika: Path, tmp_path: Path) -> None:
    assert invoke("play", str(tmp_path / "missing.rgn"), "d1-W").exit_code == 2
    assert invoke("play", str(nika), "d1-W", "--wait", "-1").exit_code == 2
    assert invoke("play", str(nika), "d1-W", "--bogus").exit_code == 2
    assert invoke("play", str(nika), "d1-W", "--seed-file", str(tmp_path / "none.key")).exit_code == 2


def test_exit_1_for_every_refusal(nika: Path) -> None:
    for arguments in (["a9-S"], ["d1-W", "--as", "Sparta"], ["d1-W", "--expect", "1-0123456789"]):
        result = invoke("play", str(nika), *arguments)
        assert result.exit_code == 1, arguments


def test_a_malformed_record_is_refused_and_a_missing_file_leaves_no_lock(tmp_path: Path) -> None:
    path = tmp_path / "bad.rgn"
    path.write_text('[Game "nika"]\n1. W: d1-Q\n')
    result = play(path, "d2-W")
    assert result.exit_code == 1 and result.verdict["status"] == "malformed" and result.token is None
    with pytest.raises(UsageError, match="cannot read"):
        play(tmp_path / "missing.rgn", "d1-W")
    assert not (tmp_path / "missing.rgn.lock").exists()


def test_draw_alone_ends_the_game_by_agreement(nika: Path) -> None:
    play(nika, "d1-W d2-W")
    result = play(nika, "draw")
    assert result.exit_code == 0 and result.verdict["status"] == "finished"
    assert result.verdict["reason"] == "agreement" and '[Result "draw"]' in nika.read_text()
    assert play(nika, "R: a4-S").exit_code == 1


def test_a_continued_turn_keeps_a_comment_written_before_its_label(nika: Path) -> None:
    play(nika, "d1-W")
    assert play(nika, "{ then west } W: d2-W").exit_code == 0
    assert nika.read_text().endswith("1. W: d1-W { then west } d2-W\n")
    result = play(nika, "2. R: a4-S a3-S")
    assert result.exit_code == 1 and "round 1, not round 2" in (result.error or "")


def test_a_continued_turn_with_a_round_number_of_thousands_of_digits_is_refused_quoted_cut(nika: Path) -> None:
    """A round number is compared by value whatever its length (NOTATION §3, amended): a
    wrong one of 5,000 digits is refused in a line of bounded length, not quoted whole."""
    play(nika, "d1-W")
    result = play(nika, "7" * 5000 + ". W: d2-W")
    assert result.exit_code == 1 and "this turn is in round 1, not round 777" in (result.error or "")
    assert len(result.error or "") < 400


def test_a_fifo_or_a_link_as_tokens_log_never_holds_up_a_stale_tokens_refusal(nika: Path) -> None:
    """`tokens.log` is read to say what changed a stale token: in a folder from someone
    else it may be a FIFO nobody writes or a link; it is read only as a regular file, so the
    refusal comes at once (a FIFO held `play` forever)."""
    import os

    current = submit_token(nika)
    assert play(nika, "d1-W d2-W", expect=current).exit_code == 0
    os.mkfifo(nika.parent / "tokens.log")
    done = run_referee("play", str(nika), "R: a4-S a3-S", "--expect", current, timeout=30)
    assert done.returncode == 1 and "the board has changed" in done.stdout + done.stderr, done.stdout
    (nika.parent / "tokens.log").unlink()
    (nika.parent / "tokens.log").symlink_to("/dev/zero")
    done = run_referee("play", str(nika), "R: a4-S a3-S", "--expect", current, timeout=30)
    assert done.returncode == 1 and "the board has changed" in done.stdout + done.stderr, done.stdout
