"""One connection to the game master's IMAP mailbox (docs/mail.md, "A mailbox at a
provider"): where it is (`Mailbox`, from an `imap://` or `imaps://` URL), how to log in
(`Login`), and the commands a pass makes (`Connection`: TLS, login, folders, heads,
bounded fetches, moves), each failure an `ImapError` with the server's words on one line.
`imap.py` runs the passes; `imap_pass.py` is one pass."""

from __future__ import annotations

import ast
import ipaddress
import re
import ssl
from collections.abc import Callable
from typing import Any, NamedTuple

from referee.errors import UsageError
from referee.live.mail.headers import HEAD_FIELDS

TIMEOUT = 60.0
"""Seconds an IMAP command may take before the connection counts as lost."""
HEADS_AT_ONCE = 200
"""Messages whose heads one FETCH asks for (each at most 64 KB: a reply within a few MB)."""
MOVES_AT_ONCE = 500
"""Messages one MOVE carries (a UID set of ranges: a short command line)."""


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


class Connection:
    """One logged-in IMAP session on the mailbox, through IMAPClient."""

    def __init__(self, box: Mailbox, login: Login, context: ssl.SSLContext | None = None) -> None:
        try:
            from imapclient import IMAPClient
        except ImportError:
            raise UsageError("--imap needs IMAPClient: pip install '.[imap]' in the checkout") from None
        self.box = box
        self._capabilities: tuple[bytes, ...] | None = None
        context = context or ssl.create_default_context()
        try:
            self.client: Any = IMAPClient(box.host, box.port, ssl=box.tls, ssl_context=context, timeout=TIMEOUT)
        except ssl.SSLCertVerificationError as error:
            # The configuration's, not the network's: the next pass would fail the same way.
            raise UsageError(f"{box}: the server's certificate is not trusted: {error.verify_message}") from None
        except ssl.SSLError as error:
            raise UsageError(
                f"{box}: {box.host}:{box.port} does not answer with TLS ({_text(error)}): "
                "imaps:// is TLS from the start (port 993); imap:// uses STARTTLS (port 143)"
            ) from None
        except OSError as error:
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
        try:
            info = self.client.select_folder(self.box.folder)
        except Exception as error:
            if not self._call(self.client.folder_exists, self.box.folder):
                raise UsageError(
                    f'{self.box}: the server has no folder "{self.box.folder}" (the URL names it after the last /)'
                ) from None
            raise ImapError(f"{self.box}: select_folder: {_text(error)}") from None
        validity = int(info.get(b"UIDVALIDITY", 0))
        uids = sorted(int(uid) for uid in self._call(self.client.search, ["NOT", "DELETED"]))
        return validity, uids

    def heads(self, uids: list[int], limit: int) -> dict[int, tuple[int, bytes | None]]:
        """Each message's size and the header fields the gateway reads (`HEAD_FIELDS`), for
        many messages in one FETCH (`HEADS_AT_ONCE` at a time): None for a head larger than
        `limit` bytes (such a message is read whole, as on standard input)."""
        fields = " ".join(name.upper() for name in HEAD_FIELDS)
        item = f"BODY.PEEK[HEADER.FIELDS ({fields})]<0.{limit + 1}>"
        found: dict[int, tuple[int, bytes | None]] = {}
        for start in range(0, len(uids), HEADS_AT_ONCE):
            chunk = uids[start : start + HEADS_AT_ONCE]
            fetched = self._call(self.client.fetch, chunk, ["RFC822.SIZE", item])  # (IMAPClient wants UIDs)
            for uid, data in fetched.items():
                size = int(data.get(b"RFC822.SIZE", 0))
                head = next((value for key, value in data.items() if key.startswith(b"BODY[HEADER")), None)
                found[int(uid)] = (size, head if isinstance(head, bytes) and len(head) <= limit else None)
        return found

    def read(self, uid: int, limit: int, size: int | None = None) -> tuple[bytes, bool] | None:
        """At most `limit` bytes of a message, and whether it is larger (None: it is gone);
        its RFC822.SIZE is fetched first unless given."""
        if size is None:
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

    def move(self, uids: list[int], folder: str) -> None:
        """Move messages, `MOVES_AT_ONCE` at a time as one UID set (MOVE; else COPY,
        \\Deleted and an expunge of those UIDs alone)."""
        if self._capabilities is None:
            self._capabilities = tuple(self._call(self.client.capabilities))
        for start in range(0, len(uids), MOVES_AT_ONCE):
            ids = uid_set(uids[start : start + MOVES_AT_ONCE])
            if b"MOVE" in self._capabilities:
                self._call(self.client.move, ids, folder)
                continue
            self._call(self.client.copy, ids, folder)
            self._call(self.client.delete_messages, ids, True)  # (silent: no FETCH response to read)
            if b"UIDPLUS" in self._capabilities:
                self._call(self.client.uid_expunge, ids)
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


_BYTES_REPR = re.compile(r"(?<!\w)b(?:'(?:[^'\\]|\\.){0,2000}'" + r'|"(?:[^"\\]|\\.){0,2000}")')


def uid_set(uids: list[int]) -> str:
    """UIDs as an IMAP sequence set of ranges: `3:7,9,12:13` (a flood's command stays short)."""
    ordered = sorted(set(uids))
    parts: list[str] = []
    start = end = ordered[0] if ordered else 0
    for uid in ordered[1:]:
        if uid == end + 1:
            end = uid
            continue
        parts.append(f"{start}:{end}" if end > start else str(start))
        start = end = uid
    if ordered:
        parts.append(f"{start}:{end}" if end > start else str(start))
    return ",".join(parts)


def _text(error: BaseException) -> str:
    """The server's words in an error, on one line: IMAPClient and imaplib give them as
    the repr of the bytes received (`b'[AUTHENTICATIONFAILED] ...'`), decoded here."""
    text = _BYTES_REPR.sub(_decoded, str(error)[:4000])
    return " ".join(text.split())[:300] or type(error).__name__


def _decoded(found: re.Match[str]) -> str:
    try:
        value = ast.literal_eval(found.group(0))
    except (ValueError, SyntaxError):
        return found.group(0)
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else found.group(0)
