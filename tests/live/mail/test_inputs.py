"""Whatever arrives, `referee mail` (a real process, the message on standard input) handles
it without a traceback: encodings, multipart, HTML, huge attachments, subjects with no ID
or with paths and line breaks, forged and missing senders."""

from __future__ import annotations

import base64
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers.mail import GM, SmtpServer, mail_gm_ok, message, nika_game, run_mail
from tests.helpers.process import REFEREE

ANN = "Ann <ann@example.org>"
MOVE = "d1+d2+d3-W i3-E"


def _played(path: Path) -> bool:
    return f"1. W: {MOVE}" in path.read_text(encoding="utf-8")


def _raw(headers: str, body: bytes) -> bytes:
    return headers.replace("\n", "\r\n").encode("ascii") + b"\r\n" + body


def test_base64_and_quoted_printable_bodies_are_decoded(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]")
    sent.set_content(f"{MOVE}\n", cte="base64")
    assert "base64" in sent["Content-Transfer-Encoding"]
    mail_gm_ok(tmp_path, smtp, sent.as_bytes())
    assert _played(path)
    second = message("Bo <bo@example.org>", "[g1]")
    second.set_content(
        "a4-S b4-S {" + "a long comment that quoted-printable must wrap " * 3 + "}\n", cte="quoted-printable"
    )
    mail_gm_ok(tmp_path, smtp, second.as_bytes())
    assert "2. R:" not in path.read_text() and "R: a4-S b4-S" in path.read_text()


@pytest.mark.parametrize(
    ("charset", "comment"),
    [("latin-1", "Athènes avance, déjà"), ("windows-1252", "Athènes avance – “vite” €5"), ("utf-8", "Ἀθῆναι ✓")],
)
def test_bodies_in_other_charsets_are_decoded(tmp_path: Path, smtp: SmtpServer, charset: str, comment: str) -> None:
    path = nika_game(tmp_path)
    body = f"{MOVE} {{{comment}}}\n".encode(charset)
    headers = f"From: {ANN}\nTo: {GM}\nSubject: [g1]\nMessage-ID: <cs-{charset}@x.org>\nMIME-Version: 1.0\n"
    headers += f'Content-Type: text/plain; charset="{charset}"\nContent-Transfer-Encoding: 8bit\n'
    mail_gm_ok(tmp_path, smtp, _raw(headers, body))
    assert comment in path.read_text(encoding="utf-8")
    answers = smtp.take()
    assert answers and all(comment in answer.text for answer in answers)


def test_eight_bit_text_without_a_charset_and_an_unknown_charset(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    headers = f"From: {ANN}\nTo: {GM}\nSubject: [g1]\nMessage-ID: <8bit@x.org>\n"
    mail_gm_ok(tmp_path, smtp, _raw(headers, f"{MOVE} {{déjà}}\n".encode("windows-1252")))
    assert "{déjà}" in path.read_text(encoding="utf-8")
    bo = "From: bo@example.org\nTo: gm@example.org\nSubject: [g1]\nMessage-ID: <unknown@x.org>\nMIME-Version: 1.0\n"
    bo += "Content-Type: text/plain; charset=x-no-such-charset\n"
    mail_gm_ok(tmp_path, smtp, _raw(bo, b"a4-S b4-S\n"))
    assert "R: a4-S b4-S" in path.read_text(encoding="utf-8")


def test_multipart_alternative_plays_the_plain_part_and_skips_a_20_mb_attachment(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    path = nika_game(tmp_path)
    # Built by hand: the email package takes seconds to encode 20 MB, a mail program does not.
    attachment = base64.encodebytes(os.urandom(20 * 2**20))
    headers = f"From: {ANN}\nTo: {GM}\nSubject: Re: [g1] round 1\nMessage-ID: <big@x.org>\nMIME-Version: 1.0\n"
    headers += 'Content-Type: multipart/mixed; boundary="outer"\n'
    body = (
        b'--outer\r\nContent-Type: multipart/alternative; boundary="inner"\r\n\r\n'
        b"--inner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        + f"{MOVE}\r\n\r\nOn Monday Bo wrote:\r\n> show\r\n> old board\r\n-- \r\nAnn\r\n".encode()
        + b"--inner\r\nContent-Type: text/html\r\n\r\n<p><b>d1-W</b></p>\r\n--inner--\r\n"
        b"--outer\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n"
        b'Content-Disposition: attachment; filename="big.bin"\r\n\r\n' + attachment + b"--outer--\r\n"
    )
    assert len(body) > 20 * 2**20
    # Over the 1 MB limit of PLAY.md §5.1 the player is told it is too large...
    mail_gm_ok(tmp_path, smtp, _raw(headers, body))
    assert not _played(path)
    [too_large] = smtp.take()
    assert too_large.recipients == ("ann@example.org",) and "larger than 1 MB" in too_large.text
    # ... and a game master who allows more (--max-size) gets the plain part played.
    done = run_mail(_raw(headers, body), "receive", str(tmp_path), "--smtp", smtp.address, "--max-size", "30000000")
    assert done.returncode == 0, done.stderr
    assert _played(path)
    assert sum(len(answer.recipients) for answer in smtp.take()) == 4


def test_a_greeting_above_the_moves_is_refused_with_its_place(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]")
    sent.set_content(f"Here it is:\n{MOVE}\n")
    sent.add_alternative(f"<p>Here it is: {MOVE}</p>", subtype="html")
    mail_gm_ok(tmp_path, smtp, sent.as_bytes())
    [answer] = smtp.take()
    assert answer.recipients == ("ann@example.org",)
    assert "line 1, col 1" in answer.text
    assert not _played(path)


def test_a_message_with_no_text_part_is_answered_with_a_request_for_plain_text(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    nika_game(tmp_path)
    sent = message(ANN, "[g1]")
    sent.set_content(b"\x89PNG....", maintype="image", subtype="png")
    mail_gm_ok(tmp_path, smtp, sent.as_bytes())
    [answer] = smtp.take()
    assert "holds no text" in answer.text


@pytest.mark.parametrize(
    "subject",
    ["no game here", "[]", "[../g1]", "[g1/../g1]", "[/etc/passwd]", "[g 1]", "[g1\\x]", "[g2]", "[..]", "[.]"],
)
def test_a_subject_naming_no_game_gets_no_answer(tmp_path: Path, smtp: SmtpServer, subject: str) -> None:
    path = nika_game(tmp_path)
    err = mail_gm_ok(tmp_path, smtp, message(ANN, subject, f"{MOVE}\n").as_bytes())
    assert "no answer" in err
    assert smtp.received == []
    assert not _played(path)


def test_line_breaks_in_the_subject_inject_no_header(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    bad = base64.b64encode(b"[g1] hi\r\nBcc: eve@evil.example\r\nX-Evil: 1").decode()
    headers = f"From: {ANN}\nTo: {GM}\nSubject: =?utf-8?b?{bad}?=\nMessage-ID: <inject@x.org>\n"
    mail_gm_ok(tmp_path, smtp, _raw(headers, f"{MOVE}\n".encode()))
    assert _played(path)
    for answer in smtp.take():
        assert "eve@evil.example" not in answer.recipients
        assert answer.message["Bcc"] is None and answer.message["X-Evil"] is None
        assert answer.message["Subject"] == "Re: [g1] hi Bcc: eve@evil.example X-Evil: 1"


def test_a_game_id_with_a_line_break_is_no_game(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    bad = base64.b64encode(b"[g1\r\nBcc: eve@evil.example]").decode()
    headers = f"From: {ANN}\nTo: {GM}\nSubject: =?utf-8?b?{bad}?=\nMessage-ID: <inject2@x.org>\n"
    err = mail_gm_ok(tmp_path, smtp, _raw(headers, f"{MOVE}\n".encode()))
    assert "names no game" in err
    assert smtp.received == []


def test_reply_to_is_ignored_answers_go_to_the_player_address(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    mail_gm_ok(tmp_path, smtp, message(ANN, "[g1]", "show\n", Reply_To="eve@evil.example").as_bytes())
    [answer] = smtp.take()
    assert answer.recipients == ("ann@example.org",)


NASTY: list[bytes] = [
    b"",
    b"\x00\xff\xfe garbage \x80\x81" * 100,
    b"just a line with no headers at all\n",
    b"From: \nSubject: [g1]\n\nd1-W\n",
    b"Subject: [g1]\n\nd1+d2+d3-W i3-E\n",
    b"From: ann@example.org\r\nFrom: eve@evil.example\r\nSubject: [g1]\r\n\r\nshow\r\n",
    b"From: =?x-nope?q?Ann?= <ann@example.org>\nSubject: =?utf-8?q?=5Bg1=5D_=FF=FE?=\nMessage-ID: <"
    + b"x" * 5000
    + b">\n\nshow\n",
    b'From: <<<ann@example.org>>>\nSubject: [g1]\nContent-Type: multipart/mixed; boundary="zz"\n\n--zz\n--zz--\n',
    b"From: ann@example.org\nSubject: [g1]\nContent-Type: multipart/mixed\n\nno boundary at all\n",
    b"From ann@example.org Mon Nov 23 09:00:00 2026\nFrom: ann@example.org\nSubject: [g1]\n\nshow\n",
    b"From: ann@example.org\nSubject: [g1]\nContent-Transfer-Encoding: base64\n\n!!!not base64!!!\n",
    b'From: ann@example.org\nSubject: [g1]\nContent-Type: text/plain; charset=""\n\nshow\n',
    b"From: ann@example.org\nSubject: [g1]\nAuto-Submitted: auto-replied\n\nI am on holiday\n",
    b"From: " + b"a" * 10000 + b"@example.org\nSubject: [" + b"g" * 5000 + b"]\n\nshow\n",
]


def _nested(depth: int) -> bytes:
    head = b"From: ann@example.org\nSubject: [g1]\n"
    parts = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(depth))
    return head + parts + b"Content-Type: text/plain\n\nshow\n"


def test_nasty_messages_never_raise(tmp_path: Path, smtp: SmtpServer) -> None:
    """Each message goes to its own `referee mail` process; they run side by side to save time."""
    cases = [*NASTY, _nested(300), _nested(5000)]
    folders = [tmp_path / f"case{index}" for index in range(len(cases))]
    running = []
    for folder, data in zip(folders, cases, strict=True):
        folder.mkdir()
        nika_game(folder)
        command = [*REFEREE, "mail", "receive", str(folder), "--smtp", smtp.address]
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        running.append((process, data))
    for (process, data), folder in zip(running, folders, strict=True):
        out, err = process.communicate(data, timeout=120)
        assert process.returncode == 0, (data[:60], err)
        assert b"Traceback" not in err and out == b""
        assert not _played(folder / "g1.rgn")
    for answer in smtp.received:
        assert set(answer.recipients) <= {"ann@example.org"}


def test_an_automatic_reply_is_never_answered(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    err = mail_gm_ok(tmp_path, smtp, message(ANN, "Re: [g1]", "show\n", Auto_Submitted="auto-replied").as_bytes())
    assert "Auto-Submitted" in err
    assert smtp.received == []


def test_mail_from_the_gateway_itself_is_never_answered(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    mail_gm_ok(tmp_path, smtp, message(GM, "[g1]", "show\n").as_bytes())
    assert smtp.received == []
