"""Delivering answers: by SMTP (`--smtp HOST:PORT`, `--starttls`, `--smtp-user` with the
password from `REFEREE_SMTP_PASSWORD`) or as `.eml` files in an outbox folder. Answers
that could not be sent wait in the outbox; `flush` sends them, oldest first, and removes
each one the server has taken (PLAY.md §5.1, "Nothing stranded")."""

from __future__ import annotations

import os
import secrets
import smtplib
import ssl
import stat
import time
from collections.abc import Callable, Sequence
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import NamedTuple

from referee import store
from referee.errors import UsageError
from referee.judge.core.clock_walk import current_instant
from referee.live.mail.mail_errors import DeliveryError

PASSWORD_VARIABLE = "REFEREE_SMTP_PASSWORD"
TRIED = ".tried"
"""Beside an answer being sent: it was handed to the server once (a later flush marks it resent)."""
RESENT_HEADER = "X-Referee-Resent"
"""On an answer sent again after a run died between sending it and removing it."""
ANSWER_MODE = 0o600
"""Every answer in the outbox is its owner's alone: some carry a passphrase (docs/mail.md)."""
OUTBOX_MODE = 0o700


class Smtp(NamedTuple):
    """Where and how to send: host, port, STARTTLS, the user to log in as (password from the environment)."""

    host: str
    port: int
    starttls: bool = False
    user: str | None = None
    timeout: float = 30.0

    def __repr__(self) -> str:
        return f"<Smtp {self.host}:{self.port}{' starttls' if self.starttls else ''} user={self.user}>"


def smtp_settings(address: str, starttls: bool, user: str | None) -> Smtp:
    """`HOST:PORT` checked; the password must be in the environment when a user is given."""
    host, colon, port = address.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f'--smtp takes HOST:PORT, such as mail.example.org:587, not "{address}"')
    if user is not None and PASSWORD_VARIABLE not in os.environ:
        raise UsageError(f"--smtp-user {user} needs the password in the environment variable {PASSWORD_VARIABLE}")
    return Smtp(host, int(port), starttls, user)


def send(messages: Sequence[EmailMessage], smtp: Smtp) -> None:
    """Send every message over one SMTP session. Raises DeliveryError, naming the server's reply."""
    if not messages:
        return
    try:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout) as client:
            _open(client, smtp)
            for message in messages:
                client.send_message(message)
    except smtplib.SMTPException as error:
        raise DeliveryError(f"the SMTP server {smtp.host}:{smtp.port} refused: {_reason(error)}") from None
    except (OSError, ssl.SSLError) as error:
        raise DeliveryError(f"cannot reach the SMTP server {smtp.host}:{smtp.port}: {error}") from None


def _reason(error: smtplib.SMTPException) -> str:
    if isinstance(error, smtplib.SMTPResponseException):
        text = error.smtp_error.decode("utf-8", "replace") if isinstance(error.smtp_error, bytes) else error.smtp_error
        return f"{error.smtp_code} {text}"
    return str(error) or type(error).__name__


def private_outbox(outbox: Path) -> None:
    """Make the outbox folder (and the folders above it) when missing, readable by its owner
    alone (0700), and tighten it to that when it is looser: answers carry passphrases. An
    outbox that cannot be made, or is no folder, is left as it is: the writes that follow
    fail and say so (within a transaction, once it is committed, as before)."""
    try:
        outbox.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(outbox, OUTBOX_MODE)
    except FileExistsError:
        pass
    except OSError:
        return
    try:
        found = os.stat(outbox)
    except OSError:
        return
    if stat.S_ISDIR(found.st_mode) and found.st_mode & 0o077:
        os.chmod(outbox, stat.S_IMODE(found.st_mode) & OUTBOX_MODE)


def write_answer(path: Path, text: str) -> None:
    """Write one answer into the outbox, readable by its owner alone (0600): at once, or with
    the rest of the caller's transaction (`referee.store`)."""
    store.write(path, text, ANSWER_MODE)


def write_outbox(
    messages: Sequence[EmailMessage], outbox: Path, write: Callable[[Path, str], None], now: int | None = None
) -> list[Path]:
    """Write each message as `<time>-<order>-<random>.eml` into the outbox (made if
    missing, 0700) with `write` (an atomic write: `write_answer`, which makes each file
    readable by its owner alone, 0600), so that a program collecting the outbox never
    reads half a file. `<time>` is the referee's one clock (`now`, `--now`),
    `<order>` the machine's monotonic clock, which orders the messages of one second."""
    written: list[Path] = []
    if not messages:
        return written
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(current_instant() if now is None else now))
    try:
        private_outbox(outbox)  # (at once, within a transaction too: an empty folder is no trace)
        for message in messages:
            # The name sorts by time, then by the order written, so that `flush` sends the oldest first.
            name = f"{stamp}-{time.monotonic_ns():020d}-{secrets.token_hex(4)}.eml"
            path = outbox / name
            write(path, message.as_string())
            written.append(path)
    except OSError as error:
        raise DeliveryError(f"cannot write into the outbox {outbox}: {error.strerror or error}") from None
    return written


def waiting(outbox: Path) -> list[Path]:
    """The answers waiting in the outbox, oldest first (temporary files are never listed)."""
    try:
        return sorted(path for path in outbox.glob("*.eml") if path.is_file())
    except OSError as error:
        raise DeliveryError(f"cannot read the outbox {outbox}: {error.strerror or error}") from None


class Flushed(NamedTuple):
    """What `flush` did: how many answers were sent, and the files of those the server
    refused for good (renamed `*.eml.failed`, so that they block nothing and are kept)."""

    sent: int
    set_aside: tuple[Path, ...] = ()


def flush(outbox: Path, smtp: Smtp) -> Flushed:
    """Send every answer waiting in the outbox over one SMTP session, oldest first, each
    removed once the server has taken it. DeliveryError when the server cannot be reached
    or refuses for now (what was not sent stays)."""
    paths = waiting(outbox)
    if not paths:
        return Flushed(0)
    _tightened(outbox, paths)
    sent = 0
    set_aside: list[Path] = []
    try:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=smtp.timeout) as client:
            _open(client, smtp)
            for path in paths:
                try:
                    data = path.read_bytes()
                except FileNotFoundError:  # sent by another gateway meanwhile
                    continue
                message = BytesParser(policy=policy.default).parsebytes(data)
                tried = path.with_name(path.name + TRIED)
                if tried.exists():  # sent before, maybe, by a run that died before removing it
                    message[RESENT_HEADER] = "yes (this answer may have reached you before)"
                else:
                    tried.touch(mode=ANSWER_MODE)
                try:
                    client.send_message(message)
                except (smtplib.SMTPRecipientsRefused, smtplib.SMTPResponseException, ValueError) as error:
                    if not _for_good(error):
                        tried.unlink(missing_ok=True)  # refused for now: it did not reach anyone
                        raise
                    aside = path.with_name(path.name + ".failed")
                    path.replace(aside)
                    tried.unlink(missing_ok=True)
                    set_aside.append(aside)
                    continue
                path.unlink(missing_ok=True)
                tried.unlink(missing_ok=True)
                sent += 1
    except smtplib.SMTPException as error:
        raise DeliveryError(f"the SMTP server {smtp.host}:{smtp.port} refused: {_reason(error)}") from None
    except (OSError, ssl.SSLError) as error:
        raise DeliveryError(f"cannot reach the SMTP server {smtp.host}:{smtp.port}: {error}") from None
    return Flushed(sent, tuple(set_aside))


def _tightened(outbox: Path, paths: Sequence[Path]) -> None:
    """The outbox 0700 and its answers 0600, as they are written now: an outbox an older
    version left readable to others is tightened before anything is sent from it."""
    try:
        private_outbox(outbox)
        for path in paths:
            found = os.lstat(path)
            if stat.S_ISREG(found.st_mode) and found.st_mode & 0o077:
                os.chmod(path, stat.S_IMODE(found.st_mode) & ANSWER_MODE)
    except FileNotFoundError:  # sent by another gateway meanwhile
        pass
    except OSError as error:
        raise DeliveryError(f"cannot make the outbox {outbox} private: {error.strerror or error}") from None


def _for_good(error: Exception) -> bool:
    """Whether the server refused one message for good (5xx, or a file that is no message
    to send), rather than for now (4xx) or for every message."""
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    if isinstance(error, smtplib.SMTPResponseException):
        return error.smtp_code >= 500 and error.smtp_code not in (530, 535, 554)
    return True


def _open(client: smtplib.SMTP, smtp: Smtp) -> None:
    client.ehlo()
    if smtp.starttls:
        client.starttls(context=ssl.create_default_context())
        client.ehlo()
    if smtp.user is not None:
        client.login(smtp.user, os.environ.get(PASSWORD_VARIABLE, ""))
