"""Conditional moves (PLAY.md §9): a queue checked whole at submission and refused with
the line and column of its fault, stored 0600 beside the game with a fresh nonce, its
commitment entering the record before the next turn, replies played in the same write
(chains included), spent queues told, and every queue revealed at the end."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from referee.judge.core import queue_check
from referee.live.play import queue_submit, queues
from tests.helpers.cli import invoke
from tests.helpers.play import play

PIKEMEN = '[Game "pikemen"]\n[GameId "q"]\n\n'
PIKEMEN_3 = '[Game "pikemen"]\n[Players "3"]\n[GameId "q3"]\n\n'
NIKA = '[Game "nika"]\n[Players "2"]\n[GameId "qk"]\n\n'
NIEUCHESS = '[Game "nieuchess"]\n[Seed "7"]\n[GameId "qc"]\n[Position "R:j20,k21,a1 B:j21,x30 to:R"]\n\n'
NUMICA = '[Game "numica"]\n[Seed "5"]\n[GameId "qn"]\n\n'


def game(tmp_path: Path, text: str, *moves: str) -> Path:
    path = tmp_path / "game.rgn"
    path.write_text(text)
    for each in moves:
        assert play(path, each).exit_code == 0
    return path


def queue(path: Path, side: str, lines: str | None) -> queue_submit.QueueResult:
    return queue_submit.set_queue(path, side, lines, wait=5)


def check_json(path: Path) -> dict[str, object]:
    code, out, err = invoke("check", "--json", str(path))
    return json.loads(out)  # type: ignore[no-any-return]


# -- refusals, each with its line and column ------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ("if R: a4(N) then R: f3(E)", "queue line 1, col 4: a condition holds turns of the other sides, not Red's"),
        ("if a4(N) then R: f3(E)", "queue line 1, col 4: a condition names the side of each turn"),
        ("if B: a4(N) then B: a4(E)", "queue line 1, col 18: a reply is a turn of Red's, not Blue's"),
        ("if B: a4(Q) then R: f3(E)", "queue line 1, col 7: expected an action"),
        ("if B: a4(N) then R: f3(E) {[%at 2026-12-01T12:00:00Z Red]}", "queue line 1, col 27: {[%at"),
        ("if B: a4(N) then R: f3(E) {[%by-queue Red]}", "comment commands are written by the referee"),
        ("if B: a4(N) then R: f3(E) {nice}", "queue line 1, col 27: a queue line holds no comments"),
        ("if B: a4(N)", "queue line 1, col 12: the line must end with `then REPLY`"),
        ("then R: f3(E)", 'queue line 1, col 1: expected "if", found "then"'),
        ("if B: a4(N) then", 'queue line 1, col 13: "then" must be followed by a reply'),
        ("if 1. B: a4(N) then R: f3(E)", "queue line 1, col 7: a condition is written without round numbers"),
        ("if B: a4(N) then R: f3(E) R: f3(W)", "queue line 1, col 27: a reply is one turn"),
        ("if B: a4(N) then R: f3(E)\nif B: a4(N) then R: f3(W)", "queue line 2: it gives R: f3(W) after the same"),
        ("if B: a4(N) then R: f3(E) if R: a4(E) then R: f3(S)", "queue line 1, col 30: a condition holds turns"),
        ("\n\nif B: a4(N) then R: f3(E) if B: a4(N) then R: f3(N) if B: b5(N) then R: f3(E)", "queue line 3"),
    ],
)
def test_a_queue_with_a_fault_is_refused_whole_with_its_line_and_column(
    tmp_path: Path, lines: str, expected: str
) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    before = path.read_bytes()
    result = queue(path, "Red", lines)
    assert result.exit_code == 1
    assert expected in result.message, result.message
    assert path.read_bytes() == before
    assert not (tmp_path / "game.rgn.queue" / "Red").exists()


def test_an_illegal_action_in_a_queue_names_the_rule_and_what_was_meant(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    result = queue(path, "Red", "if B: a9(N) then R: f3(E)")
    assert result.exit_code == 1
    assert result.message == (
        'queue line 1, col 7: turn 1 Blue, action 1 "a9(N)": a9 is not on the board (files a-h, ranks 1-8)'
    )
    assert result.suggestions == ("a4(N)", "a5(N)", "a6(N)")


@pytest.mark.parametrize(
    ("moves", "side", "expected"),
    [
        (("f3(N)",), "Blue", "it is your move: play it"),
        (("f3(N)", "resign"), "Red", "the game is over"),
    ],
)
def test_a_queue_is_refused_on_its_side_s_move_and_after_the_end(
    tmp_path: Path, moves: tuple[str, ...], side: str, expected: str
) -> None:
    path = game(tmp_path, PIKEMEN, *moves)
    result = queue(path, side, "if R: f3(E) then B: a4(N)")
    assert result.exit_code == 1 and expected in result.message


def test_too_large_a_queue_is_refused(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    many = "\n".join(["if B: a4(N) then R: f3(E)"] * 65)
    assert queue(path, "Red", many).message == queue_lines_too_large()
    huge = "if B: a4(N) then R: f3(E)" + " " * (64 * 1024)
    assert queue(path, "Red", huge).message == queue_lines_too_large()


def queue_lines_too_large() -> str:
    from referee.live.play.queue_lines import TOO_LARGE

    return TOO_LARGE


def test_a_64_kb_queue_is_accepted_whole(tmp_path: Path) -> None:
    # Its speed is the bench's (`referee bench --queues`, docs/bench.md), never a timed test.
    path = game(tmp_path, PIKEMEN, "f3(N)")
    faces = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    text = "\n".join(
        " ".join(f"if B: a4({faces[(i + n) % 8]}) then R: f3({faces[(i + 3 + n % 4) % 8]})" for i in range(36))
        for n in range(64)
    )
    assert 60_000 < len(text.encode()) <= 64 * 1024
    result = queue(path, "Red", text)
    assert result.exit_code == 0, result.message
    assert len(queues.load(path, "Red").entries) == 1


# -- the commitment --------------------------------------------------------------------------


def test_a_queue_is_stored_0600_with_a_nonce_and_its_commitment_hashes_nonce_and_canonical_queue(
    tmp_path: Path,
) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    before = path.read_bytes()
    result = queue(path, "Red", "if B:   a4(NE)   then f3(e)\nif B: a4(N) then R: f3(NE)")
    assert result.exit_code == 0, result.message
    assert path.read_bytes() == before  # no token goes stale
    stored = tmp_path / "game.rgn.queue" / "Red"
    assert stat.S_IMODE(os.stat(stored).st_mode) == 0o600
    entry = queues.load(path, "Red").entries[-1]
    assert entry.canonical == "if B: a4(N) then R: f3(NE)\nif B: a4(NE) then R: f3(E)\n"
    assert entry.nonce is not None and len(entry.nonce) == 32
    assert result.commitment == queue_check.commitment(entry.nonce, entry.canonical)
    assert result.message == f"Red has queued replies; commitment {result.commitment}"
    (tmp_path / "again").mkdir()
    other = game(tmp_path / "again", PIKEMEN, "f3(N)")
    assert queue(other, "Red", "if B: a4(N) then R: f3(NE)").commitment != result.commitment  # a fresh nonce


def test_a_queue_folder_that_is_a_link_is_refused_and_nothing_is_written_where_it_points(tmp_path: Path) -> None:
    """A folder from someone else: `game.rgn.queue` linked to another folder must not make
    `queue` write (or read) there, and `play` does not take that folder's queues for this game's."""
    path = game(tmp_path, PIKEMEN, "f3(N)")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "game.rgn.queue").symlink_to(elsewhere)
    code, _, err = invoke("queue", str(path), "--as", "Red", "if B: a4(NE) then R: f3(E)")
    assert code == 2 and "is a symbolic link" in err and len(err.strip().splitlines()) == 1
    assert list(elsewhere.iterdir()) == []
    result = play(path, "a4(NE)", as_side="Blue")
    assert result.written and list(elsewhere.iterdir()) == []


def test_the_commitment_enters_the_record_before_the_next_turn_and_a_reply_is_played(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    commitment = queue(path, "Red", "if B: a4(NE) then R: f3(E) if B: a4(E) then R: f3(N)").commitment
    result = play(path, "a4(NE)", as_side="Blue")
    assert result.exit_code == 0
    assert "Red plays R: f3(E) (queued)" in result.events
    words = " ".join(path.read_text().split())  # (where the writer breaks its lines aside)
    assert f"1. R: f3(N) {{[%queued Red {commitment}]}} B: a4(NE) {{[%by-queue Red]}} 2. R: f3(E)" in words
    assert result.token == check_json(path)["token"]
    assert "next: Blue to move" in result.text()
    again = play(path, "a4(E)", as_side="Blue")
    assert "Red plays R: f3(N) (queued)" in again.events
    assert any(n.side == "Red" and "the queue is spent" in n.text for n in again.notices)


def test_no_line_matching_spends_the_queue_and_tells_its_side(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    queue(path, "Red", "if B: a4(NE) then R: f3(E)")
    result = play(path, "a4(N)", as_side="Blue")
    assert [str(n) for n in result.notices] == ["to Red: none of your queued lines answers B: a4(N): it is your move"]
    assert "(queued)" not in result.text()
    assert queues.load(path, "Red").entries[-1].spent
    assert "next: Red to move" in result.text()


def test_offers_stamps_and_grants_never_trigger_or_spend_a_queue(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN.replace("\n\n", '\n[Red "ann@example.org"]\n[Blue "bo@example.org"]\n\n'), "f3(N)")
    queue(path, "Red", "if B: a4(NE) then R: f3(E)")
    offered = play(path, "draw", as_side="Red")
    assert offered.exit_code == 0 and not offered.notices
    assert "[%queued" not in path.read_text()  # no turn appended yet
    assert queues.load(path, "Red").entries[-1].active
    assert "Red plays R: f3(E) (queued)" in play(path, "a4(NE)", as_side="Blue").events


def test_undo_spends_the_queues_committed_before_the_turn_taken_back(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    queue(path, "Red", "if B: a4(NE) then R: f3(E) if B: a4(E) then R: f3(N)")
    play(path, "a4(NE)", as_side="Blue")  # Red's reply played, the queue goes on
    result = play(path, "undo")
    assert result.exit_code == 0
    assert [n.text for n in result.notices] == [
        "your queued replies are spent: a turn after your commitment was taken back"
    ]


def test_a_cleared_queue_is_written_none_and_both_commitments_stay(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    first = queue(path, "Red", "if B: a4(NE) then R: f3(E)").commitment
    cleared = queue(path, "Red", None)
    assert cleared.exit_code == 0 and cleared.message == "Red has cleared its queued replies"
    play(path, "a4(NE)", as_side="Blue")
    text = path.read_text()
    assert f"{{[%queued Red {first}]}}" in text and "{[%queued Red none]}" in text
    assert "%by-queue" not in text


def test_chains_three_players_replies_played_in_turn_in_one_write(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN_3)
    assert queue(path, "Yellow", "if R: f3(N) then Y: a1(N)").exit_code == 0
    assert queue(path, "Blue", "if R: f3(N) Y: a1(N) then B: a6(N)").exit_code == 0
    result = play(path, "f3(N)", as_side="Red")
    queued = [event for event in result.events if "(queued)" in event]
    assert queued == ["Yellow plays Y: a1(N) (queued)", "Blue plays B: a6(N) (queued)"]
    words = " ".join(path.read_text().split())
    assert "1. R: f3(N) {[%by-queue Yellow]} Y: a1(N) {[%by-queue Blue]} B: a6(N)" in words
    assert result.verdict["to_move"] == "Red"


def test_a_condition_must_hold_every_turn_until_the_side_s_next_one(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN_3, "f3(N)")
    result = queue(path, "Red", "if Y: a1(N) then R: f3(E)")
    assert result.exit_code == 1 and "it is Blue's turn, not Red's" in result.message


def test_nika_two_actions_a_turn_three_cities_turns_allies_included(tmp_path: Path) -> None:
    path = game(tmp_path, NIKA, "d1-W d2-W")
    lines = "if R: a4-N b4-N B: d8-E e8-N K: j4-N k4-N then W: c1-W pass"
    assert queue(path, "Athens", lines).exit_code == 0
    assert queue(path, "Messene", "if K: j4-N k4-N then B: d8-E e8-N").exit_code == 1  # not in turn order
    for moves in ("R: a4-N b4-N", "B: d8-E e8-N"):
        assert "(queued)" not in play(path, moves).text()
    result = play(path, "K: j4-N k4-N")
    assert "Athens plays W: c1-W pass (queued)" in result.events


def test_nieuchess_a_battle_in_a_condition_is_written_with_its_outcome(tmp_path: Path) -> None:
    path = game(tmp_path, NIEUCHESS)
    bare = queue(path, "Blue", "if R: a1-b1 j20+k21xj21 then B: x30-x29")
    assert bare.exit_code == 1 and "written with its roll and result" in bare.message
    assert queue(path, "Blue", "if R: a1-b1 j20+k21xj21#5=EX(-j20,-j21) then B: x30-x29").exit_code == 0
    waiting = play(path, "a1-b1 j20+k21xj21")  # the die is drawn; Red's choice is awaited
    assert "(queued)" not in waiting.text()
    result = play(path, "(-j20,-j21)")
    assert "Blue plays B: x30-x29 (queued)" in result.events


def test_numica_queue(tmp_path: Path) -> None:
    path = game(tmp_path, NUMICA)
    code, out, _ = invoke("moves", str(path))
    first = out.splitlines()[1]
    assert play(path, first).exit_code == 0
    code, out, _ = invoke("moves", str(path))
    blue = out.splitlines()[1]
    probe = tmp_path / "probe"
    probe.mkdir()
    copy = probe / "game.rgn"
    copy.write_text(path.read_text())
    play(copy, blue)
    code, out, _ = invoke("moves", str(copy))
    red = out.splitlines()[1]
    assert queue(path, "Red", f"if B: {blue} then R: {red}").exit_code == 0
    assert f"Red plays R: {red} (queued)" in play(path, blue).events


# -- the reveal and check --------------------------------------------------------------------


def _finished(tmp_path: Path) -> tuple[Path, str]:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    queue(path, "Red", "if B: a4(E) then R: f3(E)")
    commitment = queue(path, "Red", "if B: a4(NE) then R: f3(E) if B: a4(E) then R: resign").commitment
    assert commitment is not None
    play(path, "a4(NE)")
    result = play(path, "a4(E)")
    assert result.verdict["status"] == "finished"
    return path, commitment


def test_at_the_end_every_committed_queue_is_revealed_in_commitment_order_and_check_verifies(
    tmp_path: Path,
) -> None:
    path, _ = _finished(tmp_path)
    text = path.read_text()
    reveals = [line for line in text.splitlines() if "[%revealed" in line]
    entries = queues.load(path, "Red").entries
    assert reveals == [
        f"{{[%revealed Red {entries[0].nonce} if B: a4(E) then R: f3(E)]}}",
        f"{{[%revealed Red {entries[1].nonce} if B: a4(NE) then R: f3(E) if B: a4(E) then R: resign]}}",
    ]
    verdict = check_json(path)
    assert verdict["status"] == "finished"
    assert verdict["queues"] == {"Red": {"queued": 2, "revealed": 2, "verified": True}}


def _illegal_at_a_brace(tmp_path: Path, old: str, new: str) -> str:
    """The finished game's record with its first OLD written NEW: `check` finds it illegal at
    the brace of a comment. The error's message."""
    path, _ = _finished(tmp_path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    verdict = check_json(path)
    assert verdict["status"] == "illegal", verdict
    error = verdict["error"]
    assert isinstance(error, dict)
    line = path.read_text().splitlines()[error["line"] - 1]
    assert line[error["column"] - 1] == "{"
    return str(error["message"])


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (" if B: a4(E) then R: resign]}", " if B: a4(E) then R: f3(S)]}", "does not match the commitment"),
        ("{[%revealed Red ", "{[%revealed Red 0", "does not match the commitment"),
        ("2. R: f3(E)", "2. R: f3(S)", "Red's reply f3(S) at line"),
        ("{[%queued Red sha256:", "{[%queued Red sha256:0", "does not match the commitment"),
        # a reveal or a commitment with its side changed
        ("{[%revealed Red ", "{[%revealed Blue ", "Blue's reveal at line 10 has no commitment"),
        ("{[%queued Red sha256:", "{[%queued Blue sha256:", "Red's reveal at line 10 does not match the commitment"),
    ],
)
def test_check_finds_a_tampered_reveal_or_reply_at_the_brace_of_its_comment(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert message in _illegal_at_a_brace(tmp_path, old, new)


def test_a_commitment_never_revealed_after_the_end_is_illegal(tmp_path: Path) -> None:
    path, _ = _finished(tmp_path)
    text = path.read_text()
    path.write_text("\n".join(line for line in text.splitlines() if "[%revealed" not in line) + "\n")
    verdict = check_json(path)
    assert verdict["status"] == "illegal"
    assert "is never revealed after the game's end" in verdict["error"]["message"]  # type: ignore[index]


def test_an_ongoing_game_s_queue_state_is_given_and_taken_as_given(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    queue(path, "Red", "if B: a4(NE) then R: f3(E)")
    play(path, "a4(NE)")
    assert check_json(path)["queues"] == {"Red": {"queued": 1, "revealed": 0, "verified": None}}
    (tmp_path / "plain").mkdir()
    assert "queues" not in check_json(game(tmp_path / "plain", PIKEMEN, "f3(N)"))


def test_reveal_queues_reveals_on_the_game_master_s_word(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    queue(path, "Red", "if B: a4(NE) then R: f3(E)")
    play(path, "a4(N)")  # spent
    code, out, err = invoke("reveal", str(path), "--queues")
    assert code == 0, err
    assert out.startswith("revealed: Red: 1 lines")
    assert check_json(path)["queues"] == {"Red": {"queued": 1, "revealed": 1, "verified": True}}
    code, out, _ = invoke("reveal", str(path), "--queues")
    assert (code, out.strip()) == (0, "no queue to reveal")  # nothing reveals it twice


# -- the command line ------------------------------------------------------------------------


def test_the_queue_command_sets_shows_and_clears(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    code, out, err = invoke("queue", str(path), "--as", "Red", "if B: a4(NE) then R: f3(E)")
    assert code == 0 and out.startswith("Red has queued replies; commitment sha256:"), err
    code, out, _ = invoke("queue", str(path), "--as", "Red", "--show")
    assert code == 0 and out.splitlines()[1:] == ["if B: a4(NE) then R: f3(E)"]
    code, out, _ = invoke("queue", str(path), "--as", "Red", "--show", "--json")
    assert json.loads(out)["lines"] == ["if B: a4(NE) then R: f3(E)"]
    code, out, _ = invoke("queue", str(path), "--as", "Red", "--clear")
    assert (code, out.strip()) == (0, "Red has cleared its queued replies")
    code, out, _ = invoke("queue", str(path), "--as", "Red", "if B: a9(N) then R: f3(E)")
    assert code == 1 and "did you mean: a4(N), a5(N), a6(N)?" in out
    code, out, err = invoke("queue", str(path), "--as", "Red", "-", stdin="if B: a4(N) then R: f3(E)\n")
    assert code == 0, err
    code, _, err = invoke("queue", str(path), "if B: a4(N) then R: f3(E)")
    assert code == 2 and "--as SIDE" in err
    code, _, err = invoke("queue", str(path), "--as", "Purple", "if B: a4(N) then R: f3(E)")
    assert code == 2 and "Traceback" not in err


def test_a_stale_token_refuses_a_queue(tmp_path: Path) -> None:
    path = game(tmp_path, PIKEMEN, "f3(N)")
    code, out, _ = invoke("queue", str(path), "--as", "Red", "--expect", "1-0000000000", "if B: a4(N) then R: f3(E)")
    assert code == 1 and "1-0000000000" in out
    assert not (tmp_path / "game.rgn.queue" / "Red").exists()


def test_in_a_timed_game_a_queued_reply_is_stamped_at_the_instant_of_the_move_it_answers(tmp_path: Path) -> None:
    timed = '[Game "pikemen"]\n[GameId "qt"]\n[TimeControl "3d+1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    path = game(tmp_path, timed)
    assert play(path, "f3(N)", "2026-12-01T13:00:00Z").exit_code == 0
    assert queue(path, "Red", "if B: a4(NE) then R: f3(E)").exit_code == 0
    result = play(path, "a4(NE)", "2026-12-02T09:30:00Z")
    assert "Red plays R: f3(E) (queued)" in result.events
    words = " ".join(path.read_text().split())
    assert (
        "B: a4(NE) {[%at 2026-12-02T09:30:00Z Blue]} {[%by-queue Red]} 2. R: f3(E) {[%at 2026-12-02T09:30:00Z Red]}"
        in words
    ), words
    verdict = check_json(path)
    assert verdict["status"] == "ongoing" and verdict["to_move"] == "Blue"
