"""The Message-ID ledger of a game folder: every message the gateway has played or
refused, so that a message delivered twice is played once (PLAY.md §5).

One line per message, tab-separated: the Message-ID, the game ID, `played` or `refused`,
and the verdict the game had after it. The caller holds the ledger's lock while it looks
a message up, plays it and records it."""

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

    def line(self) -> str:
        fields = (self.message_id, self.game_id, self.outcome, clean_header_text(self.verdict, 300))
        return "\t".join(field.replace("\t", " ") for field in fields)


class Ledger:
    """The ledger file of one game folder, read once."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LEDGER_NAME
        try:
            self._text = store.read_bytes(self.path).decode("utf-8")
        except FileNotFoundError:
            self._text = ""

    def find(self, message_id: str) -> Entry | None:
        for line in self._text.splitlines():
            fields = line.split("\t")
            if len(fields) == 4 and fields[0] == message_id:
                return Entry(*fields)
        return None

    def record(self, entry: Entry, write: Callable[[Path, str], None]) -> None:
        """Add an entry and write the ledger anew (atomically, by `write`)."""
        text = self._text if not self._text or self._text.endswith("\n") else self._text + "\n"
        self._text = text + entry.line() + "\n"
        write(self.path, self._text)
