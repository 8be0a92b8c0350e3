"""Long Subjects (issue 45.5): folded after a word, the first line carrying text, read back
by the email package as written; the gateway's answers and the league's mails alike."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

import pytest

from referee.league.notify import message
from referee.live.mail.compose import Answer, Kind, build
from referee.live.mail.incoming import Incoming

SUBJECTS = [
    # 70-78 characters: the standard folding put all of it on a second line, " Subject:" bare
    "game wrote Gus <lukasz.wisniewski@example.org> Blue=1d, <gus@example.org>",
    "Autumn: Gustavo <gustavo@example.org> substitutes for Bo <bo@example.org>",
    "Autumn 2026 of the North: Gustavo Alexander <gustavo.alexander@example.org> substitutes for Bo <bo@example.org>",
    "Automne à Genève: Zoë Łukasz <lukasz.wisniewski@example.org> substitutes for Bo",
    "x" * 75,
    "short one",
]


def _subject_lines(raw: bytes) -> list[bytes]:
    lines = raw.split(b"\n")
    start = next(index for index, line in enumerate(lines) if line.startswith(b"Subject:"))
    end = next(index for index in range(start + 1, len(lines)) if not lines[index].startswith((b" ", b"\t")))
    return lines[start:end]


def _checked(raw: bytes, subject: str) -> None:
    folded = _subject_lines(raw)
    assert folded[0].strip() != b"Subject:", f"the first line carries no text: {folded!r}"
    # a line passes 78 characters only where one word is longer than a line
    assert all(len(line) <= 78 or b" " not in line.removeprefix(b"Subject:").strip() for line in folded), folded
    assert all(not line.startswith(b"  ") for line in folded[1:]), folded
    mail = BytesParser(policy=policy.default).parsebytes(raw)
    assert str(mail["Subject"]) == subject


@pytest.mark.parametrize("subject", SUBJECTS)
def test_a_league_mail_folds_its_subject_after_a_word(subject: str) -> None:
    mail = message("referee@example.org", "ann@example.org", "Ann", subject, "body\n", 0)
    _checked(mail.as_bytes(), subject)
    _checked(mail.as_string().encode("utf-8"), subject)  # as the outbox writes it


@pytest.mark.parametrize("subject", SUBJECTS)
def test_a_gateway_answer_folds_its_subject_after_a_word(subject: str) -> None:
    incoming = Incoming("<m@example.org>", (), "ann@example.org", "", subject, (), None, False, False)
    answer = Answer(Kind.SHOW, (("ann@example.org", "Ann"),), "body\n")
    mail = build(answer, game_id="", incoming=incoming, sender="referee@example.org")
    assert isinstance(mail, EmailMessage)
    _checked(mail.as_string().encode("utf-8"), f"Re: {subject}")
