"""Issue 19, items 13 and 14: `check --email` reads a whole message as the gateway does
(NOTATION.md §9), and the gateway answers a greeting in a player's words and reads moves
between `moves:` and `end`."""

from __future__ import annotations

import subprocess
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.live.mail.body import Request, message_text, not_a_move, read_body
from tests.conftest import EXAMPLES
from tests.helpers.mail import message, nika_game, outbox_messages, run_mail
from tests.helpers.process import run_referee_bytes

RECORD = (EXAMPLES / "numica-finished.rgn").read_text(encoding="utf-8").replace("Club night", "Café night")
ANN = "Ann <ann@example.org>"


def email(body: str, cte: str | None, charset: str = "utf-8") -> bytes:
    built = EmailMessage()
    built["From"] = "Ana <ana@example.org>"
    built["To"] = "club@example.org"
    built["Subject"] = "our game"
    if cte is None:
        built.set_content(body)
    else:
        built.set_content(body, cte=cte, charset=charset)
    return bytes(built)


def check(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = run_referee_bytes("check", *args, input=stdin, timeout=60)
    assert b"Traceback" not in done.stderr
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


BODY = "Hallo Ben,\nhere is our game:\n\n" + RECORD + "\n-- \nAna, Grüße\n"


@pytest.mark.parametrize("cte", ["base64", "quoted-printable", "8bit", None])
def test_check_email_reads_a_whole_message_as_the_gateway_does(tmp_path: Path, cte: str | None) -> None:
    path = tmp_path / "game.eml"
    path.write_bytes(email(BODY, cte))
    for args, stdin in (((str(path),), None), (("-",), path.read_bytes())):
        done = check("--email", *args, stdin=stdin)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.endswith(": numica: finished: Blue wins (captures) after 70 turns\n")


def test_check_email_drops_quoted_records_and_counts_lines_in_the_decoded_text(tmp_path: Path) -> None:
    body = 'Bo wrote:\n> [Game "nika"]\n> [Result "1-0"]\n\n[Game "numica"]\n[Seed "s"]\n\nR: SSOOSOSO\nB: OSOS\n'
    path = tmp_path / "reply.eml"
    path.write_bytes(email(body, "base64"))
    done = check("--email", "--json", str(path))
    assert done.returncode == 1
    [line] = done.stdout.splitlines()
    assert '"game": "numica"' in line and '"status": "illegal"' in line
    assert '"line": 9, "column": 4' in line  # the 9th line of the decoded text


def test_check_email_of_a_message_with_no_text_part_finds_no_record(tmp_path: Path) -> None:
    built = EmailMessage()
    built["From"] = "a@example.org"
    built.set_content('<p>[Game "nika"]</p>', subtype="html")
    path = tmp_path / "html.eml"
    path.write_bytes(bytes(built))
    done = check("--email", str(path))
    assert done.returncode == 1
    assert done.stderr == f"referee: {path}: the message holds only HTML, no text/plain part, so no record\n"


def test_plain_check_decodes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.eml"
    path.write_bytes(email(BODY, "quoted-printable"))
    assert check("-", stdin=path.read_bytes()).returncode == 1


def test_message_text_blanks_quoted_lines_and_drops_the_signature() -> None:
    data = email("mine\nOn Monday Bo wrote:\n> his\n>\nmine again\n-- \nsig\n", "quoted-printable")
    read = message_text(data)
    assert read.text == "mine\n\n\n\nmine again" and not read.html


# -- item 14: greetings, sign-offs and the moves block ----------------------------------


def test_moves_between_a_moves_line_and_end_are_read_alone() -> None:
    body = "Hallo Bo,\nhere it comes\nmoves:\nd1+d2+d3-W i3-E\nend\nGrüße\nAnn\nKey: sesame\n"
    read = read_body(body)
    assert (read.request, read.moves, read.key) == (Request.PLAY, "d1+d2+d3-W i3-E", "sesame")
    assert read_body("Hi\nMoves:\n  d1-W d2-W  \n\n-- \nAnn\n").moves == "d1-W d2-W"  # to the end
    # Without the block a greeting and a sign-off are left out (docs/mail.md), any other line stays: strict.
    assert read_body("Hallo Bo,\nd1-W d2-W\nGrüße\n").moves == "d1-W d2-W"
    assert read_body("Hallo Bo,\nhere it comes\nd1-W d2-W\n").moves == "here it comes\nd1-W d2-W"


def test_a_line_that_is_no_move_is_named_in_a_player_s_words() -> None:
    error = 'submission: nika: malformed: line 3, col 1: expected a side label such as "W:" or "Athens:", found "Grüße"'
    hint = not_a_move("d1-W\nd2-W\nGrüße", error, "d1-W")
    assert hint is not None
    words = " ".join(hint.split())
    assert words.startswith('The line "Grüße" is not a move, so nothing was played')
    assert '(like "d1-W")' in words and "`moves:`" in words and "`end`" in words
    assert max(len(line) for line in hint.splitlines()) <= 72
    assert not_a_move("d1-W", "submission: nika: illegal: line 1, col 1: ...", None) is None


def _send(tmp_path: Path, body: str) -> tuple[str, str]:
    game_file = nika_game(tmp_path)
    done = run_mail(
        message(ANN, "[g1] move", body).as_bytes(), "receive", str(tmp_path), "--outbox", str(tmp_path / "out")
    )
    assert done.returncode == 0, done.stderr
    texts = []
    for answer in outbox_messages(tmp_path / "out"):  # an accepted move: one to the player to move, one to the others
        text = answer.get_body(preferencelist=("plain",))
        assert text is not None
        texts.append(text.get_content())
    assert texts
    return "\n".join(texts), game_file.read_text(encoding="utf-8")


def test_a_line_of_chat_refuses_the_submission_and_the_answer_says_why(tmp_path: Path) -> None:
    answer, record = _send(tmp_path, "Hallo Bo,\nhere it comes:\n\nd1+d2+d3-W i3-E\n\nGrüße\nAnn\n")
    assert "W:" not in record  # strict: nothing played
    assert "was not played: nothing was written" in answer
    words = " ".join(answer.split())
    assert 'The line "here it comes:" is not a move' in words
    assert "`moves:`" in words and "`end`" in words


def test_moves_between_markers_are_played_by_mail(tmp_path: Path) -> None:
    answer, record = _send(tmp_path, "Hallo Bo,\nmoves:\nd1+d2+d3-W i3-E\nend\nGrüße\nAnn\n")
    assert "1. W: d1+d2+d3-W i3-E" in record
    assert "Ann (Athens) played in game g1:" in answer
