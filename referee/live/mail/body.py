"""What a player wrote: the text of a message's first `text/plain` part, decoded, and the
moves in it, with quoted lines, the signature, and the `Key:`, `Token:` and `Salt:`
lines taken out (PLAY.md §5). `check --email` reads a message's records through the
same decoding and the same dropping of quoted lines and signature (NOTATION.md §9)."""

from __future__ import annotations

import re
import textwrap
from email import policy
from email.message import Message
from email.parser import BytesParser
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from referee.live.mail.replies import Doubt, new_text
from referee.live.mail.request_words import request_of
from referee.speech import ENGLISH, Speaker

if TYPE_CHECKING:
    from referee.live.mail.html import HtmlText

_FIELD = re.compile(r"\s*(key|token|salt)\s*:(.*)", re.IGNORECASE | re.DOTALL)
_UNDECLARED = {"us-ascii", "ascii", "unknown-8bit", "x-unknown"}
_LATIN_1 = {"iso-8859-1", "latin-1", "latin1", "iso_8859-1", "l1", "iso8859-1"}
_MALFORMED_LINE = re.compile(r"\bmalformed: line (\d+), col \d+")
BLOCK_START = "moves:"
BLOCK_END = "end"


class Request(Enum):
    """What a message asks for."""

    PLAY = "play"
    SHOW = "show"
    MOVES = "moves"


class Submission(NamedTuple):
    """The body of a message, read: the move text, the passphrase and token it carries,
    and whether it only asks for the board (`show`) or the legal moves (`moves`)."""

    request: Request
    moves: str
    key: str | None
    token: str | None
    salt: str | None = None
    """A `Salt:` line's text (PLAY.md §5.1): the sender's side's salt."""
    unclear: str | None = None
    """A line where the reply parser sees a quoted earlier message begin among the lines
    read as the sender's own: the boundary is unclear, and the message is refused."""
    doubt: Doubt | None = None
    """Why `unclear` is unclear."""

    def __repr__(self) -> str:
        # The passphrase never appears in a repr, a log line or an answer.
        key = None if self.key is None else "***"
        salt = "" if self.salt is None else f", salt={self.salt!r}"
        return f"Submission({self.request.value}, moves={self.moves!r}, key={key}, token={self.token!r}{salt})"


# -- the text of a message ---------------------------------------------------------------


def first_text(message: Message) -> tuple[str | None, bool]:
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
            return decode_part(part), html
    return None, html


def decode_part(part: Message) -> str:
    """A part's text: its transfer encoding (quoted-printable, base64) undone, then its
    charset decoded; never raises (what cannot be decoded becomes replacement characters)."""
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


def written_lines(text: str) -> list[str | None]:
    """The lines of a message's text that its sender wrote, each as written, or None for a
    line the sender did not write: a quoted line (`>`) and the attribution above it, a
    greeting, a sign-off and the name below it. Everything from the signature line `-- `,
    a mobile signature or the start of a quoted earlier message on is left out
    (`replies.new_text`, docs/mail.md)."""
    return new_text(text, second_opinion=False).lines


def first_html(message: Message) -> HtmlText | None:
    """The text of the first `text/html` part that is not an attachment (`html.html_text`)."""
    from referee.live.mail.html import html_text  # only for HTML-only mail: html.parser costs a stranger nothing

    for part in message.walk():
        if part.is_multipart() or (part.get_content_disposition() or "").lower() == "attachment":
            continue
        if part.get_content_type() == "text/html":
            return html_text(decode_part(part))
    return None


class MessageText(NamedTuple):
    """What `check --email` reads of a message: the text its sender wrote (None when it
    has no `text/plain` part), and whether it has an HTML part."""

    text: str | None
    html: bool


def message_text(data: bytes) -> MessageText:
    """The text of a whole RFC 5322 message as the gateway reads it: its first `text/plain`
    part decoded, quoted lines (and the attribution above them) blanked, so that lines keep
    their numbers, and everything from the signature line on dropped."""
    try:
        message = BytesParser(policy=policy.default).parsebytes(data)
        text, html = first_text(message)
    except RecursionError:  # parts nested too deeply to read
        return MessageText(None, False)
    if text is None:
        return MessageText(None, html)
    return MessageText("\n".join(line or "" for line in written_lines(text)), html)


# -- the moves of a player's message -----------------------------------------------------


def read_body(text: str, html: bool = False) -> Submission:
    """Keep the sender's own lines (`replies.new_text`: no quoted earlier message, signature,
    greeting or sign-off; `unclear` when the reply parser doubts the boundary); take out
    the first `Key:`, `Token:` and `Salt:` lines (every such line is removed); what remains
    is the move text. When a line holds `moves:` alone, the move text is what follows it,
    up to a line `end` or the end, and the lines outside are ignored. A body of `show` or
    `moves` alone, in any case, is a request for the board or the legal moves. `html`: the
    text is an HTML part's (`html.html_text`), read by `new_text`'s stricter rules."""
    kept: list[str] = []
    key: str | None = None
    token: str | None = None
    salt: str | None = None
    read = new_text(text, html=html)
    for line in read.lines:
        if line is None:
            continue
        field = _FIELD.fullmatch(line)
        if field:
            value = field.group(2).strip()
            name = field.group(1).lower()
            if name == "key":
                key = value if key is None else key
            elif name == "token":
                token = value if token is None else token
            else:
                salt = value if salt is None else salt
            continue
        kept.append(line.rstrip())
    between = _between_markers(kept)
    moves = "\n".join(between).strip()
    unclear, doubt = read.unclear, read.doubt
    if unclear is not None and len(between) < len(kept) and not any(unclear in line for line in between):
        unclear = doubt = None  # the moves stand between `moves:` and `end`, away from the line in doubt
    word = request_of(moves)  # `show`, `moves` or their words in another language (`mostrar`, `jugadas`)
    if word in ("show", "moves"):
        return Submission(Request(word), "", key, token, salt, unclear, doubt)
    return Submission(Request.PLAY, moves, key, token, salt, unclear, doubt)


def _between_markers(lines: list[str]) -> list[str]:
    """The lines after a line `moves:` up to a line `end` (or the end), if there is such
    a line; else every line."""
    words = [line.strip().lower() for line in lines]
    if BLOCK_START not in words:
        return lines
    start = words.index(BLOCK_START) + 1
    end = words.index(BLOCK_END, start) if BLOCK_END in words[start:] else len(lines)
    return lines[start:end]


def not_a_move(moves: str, error: str, example: str | None, say: Speaker = ENGLISH) -> str | None:
    """For a submission refused as not RGN at some line: that line, in a player's words,
    and how to write moves so that the rest of a message is not read as moves (in the
    speaker's language; the line and the block's words as written)."""
    found = _MALFORMED_LINE.search(error)
    if found is None:
        return None
    lines = moves.split("\n")
    number = int(found.group(1))
    if not 1 <= number <= len(lines):
        return None
    line = " ".join(lines[number - 1].split())
    if len(line) > 60:
        line = line[:57] + "..."
    like = say(' (like "{example}")', example=example) if example else ""
    text = say(
        'The line "{line}" is not a move, so nothing was played: a mistyped move is never '
        "skipped. Write only your moves{like}, or put them between a line `{start}` and a line "
        "`{end}`: a greeting or a sign-off outside those lines is then ignored.",
        line=line,
        like=like,
        start=BLOCK_START,
        end=BLOCK_END,
    )
    return textwrap.fill(text, 72, break_long_words=False, break_on_hyphens=False)
