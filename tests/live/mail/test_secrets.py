"""Secrets at rest (issue 44.4, docs/mail.md "The outbox is the game master's alone"): every
answer in the outbox is written 0600 and the outbox folder is 0700, made so and tightened
when it is looser, by the gateway, `league passphrases --issue`, `mail --flush` and the
IMAP path alike, whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.cli import invoke
from tests.helpers.imap import Dovecot
from tests.helpers.league import make_league
from tests.helpers.mail import GM, free_port, message, nika_game, run_mail

ANN = "Ann <ann@example.org>"
START = "2026-12-01T12:00:00Z"


@pytest.fixture(autouse=True)
def _open_umask() -> Iterator[None]:
    """A umask that lets others read new files (Debian's default): the modes are the referee's."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _private(outbox: Path) -> list[Path]:
    answers = sorted(outbox.glob("*.eml"))
    assert answers, "an answer is waiting"
    assert _mode(outbox) == 0o700
    assert {path.name: _mode(path) for path in answers} == {path.name: 0o600 for path in answers}
    return answers


def test_issued_passphrases_wait_in_a_private_outbox(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    make_league(folder, "--game", "nika", "--players", "2", names="Ann Bo", clear_outbox=True)
    done = invoke("league", "passphrases", str(folder), "--issue", "--now", START, "--from", GM)
    assert done.exit_code == 0, done.stderr
    answers = _private(folder / "outbox")
    assert sum("Key: " in path.read_text() for path in answers) == 2


def test_the_gateways_answers_are_private_and_a_looser_outbox_is_tightened(tmp_path: Path) -> None:
    nika_game(tmp_path)
    outbox = tmp_path / "outbox"
    outbox.mkdir(mode=0o755)
    old = outbox / "20261130T000000-old.eml"  # left by an older version, readable to all
    old.write_text(message(ANN, "[g1] old", "x\n").as_string())
    old.chmod(0o644)
    done = run_mail(message(ANN, "[g1]", "show\n").as_bytes(), "receive", str(tmp_path), "--from", GM)
    assert done.returncode == 0, done.stderr
    assert _mode(outbox) == 0o700
    new = [path for path in outbox.glob("*.eml") if path != old]
    assert len(new) == 1 and _mode(new[0]) == 0o600
    # mail --flush tightens what waits before it sends (here, to a server that is away: exit 75).
    flushed = run_mail(b"", "flush", str(tmp_path), "--smtp", f"127.0.0.1:{free_port()}")
    assert flushed.returncode == 75, flushed.stderr
    _private(outbox)


def test_a_new_outbox_is_private_in_a_new_folder(tmp_path: Path) -> None:
    nika_game(tmp_path)
    outbox = tmp_path / "answers" / "waiting"
    args = ("receive", str(tmp_path), "--from", GM, "--outbox", str(outbox))
    done = run_mail(message(ANN, "[g1]", "d1+d2+d3-W i3-E\n").as_bytes(), *args)
    assert done.returncode == 0, done.stderr
    assert len(_private(outbox)) == 2


@pytest.mark.needs_system
def test_the_imap_path_writes_private_answers(tmp_path: Path, dovecot: Dovecot) -> None:
    nika_game(tmp_path)
    dovecot.append(message(ANN, "[g1]", "d1+d2+d3-W i3-E\n").as_bytes())
    done = run_mail(b"", "imap", str(tmp_path), dovecot.url(), "--from", GM, env=dovecot.env)
    assert done.returncode == 0, done.stderr
    assert len(_private(tmp_path / "outbox")) == 2


def test_the_new_token_mail_after_a_leave_waits_in_a_private_outbox(tmp_path: Path) -> None:
    """The mail that tells the player to move a new token after a grant (issue 45.1) is an
    answer like the others: 0600 in the 0700 outbox (it was written 0644 by a plain write)."""
    folder = tmp_path / "lg"
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m", names="Ann Bo",
                extra="leave_days = 5\n", clear_outbox=True)  # fmt: skip
    assert invoke("league", "pair", str(folder), "--now", START, "--from", GM)[0] == 0
    for path in (folder / "outbox").glob("*.eml"):
        path.unlink()
    done = invoke("league", "leave", str(folder), "ann@example.org", "2d", "--now", "2026-12-01T13:00:00Z")
    assert done.exit_code == 0, done.stderr
    answers = _private(folder / "outbox")
    assert any("the token is now" in path.read_text() for path in answers)
