"""The Message-ID ledger of a game folder: every message the gateway has played or
refused, so that a message delivered twice is played once (PLAY.md §5).

One line per message, tab-separated: the Message-ID, the game ID, `played`, `refused` or
`shown`, the verdict the game had after it, and the sender's address. A message is known
by its Message-ID and its sender together: a Message-ID is only the sender's own name for
a message, so a message of Bo's that reuses Ann's Message-ID is another message, read and
handled. The caller holds the ledger's lock while it looks a message up, plays it and
records it.

A line written before the sender was recorded (four fields) names no sender: it matches
its Message-ID from any sender, as it did when it was written, so that a message played
then is never played again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from referee import store
from referee.live.addresses import clean_header_text

LEDGER_NAME = "mail-ledger.tsv"


class Entry(NamedTuple):
    message_id: str
    game_id: str
    outcome: str
    verdict: str
    sender: str | None = None
    """The sender's address (lower case); None on a line written before it was recorded."""

    def line(self) -> str:
        fields = [self.message_id, self.game_id, self.outcome, clean_header_text(self.verdict, 300)]
        if self.sender is not None:
            fields.append(self.sender)
        return "\t".join(field.replace("\t", " ") for field in fields)

    def matches(self, message_id: str, sender: str | None) -> bool:
        """Whether this entry is that message: the same Message-ID from the same sender (any
        sender, for a line that names none, or when `sender` is None)."""
        same = self.sender is None or sender is None or self.sender == sender
        return self.message_id == message_id and same


class Ledger:
    """The ledger file of one game folder, read once."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LEDGER_NAME
        try:
            self._text = store.read_bytes(self.path).decode("utf-8")
        except FileNotFoundError:
            self._text = ""

    def find(self, message_id: str, sender: str | None = None) -> Entry | None:
        """The entry of the message with this Message-ID from this sender (None: from any
        sender), if it was handled."""
        for line in self._text.splitlines():
            fields = line.split("\t")
            if len(fields) not in (4, 5) or fields[0] != message_id:
                continue
            entry = Entry(fields[0], fields[1], fields[2], fields[3], fields[4].lower() if len(fields) == 5 else None)
            if entry.matches(message_id, sender):
                return entry
        return None

    def record(self, entry: Entry, write: Callable[[Path, str], None]) -> None:
        """Add an entry and write the ledger anew (atomically, by `write`)."""
        text = self._text if not self._text or self._text.endswith("\n") else self._text + "\n"
        self._text = text + entry.line() + "\n"
        write(self.path, self._text)
