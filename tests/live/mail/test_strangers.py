"""The gateway among strangers (PLAY.md §5.1): bounded before trusted, no loops, one sender,
no replays, nothing stranded, the log, the game master's copy, salts by mail, and the
attacks of issue 18 as regression tests."""

from __future__ import annotations

import base64
import io
import time
import tracemalloc
from pathlib import Path

import pytest

from referee.games.randomness import seed_hash
from referee.judge.services.new_record import new_record
from referee.live import mail
from referee.live.mail import game
from referee.live.mail.headers import HEADER_LIMIT, read_head
from referee.live.play.keys import create_key
from referee.live.play.secret import new_secret
from tests.helpers.mail import (
    GM,
    NIKA_PLAYERS,
    SmtpServer,
    message,
    nika_game,
    outbox_messages,
    run_mail,
    start_smtp,
    write_game,
)

ANN = NIKA_PLAYERS["Athens"]
BO = NIKA_PLAYERS["Sparta"]
MOVE = "d1+d2+d3-W i3-E"
NOW = "2026-12-01T12:00:00Z"


def _settings(folder: Path, server: SmtpServer | None = None, **options: object) -> mail.Settings:
    return mail.settings(folder, smtp=server.address if server else None, sender=GM, now=NOW, **options)  # type: ignore[arg-type]


def _run(data: bytes, settings: mail.Settings) -> mail.Handled:
    handled = mail.run(io.BytesIO(data), settings)
    assert handled.exit_code in (0, 75), handled.notes
    return handled


def _log(folder: Path) -> list[list[str]]:
    return [line.split(" ") for line in (folder / "mail.log").read_text().splitlines()]


def _bomb(sender: str, size: int, body: str = f"{MOVE}\n", message_id: str = "<bomb@x.org>") -> bytes:
    """The attack of issue 18: a Subject of many encoded words, `size` bytes of them."""
    word = "=?utf-8?b?" + base64.b64encode("Ἀθῆναι".encode()).decode() + "?="
    subject = " ".join([word] * (size // (len(word) + 1)))
    head = f"From: {sender}\nTo: {GM}\nSubject: [g1] {subject}\nMessage-ID: {message_id}\n\n"
    return head.encode() + body.encode()


# -- bounded before trusted ----------------------------------------------------------------


def test_the_encoded_word_subject_bomb_from_a_stranger_costs_no_more_than_reading_it(tmp_path: Path) -> None:
    """Regression (issue 18): 552 KB of such a Subject took 2.2 GB before the sender was checked."""
    path = nika_game(tmp_path)
    data = _bomb("Eve <eve@evil.example>", 2**20 - 200)
    assert 2**20 - 400 < len(data) <= 2**20
    tracemalloc.start()
    started = time.perf_counter()
    handled = _run(data, _settings(tmp_path))
    elapsed = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert handled.exit_code == 0 and handled.answers == ()
    assert "eve@evil.example is not a player of game g1: no answer" in handled.notes[0]
    assert peak < 12 * 2**20, f"peak {peak / 2**20:.1f} MB"  # the message itself is 1 MB
    assert elapsed < 5, f"{elapsed:.1f} s"
    assert "W:" not in path.read_text()
    assert _log(tmp_path)[-1][2:] == ["eve@evil.example", "g1", "stranger"]


def test_the_same_bomb_from_a_player_is_read_in_bounded_memory_and_played(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    data = _bomb(ANN, 2**20 - 300)
    tracemalloc.start()
    handled = _run(data, _settings(tmp_path))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert handled.exit_code == 0 and handled.answers
    assert f"1. W: {MOVE}" in path.read_text()
    assert peak < 40 * 2**20, f"peak {peak / 2**20:.1f} MB"
    subject = outbox_messages(tmp_path / "outbox")[0]["Subject"]
    assert subject.startswith("Re: [g1] Ἀθῆναι") and len(subject) <= 400


def test_from_and_subject_are_read_to_their_first_4_kb_and_the_id_in_the_raw_subject_first() -> None:
    word = "=?utf-8?q?caf=C3=A9?="
    head = read_head(f"From: ann@example.org\nSubject: [g1] {' '.join([word] * 2000)}\n\nx\n".encode())
    assert head.game_ids == ("g1",) and head.subject.startswith("[g1] cafécafé")
    assert len(head.subject) <= 500
    late = read_head(f"From: ann@example.org\nSubject: {'x' * HEADER_LIMIT} [g1]\n\nx\n".encode())
    assert late.game_ids == ()  # beyond the first 4 KB: not read
    encoded = base64.b64encode(b"[g1] hello").decode()
    assert read_head(f"From: a@b.org\nSubject: =?utf-8?b?{encoded}?=\n\n".encode()).game_ids == ("g1",)
    long_from = read_head(f"From: {'A' * HEADER_LIMIT} <ann@example.org>\nSubject: [g1]\n\n".encode())
    assert long_from.sender is None  # the address lies beyond the first 4 KB


def test_a_message_over_the_size_limit_is_dropped_from_a_stranger_and_answered_to_a_player(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    path = nika_game(tmp_path)
    big = "x" * (2**20 + 10)
    stranger = _run(message("Eve <eve@evil.example>", "[g1]", big).as_bytes(), _settings(tmp_path, smtp))
    assert stranger.answers == () and smtp.take() == []
    player = _run(message(ANN, "[g1]", f"{MOVE}\n{big}").as_bytes(), _settings(tmp_path, smtp))
    [answer] = smtp.take()
    assert answer.recipients == ("ann@example.org",)
    assert "larger than 1 MB" in answer.text and "nothing was played" in answer.text
    assert player.exit_code == 0 and "W:" not in path.read_text()
    assert [line[-1] for line in _log(tmp_path)] == ["stranger", "too-large"]
    small = run_mail(message(ANN, "[g1]", f"{MOVE}\n-- \n" + "x" * 5000).as_bytes(), "receive", str(tmp_path))
    assert small.returncode == 0 and "W:" in path.read_text()  # within the default 1 MB
    limited = run_mail(message(BO, "[g1]", "a4-S b4-S\n-- \n" + "x" * 5000).as_bytes(), "receive", str(tmp_path))
    assert limited.returncode == 0
    tight = run_mail(
        message(BO, "[g1]", "a4-S b4-S\n-- \n" + "x" * 5000, message_id="<t@x.org>").as_bytes(),
        "receive",
        str(tmp_path),
        "--max-size",
        "4000",
    )
    assert tight.returncode == 0 and _log(tmp_path)[-1][-1] == "too-large"


# -- no loops --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ("Auto-Submitted: auto-replied", "Auto-Submitted"),
        ("Auto-Submitted: auto-generated (vacation)", "Auto-Submitted"),
        ("Precedence: bulk", "Precedence: bulk"),
        ("Precedence: junk", "Precedence: junk"),
        ("Precedence: list", "Precedence: list"),
        ("List-Id: <league.example.org>", "List-Id"),
        ("X-Autoreply: yes", "X-Autoreply"),
        ("X-Autorespond: I am away", "X-Autorespond"),
        ("Return-Path: <>", "an empty Return-Path"),
    ],
)
def test_automatic_mail_is_neither_played_nor_answered_only_logged(
    tmp_path: Path, smtp: SmtpServer, header: str, reason: str
) -> None:
    """Regression (issue 18): `Precedence: bulk/junk/list`, `X-Autoreply`, an empty
    `Return-Path` were all answered (RFC 3834 §2)."""
    path = nika_game(tmp_path)
    data = f"From: {ANN}\nTo: {GM}\nSubject: [g1] Re: your move\nMessage-ID: <auto@x.org>\n{header}\n\n{MOVE}\n"
    handled = _run(data.encode(), _settings(tmp_path, smtp))
    assert handled.answers == () and smtp.take() == []
    assert reason in handled.notes[0] and "automatic" in handled.notes[0]
    assert "W:" not in path.read_text()
    assert _log(tmp_path) == [["2026-12-01T12:00:00Z", "<auto@x.org>", "ann@example.org", "g1", "automatic"]]


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@example.org", "Mail System <postmaster@example.org>"])
def test_mail_from_a_mailer_daemon_or_postmaster_is_automatic(tmp_path: Path, smtp: SmtpServer, sender: str) -> None:
    players = {**NIKA_PLAYERS, "Thebes": sender}  # even one named in the record
    write_game(tmp_path, "g1", "nika", players, '[Players "4"]')
    data = message(sender, "[g1] Undelivered Mail Returned to Sender", "show\n").as_bytes()
    handled = _run(data, _settings(tmp_path, smtp))
    assert handled.answers == () and smtp.take() == []
    assert _log(tmp_path)[-1][-1] == "automatic"


def test_an_mbox_from_line_of_mailer_daemon_is_automatic(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    data = b"From MAILER-DAEMON Tue Nov 24 01:27:42 2026\n" + message(ANN, "[g1]", "show\n").as_bytes()
    assert _run(data, _settings(tmp_path, smtp)).answers == ()
    assert smtp.take() == []


def test_auto_submitted_no_is_a_persons_mail_and_every_answer_is_marked_auto_replied(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    nika_game(tmp_path)
    _run(message(ANN, "[g1]", "show\n", Auto_Submitted="no").as_bytes(), _settings(tmp_path, smtp))
    [answer] = smtp.take()
    assert answer.message["Auto-Submitted"] == "auto-replied"


# -- one sender ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "From: ann@example.org)<eve@evil.net>",
        "From: Ann <ann@example.org>, Eve <eve@evil.net>",
        "From: ann@example.org <eve@evil.net>",
        "From: Ann <ann@example.org\nFrom: Ann <ann@example.org>",
        "From: Ann <ann@example.org>\nFrom: Eve <eve@evil.net>",
        'From: "Ann <ann@example.org>',
        "From: team: ann@example.org, bo@example.org;",
        "From: (ann@example.org",
    ],
)
def test_a_from_that_is_not_exactly_one_address_is_a_strangers(tmp_path: Path, smtp: SmtpServer, header: str) -> None:
    """Regression (issue 18): `ann@example.org)<eve@evil.net>` was read as Ann."""
    path = nika_game(tmp_path)
    data = f"{header}\nTo: {GM}\nSubject: [g1]\nMessage-ID: <odd@x.org>\n\n{MOVE}\n"
    handled = _run(data.encode(), _settings(tmp_path, smtp))
    assert handled.answers == () and smtp.take() == []
    assert "W:" not in path.read_text()
    assert _log(tmp_path)[-1][2:] == ["-", "g1", "stranger"]


@pytest.mark.parametrize(
    ("header", "address"),
    [
        ("ann@example.org", "ann@example.org"),
        ("ANN@Example.org (Ann of Athens)", "ann@example.org"),
        ('"Ann, of Athens" <ann@example.org>', "ann@example.org"),
        ("=?utf-8?q?Ann_=C3=A9?= <ann@example.org>", "ann@example.org"),
        ('"ann@example.org" <eve@evil.net>', "eve@evil.net"),
    ],
)
def test_one_address_in_any_usual_form_is_read(header: str, address: str) -> None:
    assert read_head(f"From: {header}\nSubject: [g1]\n\n".encode()).sender == address


# -- no replays --------------------------------------------------------------------------------


def _keyed(folder: Path) -> Path:
    path = nika_game(folder)
    mail.add_player(folder, "ann@example.org", "Ann's secret phrase\n")
    mail.add_player(folder, "bo@example.org", "Bo's own words\n")
    return path


def test_a_captured_message_sent_again_later_is_stale(tmp_path: Path, smtp: SmtpServer) -> None:
    """Regression (issue 18): a captured mail with the right `Key:`, sent again under a new
    Message-ID, was played again. With players.toml every writing message needs `Token:`."""
    path = _keyed(tmp_path)
    settings = _settings(tmp_path, smtp)
    first_token = game.open_game(path).token
    body = f"Key: Ann's secret phrase\nToken: {first_token}\nd1-W\n"
    _run(message(ANN, "[g1]", body, message_id="<orig@x.org>").as_bytes(), settings)
    assert path.read_text().count("d1-W") == 1
    smtp.take()
    # Ann's turn goes on (Nika: two actions); the attacker replays her first message later.
    _run(
        message(ANN, "[g1]", f"Key: Ann's secret phrase\nToken: {game.open_game(path).token}\nd2-W\n").as_bytes(),
        settings,
    )
    smtp.take()
    current = game.open_game(path).token
    before = path.read_text()
    _run(message(ANN, "[g1]", body, message_id="<replayed@x.org>").as_bytes(), settings)
    assert path.read_text() == before
    [refusal] = smtp.take()
    assert refusal.recipients == ("ann@example.org",)
    assert f"the game is at token {current}, not {first_token}" in refusal.text  # the current token quoted
    assert _log(tmp_path)[-1][1:] == ["<replayed@x.org>", "ann@example.org", "g1", "refused"]


def test_with_keys_a_writing_message_without_a_token_is_refused_quoting_it(tmp_path: Path, smtp: SmtpServer) -> None:
    path = _keyed(tmp_path)
    settings = _settings(tmp_path, smtp)
    token = game.open_game(path).token
    for body in (f"Key: Ann's secret phrase\n{MOVE}\n", "Key: Ann's secret phrase\nresign\n"):
        _run(message(ANN, "[g1]", body).as_bytes(), settings)
        [answer] = smtp.take()
        assert "nothing was written" in answer.text and f"  Token: {token}" in answer.text
    assert "W:" not in path.read_text() and "resign" not in path.read_text()
    for body in ("Key: Ann's secret phrase\nshow\n", "Key: Ann's secret phrase\nmoves\n"):
        _run(message(ANN, "[g1]", body).as_bytes(), settings)  # reading needs no token
        [answer] = smtp.take()
        assert "nothing was written" not in answer.text
    assert [line[-1] for line in _log(tmp_path)] == ["refused", "refused", "shown", "shown"]


# -- nothing stranded ----------------------------------------------------------------------------


def test_answers_kept_while_the_server_is_down_are_flushed_later(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    server = start_smtp()
    address = server.address
    server.stop()
    args = [str(tmp_path), "--smtp", address, "--from", GM]
    done = run_mail(message(ANN, "[g1]", f"{MOVE}\n").as_bytes(), "receive", *args)
    assert done.returncode == 75 and "kept in" in done.stderr
    assert f"1. W: {MOVE}" in path.read_text()
    kept = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(kept) == 2
    flushed = run_mail(b"", "flush", *args)
    assert flushed.returncode == 75 and "cannot reach the SMTP server" in flushed.stderr
    assert "2 answers left" in flushed.stderr
    host, port = address.split(":")
    from aiosmtpd.controller import Controller

    from tests.helpers.mail import SmtpServer as Server
    from tests.helpers.mail import _Keeper

    keeper = _Keeper()
    controller = Controller(keeper, hostname=host, port=int(port))
    controller.start()
    revived = Server(controller, keeper, int(port))
    try:
        flushed = run_mail(b"", "flush", *args)
        assert flushed.returncode == 0, flushed.stderr
        assert "sent 2 answers from" in flushed.stdout
        assert sum(len(answer.recipients) for answer in revived.take()) == 4
        assert list((tmp_path / "outbox").glob("*.eml")) == []
        again = run_mail(b"", "flush", *args)
        assert again.returncode == 0 and "sent 0 answers" in again.stdout
    finally:
        revived.stop()


def test_every_delivery_sends_the_waiting_answers_first(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    _run(message(ANN, "[g1]", f"{MOVE}\n").as_bytes(), _settings(tmp_path))  # no --smtp: into the outbox
    assert len(outbox_messages(tmp_path / "outbox")) == 2
    handled = _run(message(BO, "[g1]", "show\n").as_bytes(), _settings(tmp_path, smtp))
    assert any("sent 2 answers waiting in" in note for note in handled.notes)
    *waiting, shown = smtp.take()
    assert sum(len(answer.recipients) for answer in waiting) == 4 and "played in game" in waiting[0].text
    assert shown.recipients == ("bo@example.org",) and "Game g1:" in shown.text
    assert list((tmp_path / "outbox").glob("*.eml")) == []


def test_flush_without_smtp_is_a_usage_error(tmp_path: Path) -> None:
    done = run_mail(b"", "flush", str(tmp_path))
    assert done.returncode == 2 and "--smtp" in done.stderr


def test_mail_log_has_one_line_per_message_with_every_outcome(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    mail.add_player(tmp_path, "cy@example.org", "Cy's words\n")  # players.toml: every player needs a key
    mail.add_player(tmp_path, "ann@example.org", "Ann's words\n")
    mail.add_player(tmp_path, "bo@example.org", "Bo's words\n")
    settings = _settings(tmp_path, smtp)
    token = game.open_game(path).token
    sent = [
        message(ANN, "[g1]", f"Key: Ann's words\nToken: {token}\n{MOVE}\n", message_id="<m1@x.org>"),
        message(ANN, "[g1]", f"Key: Ann's words\nToken: {token}\n{MOVE}\n", message_id="<m1@x.org>"),
        message(BO, "[g1]", "Key: Bo's words\nshow\n", message_id="<m3@x.org>"),
        message(BO, "[g1]", "Key: wrong\nshow\n", message_id="<m4@x.org>"),
        message("eve@evil.example", "[g1]", "show\n", message_id="<m5@x.org>"),
        message(ANN, "[nowhere]", "show\n", message_id="<m6@x.org>"),
        message(ANN, "[g1]", "show\n", message_id="<m7@x.org>", Precedence="bulk"),
        message(BO, "[g1]", f"Key: Bo's words\nToken: {token}\na4-S b4-S\n", message_id="<m8@x.org>"),
    ]
    for each in sent:
        _run(each.as_bytes(), settings)
    with game.locked(path, 0):
        busy = _run(message(BO, "[g1]", "Key: Bo's words\nshow\n").as_bytes(), settings._replace(wait=0.1))
        assert busy.exit_code == 0  # show reads the game without its lock
        busy = mail.run(
            io.BytesIO(message(BO, "[g1]", "Key: Bo's words\nToken: 1-x\na4-S\n", message_id="<m9@x.org>").as_bytes()),
            settings._replace(wait=0.1),
        )
        assert busy.exit_code == 75
    big = message(ANN, "[g1]", "x" * (2**20 + 1), message_id="<m10@x.org>")
    _run(big.as_bytes(), settings)
    lines = _log(tmp_path)
    assert all(len(line) == 5 and line[0] == "2026-12-01T12:00:00Z" for line in lines)
    outcomes = [(line[1], line[-1]) for line in lines]
    assert outcomes[:8] == [
        ("<m1@x.org>", "played"),
        ("<m1@x.org>", "duplicate"),
        ("<m3@x.org>", "shown"),
        ("<m4@x.org>", "not-accepted"),
        ("<m5@x.org>", "stranger"),
        ("<m6@x.org>", "no-game"),
        ("<m7@x.org>", "automatic"),
        ("<m8@x.org>", "refused"),  # a stale token
    ]
    assert outcomes[9:] == [("<m9@x.org>", "busy"), ("<m10@x.org>", "too-large")]
    assert lines[4][2] == "eve@evil.example" and lines[5][3] == "-"


def test_a_log_line_holds_no_text_of_the_message(tmp_path: Path) -> None:
    nika_game(tmp_path)
    data = f"From: {ANN}\nSubject: [g1]\nMessage-ID: <a b\tc@x.org>\nPrecedence: bulk\n\nshow\n".encode()
    _run(data, _settings(tmp_path))
    [line] = _log(tmp_path)
    assert len(line) == 5


def test_the_game_master_gets_a_copy_of_every_answer_as_cc(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    settings = _settings(tmp_path, smtp, gm="master@example.org")
    _run(message(ANN, "[g1]", f"{MOVE}\n").as_bytes(), settings)
    _run(message(BO, "[g1]", "show\n").as_bytes(), settings)
    answers = smtp.take()
    assert len(answers) == 3
    for answer in answers:
        assert answer.message["Cc"] == "game master <master@example.org>"
        assert "master@example.org" in answer.recipients
    done = run_mail(b"", "receive", str(tmp_path), "--gm", "not an address")
    assert done.returncode == 2


# -- players by name, check-games -----------------------------------------------------------------


def test_how_to_answer_goes_only_to_the_player_to_move(tmp_path: Path, smtp: SmtpServer) -> None:
    nika_game(tmp_path)
    settings = _settings(tmp_path, smtp)
    _run(message(BO, "[g1]", "show\n").as_bytes(), settings)
    _run(message(BO, "[g1]", "a4-S b4-S\n").as_bytes(), settings)  # not Bo's turn
    _run(message(ANN, "[g1]", "show\n").as_bytes(), settings)
    shown_bo, refused_bo, shown_ann = smtp.take()
    for answer in (shown_bo, refused_bo):
        assert "next: Ann (Athens) to move" in answer.text and "To play, answer" not in answer.text
        assert "Token:" not in answer.text
    assert "To play, answer" in shown_ann.text and "Token: 0-" in shown_ann.text


def test_check_games_lists_games_with_a_side_that_has_no_address(tmp_path: Path) -> None:
    nika_game(tmp_path, "full")
    write_game(tmp_path, "half", "nika", {**NIKA_PLAYERS, "Thebes": "Di (by post)"}, '[Players "4"]')
    write_game(tmp_path, "two", "nika", {"Athens": ANN}, '[Players "2"]')
    (tmp_path / "broken.rgn").write_text('[Game "nika"]\n\n[Game "nika"]\n')
    done = run_mail(b"", "check", str(tmp_path))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert "half: no address for Thebes" in lines
    assert any(line.startswith("two: no address for ") for line in lines)
    assert any(line.startswith("broken: ") and "holds 2" in line for line in lines)
    assert not any(line.startswith("full") for line in lines)
    for name in ("half", "two", "broken"):
        (tmp_path / f"{name}.rgn").unlink()
    done = run_mail(b"", "check", str(tmp_path))
    assert done.returncode == 0 and "every game" in done.stdout
    assert run_mail(b"", "check", str(tmp_path / "missing")).returncode == 2


# -- salts by mail ----------------------------------------------------------------------------------


def _secret_nieuchess(folder: Path) -> Path:
    seed = "a3c1e5f0b2d4968778695a4b3c2d1e0f"
    (folder / "keys").mkdir()
    create_key(folder / "keys" / "n1.key", seed)
    sides = {"Red": ANN, "Blue": BO}
    return write_game(folder, "n1", "nieuchess", sides, f'[SeedHash "{seed_hash(seed)}"]')


def test_salt_lines_write_each_players_salt_before_the_first_roll(tmp_path: Path, smtp: SmtpServer) -> None:
    path = _secret_nieuchess(tmp_path)
    settings = _settings(tmp_path, smtp, keys=tmp_path / "keys")
    _run(message(BO, "[n1]", "Salt: bo's lucky 42\n").as_bytes(), settings)  # Blue is not to move: still taken
    answers = smtp.take()
    assert sum(len(answer.recipients) for answer in answers) == 2
    assert '[BlueSalt "bo\'s lucky 42"]' in path.read_text()
    assert "Bo (Blue) played in game n1" in answers[0].text and "Salt: bo's lucky 42" in answers[0].text
    _run(message(BO, "[n1]", "Salt: again\n").as_bytes(), settings)
    [again] = smtp.take()
    assert "Blue has already given its salt" in again.text
    _run(message(ANN, "[n1]", "Salt: ann-7\n").as_bytes(), settings)
    smtp.take()
    assert '[RedSalt "ann-7"]' in path.read_text()


def test_a_salt_is_refused_after_the_first_roll_and_in_games_without_dice_in_play(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    nika_game(tmp_path)
    settings = _settings(tmp_path, smtp)
    _run(message(ANN, "[g1]", "Salt: x\n").as_bytes(), settings)
    [nika] = smtp.take()
    assert "draws no dice" in nika.text
    fresh = new_secret(new_record("numica", None, "s33d", None, []), tmp_path / "nu.key", [], "s33d")
    first, rest = fresh.split("\n", 1)
    (tmp_path / "nu.rgn").write_text(f'{first}\n[Red "{ANN}"]\n[Blue "{BO}"]\n{rest}')
    _run(message(ANN, "[nu]", "Salt: x\n").as_bytes(), settings)
    [numica] = smtp.take()
    assert "referee new --secret KEY --salt" in numica.text
    keys = tmp_path / "keys"
    keys.mkdir()
    create_key(keys / "n1.key", "example")
    position = '[Position "R:j20,k21,a1 B:j21,x30 to:R"]'
    path = write_game(
        tmp_path, "n1", "nieuchess", {"Red": ANN, "Blue": BO}, f'[SeedHash "{seed_hash("example")}"]', position
    )
    keyed = _settings(tmp_path, smtp, keys=keys)
    _run(message(ANN, "[n1]", "j20+k21xj21\n").as_bytes(), keyed)
    assert "j20+k21xj21#" in path.read_text()  # the first roll, drawn from the key
    smtp.take()
    _run(message(BO, "[n1]", "Salt: late\n").as_bytes(), keyed)
    [late] = smtp.take()
    assert "the first roll has been drawn: salts must come before it" in late.text
    assert "Salt" not in path.read_text()


def test_now_sets_the_time_of_the_log_and_of_the_answers(tmp_path: Path) -> None:
    nika_game(tmp_path)
    _run(message(ANN, "[g1]", "show\n").as_bytes(), _settings(tmp_path))
    [answer] = outbox_messages(tmp_path / "outbox")
    assert answer["Date"] == "Tue, 01 Dec 2026 12:00:00 +0000"
    assert _log(tmp_path)[0][0] == NOW
    done = run_mail(b"", "receive", str(tmp_path), "--now", "yesterday")
    assert done.returncode == 2 and "--now" in done.stderr


def test_an_answer_the_server_refuses_for_good_is_set_aside_not_blocking_the_outbox(
    tmp_path: Path, smtp: SmtpServer
) -> None:
    nika_game(tmp_path)
    _run(message(ANN, "[g1]", "show\n").as_bytes(), _settings(tmp_path))  # into the outbox
    broken = tmp_path / "outbox" / "00000000T000000-000000000-0000.eml"  # oldest: sent first
    broken.write_text("Subject: no recipients at all\n\nhello\n")
    done = run_mail(b"", "flush", str(tmp_path), "--smtp", smtp.address)
    assert done.returncode == 0, done.stderr
    assert "sent 1 answer from" in done.stdout and f"kept as {broken}.failed" in done.stdout
    [shown] = smtp.take()
    assert shown.recipients == ("ann@example.org",)
    assert sorted(path.name for path in (tmp_path / "outbox").iterdir()) == [".flush.lock", f"{broken.name}.failed"]
