"""`referee mail` as six subcommands (receive, imap, flush, check, log, add-player), and the
spellings of the single command before them, which keep working for one release with a
one-line notice (issue 50 item 3: cron lines and .forward files in the wild)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli.mail_spelling import new_spelling
from tests.helpers.mail import GM, message, nika_game, outbox_messages, run_mail

ANN = "Ann <ann@example.org>"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            ["mail", "--games", "g", "--smtp", "h:25", "--from", GM],
            ["mail", "receive", "g", "--smtp", "h:25", "--from", GM],
        ),
        (["mail", "--smtp=h:25", "--games=g", "--starttls"], ["mail", "receive", "g", "--smtp", "h:25", "--starttls"]),
        (
            ["mail", "--games", "g", "--imap", "imaps://gm@h/INBOX", "--idle"],
            ["mail", "imap", "g", "imaps://gm@h/INBOX", "--idle"],
        ),
        (
            ["mail", "--games", "g", "--flush", "--smtp", "h:25", "--keys", "k"],
            ["mail", "flush", "g", "--smtp", "h:25"],
        ),
        (["mail", "--check-games", "g"], ["mail", "check", "g"]),
        (["mail", "--games", "g", "--log"], ["mail", "log", "g", "20"]),
        (["mail", "--games", "g", "--log", "5", "--log-file", "j"], ["mail", "log", "g", "5", "--log-file", "j"]),
        (["mail", "--log", "--games", "g"], ["mail", "log", "g", "20"]),
        (["mail", "--games", "g", "--add-player", "a@b.org"], ["mail", "add-player", "g", "a@b.org"]),
    ],
)
def test_each_old_spelling_is_the_subcommand_it_meant(old: list[str], new: list[str]) -> None:
    assert new_spelling(old)[0] == new
    assert new_spelling(old)[1] is not None


def test_the_new_spellings_and_other_commands_pass_unchanged() -> None:
    for args in (["mail", "receive", "g"], ["mail", "--help"], ["mail", "log", "g", "3"], ["check", "--games"], []):
        assert new_spelling(args) == (args, None)
    # an option the old command never took: left for Click to refuse, naming it
    assert new_spelling(["mail", "--games", "g", "--frobnicate"]) == (["mail", "--games", "g", "--frobnicate"], None)


def test_the_configurations_mailbox_makes_an_old_mail_an_imap_pass() -> None:
    defaults = {"mail": {"imap": {"url": "imaps://gm@h/INBOX", "games_dir": "/srv/games"}}}
    assert new_spelling(["mail", "--games", "g"], defaults)[0] == ["mail", "imap", "g"]
    assert new_spelling(["mail", "--idle"], defaults)[0] == ["mail", "imap", "/srv/games", "--idle"]


def test_an_old_cron_line_still_plays_and_says_once_how_to_write_it_now(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    sent = message(ANN, "[g1]", "d1+d2+d3-W i3-E\n").as_bytes()
    done = run_mail(sent, "--games", str(tmp_path), "--from", GM, "--now", "2026-12-01T12:00:00Z")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "referee: mail: `mail --games GAMES` is the old spelling, kept until the next release: "
        "say `referee mail receive GAMES ...` (referee mail --help; docs/mail.md)"
    ]
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    assert len(outbox_messages(tmp_path / "outbox")) == 2  # the mover told, and the next to move


def test_the_subcommands_share_the_games_folder_and_say_what_is_missing(tmp_path: Path) -> None:
    nika_game(tmp_path)
    checked = run_mail(b"", "check", str(tmp_path))
    assert (checked.returncode, checked.stderr) == (0, "")
    assert "has an address for each side" in checked.stdout
    shown = run_mail(b"", "log", str(tmp_path))
    assert (shown.returncode, shown.stderr) == (0, "")
    missing = run_mail(b"", "receive", str(tmp_path / "nowhere"))
    assert missing.returncode == 2
    assert missing.stderr == f"referee: mail: the games folder {tmp_path / 'nowhere'}: no such folder\n"
    nofolder = run_mail(b"", "flush", env={"REFEREE_CONFIG": ""})
    assert nofolder.returncode == 2 and "give the games folder GAMES" in nofolder.stderr
    nourl = run_mail(b"", "imap", str(tmp_path), env={"REFEREE_CONFIG": ""})
    assert nourl.returncode == 2 and "give the mailbox URL" in nourl.stderr
    count = run_mail(b"", "log", str(tmp_path), "0")
    assert count.returncode == 2 and "Traceback" not in count.stderr
