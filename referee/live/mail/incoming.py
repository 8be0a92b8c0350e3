"""Reading one incoming message: who sent it, which game its subject names, and the text
of its first `text/plain` part, decoded. Whatever arrives, this never raises: a header
that cannot be read counts as absent, a body that cannot be decoded is decoded with
replacement characters."""

from __future__ import annotations

import re
from email import policy
from email.message import Message
from email.parser import BytesParser
from email.utils import getaddresses
from typing import NamedTuple

from referee.live.mail.body import first_text as _first_text

GAME_ID = re.compile(r"[A-Za-z0-9._-]{1,100}", re.ASCII)
"""A game ID (PLAY.md §5): letters, digits, `-`, `_`, `.`; never a path."""

_BRACKETED = re.compile(r"\[([^\[\]\r\n]*)\]")
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")
_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9.-]{1,253}", re.ASCII)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


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


def clean_header_text(value: str, limit: int = 200) -> str:
    """A header value made safe to write into an answer's header: every line break and
    control character becomes one space (no header can be injected), at most `limit` characters."""
    return " ".join(_CONTROL.sub(" ", value).split())[:limit]


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
        if _ADDRESS.fullmatch(address):
            found.append((address.lower(), clean_header_text(name, 80)))
    return found


def game_ids(subject: str) -> tuple[str, ...]:
    """The bracketed words of a subject that are well-formed game IDs, in order."""
    return tuple(word for word in _BRACKETED.findall(subject) if GAME_ID.fullmatch(word) and word not in (".", ".."))


def parse(data: bytes) -> Incoming:
    """Read a message as the mail transfer agent delivered it (an mbox `From ` line first is allowed)."""
    message = BytesParser(policy=policy.default).parsebytes(data)
    subject = clean_header_text(_header(message, "Subject"), 500)
    sender_pairs = addresses_in(_header(message, "From"))
    sender, sender_name = sender_pairs[0] if sender_pairs else (None, "")
    message_id = _message_id(_header(message, "Message-ID"))
    references = tuple(_MESSAGE_ID.findall(_header(message, "References")))[-10:]
    text, html = _first_text(message)
    auto = _header(message, "Auto-Submitted").strip().lower()
    automatic = bool(auto) and not auto.startswith("no")
    return Incoming(
        message_id, references, sender, sender_name, subject, game_ids(subject), text, html and text is None, automatic
    )


def _header(message: Message, name: str) -> str:
    try:
        value = message.get(name)
        return "" if value is None else str(value)
    except Exception:  # a header the parser cannot decode counts as absent
        return ""


def _message_id(value: str) -> str | None:
    found = _MESSAGE_ID.search(value)
    return found.group(0) if found else None
