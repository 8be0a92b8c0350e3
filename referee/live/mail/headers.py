"""What the gateway reads of a message before it knows the sender is a player (PLAY.md §5.1):
the header block alone, with only `From` and `Subject` decoded, each cut to its first
4 KB, in time and memory linear in their size. The standard `email` header parser is
never run on a stranger's message (its encoded-word decoder takes time and memory that
grow with the square of a long `Subject`).

    head = read_head(data)    # never raises; head.sender is None unless From is one address
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import NamedTuple

from referee.live.addresses import ADDRESS, clean_header_text

HEADER_LIMIT = 4096
"""How much of `From` and `Subject` is read (in characters of the raw header)."""

_OTHER_LIMIT = 1000
"""How much of the other headers read here is kept: their values are short words."""

_KEPT = ("from", "subject", "message-id", "references", "auto-submitted", "precedence", "return-path", "content-type")
_FLAGS = ("list-id", "x-autoreply", "x-autorespond", "x-auto-response-suppress", "list-unsubscribe")
_FLAG_NAMES = {
    "list-id": "List-Id",
    "x-autoreply": "X-Autoreply",
    "x-autorespond": "X-Autorespond",
    "x-auto-response-suppress": "X-Auto-Response-Suppress",
    "list-unsubscribe": "List-Unsubscribe",
}
HEAD_FIELDS = (*_KEPT, *_FLAGS, "x-loop")
"""Every header `read_head` looks at: a message's head fetched as these fields alone
(IMAP's `BODY.PEEK[HEADER.FIELDS (...)]`) reads as the whole message's head does."""
_LOOPS = 20
"""How many `X-Loop` headers are read (each cut as the other headers are)."""
_REPORT = "multipart/report"
"""A delivery (or read) report's media type (RFC 6522): a robot's, from any address."""
_END_OF_HEADERS = re.compile(rb"\r?\n\r?\n")
_FIELD_NAME = re.compile(r"([!-9;-~]{1,76})[ \t]*:")
_ENCODED_WORD = re.compile(r"=\?([^?\s*]{1,40})(?:\*[^?\s]{0,20})?\?([BbQq])\?([^?\s]*)\?=")
_BRACKETED = re.compile(r"\[([^\[\]\r\n]*)\]")
_MESSAGE_ID = re.compile(r"<[!-;=?-~]{1,250}>")
GAME_ID = re.compile(r"[A-Za-z0-9._-]{1,100}", re.ASCII)
"""A game ID (PLAY.md §5): letters, digits, `-`, `_`, `.`; never a path."""

_ROBOTS = ("mailer-daemon", "postmaster")
_BULK = ("bulk", "junk", "list")


class Head(NamedTuple):
    """What is known of a message before its sender is trusted. `sender` is the one address
    of `From` in lower case (None unless `From` is exactly one address); `automatic` the
    reason the message is automatic (RFC 3834), None for a person's mail; `loops` the
    addresses that its `X-Loop` headers name, in lower case (one of them the gateway's own:
    the message is the gateway's answer come back)."""

    sender: str | None
    sender_name: str
    subject: str
    game_ids: tuple[str, ...]
    message_id: str | None
    references: tuple[str, ...]
    automatic: str | None
    loops: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"<Head {self.message_id} from {self.sender} subject {self.subject!r}>"


def game_ids(subject: str) -> tuple[str, ...]:
    """The bracketed words of a subject that are well-formed game IDs, in order."""
    return tuple(word for word in _BRACKETED.findall(subject) if GAME_ID.fullmatch(word) and word not in (".", ".."))


def read_head(data: bytes) -> Head:
    """The head of a message as the mail transfer agent delivered it (an mbox `From ` line
    first is allowed). Only the header block is looked at, one line at a time."""
    envelope_sender = ""
    if data.startswith(b"From "):
        first_end = data.find(b"\n")
        envelope_sender = data[5 : first_end if first_end >= 0 else 300][:300].decode("latin-1").split(" ", 1)[0]
        data = data[first_end + 1 :] if first_end >= 0 else b""
    end = _END_OF_HEADERS.search(data)
    block = data[: end.start()] if end else data
    fields, flags, from_count, loops = _fields(block)
    raw_from = fields.get("from", "")
    found = single_address(raw_from) if from_count == 1 else None
    sender, name = found if found is not None else (None, "")
    raw_subject = fields.get("subject", "")
    ids = game_ids(raw_subject)
    subject = clean_header_text(decode_words(raw_subject), 500)
    if not ids:
        ids = game_ids(subject)
    message_id = _MESSAGE_ID.search(fields.get("message-id", ""))
    references = tuple(_MESSAGE_ID.findall(fields.get("references", "")))[-10:]
    automatic = _automatic(fields, flags, sender, envelope_sender)
    looped = tuple(address.lower() for value in loops for address in ADDRESS.findall(value))
    message_id_text = message_id.group(0) if message_id else None
    return Head(sender, name, subject, ids, message_id_text, references, automatic, looped)


def _fields(block: bytes) -> tuple[dict[str, str], set[str], int, list[str]]:
    """The first value of each header the gateway reads (unfolded, cut to its limit), the
    names of the flag headers present, how many `From` headers there are, and the values
    of the first `X-Loop` headers (each on its first line, cut to its limit)."""
    fields: dict[str, list[str]] = {}
    sizes: dict[str, int] = {}
    flags: set[str] = set()
    from_count = 0
    loops: list[str] = []
    current: str | None = None
    for raw in _lines(block):
        line = raw[: 4 * HEADER_LIMIT + 100].decode("utf-8", "replace")
        if line[:1] in (" ", "\t"):
            if current is not None:
                _extend(fields[current], sizes, current, line)
            continue
        current = None
        named = _FIELD_NAME.match(line)
        if named is None:
            continue
        name = named.group(1).lower()
        if name == "from":
            from_count += 1
        if name == "x-loop" and len(loops) < _LOOPS:
            loops.append(line[named.end() :][:_OTHER_LIMIT])
        if name in _FLAGS:
            flags.add(name)
        elif name in _KEPT and name not in fields:
            fields[name] = []
            sizes[name] = 0
            current = name
            _extend(fields[name], sizes, name, line[named.end() :])
    return {name: "".join(parts).strip() for name, parts in fields.items()}, flags, from_count, loops


def _lines(block: bytes) -> Iterator[bytes]:
    start = 0
    while start < len(block):
        end = block.find(b"\n", start)
        end = len(block) if end < 0 else end
        yield block[start:end].rstrip(b"\r")
        start = end + 1


def _extend(parts: list[str], sizes: dict[str, int], name: str, text: str) -> None:
    limit = HEADER_LIMIT if name in ("from", "subject") else _OTHER_LIMIT
    room = limit - sizes[name]
    if room > 0:
        piece = text[:room]
        parts.append(piece)
        sizes[name] += len(piece)


def decode_words(text: str) -> str:
    """A header's text with its RFC 2047 encoded words decoded, in one pass: whitespace
    between two encoded words is dropped, and the bytes of neighbouring words in the same
    charset are joined before they are decoded (a character may be split between them)."""
    out: list[str] = []
    pending: list[bytes] = []
    pending_charset = ""
    position = 0
    for word in _ENCODED_WORD.finditer(text):
        between = text[position : word.start()]
        charset = word.group(1).lower()
        adjacent = bool(pending) and not between.strip()
        if pending and (not adjacent or charset != pending_charset):
            out.append(_decode_bytes(b"".join(pending), pending_charset))
            pending = []
        if not adjacent:
            out.append(between)
        pending.append(_word_bytes(word.group(2), word.group(3)))
        pending_charset = charset
        position = word.end()
    if pending:
        out.append(_decode_bytes(b"".join(pending), pending_charset))
    out.append(text[position:])
    return "".join(out)


def _word_bytes(encoding: str, payload: str) -> bytes:
    if encoding in "Bb":
        try:
            return base64.b64decode(payload + "=" * (-len(payload) % 4))
        except (binascii.Error, ValueError):
            return payload.encode("ascii", "replace")
    raw = payload.replace("_", " ")
    try:
        return binascii.a2b_qp(raw.encode("ascii", "replace"))
    except (binascii.Error, ValueError):
        return raw.encode("ascii", "replace")


def _decode_bytes(data: bytes, charset: str) -> str:
    try:
        return data.decode(charset, "replace")
    except (LookupError, ValueError):
        return data.decode("utf-8", "replace")


def single_address(value: str) -> tuple[str, str] | None:
    """(address in lower case, display name) when `value` is exactly one address written
    as `local@domain`, `Name <local@domain>` or `local@domain (Name)`; None for anything
    else: no address, several, an unbalanced quote, bracket or parenthesis, a group."""
    phrase: list[str] = []
    comments: list[str] = []
    angle: str | None = None
    after_angle = False
    index, size = 0, len(value)
    while index < size:
        char = value[index]
        if char == '"':
            end, text = _quoted(value, index)
            if end < 0 or after_angle:
                return None
            phrase.append(f'"{text}"')
            index = end
        elif char == "(":
            end = _comment_end(value, index)
            if end < 0:
                return None
            comments.append(value[index + 1 : end - 1])
            index = end
        elif char == "<":
            end = value.find(">", index)
            if angle is not None or end < 0:
                return None
            angle = value[index + 1 : end]
            after_angle = True
            index = end + 1
        elif char in ")>,;:\\[]":
            return None
        else:
            if after_angle and not char.isspace():
                return None
            phrase.append(char)
            index += 1
    text = "".join(phrase).strip()
    if angle is not None:
        address = angle.strip()
        if not ADDRESS.fullmatch(address) or ("@" in text.replace('"', "") and '"' not in text):
            return None
        name = decode_words(text.replace('"', "")) if text else " ".join(comments)
        return address.lower(), clean_header_text(name, 80)
    if '"' in text or not ADDRESS.fullmatch(text):
        return None
    return text.lower(), clean_header_text(decode_words(" ".join(comments)), 80)


def _quoted(value: str, start: int) -> tuple[int, str]:
    """The end (after the closing quote) and the text of the quoted string at `start`; -1 if unclosed."""
    out: list[str] = []
    index = start + 1
    while index < len(value):
        char = value[index]
        if char == "\\":
            out.append(value[index + 1 : index + 2])
            index += 2
        elif char == '"':
            return index + 1, "".join(out)
        else:
            out.append(char)
            index += 1
    return -1, ""


def _comment_end(value: str, start: int) -> int:
    """The end of the (possibly nested) comment at `start`; -1 if it is not closed."""
    depth = 0
    index = start
    while index < len(value):
        char = value[index]
        if char == "\\":
            index += 2
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return -1


def _automatic(fields: dict[str, str], flags: set[str], sender: str | None, envelope_sender: str) -> str | None:
    """Why a message is automatic (RFC 3834 §2), or None."""
    submitted = fields.get("auto-submitted")
    if submitted is not None:
        word = re.split(r"[\s;(]", submitted.strip().lower(), maxsplit=1)[0]
        if word != "no":
            return f"Auto-Submitted: {clean_header_text(submitted, 40)}"
    precedence = fields.get("precedence", "").strip().lower()
    first = precedence.split()[0] if precedence.split() else ""
    if first in _BULK:
        return f"Precedence: {first}"
    for flag in _FLAGS:
        if flag in flags:
            return _FLAG_NAMES[flag]
    media_type = fields.get("content-type", "").partition(";")[0].strip().lower()
    if media_type == _REPORT:
        return f"Content-Type: {_REPORT} (a delivery report)"
    return_path = fields.get("return-path")
    if return_path is not None and return_path.replace(" ", "") in ("<>", ""):
        return "an empty Return-Path"
    for who in (sender or "", envelope_sender):
        local = who.partition("@")[0].strip("<>").lower()
        if local in _ROBOTS:
            return f"a sender named {local}"
    return None
