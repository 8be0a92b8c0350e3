"""What a player wrote: the moves of a message's text, with quoted lines, the signature,
and the `Key:` and `Token:` lines taken out (PLAY.md §5)."""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

_FIELD = re.compile(r"\s*(key|token)\s*:(.*)", re.IGNORECASE | re.DOTALL)
_ATTRIBUTION = re.compile(r".*\bwrote\s*:\s*", re.IGNORECASE | re.DOTALL)


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

    def __repr__(self) -> str:
        # The passphrase never appears in a repr, a log line or an answer.
        key = None if self.key is None else "***"
        return f"Submission({self.request.value}, moves={self.moves!r}, key={key}, token={self.token!r})"


def read_body(text: str) -> Submission:
    """Drop quoted lines (`>`), an attribution line just above them ("... wrote:"), and
    everything from the signature line `-- ` on; take out the first `Key:` and `Token:`
    lines (every such line is removed); what remains is the move text. A body of `show`
    or `moves` alone, in any case, is a request for the board or the legal moves."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    key: str | None = None
    token: str | None = None
    for index, line in enumerate(lines):
        if line.rstrip() == "--":
            break
        if line.lstrip().startswith(">"):
            continue
        if _ATTRIBUTION.fullmatch(line) and _next_is_quoted(lines, index):
            continue
        field = _FIELD.fullmatch(line)
        if field:
            value = field.group(2).strip()
            if field.group(1).lower() == "key":
                key = value if key is None else key
            else:
                token = value if token is None else token
            continue
        kept.append(line.rstrip())
    moves = "\n".join(kept).strip()
    word = moves.lower()
    if word in ("show", "moves"):
        return Submission(Request(word), "", key, token)
    return Submission(Request.PLAY, moves, key, token)


def _next_is_quoted(lines: list[str], index: int) -> bool:
    for line in lines[index + 1 :]:
        if line.strip():
            return line.lstrip().startswith(">")
    return False
