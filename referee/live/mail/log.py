"""`DIR/mail.log`: one line for every message the gateway reads (PLAY.md §5.1), so that the
game master sees what the mail transfer agent hides (strangers, busy games, automatic mail).

    2026-11-24T01:30:00Z <a1@example.org> ann@example.org g1 played

Fields, separated by one space: the time (UTC), the Message-ID, the sender's address,
the game ID (`-` for any that is unknown) and the outcome. No field holds a space or a
control character, whatever the message held, so a line is always five fields."""

from __future__ import annotations

import re
from enum import Enum
from pathlib import Path
from typing import NamedTuple

from notation.timing import format_instant
from referee import store

LOG_NAME = "mail.log"
_UNSAFE = re.compile(r"[^!-~]")


class Outcome(Enum):
    """What became of one message: the last field of its log line."""

    PLAYED = "played"
    REFUSED = "refused"
    SHOWN = "shown"
    STRANGER = "stranger"
    NOT_ACCEPTED = "not-accepted"
    NO_GAME = "no-game"
    DUPLICATE = "duplicate"
    BUSY = "busy"
    TOO_LARGE = "too-large"
    AUTOMATIC = "automatic"


class LogLine(NamedTuple):
    """One line of the log, before it is written."""

    time: int
    message_id: str | None
    sender: str | None
    game_id: str | None
    outcome: Outcome

    def text(self) -> str:
        fields = (format_instant(self.time), self.message_id, self.sender, self.game_id, self.outcome.value)
        return " ".join(_field(value) for value in fields) + "\n"


def _field(value: str | None) -> str:
    if not value:
        return "-"
    return _UNSAFE.sub("?", value)[:300]


def append(folder: Path, line: LogLine) -> None:
    """Append one line to `folder/mail.log` with one `write` on a file opened for appending
    (so that lines of gateways running at once never mix), then `fsync` it; within the
    message's transaction, with everything else it wrote (`referee.store.journal`). Raises
    WriteFailed (an OSError) when it cannot be written: the message is then not handled."""
    store.append(folder / LOG_NAME, line.text().encode("ascii"))
