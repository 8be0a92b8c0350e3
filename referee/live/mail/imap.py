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

import ipaddress
import os
import ssl
import stat
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from referee import store
from referee.judge.errors import ExitStatus, UsageError
from referee.judge.words import plural
from referee.live.mail import game
from referee.live.mail.gateway import Handled, Settings, flush_notes, flush_waiting
from referee.live.mail.log import Outcome

PASSWORD_ENV = "REFEREE_IMAP_PASSWORD"
TOKEN_ENV = "REFEREE_IMAP_OAUTH2_TOKEN"
STATE_NAME = "imap-handled.tsv"
MAX_SECRET = 4096
"""The most bytes of a password file or an OAuth2 token read."""
TIMEOUT = 60.0
"""Seconds an IMAP command may take before the connection counts as lost."""
IDLE_RENEW = 25 * 60
"""An IDLE is renewed before 29 minutes (RFC 2177), so that no server drops it."""
FOLDERS = {
    Outcome.PLAYED: "played",
    Outcome.SHOWN: "played",
    Outcome.REFUSED: "refused",
    Outcome.NOT_ACCEPTED: "refused",
    Outcome.TOO_LARGE: "refused",
    Outcome.STRANGER: "ignored",
    Outcome.NO_GAME: "ignored",
    Outcome.AUTOMATIC: "ignored",
    Outcome.DUPLICATE: "ignored",
}
"""Where a handled message goes, by its outcome (under `referee`); BUSY stays."""


class ImapError(Exception):
    """The server could not be reached, or a command failed: the pass stops (exit 75)."""


class Mailbox(NamedTuple):
    """`imaps://USER@HOST[:PORT]/MAILBOX`, read."""

    tls: bool
    """True for imaps:// (TLS from the start); False for imap:// (STARTTLS, or plain on the loopback)."""
    user: str
    host: str
    port: int
    folder: str

    def __str__(self) -> str:
        scheme = "imaps" if self.tls else "imap"
        return f"{scheme}://{self.user}@{self.host}:{self.port}/{self.folder}"

    @property
    def loopback(self) -> bool:
        if self.host.lower() == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


class Login(NamedTuple):
    """How to log in: a password (an app password works), or an OAuth2 access token (XOAUTH2)."""

    password: str | None
    token: str | None

    def __repr__(self) -> str:
        return f"Login({'password' if self.password is not None else 'oauth2'})"


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


class Connection:
    """One logged-in IMAP session on the mailbox, through IMAPClient."""

    def __init__(self, box: Mailbox, login: Login, context: ssl.SSLContext | None = None) -> None:
        try:
            from imapclient import IMAPClient
        except ImportError:
            raise UsageError("--imap needs IMAPClient: pip install 'referee[imap]'") from None
        self.box = box
        context = context or ssl.create_default_context()
        try:
            self.client: Any = IMAPClient(box.host, box.port, ssl=box.tls, ssl_context=context, timeout=TIMEOUT)
        except (OSError, ssl.SSLError) as error:
            raise ImapError(f"cannot reach {box.host}:{box.port}: {error}") from None
        try:
            self._secure(context)
            self._login(login)
            self.delimiter = self._delimiter()
        except BaseException:
            self.close()
            raise

    def _secure(self, context: ssl.SSLContext) -> None:
        if self.box.tls:
            return
        if b"STARTTLS" in self._call(self.client.capabilities):
            self._call(self.client.starttls, context)
        elif not self.box.loopback:
            raise UsageError(f"{self.box.host} offers no STARTTLS: use imaps:// (plain imap:// only on the loopback)")

    def _login(self, login: Login) -> None:
        from imapclient.exceptions import LoginError

        try:
            if login.token is not None:
                self.client.oauth2_login(self.box.user, login.token)
            else:
                self.client.login(self.box.user, login.password)
        except LoginError as error:
            raise UsageError(f"{self.box}: the server refused the login: {_text(error)}") from None
        except Exception as error:
            raise ImapError(f"{self.box}: login: {_text(error)}") from None

    def _call(self, method: Callable[..., Any], *args: Any) -> Any:
        """A command; its failure (a NO, a BAD, a lost connection) an ImapError."""
        try:
            return method(*args)
        except UsageError:
            raise
        except Exception as error:
            raise ImapError(f"{self.box}: {getattr(method, '__name__', 'command')}: {_text(error)}") from None

    def _delimiter(self) -> str:
        """The server's hierarchy delimiter (`LIST "" ""`): `.` on a default Dovecot, `/` elsewhere."""
        for _flags, delimiter, _name in self._call(self.client.list_folders, "", ""):
            if delimiter:
                return delimiter.decode("ascii", "replace") if isinstance(delimiter, bytes) else str(delimiter)
        return "/"

    def folder(self, name: str) -> str:
        """`referee<delimiter>NAME`, made when missing."""
        full = f"referee{self.delimiter}{name}"
        if not self._call(self.client.folder_exists, full):
            try:
                self.client.create_folder(full)
            except Exception as error:
                if not self._call(self.client.folder_exists, full):  # another poller may have made it
                    raise ImapError(f"{self.box}: cannot make the folder {full}: {_text(error)}") from None
        return full

    def select(self) -> tuple[int, list[int]]:
        """Open the mailbox; its UIDVALIDITY and the UIDs of its messages (not deleted), oldest first."""
        info = self._call(self.client.select_folder, self.box.folder)
        validity = int(info.get(b"UIDVALIDITY", 0))
        uids = sorted(int(uid) for uid in self._call(self.client.search, ["NOT", "DELETED"]))
        return validity, uids

    def read(self, uid: int, limit: int) -> tuple[bytes, bool] | None:
        """At most `limit` bytes of a message, and whether it is larger (None: it is gone)."""
        sizes = self._call(self.client.fetch, [uid], ["RFC822.SIZE"])
        if uid not in sizes:
            return None
        size = int(sizes[uid].get(b"RFC822.SIZE", 0))
        want = min(size, limit) + 1
        fetched = self._call(self.client.fetch, [uid], [f"BODY.PEEK[]<0.{want}>"])
        found = fetched.get(uid, {})
        data = next((value for key, value in found.items() if key.startswith(b"BODY[]")), None)
        if not isinstance(data, bytes):
            return None
        return data[:limit], size > limit or len(data) > limit

    def move(self, uid: int, folder: str) -> None:
        """Move a message (MOVE; else COPY, \\Deleted and an expunge of that UID alone)."""
        capabilities = self._call(self.client.capabilities)
        if b"MOVE" in capabilities:
            self._call(self.client.move, [uid], folder)
            return
        self._call(self.client.copy, [uid], folder)
        self._call(self.client.delete_messages, [uid])
        if b"UIDPLUS" in capabilities:
            self._call(self.client.uid_expunge, [uid])
        else:
            self._call(self.client.expunge)

    def wait(self, seconds: float) -> None:
        """IDLE until the mailbox changes or `seconds` pass (a poll's pause without IDLE)."""
        self._call(self.client.idle)
        try:
            self._call(self.client.idle_check, seconds)
        finally:
            self._call(self.client.idle_done)

    def close(self) -> None:
        try:
            self.client.logout()
        except Exception:  # the connection is gone already; nothing more to say to it
            pass


def _text(error: BaseException) -> str:
    text = str(error)
    if isinstance(error, bytes):
        text = error.decode("utf-8", "replace")
    return " ".join(text.split())[:300] or type(error).__name__


# -- what was handled -------------------------------------------------------------------


class Handledlist:
    """`DIR/imap-handled.tsv`: `UIDVALIDITY UID FOLDER URL` for every message handled and not
    yet seen moved, so that a pass cut short between the handling and the move moves it
    next time without handling it again."""

    def __init__(self, games: Path, box: Mailbox) -> None:
        self.path = games / STATE_NAME
        self.key = str(box)

    def entries(self) -> dict[tuple[int, int], str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        found: dict[tuple[int, int], str] = {}
        for line in text.splitlines():
            fields = line.split("\t")
            if len(fields) == 4 and fields[3] == self.key and fields[0].isdigit() and fields[1].isdigit():
                found[(int(fields[0]), int(fields[1]))] = fields[2]
        return found

    def add(self, validity: int, uid: int, folder: str) -> None:
        """Append one line with one write, and fsync it before the message is moved."""
        line = f"{validity}\t{uid}\t{folder}\t{self.key}\n".encode()
        try:
            store.append_line(self.path, line)  # whole lines, whatever fails (docs/files.md)
        except store.WriteFailed as error:
            raise OSError(error.errno, error.reason) from None

    def keep_only(self, validity: int, present: set[int], wait: float) -> None:
        """Forget the lines of this mailbox whose message is no longer in it (moved)."""
        with game.locked(self.path, wait):
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                return
            kept = [line for line in lines if _still_needed(line, self.key, validity, present)]
            if len(kept) != len(lines):
                game.write_atomically(self.path, "".join(f"{line}\n" for line in kept))


def _still_needed(line: str, key: str, validity: int, present: set[int]) -> bool:
    fields = line.split("\t")
    if len(fields) != 4 or fields[3] != key:
        return len(fields) == 4
    return fields[0] == str(validity) and fields[1].isdigit() and int(fields[1]) in present


# -- a pass -----------------------------------------------------------------------------


class Pass(NamedTuple):
    """What one pass over the mailbox did: outcomes counted, messages left for the next
    pass, and lines for standard error."""

    outcomes: Counter[str]
    left: int
    notes: tuple[str, ...]
    failed: bool = False
    """The server went away or refused a command mid-pass (exit 75)."""

    def summary(self, box: Mailbox) -> str:
        handled = sum(self.outcomes.values())
        parts = ", ".join(f"{count} {outcome}" for outcome, count in sorted(self.outcomes.items()))
        text = f"{box}: {plural(handled, 'message')} handled" + (f" ({parts})" if parts else "")
        return text + (f", {plural(self.left, 'message')} left for the next pass" if self.left else "")


Handler = Callable[[bytes, Settings, bool], Handled]


def one_pass(connection: Connection, settings: Settings, handler: Handler) -> Pass:
    """Handle every message of the mailbox once. The gateway writes its answers into the
    outbox; they are sent (with `--smtp`) once the message is recorded as handled."""
    quiet = settings._replace(smtp=None)
    validity, uids = connection.select()
    done = Handledlist(settings.games, connection.box)
    before = done.entries()
    done.keep_only(validity, set(uids), settings.wait)
    outcomes: Counter[str] = Counter()
    notes: list[str] = []
    left = 0
    folders: dict[str, str] = {}
    for uid in uids:
        where = before.get((validity, uid))
        if where is None:
            read = connection.read(uid, settings.max_size)
            if read is None:
                continue
            try:
                handled = handler(read[0], quiet, read[1])
            except UsageError as error:  # a broken game file is the game master's: the rest go on
                notes.append(f"UID {uid}: {error}: left in the mailbox")
                left += 1
                continue
            notes += [f"UID {uid}: {note}" for note in handled.notes]
            if handled.outcome is None or handled.outcome is Outcome.BUSY:
                left += 1  # busy, or the game folder is broken: left unseen for the next pass
                continue
            outcomes[handled.outcome.value] += 1
            where = _folder_of(handled.outcome, read[0], settings.games)
            done.add(validity, uid, where)
        notes += _send(settings)
        if where not in folders:
            folders[where] = connection.folder(where)
        connection.move(uid, folders[where])
    return Pass(outcomes, left, tuple(notes))


def _folder_of(outcome: Outcome, data: bytes, games: Path) -> str:
    """Where a handled message goes. A message handled before (a pass cut short between
    the handling and the record of it, or the same message twice) goes where the ledger's
    outcome of it says: played or refused."""
    if outcome is Outcome.DUPLICATE:
        from referee.live.mail.headers import read_head
        from referee.live.mail.ledger import Ledger

        message_id = read_head(data).message_id
        before = Ledger(games).find(message_id) if message_id is not None else None
        if before is not None and before.outcome in ("played", "refused"):
            return before.outcome
    return FOLDERS[outcome]


def _send(settings: Settings) -> list[str]:
    """Send what waits in the outbox (with --smtp); a server that cannot take it now leaves it there."""
    if settings.smtp is None:
        return []
    from referee.live.mail.errors import DeliveryError

    try:
        flushed = flush_waiting(settings)
        return flush_notes(flushed._replace(sent=0), settings.outbox)  # only what was refused for good
    except DeliveryError as error:
        return [f"{error}: the answers wait in {settings.outbox}"]


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
        return Handled(code, (*result.notes, result.summary(box)))
    pause = poll if poll is not None else IDLE_RENEW
    while True:
        try:
            with connected(box, login) as connection:
                while True:
                    result = one_pass(connection, settings, handler)
                    for note in (*result.notes, result.summary(box)):
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


__all__ = ["ImapError", "Login", "Mailbox", "Pass", "login_from", "one_pass", "parse_url", "run"]
