"""The log a game master reads (docs/mail.md, "The log"): `DIR/mail.log` keeps PLAY.md
§5.1's five fields; `--log-file PATH` gets one JSON object a message with the reason;
`referee mail log DIR [N]` prints the last N as a table."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.mail import GM, message, nika_game, run_mail

ANN = "Ann <ann@example.org>"


def _send(folder: Path, sender: str, body: str, *more: str, now: str = "2026-12-01T12:00:00Z") -> None:
    done = run_mail(
        message(sender, "[g1] x", body).as_bytes(), "receive", str(folder), "--from", GM, "--now", now, *more
    )
    assert done.returncode == 0, done.stderr


def test_every_message_is_a_json_line_with_its_reason_and_mail_log_keeps_five_fields(tmp_path: Path) -> None:
    nika_game(tmp_path)
    journal = tmp_path / "elsewhere.jsonl"
    _send(tmp_path, ANN, "d1+d2+d3-W i3-E\n", "--log-file", str(journal))
    _send(tmp_path, "Eve\x01 <eve@example.net>", "d1-W\n", "--log-file", str(journal), now="2026-12-01T12:05:00Z")
    _send(tmp_path, "Bo <bo@example.org>", "nonsense\n", now="2026-12-01T12:06:00Z")  # no --log-file: mail.log only
    rows = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [set(row) for row in rows] == [{"time", "message_id", "sender", "game", "outcome", "reason"}] * 2
    assert [(row["time"], row["sender"], row["game"], row["outcome"]) for row in rows] == [
        ("2026-12-01T12:00:00Z", "ann@example.org", "g1", "played"),
        ("2026-12-01T12:05:00Z", "eve@example.net", "g1", "stranger"),
    ]
    assert rows[0]["reason"] == "Ann (Athens) played in game g1:"
    assert "is not a player of game g1" in rows[1]["reason"]
    lines = (tmp_path / "mail.log").read_text().splitlines()
    assert [len(line.split(" ")) for line in lines] == [5, 5, 5]
    assert [line.split()[-1] for line in lines] == ["played", "stranger", "refused"]


def test_the_last_messages_print_as_a_table(tmp_path: Path) -> None:
    nika_game(tmp_path)
    journal = tmp_path / "j.jsonl"
    for minute in range(3):
        _send(
            tmp_path, "Eve <eve@example.net>", "d1-W\n", "--log-file", str(journal), now=f"2026-12-01T12:0{minute}:00Z"
        )
    shown = run_mail(b"", "log", str(tmp_path), "--log-file", str(journal))
    assert shown.returncode == 0, shown.stderr
    header, *rows = shown.stdout.splitlines()
    assert header.split() == ["time", "message-id", "sender", "game", "outcome", "reason"]
    assert [row.split()[0] for row in rows] == ["2026-12-01T12:00:00Z", "2026-12-01T12:01:00Z", "2026-12-01T12:02:00Z"]
    assert all("eve@example.net" in row and "stranger" in row and "not a player" in row for row in rows)
    last = run_mail(b"", "log", str(tmp_path), "1", "--log-file", str(journal))
    assert len(last.stdout.splitlines()) == 2 and "12:02:00Z" in last.stdout
    # Without --log-file: mail.log's lines, with no reason.
    plain = run_mail(b"", "log", str(tmp_path), "2")
    assert len(plain.stdout.splitlines()) == 3 and plain.stdout.splitlines()[-1].split()[-1] == "-"
    bad = run_mail(b"", "log", str(tmp_path), "0")
    assert bad.returncode == 2 and "at least 1" in bad.stderr


def test_a_damaged_or_huge_json_log_is_read_within_bounds(tmp_path: Path) -> None:
    nika_game(tmp_path)
    journal = tmp_path / "j.jsonl"
    journal.write_text("not json\n" + "x" * 100_000 + "\n" + '["a list"]\n')
    _send(tmp_path, ANN, "d1+d2+d3-W i3-E\n", "--log-file", str(journal))
    shown = run_mail(b"", "log", str(tmp_path), "--log-file", str(journal))
    assert shown.returncode == 0 and len(shown.stdout.splitlines()) == 2 and "played" in shown.stdout


def test_a_mail_log_that_is_a_link_is_never_appended_through(tmp_path: Path) -> None:
    """A games folder from someone else may hold `mail.log` as a link to a file of the
    user's (a shell's rc file): the gateway's append refuses it, in one line, and the file
    it names is untouched (it got the log line before)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("mine\n")
    folder = tmp_path / "games"
    folder.mkdir()
    nika_game(folder)
    (folder / "mail.log").symlink_to(victim)
    sent = message("Ann <ann@example.org>", "[g1] move", "d1-W d2-W\n")
    done = run_mail(sent.as_bytes(), "receive", str(folder), "--from", "gm@example.org")
    assert victim.read_text() == "mine\n"
    assert done.returncode == 2 and "mail.log is a symbolic link" in done.stderr, done.stderr
