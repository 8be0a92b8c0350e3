"""Reading one incoming message: who sent it, which game its subject names, and the text
of its first `text/plain` part, decoded. Whatever arrives, this never raises: a header
that cannot be read counts as absent, a body that cannot be decoded is decoded with
replacement characters. The head (sender, subject, game) is read by `headers.read_head`,
bounded and linear, before anything else."""

from __future__ import annotations

from email import policy
from email.parser import BytesParser
from typing import NamedTuple

from referee.live.mail.body import first_html as _first_html
from referee.live.mail.body import first_text as _first_text
from referee.live.mail.headers import GAME_ID, Head, game_ids, read_head


class Incoming(NamedTuple):
    """What the gateway needs of a message. `text` is the first `text/plain` part decoded,
    else the text of its first HTML part (`html.html_text`, quoted parts as `>` lines), else
    None; `html_only` says the text is the HTML part's."""

    message_id: str | None
    references: tuple[str, ...]
    sender: str | None
    sender_name: str
    subject: str
    game_ids: tuple[str, ...]
    text: str | None
    html_only: bool
    automatic: bool
    html_complete: bool = True
    """False when the HTML parser gave up before the end of the HTML part."""

    def __repr__(self) -> str:
        return f"<Incoming {self.message_id} from {self.sender} subject {self.subject!r}>"


def parse(data: bytes) -> Incoming:
    """Read a whole message (an mbox `From ` line first is allowed): its head as `read_head`
    reads it, then its body. Only for a player's message within the size limit."""
    return with_body(read_head(data), data)


def with_body(head: Head, data: bytes) -> Incoming:
    """The message whose head is `head`, with its first text part (or its HTML part's text,
    PLAY.md §5). The body is parsed with the `compat32` policy, which never decodes a
    header's encoded words."""
    if data.startswith(b"From "):
        data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
    message = BytesParser(policy=policy.compat32).parsebytes(data)
    text, html = _first_text(message)
    converted = _first_html(message) if html and text is None else None
    if converted is not None:
        text = converted.text
    return Incoming(
        head.message_id,
        head.references,
        head.sender,
        head.sender_name,
        head.subject,
        head.game_ids,
        text,
        converted is not None,
        head.automatic is not None,
        converted is None or converted.complete,
    )


__all__ = [
    "GAME_ID",
    "Incoming",
    "game_ids",
    "parse",
    "read_head",
    "with_body",
]
