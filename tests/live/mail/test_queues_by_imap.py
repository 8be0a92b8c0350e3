"""Conditional moves through `referee mail imap` (PLAY.md §9, §5): a queue and the move it
answers read from a real Dovecot mailbox in one pass, the queued reply played in the same
pass, every answer sent through a real SMTP server; a queue shown by IMAP reaches its sender
alone, and a refused queue is filed as refused with nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.imap import Dovecot
from tests.helpers.mail import GM, SmtpServer, message, run_mail, write_game

ANN, BO = "ann@example.org", "bo@example.org"
QUEUE = "if R: f3(N) then B: a4(NE)\nif R: f3(E) then B: a4(E)\n"


def _one_pass(
    games: Path, server: Dovecot, smtp: SmtpServer, *mails: tuple[str, str, str]
) -> tuple[Path, list[tuple[tuple[str, ...], str]]]:
    """A fresh game g1 in GAMES, MAILS (sender, subject, body) put in the mailbox and read in
    one pass of `referee mail imap`: the game's file, and each answer the SMTP server got
    (its recipients, its text)."""
    path = write_game(games, "g1", "pikemen", {"Red": ANN, "Blue": BO}, '[GameId "g1"]')
    smtp.take()
    server.append(*(message(sender, subject, body).as_bytes() for sender, subject, body in mails))
    done = run_mail(b"", "imap", str(games), server.url(), "--from", GM, "--smtp", smtp.address, env=server.env)
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    return path, [(tuple(sorted(received.recipients)), received.text) for received in smtp.take()]


@pytest.mark.needs_system
def test_a_queue_and_the_move_it_answers_in_one_pass_play_the_reply(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    path, told = _one_pass(
        tmp_path, dovecot, smtp, (f"Bo <{BO}>", "[g1] my replies", QUEUE), (f"Ann <{ANN}>", "[g1] my move", "f3(N)\n")
    )
    text = path.read_text(encoding="utf-8")
    assert "{[%queued Blue sha256:" in text and "{[%by-queue Blue]}" in text
    assert text.index("%queued Blue") < text.index("f3(N)") < text.index("a4(NE)")
    committed = [to for to, body in told if "Blue has queued replies; commitment sha256:" in body]
    assert committed and all(to == (ANN, BO) for to in committed)
    assert not any("a4(E)" in body for to, body in told)  # the untriggered line stays secret
    queued = [to for to, body in told if "Blue plays B: a4(NE) (queued)" in body]
    assert sorted({address for to in queued for address in to}) == [ANN, BO]
    spent = [to for to, body in told if "queue is spent" in body]
    assert spent and all(to == (BO,) for to in spent)
    folders = {name: len(found) for name, found in dovecot.folders().items()}
    assert folders == {"INBOX": 0, "referee.played": 2}


@pytest.mark.needs_system
def test_a_queue_shown_by_imap_goes_to_its_sender_and_a_refused_one_is_filed_as_refused(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    path, told = _one_pass(
        tmp_path,
        dovecot,
        smtp,
        (f"Bo <{BO}>", "[g1] replies", QUEUE),
        (f"Bo <{BO}>", "[g1] show me", "queue\n"),
        (f"Ann <{ANN}>", "[g1] mine", "if R: f3(N) then B: a4(NE)\n"),  # Red is to move
    )
    shown = [(to, body) for to, body in told if "if R: f3(E) then B: a4(E)" in body]
    assert [to for to, _ in shown] == [(BO,)]
    refused = [(to, body) for to, body in told if "was not stored" in body]
    assert [to for to, _ in refused] == [(ANN,)]
    assert not (tmp_path / "g1.rgn.queue" / "Red").exists()
    assert (tmp_path / "g1.rgn.queue" / "Blue").exists()
    assert "%queued" not in path.read_text(encoding="utf-8")  # no turn appended yet: nothing written
    folders = {name: len(found) for name, found in dovecot.folders().items()}
    assert folders == {"INBOX": 0, "referee.played": 2, "referee.refused": 1}
