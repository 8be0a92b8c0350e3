"""Reading one incoming message: who sent it, which game its subject names, and the text
of its first `text/plain` part, decoded. Whatever arrives, this never raises: a header
that cannot be read counts as absent, a body that cannot be decoded is decoded with
replacement characters. The head (sender, subject, game) is read by `headers.read_head`,
bounded and linear, before anything else."""

from __future__ import annotations

from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses
from typing import NamedTuple

from referee.live.mail.headers import ADDRESS, GAME_ID, Head, clean_header_text, game_ids, read_head

_UNDECLARED = {"us-ascii", "ascii", "unknown-8bit", "x-unknown"}
_LATIN_1 = {"iso-8859-1", "latin-1", "latin1", "iso_8859-1", "l1", "iso8859-1"}


class Incoming(NamedTuple):
    """What the gateway needs of a message. `text` is the first `text/plain` part decoded
    (None if there is none); `html_only` says there was an HTML part instead."""

    message_id: str | None
    references: tuple[str, ...]
    sender: str | None
    sender_name: str
    subject: str
    game_ids: tuple[str, ...]
    text: str | None
    html_only: bool
    automatic: bool

    def __repr__(self) -> str:
        return f"<Incoming {self.message_id} from {self.sender} subject {self.subject!r}>"


def address_of(text: str) -> str | None:
    """The e-mail address a `From` header or a side tag holds (the first one), lower case;
    None when it holds no plausible address."""
    return next(iter(addresses_in(text)), (None, ""))[0]


def addresses_in(text: str) -> list[tuple[str, str]]:
    """Every plausible address in a header-like text, as (address in lower case, display name)."""
    found: list[tuple[str, str]] = []
    try:
        pairs = getaddresses([text])
    except Exception:  # the standard parser has raised on odd inputs in some Python versions
        return found
    for name, address in pairs:
        if ADDRESS.fullmatch(address):
            found.append((address.lower(), clean_header_text(name, 80)))
    return found


def parse(data: bytes) -> Incoming:
    """Read a whole message (an mbox `From ` line first is allowed): its head as `read_head`
    reads it, then its body. Only for a player's message within the size limit."""
    return with_body(read_head(data), data)


def with_body(head: Head, data: bytes) -> Incoming:
    """The message whose head is `head`, with its first text part. The body is parsed with
    the `compat32` policy, which never decodes a header's encoded words."""
    if data.startswith(b"From "):
        data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
    message = BytesParser(policy=policy.compat32).parsebytes(data)
    text, html = _first_text(message)
    return Incoming(
        head.message_id,
        head.references,
        head.sender,
        head.sender_name,
        head.subject,
        head.game_ids,
        text,
        html and text is None,
        head.automatic is not None,
    )


def _first_text(message: Message) -> tuple[str | None, bool]:
    """The first `text/plain` part that is not an attachment, decoded; and whether an HTML part was seen."""
    html = False
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        disposition = (part.get_content_disposition() or "").lower()
        if disposition == "attachment":
            continue
        if kind == "text/html":
            html = True
        elif kind == "text/plain":
            return _decode(part), html
    return None, html


def _decode(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = (part.get_content_charset() or "us-ascii").strip().lower()
    if charset in _UNDECLARED:
        # 8-bit text sent without a charset: UTF-8 when it is that, else what Windows mailers send.
        try:
            return payload.decode("utf-8")
        except UnicodeDecodeError:
            return payload.decode("windows-1252", "replace")
    if charset in _LATIN_1:
        # As browsers do: mail labelled Latin-1 is often Windows-1252, its superset for printable text.
        charset = "windows-1252"
    try:
        return payload.decode(charset, "replace")
    except (LookupError, ValueError):
        # An unknown charset name: UTF-8 is the likeliest, and never fails with "replace".
        return payload.decode("utf-8", "replace")


__all__ = [
    "GAME_ID",
    "Incoming",
    "address_of",
    "addresses_in",
    "clean_header_text",
    "game_ids",
    "parse",
    "read_head",
    "with_body",
]
