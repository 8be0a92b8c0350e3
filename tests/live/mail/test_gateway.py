"""`referee mail` as a mail transfer agent runs it: a real process reading a real message
on standard input, answering through a real SMTP server on 127.0.0.1 (PLAY.md §5)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from referee import store
from tests.conftest import EXAMPLES
from tests.helpers.mail import GM, SmtpServer, mail_gm, message, nika_game, outbox_messages, run_mail
from tests.helpers.process import REFEREE

ANN = "Ann <ann@example.org>"
BO = "Bo <bo@example.org>"
EVERYONE = {"ann@example.org", "bo@example.org", "cy@example.org", "di@example.org"}


def test_an_accepted_move_is_written_and_answered_to_every_player(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1] my first move", "d1+d2+d3-W i3-E\n\n-- \nAnn, from her phone\n", message_id="<a1@x.org>")
    code, err = mail_gm(tmp_path, smtp, sent.as_bytes())
    assert (code, err) == (0, "")
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    # PLAY.md §5.1: how to answer (and the token to write) only for the player to move, Bo.
    to_mover, to_others = smtp.take()
    assert to_mover.recipients == ("bo@example.org",)
    assert set(to_others.recipients) == EVERYONE - {"bo@example.org"}
    for answer in (to_mover, to_others):
        assert answer.sender == GM
        headers = answer.message
        assert headers["Subject"] == "Re: [g1] my first move"
        assert headers["In-Reply-To"] == "<a1@x.org>"
        assert headers["References"] == "<a1@x.org>"
        assert headers["Auto-Submitted"] == "auto-replied"
        text = answer.text
        assert "Ann (Athens) played in game g1:" in text
        assert "d1+d2+d3-W i3-E" in text
        assert "g1: ongoing: Sparta to move, round 1" in text
        assert "routed: Athens 0" in text  # the board
        assert re.search(r"next: Bo \(Sparta\) to move \(token 1-[0-9a-f]{10}\)", text)
        [svg] = list(headers.iter_attachments())  # the board drawn by referee.pictures
        assert svg.get_content_type() == "image/svg+xml" and svg.get_filename() == "g1.svg"
        assert b"<svg" in svg.get_content()
    token = re.search(r"\(token (1-[0-9a-f]{10})\)", to_mover.text)
    assert token is not None and f"Token: {token.group(1)}" in to_mover.text
    assert "Token:" not in to_others.text and "To play, answer" not in to_others.text


def test_a_refusal_goes_to_the_sender_alone_with_the_error_suggestions_and_board(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    path = nika_game(tmp_path)
    before = path.read_text()
    code, _ = mail_gm(tmp_path, smtp, message(ANN, "[g1] move", "d1+d2+d3-W d1-N\n").as_bytes())
    assert code == 0
    assert path.read_text() == before
    [answer] = smtp.take()
    assert answer.recipients == ("ann@example.org",)
    assert "was not played: nothing was written" in answer.text
    assert 'action 2 "d1-N": there is no piece on d1' in answer.text
    assert "Did you mean: " in answer.text
    assert "routed: Athens 0" in answer.text
    assert "next: Ann (Athens) to move" in answer.text


def test_a_player_not_to_move_is_told_whose_turn_it_is(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    code, _ = mail_gm(tmp_path, smtp, message(BO, "[g1]", "a4-S b4-S\n").as_bytes())
    assert code == 0
    assert "W:" not in path.read_text()
    [answer] = smtp.take()
    assert answer.recipients == ("bo@example.org",)
    assert "Athens is to move, not Sparta" in answer.text


def test_a_stranger_gets_no_answer_at_all(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    before = path.read_text()
    code, err = mail_gm(tmp_path, smtp, message("Eve <eve@evil.example>", "[g1]", "d1+d2+d3-W i3-E\n").as_bytes())
    assert code == 0
    assert "eve@evil.example is not a player of game g1: no answer" in err
    assert smtp.received == []
    assert path.read_text() == before
    assert not (tmp_path / "outbox").exists()


def test_the_from_address_is_compared_without_case(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    code, _ = mail_gm(tmp_path, smtp, message("ANN@Example.ORG", "[g1]", "d1+d2+d3-W i3-E\n").as_bytes())
    assert code == 0
    assert sum(len(answer.recipients) for answer in smtp.take()) == 4


def test_the_same_message_delivered_twice_plays_once(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n", message_id="<twice@x.org>").as_bytes()
    assert mail_gm(tmp_path, smtp, sent)[0] == 0
    once = path.read_text()
    code, err = mail_gm(tmp_path, smtp, sent)
    assert code == 0
    assert "<twice@x.org> was handled before (played): not played again" in err
    assert path.read_text() == once
    *first, repeat = smtp.take()
    assert sum(len(answer.recipients) for answer in first) == 4
    assert repeat.recipients == ("ann@example.org",)
    assert "it is not played again" in repeat.text
    assert "g1: ongoing: Sparta to move, round 1" in repeat.text
    assert "<twice@x.org>\tg1\tplayed\t" in (tmp_path / "mail-ledger.tsv").read_text()


def test_the_same_message_delivered_five_times_at_once_plays_once(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n", message_id="<racing@x.org>").as_bytes()
    command = [*REFEREE, "mail", "receive", str(tmp_path), "--smtp", smtp.address]
    running = [subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(5)]
    for process in running:
        _, err = process.communicate(sent, timeout=120)
        assert process.returncode == 0, err
    assert path.read_text().count("d1+d2+d3-W") == 1
    answers = smtp.take()
    assert sorted(len(answer.recipients) for answer in answers) == [1, 1, 1, 1, 1, 3]
    assert sum("it is not played again" in answer.text for answer in answers) == 4


def test_a_busy_game_exits_75_and_plays_nothing_then_the_retry_plays(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n", message_id="<busy@x.org>").as_bytes()
    with store.locked(path, 0):
        code, err = mail_gm(tmp_path, smtp, sent, "--wait", "0.3")
    assert code == 75
    assert "busy" in err
    assert "W:" not in path.read_text()
    assert smtp.received == []
    assert not (tmp_path / "mail-ledger.tsv").exists()
    assert mail_gm(tmp_path, smtp, sent)[0] == 0  # the mail system's retry
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()


def test_show_and_moves_answer_without_playing(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    before = path.read_text()
    assert mail_gm(tmp_path, smtp, message(BO, "[g1] board?", "show\n").as_bytes())[0] == 0
    assert mail_gm(tmp_path, smtp, message(BO, "[g1] moves?", "  Moves \n\n-- \nBo\n").as_bytes())[0] == 0
    shown, listed = smtp.take()
    assert shown.recipients == listed.recipients == ("bo@example.org",)
    assert "routed: Athens 0" in shown.text and "position: " in shown.text
    assert [part.get_content_type() for part in shown.message.iter_attachments()] == ["image/svg+xml"]
    assert list(listed.message.iter_attachments()) == []
    assert "next: Ann (Athens) to move (token 0-" in shown.text
    assert "To play, answer" not in shown.text  # Bo is not to move
    assert "Athens to move: 55 legal actions" in listed.text and "d1-W" in listed.text
    assert path.read_text() == before


def test_html_only_mail_is_read_as_text(tmp_path: Path, smtp: SmtpServer) -> None:
    # PLAY.md §5 (amended): converted and read as a plain body (client samples: test_html.py).
    path = nika_game(tmp_path)
    html = message(ANN, "[g1]")
    html.set_content("<p>d1+d2+d3-W i3-E</p>", subtype="html")
    assert mail_gm(tmp_path, smtp, html.as_bytes())[0] == 0
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    assert len(smtp.take()) == 2  # the player to move, the others


def test_a_stale_token_is_refused(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    assert mail_gm(tmp_path, smtp, message(ANN, "[g1]", "d1+d2+d3-W i3-E\n").as_bytes())[0] == 0
    smtp.take()
    stale = message(BO, "[g1]", "Token: 0-0000000000\na4-S b4-S\n")
    assert mail_gm(tmp_path, smtp, stale.as_bytes())[0] == 0
    [answer] = smtp.take()
    assert answer.recipients == ("bo@example.org",)
    assert "R:" not in path.read_text()
    assert "0-0000000000" in answer.text
    token = re.search(r"Token: (1-[0-9a-f]{10})", answer.text)
    assert token is not None
    fresh = message(BO, "Re: [g1]", f"a4-S b4-S\nToken: {token.group(1)}\n\nOn Monday Ann wrote:\n> Token: 0-0\n")
    assert mail_gm(tmp_path, smtp, fresh.as_bytes())[0] == 0
    assert "R: a4-S b4-S" in path.read_text()


def test_answers_go_to_the_outbox_without_smtp(tmp_path: Path) -> None:
    nika_game(tmp_path)
    done = run_mail(message(ANN, "[g1]", "d1+d2+d3-W i3-E\n").as_bytes(), "receive", str(tmp_path), "--from", GM)
    assert done.returncode == 0, done.stderr
    answers = outbox_messages(tmp_path / "outbox")
    assert {answer["Subject"] for answer in answers} == {"Re: [g1]"}
    assert sum(len(answer["To"].addresses) for answer in answers) == 4
    elsewhere = tmp_path / "sent"
    done = run_mail(message(BO, "[g1]", "show\n").as_bytes(), "receive", str(tmp_path), "--outbox", str(elsewhere))
    assert done.returncode == 0, done.stderr
    [shown] = outbox_messages(elsewhere)
    assert shown["From"].addresses[0].username == "referee"


def test_an_unreachable_smtp_server_keeps_the_answer_and_exits_75(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n", message_id="<down@x.org>").as_bytes()
    smtp.stop()
    done = run_mail(sent, "receive", str(tmp_path), "--smtp", smtp.address, "--from", GM)
    assert done.returncode == 75
    assert "cannot reach the SMTP server" in done.stderr and "the answer was kept in" in done.stderr
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    kept = outbox_messages(tmp_path / "outbox")
    assert sum(len(answer["To"].addresses) for answer in kept) == 4
    again = run_mail(sent, "receive", str(tmp_path), "--from", GM)  # the retry plays nothing twice
    assert again.returncode == 0
    assert path.read_text().count("W:") == 1


def test_a_finished_game_is_refused_without_the_game_masters_folders(tmp_path: Path, smtp: SmtpServer) -> None:
    won = (EXAMPLES / "nika-won.rgn").read_text().replace('[Athens "Ann"]', f'[Athens "{ANN}"]')
    (tmp_path / "won.rgn").write_text(won)
    assert mail_gm(tmp_path, smtp, message(ANN, "[won]", "d1-W\n").as_bytes())[0] == 0
    [answer] = smtp.take()
    assert "won.rgn:1: nika: finished: Athens+Messene win" in answer.text
    assert str(tmp_path) not in answer.text
    assert (tmp_path / "won.rgn").read_text() == won


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    nika_game(tmp_path)
    data = message(ANN, "[g1]", "show\n").as_bytes()
    cases = [
        (["receive", str(tmp_path / "missing")], "no such folder"),
        (["receive", str(tmp_path), "--smtp", "localhost"], "--smtp takes HOST:PORT"),
        (["receive", str(tmp_path), "--smtp", "localhost:25", "--smtp-user", "gm"], "REFEREE_SMTP_PASSWORD"),
        (["receive", str(tmp_path), "--starttls"], "need --smtp"),
        (["receive", str(tmp_path), "--from", "not an address"], "is not one e-mail address"),
        (["receive", str(tmp_path), "--keys", str(tmp_path / "nokeys")], "no such folder"),
    ]
    for args, words in cases:
        done = run_mail(data, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert words in done.stderr and "Traceback" not in done.stderr
    (tmp_path / "g2.rgn").write_text('[Game "nika"]\n[Athens "ann@example.org"]\n\n[Game "nika"]\n')
    done = run_mail(message(ANN, "[g2]", "show\n").as_bytes(), "receive", str(tmp_path))
    assert done.returncode == 2 and "must hold one game, it holds 2" in done.stderr


def test_answers_in_the_outbox_are_named_by_the_referees_clock_in_the_order_written(tmp_path: Path) -> None:
    from email.message import EmailMessage

    from referee.live.mail.delivery import waiting, write_outbox

    def write(path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")

    messages = []
    for number in range(5):
        message = EmailMessage()
        message["Subject"] = f"answer {number}"
        message.set_content("x")
        messages.append(message)
    now = 1_796_126_400  # 2026-12-01T12:00:00Z, as --now gives it
    paths = write_outbox(messages, tmp_path / "outbox", write, now)
    assert all(path.name.startswith("20261201T120000-") for path in paths)
    assert waiting(tmp_path / "outbox") == paths, "flush sends them in the order written"


def test_a_message_id_is_known_with_its_sender_another_players_reuse_is_played(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    # Issue 44.8: the ledger matched on Message-ID alone, so Bo's move that reused Ann's
    # Message-ID was dropped as a repeat without being read.
    path = nika_game(tmp_path)
    ann = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n", message_id="<same@x.org>").as_bytes()
    assert mail_gm(tmp_path, smtp, ann) == (0, "")
    bo = message(BO, "[g1]", "a4-S\n", message_id="<same@x.org>").as_bytes()
    code, err = mail_gm(tmp_path, smtp, bo)
    assert (code, err) == (0, "")
    assert "1. W: d1+d2+d3-W i3-E\nR: a4-S\n" in path.read_text()
    # A true repeat from the same sender is still played once.
    code, err = mail_gm(tmp_path, smtp, bo)
    assert code == 0 and "<same@x.org> was handled before (played): not played again" in err
    assert path.read_text().count("a4-S") == 1
    lines = (tmp_path / "mail-ledger.tsv").read_text().splitlines()
    assert [line.split("\t")[::4] for line in lines] == [
        ["<same@x.org>", "ann@example.org"],
        ["<same@x.org>", "bo@example.org"],
    ]


def test_a_ledger_line_written_without_a_sender_still_stops_its_repeat(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    (tmp_path / "mail-ledger.tsv").write_text("<old@x.org>\tg1\tplayed\tg1: ongoing: Athens to move\n")
    sent = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n", message_id="<old@x.org>").as_bytes()
    code, err = mail_gm(tmp_path, smtp, sent)
    assert code == 0 and "<old@x.org> was handled before (played): not played again" in err
    assert "W:" not in path.read_text()


def test_a_show_delivered_twice_is_answered_once(tmp_path: Path, smtp: SmtpServer) -> None:
    # Issue 44.9: a `show` (or `moves`) request delivered twice was answered twice.
    nika_game(tmp_path)
    for body, ident in (("show\n", "<show@x.org>"), ("moves\n", "<moves@x.org>")):
        sent = message(ANN, "[g1]", body, message_id=ident).as_bytes()
        assert mail_gm(tmp_path, smtp, sent) == (0, "")
        code, err = mail_gm(tmp_path, smtp, sent)
        assert code == 0 and f"{ident} was handled before (shown): not answered again" in err
        [answer] = smtp.take()
        assert answer.recipients == ("ann@example.org",)
    log = (tmp_path / "mail.log").read_text().split()
    assert log[4::5] == ["shown", "duplicate", "shown", "duplicate"]
    # The same request from another player, reusing the Message-ID, is answered.
    assert mail_gm(tmp_path, smtp, message(BO, "[g1]", "show\n", message_id="<show@x.org>").as_bytes()) == (0, "")
    [answer] = smtp.take()
    assert answer.recipients == ("bo@example.org",)
