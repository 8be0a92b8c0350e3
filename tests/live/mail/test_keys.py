"""Who may play when `DIR/players.toml` holds the players' passphrases, and SMTP with
STARTTLS and a login (a real server with a self-signed certificate on 127.0.0.1)."""

from __future__ import annotations

import hashlib
import ssl
import stat
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword

from referee.live.mail import game, players
from tests.helpers.mail import GM, SmtpServer, mail_gm_ok, message, nika_game, run_mail, start_smtp

ANN = "Ann <ann@example.org>"
MOVE = "d1+d2+d3-W i3-E"


def _add(games: Path, address: str, passphrase: str) -> subprocess.CompletedProcess[str]:
    return run_mail(passphrase.encode("utf-8"), "add-player", str(games), address)


def test_add_player_writes_an_scrypt_entry_readable_by_its_owner_only(tmp_path: Path) -> None:
    done = _add(tmp_path, "Ann@Example.org", "correct horse battery\n")
    assert done.returncode == 0, done.stderr
    assert "added the key of ann@example.org" in done.stderr
    path = tmp_path / "players.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    entry = tomllib.loads(path.read_text())["players"]["ann@example.org"]["key"]
    assert entry.startswith("scrypt:") and "correct horse" not in path.read_text()
    assert players.verify(entry, "correct horse battery")
    assert not players.verify(entry, "correct horse")
    assert _add(tmp_path, "bo@example.org", "bo's words").returncode == 0
    again = _add(tmp_path, "ann@example.org", "a new passphrase")
    assert "replaced the key of ann@example.org" in again.stderr
    keys = tomllib.loads(path.read_text())["players"]
    assert set(keys) == {"ann@example.org", "bo@example.org"}
    assert players.verify(keys["ann@example.org"]["key"], "a new passphrase")


@pytest.mark.parametrize(
    ("address", "passphrase", "words"),
    [
        ("ann@example.org", "", "no passphrase"),
        ("ann@example.org", "\n\n", "no passphrase"),
        ("not an address", "x", "is not one e-mail address"),
        ('ann"@example.org', "x", "is not one e-mail address"),
        ("ann@example.org, bo@example.org", "x", "is not one e-mail address"),
        ("ann@example.org\nX: y", "x", "is not one e-mail address"),
    ],
)
def test_add_player_refuses_bad_input_with_exit_2(tmp_path: Path, address: str, passphrase: str, words: str) -> None:
    done = _add(tmp_path, address, passphrase)
    assert done.returncode == 2
    assert words in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "players.toml").exists()


def test_with_players_toml_only_the_right_key_plays(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    assert _add(tmp_path, "ann@example.org", "Ann's secret phrase").returncode == 0
    before = path.read_text()

    mail_gm_ok(tmp_path, smtp, message(ANN, "[g1]", f"{MOVE}\n").as_bytes())
    mail_gm_ok(tmp_path, smtp, message(ANN, "[g1]", f"Key: Ann's secret\n{MOVE}\n").as_bytes())
    # A forger who knows Ann's address but not her passphrase: the answer goes to Ann.
    forged = message("Ann <ann@example.org>", "[g1]", f"key: guess\n{MOVE}\n", Reply_To="eve@evil.example")
    mail_gm_ok(tmp_path, smtp, forged.as_bytes())
    assert path.read_text() == before
    missing, wrong, forged_answer = smtp.take()
    for answer in (missing, wrong, forged_answer):
        assert answer.recipients == ("ann@example.org",)
        assert "was not accepted" in answer.text and "Nothing was played" in answer.text
        assert "secret" not in answer.text and "guess" not in answer.text
    assert "carries no Key: line" in missing.text
    assert "the key is not this player's key" in wrong.text

    token = game.open_game(path).token
    right = message(ANN, "[g1]", f"  KEY:   Ann's secret phrase  \nToken: {token}\n{MOVE}\n\n-- \nAnn\n")
    mail_gm_ok(tmp_path, smtp, right.as_bytes())
    assert f"1. W: {MOVE}" in path.read_text()
    accepted = smtp.take()
    assert sum(len(answer.recipients) for answer in accepted) == 4
    assert all("secret" not in answer.text for answer in accepted)
    # the passphrase is never quoted: the only Key: line is the one that says how to answer
    keys = [line.strip() for answer in accepted for line in answer.text.splitlines() if "key" in line.lower()]
    assert set(keys) <= {"Key: your passphrase"}


def test_an_entry_made_by_any_scrypt_implementation_is_accepted(tmp_path: Path, smtp: SmtpServer) -> None:
    """The players.toml format of PLAY.md §5, written here by hand with hashlib's scrypt."""
    path = nika_game(tmp_path)
    salt = bytes.fromhex("00112233445566778899aabbccddeeff")
    digest = hashlib.scrypt(b"open sesame", salt=salt, n=2**14, r=8, p=1, dklen=32)
    entry = f'[players."ann@example.org"]\nkey = "scrypt:{salt.hex()}:{digest.hex()}"\n'
    (tmp_path / "players.toml").write_text(entry)
    token = game.open_game(path).token
    mail_gm_ok(tmp_path, smtp, message(ANN, "[g1]", f"Key: open sesame\nToken: {token}\n{MOVE}\n").as_bytes())
    assert f"1. W: {MOVE}" in path.read_text()
    assert sum(len(answer.recipients) for answer in smtp.take()) == 4


def test_a_player_without_an_entry_is_not_accepted(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path)
    assert _add(tmp_path, "ann@example.org", "Ann's phrase").returncode == 0
    mail_gm_ok(tmp_path, smtp, message("Bo <bo@example.org>", "[g1]", "Key: Ann's phrase\nshow\n").as_bytes())
    [answer] = smtp.take()
    assert answer.recipients == ("bo@example.org",) and "not accepted" in answer.text
    assert "W:" not in path.read_text()


def test_a_broken_players_file_is_a_usage_error(tmp_path: Path) -> None:
    nika_game(tmp_path)
    (tmp_path / "players.toml").write_text('[players."ann@example.org"]\nkey = "plain text"\n')
    done = run_mail(message(ANN, "[g1]", "Key: x\nshow\n").as_bytes(), "receive", str(tmp_path))
    assert done.returncode == 2 and 'needs key = "scrypt:' in done.stderr
    (tmp_path / "players.toml").write_text("[players\n")
    done = run_mail(message(ANN, "[g1]", "Key: x\nshow\n").as_bytes(), "receive", str(tmp_path))
    assert done.returncode == 2 and "is not TOML" in done.stderr and "Traceback" not in done.stderr


@pytest.fixture
def tls_smtp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SmtpServer, Path]]:
    """An SMTP server that requires STARTTLS and a login, with a self-signed certificate for 127.0.0.1."""
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticate(server: object, session: object, envelope: object, mechanism: str, data: object) -> AuthResult:
        ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"gm", b"s3cret pass")
        return AuthResult(success=ok, handled=False)

    server = start_smtp(
        tls_context=context,
        require_starttls=True,
        authenticator=authenticate,
        auth_require_tls=True,
    )
    try:
        yield server, cert
    finally:
        server.stop()


def test_starttls_and_login_with_the_password_from_the_environment(
    tmp_path: Path, tls_smtp: tuple[SmtpServer, Path]
) -> None:
    server, cert = tls_smtp
    path = nika_game(tmp_path)
    args = ["receive", str(tmp_path), "--smtp", server.address, "--starttls", "--smtp-user", "gm", "--from", GM]
    env = {"SSL_CERT_FILE": str(cert), "REFEREE_SMTP_PASSWORD": "s3cret pass"}
    done = run_mail(message(ANN, "[g1]", f"{MOVE}\n").as_bytes(), *args, env=env)
    assert done.returncode == 0, done.stderr
    assert sum(len(answer.recipients) for answer in server.take()) == 4
    assert f"1. W: {MOVE}" in path.read_text()

    wrong = run_mail(message(ANN, "[g1]", "show\n").as_bytes(), *args, env={**env, "REFEREE_SMTP_PASSWORD": "no"})
    assert wrong.returncode == 75 and "refused: 535" in wrong.stderr and "the answer was kept in" in wrong.stderr
    assert "s3cret" not in wrong.stderr
    plain = run_mail(message(ANN, "[g1]", "show\n").as_bytes(), "receive", str(tmp_path), "--smtp", server.address)
    assert plain.returncode == 75 and "refused" in plain.stderr
    assert server.take() == []
