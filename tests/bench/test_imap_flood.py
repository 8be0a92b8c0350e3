"""`python -m referee.bench.mail --imap URL` (referee/bench/imap_bench.py): the flood it measures is
really filed, on a real Dovecot; a bench, so no time is asserted here."""

from __future__ import annotations

import pytest

from referee.bench import mail as bench
from referee.bench.imap_bench import flood
from tests.helpers.imap import PASSWORD, Dovecot


@pytest.mark.needs_system
def test_the_flood_is_filed_as_ignored_and_nobody_is_answered(
    dovecot: Dovecot, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REFEREE_IMAP_PASSWORD", PASSWORD)
    flooded = flood(dovecot.url(), 30)
    assert (flooded.exit_code, flooded.ignored, flooded.answers) == (0, 30, 0)
    assert flooded.said.endswith("30 messages handled (30 stranger)")
    assert bench.main(["--imap", dovecot.url(), "--count", "5"]) == 0  # the mailbox is empty again: 5 more
    assert "one pass over 5 strangers' messages: exit 0" in capsys.readouterr().out
    dovecot.append(b"From: a@b.example\r\nSubject: x\r\n\r\nx\r\n")
    assert bench.main(["--imap", dovecot.url(), "--count", "5"]) == 2  # never a mailbox that holds mail
    assert "not empty" in capsys.readouterr().err


def test_the_bench_wants_a_password(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("REFEREE_IMAP_PASSWORD", raising=False)
    assert bench.main(["--imap", "imap://gm@127.0.0.1:1/INBOX", "--count", "1"]) == 2
    assert "REFEREE_IMAP_PASSWORD" in capsys.readouterr().err


def test_referee_bench_imap_says_in_one_line_what_it_cannot_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers.cli import invoke
    from tests.helpers.mail import free_port

    monkeypatch.setenv("REFEREE_IMAP_PASSWORD", "x")
    done = invoke("bench", "--imap", f"imap://gm@127.0.0.1:{free_port()}/INBOX", "--flood", "1")
    assert done.exit_code == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "--imap imap://gm@127.0.0.1" in done.stderr
