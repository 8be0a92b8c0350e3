"""`referee mail --imap URL`: the game master's mailbox read over IMAP (docs/mail.md, "A
mailbox at a provider"), each message handled as a message on standard input is
(`referee.live.mail.handle_bytes`), then moved out of the way:

    referee/played    played, or a request answered (`show`, `moves`, `status`)
    referee/refused   refused, not accepted, too large
    referee/ignored   strangers, no game, automatic mail, a message handled before

(with the server's own hierarchy delimiter: `referee.played` on a default Dovecot).

Exactly once. A message is read with `BODY.PEEK` (never marked seen), handled, its UID
written into `DIR/imap-handled.tsv` (with the mailbox's UIDVALIDITY), and then moved. A
pass that finds a UID already in that file moves it without handling it again; a message
whose handling was cut short before that is handled again, and the Message-ID ledger
keeps its moves from being played twice. A busy game (exit 75) leaves its message where
it is, unseen, for the next pass. The answers are written into the outbox first and sent
from there once the message is recorded (`--smtp`), so an answer is never lost by a pass
cut short: the next delivery sends what waits.

Bounded: at most `--max-size` bytes of a message are fetched (its RFC822.SIZE first, then
a partial fetch), as standard input is read."""

from __future__ import annotations

import os
import stat
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

from referee.errors import ExitStatus, UsageError
from referee.live.mail.gateway_values import Handled, Settings
from referee.live.mail.imap_connection import Connection, ImapError, Login, Mailbox
from referee.live.mail.imap_pass import STATE_NAME, Handledlist, Handler, Pass, one_pass

PASSWORD_ENV = "REFEREE_IMAP_PASSWORD"
TOKEN_ENV = "REFEREE_IMAP_OAUTH2_TOKEN"
MAX_SECRET = 4096
"""The most bytes of a password file or an OAuth2 token read."""
IDLE_RENEW = 25 * 60
"""An IDLE is renewed before 29 minutes (RFC 2177), so that no server drops it."""


def parse_url(text: str) -> Mailbox:
    """The mailbox of `--imap URL`; UsageError for anything else."""
    form = "imaps://USER@HOST[:PORT]/MAILBOX (or imap:// for STARTTLS)"
    if len(text) > 1000:
        raise UsageError(f"--imap: too long for {form}")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as error:
        raise UsageError(f"--imap {text!r}: {error}; write {form}") from None
    if parts.scheme not in ("imap", "imaps"):
        raise UsageError(f"--imap {text!r}: not {form}")
    if not parts.username or not parts.hostname:
        raise UsageError(f"--imap {text!r}: a user and a host are needed: {form}")
    if parts.password is not None:
        raise UsageError(f"--imap: no password in the URL (it would show in the process list): use {PASSWORD_ENV}")
    if parts.query or parts.fragment:
        raise UsageError(f"--imap {text!r}: no ?query or #fragment: {form}")
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    if any(ord(c) < 32 or ord(c) == 127 for c in folder):
        raise UsageError(f"--imap {text!r}: the mailbox name holds a control character")
    tls = parts.scheme == "imaps"
    return Mailbox(tls, unquote(parts.username), parts.hostname, port or (993 if tls else 143), folder)


def login_from(password_file: Path | None, environ: dict[str, str] | os._Environ[str] = os.environ) -> Login:
    """The password from `--imap-password-file` (a regular file, its first line), or from
    REFEREE_IMAP_PASSWORD; else an OAuth2 token from REFEREE_IMAP_OAUTH2_TOKEN."""
    if password_file is not None:
        return Login(_read_secret(password_file), None)
    password = environ.get(PASSWORD_ENV)
    if password:
        return Login(_checked_secret(password, PASSWORD_ENV), None)
    token = environ.get(TOKEN_ENV)
    if token:
        return Login(None, _checked_secret(token, TOKEN_ENV))
    raise UsageError(f"--imap needs a password ({PASSWORD_ENV} or --imap-password-file) or a token ({TOKEN_ENV})")


def _read_secret(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise UsageError(f"--imap-password-file {path}: {error.strerror or error}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UsageError(f"--imap-password-file {path}: not a regular file")
        data = os.read(fd, MAX_SECRET + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_SECRET:
        raise UsageError(f"--imap-password-file {path}: longer than {MAX_SECRET} bytes, no password")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"--imap-password-file {path}: not UTF-8 text") from None
    lines = text.splitlines()
    return _checked_secret(lines[0] if lines else "", f"--imap-password-file {path}")


def _checked_secret(text: str, where: str) -> str:
    secret = text.strip()
    if not secret or len(secret) > MAX_SECRET or any(ord(c) < 32 for c in secret):
        raise UsageError(f"{where}: no password or token on one line (at most {MAX_SECRET} characters)")
    return secret


# -- the connection ---------------------------------------------------------------------


@contextmanager
def connected(box: Mailbox, login: Login) -> Iterator[Connection]:
    connection = Connection(box, login)
    try:
        yield connection
    finally:
        connection.close()


def run(
    box: Mailbox,
    login: Login,
    settings: Settings,
    handler: Handler,
    *,
    poll: float | None = None,
    idle: bool = False,
    report: Callable[[str], None] = lambda line: print(line, file=sys.stderr),
) -> Handled:
    """One pass (exit 0, or 75 when a message was left busy or the server failed us), or,
    with `poll` or `idle`, passes until interrupted: a lost connection is reported and
    tried again after the pause."""
    if poll is None and not idle:
        result = _guarded_pass(box, login, settings, handler)
        code = ExitStatus.BUSY if result.failed or result.left else 0
        return Handled(code, result.lines(box))
    pause = poll if poll is not None else IDLE_RENEW
    while True:
        try:
            with connected(box, login) as connection:
                while True:
                    result = one_pass(connection, settings, handler)
                    for note in result.lines(box):
                        report(note)
                    if idle:
                        connection.wait(pause)
                    else:
                        time.sleep(pause)
        except ImapError as error:
            report(f"{error}: trying again in {pause:g} s")
            time.sleep(pause if not idle else 60)


def _guarded_pass(box: Mailbox, login: Login, settings: Settings, handler: Handler) -> Pass:
    try:
        with connected(box, login) as connection:
            return one_pass(connection, settings, handler)
    except ImapError as error:
        return Pass(Counter(), 0, (f"{error} (exit 75: the next pass tries again)",), failed=True)


__all__ = [
    "STATE_NAME",
    "Handledlist",
    "Handler",
    "ImapError",
    "Login",
    "Mailbox",
    "Pass",
    "login_from",
    "one_pass",
    "parse_url",
    "run",
]
