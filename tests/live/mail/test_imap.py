"""`referee mail --imap URL` against a real Dovecot on 127.0.0.1 (tests/helpers/imap.py),
the players' messages delivered into its mailbox by IMAP APPEND, the answers caught by a
real SMTP server: each message handled once and moved to `referee.played`, `referee.refused`
or `referee.ignored` (Dovecot's delimiter is `.`), a busy game's message left unseen."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from referee import store
from referee.live import mail as gateway
from referee.live.mail import imap
from referee.live.mail.gateway_values import Handled, Settings
from tests.helpers.imap import PASSWORD, USER, Dovecot
from tests.helpers.mail import GM, SmtpServer, free_port, message, nika_game, outbox_messages, run_mail
from tests.helpers.process import REFEREE

ANN = "Ann <ann@example.org>"
BO = "Bo <bo@example.org>"
CY = "Cy <cy@example.org>"
DI = "Di <di@example.org>"
MOVE = "d1+d2+d3-W i3-E"


def _imap(
    games: Path, server: Dovecot, *more: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = run_mail(b"", "imap", str(games), server.url(), "--from", GM, *more, env=env or server.env)
    assert "Traceback" not in done.stderr
    return done


def _counts(server: Dovecot) -> dict[str, int]:
    return {name: len(found) for name, found in server.folders().items()}


@pytest.mark.needs_system
def test_one_pass_handles_every_message_and_files_each_by_its_outcome(
    tmp_path: Path, dovecot: Dovecot, smtp: SmtpServer
) -> None:
    path = nika_game(tmp_path)
    dovecot.append(
        message(BO, "[g1] too soon", "a4-S\n").as_bytes(),  # Sparta is not to move yet: refused
        message(ANN, "[g1] my move", f"{MOVE}\n").as_bytes(),
        message("Eve <eve@example.net>", "[g1] hello", "d1-W\n").as_bytes(),
        message(ANN, "[g1] away", "back soon\n", Auto_Submitted="auto-replied").as_bytes(),
        message(ANN, "no game named", "d1-W\n").as_bytes(),
    )
    done = _imap(tmp_path, dovecot, "--smtp", smtp.address)
    assert done.returncode == 0, done.stderr
    assert "5 messages handled (1 automatic, 1 no-game, 1 played, 1 refused, 1 stranger)" in done.stderr
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8") and "a4-S" not in path.read_text(encoding="utf-8")
    assert _counts(dovecot) == {"INBOX": 0, "referee.played": 1, "referee.refused": 1, "referee.ignored": 3}
    told = Counter(address for received in smtp.received for address in received.recipients)
    assert told == Counter({"bo@example.org": 2, "ann@example.org": 1, "cy@example.org": 1, "di@example.org": 1})
    assert not list((tmp_path / "outbox").glob("*.eml"))  # sent, none waiting
    # A second pass finds nothing to do, and says nothing (issue 45.8: cron mails every line).
    again = _imap(tmp_path, dovecot, "--smtp", smtp.address)
    assert again.returncode == 0 and again.stderr == ""


@pytest.mark.needs_system
def test_a_busy_game_leaves_its_message_unseen_for_the_next_pass(tmp_path: Path, dovecot: Dovecot) -> None:
    path = nika_game(tmp_path)
    dovecot.append(message(ANN, "[g1]", f"{MOVE}\n").as_bytes())
    with store.locked(path, 0):
        done = _imap(tmp_path, dovecot, "--wait", "0.3")
    assert done.returncode == 75, done.stderr
    assert "1 message left for the next pass" in done.stderr
    assert _counts(dovecot) == {"INBOX": 1}
    assert all(b"\\Seen" not in flags for flags in dovecot.flags())
    assert "W:" not in path.read_text(encoding="utf-8")
    done = _imap(tmp_path, dovecot)
    assert done.returncode == 0
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")
    assert _counts(dovecot) == {"INBOX": 0, "referee.played": 1}


@pytest.mark.needs_system
def test_the_same_message_twice_is_played_once_and_both_filed_as_played(tmp_path: Path, dovecot: Dovecot) -> None:
    path = nika_game(tmp_path)
    data = message(ANN, "[g1]", f"{MOVE}\n", message_id="<twice@example.org>").as_bytes()
    dovecot.append(data, data)
    done = _imap(tmp_path, dovecot)
    assert done.returncode == 0 and "(1 duplicate, 1 played)" in done.stderr
    assert path.read_text(encoding="utf-8").count(MOVE) == 1
    assert _counts(dovecot) == {"INBOX": 0, "referee.played": 2}


def _settings(games: Path) -> Settings:
    return gateway.settings(games, sender=GM, now="2026-12-01T12:00:00Z")


def _login() -> imap.Login:
    return imap.Login(PASSWORD, None)


@pytest.mark.needs_system
def test_a_message_recorded_as_handled_is_moved_without_being_handled_again(tmp_path: Path, dovecot: Dovecot) -> None:
    # A pass cut short between the handling and the move: the next one only moves it.
    nika_game(tmp_path)
    dovecot.append(message(ANN, "[g1]", f"{MOVE}\n").as_bytes())
    box = imap.parse_url(dovecot.url())
    client = dovecot.client()
    validity = int(client.select_folder("INBOX")[b"UIDVALIDITY"])
    [uid] = client.search()
    client.logout()
    (tmp_path / imap.STATE_NAME).write_text(f"{validity}\t{uid}\trefused\t{box}\n")

    def handler(data: bytes, settings: Settings, too_large: bool) -> Handled:
        raise AssertionError("handled twice")

    with imap.connected(box, _login()) as connection:
        done = imap.one_pass(connection, _settings(tmp_path), handler)
    assert done.left == 0 and not done.outcomes
    assert _counts(dovecot) == {"INBOX": 0, "referee.refused": 1}
    assert (tmp_path / imap.STATE_NAME).read_text() == f"{validity}\t{uid}\trefused\t{box}\n"
    with imap.connected(box, _login()) as connection:  # the next pass forgets the line: the UID is gone
        imap.one_pass(connection, _settings(tmp_path), handler)
    assert (tmp_path / imap.STATE_NAME).read_text() == ""


@pytest.mark.needs_system
def test_no_more_than_the_size_limit_is_fetched(tmp_path: Path, dovecot: Dovecot) -> None:
    nika_game(tmp_path)
    dovecot.append(message(ANN, "[g1] big", f"{MOVE}\n" + "x" * 80 + "\n" * 3 + ("y" * 76 + "\n") * 40000).as_bytes())
    seen: list[tuple[int, bool]] = []

    def handler(data: bytes, settings: Settings, too_large: bool) -> Handled:
        seen.append((len(data), too_large))
        return gateway.handle_bytes(data, settings, too_large)

    box = imap.parse_url(dovecot.url())
    settings = gateway.settings(tmp_path, sender=GM, max_size=100_000)
    with imap.connected(box, _login()) as connection:
        done = imap.one_pass(connection, settings, handler)
    assert seen == [(100_000, True)]
    assert done.outcomes == Counter({"too-large": 1})
    assert _counts(dovecot) == {"INBOX": 0, "referee.refused": 1}


@pytest.mark.needs_system
def test_a_wrong_password_is_a_usage_error_and_a_server_away_is_exit_75(tmp_path: Path, dovecot: Dovecot) -> None:
    nika_game(tmp_path)
    wrong = _imap(tmp_path, dovecot, env={"REFEREE_IMAP_PASSWORD": "not-it"})
    assert wrong.returncode == 2 and "refused the login" in wrong.stderr
    secret = tmp_path / "password"
    secret.write_text(PASSWORD + "\n")
    right = _imap(tmp_path, dovecot, "--imap-password-file", str(secret), env={"REFEREE_IMAP_PASSWORD": ""})
    assert right.returncode == 0, right.stderr
    away = run_mail(b"", "imap", str(tmp_path), f"imap://{USER}@127.0.0.1:{free_port()}/INBOX", env=dovecot.env)
    assert away.returncode == 75 and "cannot reach" in away.stderr and "Traceback" not in away.stderr


def test_the_mailbox_url_is_read_strictly() -> None:
    assert imap.parse_url("imaps://gm%40example.org@imap.example.org/INBOX") == imap.Mailbox(
        True, "gm@example.org", "imap.example.org", 993, "INBOX"
    )
    assert imap.parse_url("imap://gm@127.0.0.1:1143/Games/Moves") == imap.Mailbox(
        False, "gm", "127.0.0.1", 1143, "Games/Moves"
    )
    assert imap.parse_url("imaps://gm@imap.example.org").folder == "INBOX"
    assert imap.parse_url("imap://gm@localhost/INBOX").loopback
    assert not imap.parse_url("imap://gm@imap.example.org/INBOX").loopback
    for bad in ("http://gm@x/INBOX", "imaps://imap.example.org/INBOX", "imaps://gm:pw@x/INBOX", "imaps://gm@x:99999/"):
        with pytest.raises(gateway.UsageError):
            imap.parse_url(bad)


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        ((), {}, "needs a password"),
        (("--poll", "60"), {"REFEREE_IMAP_PASSWORD": "x"}, None),
        (("--imap-password-file", "/dev/null"), {}, "not a regular file"),
        (("--poll", "60", "--idle"), {"REFEREE_IMAP_PASSWORD": "x"}, "exclude each other"),
    ],
)
def test_usage_errors_of_imap_exit_2_in_one_line(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], said: str | None
) -> None:
    if said is None:  # --poll is an option of `mail imap` alone
        done = run_mail(b"", "receive", str(tmp_path), *args, env=env)
        said = "No such option '--poll'"
    else:
        clean = {"REFEREE_IMAP_PASSWORD": "", "REFEREE_IMAP_OAUTH2_TOKEN": "", **env}
        done = run_mail(b"", "imap", str(tmp_path), "imap://gm@127.0.0.1:1/INBOX", *args, env=clean)
    assert done.returncode == 2
    assert said in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_password_file_is_read_within_bounds(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(gateway.UsageError, match="not a regular file"):
        imap.login_from(fifo)
    big = tmp_path / "big"
    big.write_text("x" * 5000)
    with pytest.raises(gateway.UsageError, match="longer than 4096 bytes"):
        imap.login_from(big)
    good = tmp_path / "good"
    good.write_text("  app password  \nignored\n")
    assert imap.login_from(good) == imap.Login("app password", None)
    assert imap.login_from(None, {"REFEREE_IMAP_OAUTH2_TOKEN": "ya29.token"}) == imap.Login(None, "ya29.token")
    assert "ya29" not in repr(imap.login_from(None, {"REFEREE_IMAP_OAUTH2_TOKEN": "ya29.token"}))
    assert re.fullmatch(r"Login\(password\)", repr(imap.login_from(good)))


@pytest.mark.needs_system
def test_a_broken_game_file_leaves_its_message_and_the_pass_goes_on(tmp_path: Path, dovecot: Dovecot) -> None:
    nika_game(tmp_path, "good")
    (tmp_path / "bad.rgn").write_text("not a record at all {\n")
    dovecot.append(message(ANN, "[bad] x", f"{MOVE}\n").as_bytes(), message(ANN, "[good] x", f"{MOVE}\n").as_bytes())
    done = _imap(tmp_path, dovecot)
    assert done.returncode == 75 and "left in the mailbox" in done.stderr
    assert _counts(dovecot) == {"INBOX": 1, "referee.played": 1}


@pytest.mark.needs_system
@pytest.mark.parametrize("mode", [("--poll", "1"), ("--idle",)])
def test_poll_and_idle_keep_running_and_handle_mail_as_it_arrives(
    tmp_path: Path, dovecot: Dovecot, mode: tuple[str, ...]
) -> None:
    import time

    path = nika_game(tmp_path)
    command = [*REFEREE, "mail", "imap", str(tmp_path), dovecot.url(), *mode]
    poller = subprocess.Popen(
        command, env={**os.environ, **dovecot.env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        time.sleep(1.5)  # the first pass, on an empty mailbox
        assert poller.poll() is None
        dovecot.append(message(ANN, "[g1] later", f"{MOVE}\n").as_bytes())
        deadline = time.monotonic() + 60
        while f"1. W: {MOVE}" not in path.read_text(encoding="utf-8"):
            assert poller.poll() is None and time.monotonic() < deadline, "the move was never played"
            time.sleep(0.1)
        while _counts(dovecot).get("referee.played") != 1:
            assert time.monotonic() < deadline
            time.sleep(0.1)
    finally:
        poller.terminate()
        _, err = poller.communicate(timeout=30)
    assert "Traceback" not in err


@pytest.mark.needs_system
def test_an_oauth2_token_is_offered_with_xoauth2(tmp_path: Path, dovecot: Dovecot) -> None:
    # This Dovecot has no OAuth2 set up: it refuses the mechanism, and says which it was offered.
    token = {"REFEREE_IMAP_PASSWORD": "", "REFEREE_IMAP_OAUTH2_TOKEN": "ya29.a-token"}
    done = _imap(tmp_path, dovecot, env=token)
    assert done.returncode == 2 and "refused the login" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "ya29" not in done.stderr
    assert "method=XOAUTH2" in dovecot.log()


@pytest.mark.needs_system
def test_a_mailbox_that_cannot_work_is_a_usage_error_in_plain_words(tmp_path: Path, dovecot: Dovecot) -> None:
    # Issue 45.8: a missing folder and imaps:// to a server without TLS exited 75 ("the next
    # pass tries again"), which it never would; a refused login showed a Python bytes repr.
    nika_game(tmp_path)
    missing = run_mail(b"", "imap", str(tmp_path), dovecot.url("Games"), env=dovecot.env)
    assert missing.returncode == 2, missing.stderr
    assert missing.stderr.strip().splitlines() == [
        f'referee: mail: imap://gm@127.0.0.1:{dovecot.port}/Games: the server has no folder "Games" '
        "(the URL names it after the last /)"
    ]
    plain = f"imaps://{USER}@127.0.0.1:{dovecot.port}/INBOX"
    no_tls = run_mail(b"", "imap", str(tmp_path), plain, env=dovecot.env)
    assert no_tls.returncode == 2, no_tls.stderr
    assert len(no_tls.stderr.strip().splitlines()) == 1 and "does not answer with TLS" in no_tls.stderr
    wrong = _imap(tmp_path, dovecot, env={"REFEREE_IMAP_PASSWORD": "not-it"})
    assert wrong.returncode == 2 and "refused the login: [AUTHENTICATIONFAILED] Authentication failed." in wrong.stderr
    assert "b'" not in wrong.stderr and len(wrong.stderr.strip().splitlines()) == 1


@pytest.mark.needs_system
def test_poll_prints_only_the_passes_that_did_something(tmp_path: Path, dovecot: Dovecot) -> None:
    import sys
    import time

    path = nika_game(tmp_path)
    command = [
        sys.executable,
        "-m",
        "referee",
        "mail",
        "imap",
        str(tmp_path),
        dovecot.url(),
        "--poll",
        "1",
    ]
    poller = subprocess.Popen(
        command, env={**os.environ, **dovecot.env}, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        time.sleep(3.5)  # three passes or so over an empty mailbox
        dovecot.append(message(ANN, "[g1] later", f"{MOVE}\n").as_bytes())
        deadline = time.monotonic() + 60
        while _counts(dovecot).get("referee.played") != 1:
            assert poller.poll() is None and time.monotonic() < deadline, "the move was never played"
            time.sleep(0.1)
        time.sleep(2.5)  # more empty passes
    finally:
        poller.terminate()
        _, err = poller.communicate(timeout=30)
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")
    assert err.splitlines() == [f"referee mail: {dovecot.url()}: 1 message handled (1 played)"]


@pytest.mark.needs_system
def test_a_flood_of_strangers_is_decided_by_the_heads_and_filed_in_bulk(tmp_path: Path, dovecot: Dovecot) -> None:
    # Issue 44.8: each stranger's message was fetched whole and handled alone (124 ms each).
    # Now only a possible player's message is fetched whole and handled; the others are
    # decided by their heads, logged in the mailbox's order and moved together.
    path = nika_game(tmp_path)
    flood = [message(f"Eve <eve{n}@evil.example>", f"[g1] offer {n}", "d1-W\n").as_bytes() for n in range(250)]
    flood[100] = message(ANN, "[g1] my move", f"{MOVE}\n", message_id="<ann@example.org>").as_bytes()
    flood[101] = message(ANN, "no game named", "d1-W\n", message_id="<nogame@example.org>").as_bytes()
    flood[102] = message(
        BO, "[g1] away", "x\n", message_id="<auto@example.org>", Auto_Submitted="auto-replied"
    ).as_bytes()
    flood[200] = message(BO, "[g1] reply", "show\n", message_id="<bo@example.org>").as_bytes()
    dovecot.append(*flood)
    whole: list[bytes] = []

    def handler(data: bytes, settings: Settings, too_large: bool) -> Handled:
        whole.append(data)
        return gateway.handle_bytes(data, settings, too_large)

    with imap.connected(imap.parse_url(dovecot.url()), _login()) as connection:
        done = imap.one_pass(connection, _settings(tmp_path), handler)
    assert done.outcomes == Counter({"stranger": 246, "played": 1, "no-game": 1, "automatic": 1, "shown": 1})
    assert done.left == 0
    assert [data.split(b"Message-ID: ")[1].split(b"\n")[0].strip() for data in whole] == [
        b"<ann@example.org>",
        b"<bo@example.org>",
    ]
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")
    assert _counts(dovecot) == {"INBOX": 0, "referee.played": 2, "referee.ignored": 248}
    outcomes = [line.split()[4] for line in (tmp_path / "mail.log").read_text().splitlines()]
    assert (
        outcomes
        == ["stranger"] * 100 + ["played", "no-game", "automatic"] + ["stranger"] * 97 + ["shown"] + ["stranger"] * 49
    )
    answered = {str(answer["To"]) for answer in outbox_messages(tmp_path / "outbox")}
    assert not any("evil" in to for to in answered)  # nobody of the flood is answered
    assert len(done.notes) == 248 and done.notes[0].startswith("UID 1: message <")
    handled = (tmp_path / imap.STATE_NAME).read_text().splitlines()
    assert len(handled) == 250 and len({line.split("\t")[1] for line in handled}) == 250
    with imap.connected(imap.parse_url(dovecot.url()), _login()) as connection:  # nothing is left to do
        assert imap.one_pass(connection, _settings(tmp_path), handler).outcomes == Counter()


def _until_flocked(lock: Path, process: subprocess.Popen[str]) -> None:
    """Wait (10 s at most) until some process holds a flock on `lock`, read from /proc/locks
    (never by taking it: a probe would make the pass it waits for skip)."""
    import time

    deadline = time.monotonic() + 10
    while process.poll() is None and time.monotonic() < deadline:
        try:
            inode = os.stat(lock).st_ino
        except FileNotFoundError:
            inode = None
        if inode is not None:
            held = Path("/proc/locks").read_text().splitlines()
            if any(line.split()[1] == "FLOCK" and line.split()[5].endswith(f":{inode}") for line in held):
                return
        time.sleep(0.05)


@pytest.mark.needs_system
def test_two_passes_at_once_handle_each_message_once(tmp_path: Path, dovecot: Dovecot) -> None:
    # Issue 44.8: a cron pass overlapping another (or a --poll) handled the same messages:
    # one answered the player "this message reached the game before" and exited 75 on
    # EXPUNGEISSUED. Here the first pass waits on the game's lock, held by the test, while
    # the second starts: the second is skipped (exit 0, one line), the first handles all.
    import time

    path = nika_game(tmp_path)
    shows = [message(CY if n % 2 else DI, "[g1] board?", "show\n").as_bytes() for n in range(4)]
    dovecot.append(message(ANN, "[g1] my move", f"{MOVE}\n").as_bytes(), *shows)
    command = [*REFEREE, "mail", "imap", str(tmp_path), dovecot.url()]
    command += ["--from", GM, "--wait", "60"]
    env = {**os.environ, **dovecot.env}
    game_lock = contextlib.ExitStack()
    game_lock.enter_context(store.locked(path, 0))
    first = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    _until_flocked(tmp_path / "imap-pass.lock", first)  # the first pass is under way...
    time.sleep(0.5)  # ...and waits for the game's lock
    second = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    try:
        _, second_err = second.communicate(timeout=30)  # skipped at once, the game still locked
    except subprocess.TimeoutExpired:  # (without the pass lock: waiting for the game, as the first)
        game_lock.close()
        _, second_err = second.communicate(timeout=120)
    game_lock.close()
    _, first_err = first.communicate(timeout=120)
    assert first.returncode == 0, first_err
    assert second.returncode == 0, second_err
    assert second_err.splitlines() == [
        f"referee mail: another pass over the mail of {tmp_path} is under way (imap-pass.lock): "
        "this one is skipped, that one handles every message"
    ]
    assert "5 messages handled (1 played, 4 shown)" in first_err
    assert path.read_text(encoding="utf-8").count(MOVE) == 1
    outcomes = [line.split()[4] for line in (tmp_path / "mail.log").read_text().splitlines()]
    assert outcomes == ["played", "shown", "shown", "shown", "shown"]
    assert not any("before" in answer.get_body(("plain",)).get_content()  # type: ignore[union-attr]
                   for answer in outbox_messages(tmp_path / "outbox"))  # fmt: skip
    assert _counts(dovecot) == {"INBOX": 0, "referee.played": 5}
