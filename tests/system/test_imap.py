"""`referee mail --imap` as a game master runs it: real processes against a real Dovecot on
127.0.0.1 (tests/helpers/imap.py), the players' mail delivered into the game master's
mailbox by IMAP APPEND, the answers caught by a real SMTP server.

- A whole 2-player game played through the mailbox, with passphrases and tokens, each
  player answering the referee's last answer as a mail client does (the answer quoted
  below the new text, its boards, tokens and moves included), to the game's end.
- A poller killed (SIGKILL) in the middle of a pass and run again: every move played once,
  every message filed once, none left in the inbox."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.helpers.imap import Dovecot
from tests.helpers.mail import GM, SmtpServer, message, nika_game, run_mail, write_game
from tests.helpers.process import REFEREE, run_referee

ANN = "Ann <ann@example.org>"
BO = "Bo <bo@example.org>"
KEYS = {"ann@example.org": "ann's long passphrase", "bo@example.org": "bo's long passphrase"}
MOVE = "d1+d2+d3-W i3-E"


def _pass(games: Path, server: Dovecot, smtp: SmtpServer) -> subprocess.CompletedProcess[str]:
    done = run_mail(b"", "imap", str(games), server.url(), "--smtp", smtp.address, "--from", GM, env=server.env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done


def _reply(sender: str, answer: EmailMessage, body: str) -> bytes:
    """A reply as Gmail writes it: the new text, the attribution, the answer quoted."""
    quoted = "\n".join(f"> {line}".rstrip() for line in answer.get_body(("plain",)).get_content().splitlines())  # type: ignore[union-attr]
    text = f"{body}\n\nOn Tue, Dec 1, 2026 at 12:00 PM referee <{GM}> wrote:\n\n{quoted}\n"
    built = message(sender, str(answer["Subject"]), text, In_Reply_To=str(answer["Message-ID"]))
    return built.as_bytes()


def _only(smtp: SmtpServer, address: str) -> EmailMessage:
    [answer] = [received.message for received in smtp.take() if address in received.recipients]
    return answer


def _token(answer: EmailMessage) -> str:
    found = re.search(r"[Tt]oken:? (\d+-[0-9a-f]{10})", answer.get_body(("plain",)).get_content())  # type: ignore[union-attr]
    assert found is not None, answer
    return found.group(1)


@pytest.mark.needs_system
def test_a_two_player_game_played_whole_through_the_game_masters_mailbox(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    sides = {"Athens": ANN, "Sparta": BO, "Messene": ANN, "Thebes": BO}  # Nika for two: two cities each
    path = write_game(games, "duel", "nika", sides, '[Players "4"]')
    for address, passphrase in KEYS.items():
        added = run_mail(f"{passphrase}\n".encode(), "add-player", str(games), address)
        assert added.returncode == 0, added.stderr
    # Ann asks for the board (no token needed), then answers it with her move.
    dovecot.append(message(ANN, "[duel] a game?", f"Key: {KEYS['ann@example.org']}\nshow\n").as_bytes())
    _pass(games, dovecot, smtp)
    board = _only(smtp, "ann@example.org")
    turns = [  # two turns, then Ann offers a draw and Bo takes it: the game is over
        ("ann@example.org", ANN, MOVE),
        ("bo@example.org", BO, "a4-S b4-S"),
        ("ann@example.org", ANN, "draw"),
        ("bo@example.org", BO, "draw"),
    ]
    last = board
    for address, sender, move in turns:
        body = f"Hi,\n\n{move}\nKey: {KEYS[address]}\nToken: {_token(last)}\n\nCheers"
        dovecot.append(_reply(sender, last, body))
        _pass(games, dovecot, smtp)
        answers = smtp.take()
        assert answers and all("was not played" not in received.text for received in answers), answers[0].text
        other = "bo@example.org" if address == "ann@example.org" else "ann@example.org"
        last = next(received.message for received in answers if other in received.recipients)
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {MOVE}" in record and "a4-S b4-S" in record
    assert record.count(MOVE) == 1  # the quoted answers, which repeat the moves, were never played
    checked = run_referee("check", "--json", str(path), timeout=60)
    assert '"status": "finished"' in checked.stdout and '"draw": true' in checked.stdout, checked.stdout
    assert "game over" in last.get_body(("plain",)).get_content().lower()  # type: ignore[union-attr]
    folders = {name: len(found) for name, found in dovecot.folders().items()}
    assert folders == {"INBOX": 0, "referee.played": 5}
    outcomes = [line.split()[-1] for line in (games / "mail.log").read_text().splitlines()]
    assert outcomes == ["shown", "played", "played", "played", "played"]


@pytest.mark.needs_system
def test_a_poller_killed_mid_pass_and_run_again_loses_and_doubles_nothing(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    count = 8
    paths = [nika_game(tmp_path, f"g{number}") for number in range(count)]
    dovecot.append(*(message(ANN, f"[g{number}] opening", f"{MOVE}\n").as_bytes() for number in range(count)))
    command = [*REFEREE, "mail", "imap", str(tmp_path), dovecot.url()]
    command += ["--smtp", smtp.address, "--from", GM]
    poller = subprocess.Popen(
        command, env={**os.environ, **dovecot.env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    log = tmp_path / "mail.log"
    deadline = time.monotonic() + 120
    while not (log.exists() and len(log.read_text().splitlines()) >= 2):
        assert poller.poll() is None and time.monotonic() < deadline, "the poller ended before it could be killed"
        time.sleep(0.01)
    poller.send_signal(signal.SIGKILL)
    poller.wait(timeout=30)
    left = len(dovecot.folders()["INBOX"])
    assert 0 < left < count, "the kill did not land in the middle of the pass"
    done = run_mail(b"", *command[4:], env=dovecot.env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    for path in paths:  # nothing lost, nothing doubled: each move once
        assert path.read_text(encoding="utf-8").count(MOVE) == 1, path.name
    folders = dovecot.folders()
    assert {name: len(found) for name, found in folders.items()} == {"INBOX": 0, "referee.played": count}
    ids = Counter(
        re.search(rb"Message-ID: (<[^>]+>)", data, re.IGNORECASE).group(1) for data in folders["referee.played"]
    )  # type: ignore[union-attr]
    assert len(ids) == count and set(ids.values()) == {1}
    ledger = [line.split("\t")[0] for line in (tmp_path / "mail-ledger.tsv").read_text().splitlines()]
    assert sorted(ledger) == sorted(set(ledger)) and len(ledger) == count
    # Every game's players were told (an answer cut short by the kill waited in the outbox
    # and went with the next pass); at most the one answer in flight at the kill is sent twice.
    told = Counter(
        (re.search(r"\[(g\d+)\]", str(received.message["Subject"])).group(1), address)  # type: ignore[union-attr]
        for received in smtp.received
        for address in received.recipients
        if "played in game" in received.text
    )
    for number in range(count):
        for address in ("ann@example.org", "bo@example.org", "cy@example.org", "di@example.org"):
            assert told[(f"g{number}", address)] >= 1
    assert sum(told.values()) <= count * 4 + 4
    assert not list((tmp_path / "outbox").glob("*.eml"))


README = Path(__file__).resolve().parents[2] / "docs" / "guide" / "mail.md"  # the README's walk links it


def _example_and_cron(page: Path, example: str, lost: str, flags: int = 0) -> tuple[str, str]:
    """What the pattern EXAMPLE's group finds in the page, and the page's cron line (the
    page LOST them if not)."""
    text = page.read_text(encoding="utf-8")
    found = re.search(example, text, flags)
    cron = re.search(r"```\n\*/5 \* \* \* \* ([^\n]*)\n```", text)
    assert found and cron, f"{page.relative_to(Path(__file__).resolve().parents[2])} lost {lost} or its cron line"
    return found.group(1), cron.group(1)


def _readme_lines() -> tuple[str, str]:
    """The mail walk's line that writes ~/.referee-env, and its cron line."""
    return _example_and_cron(README, r"\n(\(umask 077; printf [^\n]*)\n", "its IMAP set-up")


@pytest.mark.needs_system
def test_the_readme_set_up_and_cron_line_run_against_a_real_dovecot(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    from tests.helpers.imap import PASSWORD

    env_line, cron = _readme_lines()
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    path = nika_game(home / "games")
    ours = {
        "'imap-app-password'": f"'{PASSWORD}'",
        "imaps://gm@example.org@imap.example.org/INBOX": dovecot.url(),
        "--smtp smtp.example.org:587 --starttls --smtp-user gm@example.org": f"--smtp {smtp.address}",
        "$HOME/.local/bin/referee": f"{sys.executable} -m referee",
    }
    for theirs, mine in ours.items():
        env_line, cron = env_line.replace(theirs, mine), cron.replace(theirs, mine)
    shell = {**os.environ, "HOME": str(home)}
    subprocess.run(["sh", "-c", env_line], env=shell, check=True, timeout=30)
    assert (home / ".referee-env").stat().st_mode & 0o077 == 0
    dovecot.append(message(ANN, "[g1] my move", f"{MOVE}\n").as_bytes())
    done = subprocess.run(["sh", "-c", cron], env=shell, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")
    assert {name: len(found) for name, found in dovecot.folders().items()} == {"INBOX": 0, "referee.played": 1}
    assert len(smtp.received) == 2
    assert '"outcome": "played"' in (home / "games-mail.jsonl").read_text()


CONFIG_PAGE = Path(__file__).resolve().parents[2] / "docs" / "config.md"


def _config_example() -> tuple[str, str]:
    """docs/config.md's config.toml for a provider's mailbox, and the cron line it shortens to."""
    example = r"<!-- config example:[^\n]*-->\n```toml\n(.*?)```"
    return _example_and_cron(CONFIG_PAGE, example, "its config.toml example", re.DOTALL)


@pytest.mark.needs_system
def test_the_config_file_example_makes_the_cron_line_referee_mail_alone(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    """The file of docs/config.md at its default place, the cron line `referee mail` with
    nothing else: the passwords come from the file (mode 0600), the move is played, the
    answers sent, the message filed and the log line written."""
    from tests.helpers.imap import PASSWORD

    toml, cron = _config_example()
    assert cron == "$HOME/.local/bin/referee mail", cron
    ours = {
        '"imap-app-password"': f'"{PASSWORD}"',
        '"imaps://gm@example.org@imap.example.org/INBOX"': f'"{dovecot.url()}"',
        '"smtp.example.org:587"': f'"{smtp.address}"',
        "starttls = true\n": "",
        'smtp-user = "gm@example.org"\n': "",
        'smtp-password = "smtp-app-password"\n': "",
    }
    for theirs, mine in ours.items():
        assert theirs in toml, theirs
        toml = toml.replace(theirs, mine)
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    path = nika_game(home / "games")
    file = home / ".config" / "referee" / "config.toml"
    file.parent.mkdir(parents=True)
    file.write_text(toml, encoding="utf-8")
    file.chmod(0o600)
    shell = {key: value for key, value in os.environ.items() if not key.startswith(("REFEREE_", "XDG_"))}
    shell["HOME"] = str(home)
    dovecot.append(message(ANN, "[g1] my move", f"{MOVE}\n").as_bytes())
    line = cron.replace("$HOME/.local/bin/referee", f"{sys.executable} -m referee")
    done = subprocess.run(["sh", "-c", line], env=shell, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")
    assert {name: len(found) for name, found in dovecot.folders().items()} == {"INBOX": 0, "referee.played": 1}
    assert len(smtp.received) == 2 and all(GM in str(received.message["From"]) for received in smtp.received)
    assert '"outcome": "played"' in (home / "games-mail.jsonl").read_text()
