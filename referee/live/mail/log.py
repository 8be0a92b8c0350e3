"""`DIR/mail.log`: one line for every message the gateway reads (PLAY.md §5.1), so that the
game master sees what the mail transfer agent hides (strangers, busy games, automatic mail).

    2026-11-24T01:30:00Z <a1@example.org> ann@example.org g1 played

Fields, separated by one space: the time (UTC), the Message-ID, the sender's address,
the game ID (`-` for any that is unknown) and the outcome. No field holds a space or a
control character, whatever the message held, so a line is always five fields.

With `--log-file PATH`, PATH gets the same line as one JSON object with the reason added,
for a game master under cron or an MTA, where standard error is lost; `referee mail --log`
prints the last lines of either as a table. (`mail.log` keeps PLAY.md §5.1's five fields,
which its readers split on spaces.)

    {"time": "2026-11-24T01:30:00Z", "message_id": "<a1@example.org>", "sender": "ann@example.org",
     "game": "g1", "outcome": "played", "reason": "Ann (Athens) played in game g1:"}
"""

from __future__ import annotations

import json
import os
import re
from collections import deque
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import NamedTuple

from referee import store
from referee.notation.timing import format_instant
from referee.store.lines import append_to

LOG_NAME = "mail.log"
MAX_LINE = 4096
"""The longest line of a JSON log read back by `--log`; longer ones are skipped."""
_UNSAFE = re.compile(r"[^!-~]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


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
    reason: str = ""

    def text(self) -> str:
        fields = (format_instant(self.time), self.message_id, self.sender, self.game_id, self.outcome.value)
        return " ".join(_field(value) for value in fields) + "\n"

    def json(self) -> str:
        """One line of JSON, ASCII only (no control character of a message reaches the file)."""
        fields = {
            "time": format_instant(self.time),
            "message_id": _field(self.message_id),
            "sender": _field(self.sender),
            "game": _field(self.game_id),
            "outcome": self.outcome.value,
            "reason": " ".join(_CONTROL.sub(" ", self.reason[:2000]).split())[:300],
        }
        return json.dumps(fields, ensure_ascii=True) + "\n"


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


def append_many(folder: Path, lines: list[LogLine]) -> None:
    """`append` of several lines at once, with one `write` (a pass over a mailbox that files
    many strangers' messages together)."""
    if lines:
        store.append(folder / LOG_NAME, "".join(line.text() for line in lines).encode("ascii"))


def append_json_many(path: Path, lines: list[LogLine]) -> None:
    """`append_json` of several lines at once, with one `write` and one `fsync`."""
    if lines:
        _append(path, "".join(line.json() for line in lines))


def append_json(path: Path, line: LogLine) -> None:
    """Append the line's JSON to `path` (the `--log-file`), once the message's transaction
    is over, with one `write` and an `fsync`."""
    _append(path, line.json())


def _append(path: Path, text: str) -> None:
    """One `write` and an `fsync` on `path` opened as every append-only output is
    (`store.open_appending`: never through a link, never waiting on a FIFO, a regular
    file only), leaving whole lines whatever fails (`referee.store.lines`: a tail left
    without its end by a dead run is cut first, a failed append is cut back). Raises
    WriteFailed (an OSError) naming the file and why."""
    fd = store.open_appending(path)
    try:
        append_to(fd, text.encode("ascii"))
    except OSError as error:
        raise store.WriteFailed(path, error) from None
    finally:
        os.close(fd)


class Row(NamedTuple):
    """A line of the log read back: its fields as text (`-` for an unknown one)."""

    time: str
    message_id: str
    sender: str
    game: str
    outcome: str
    reason: str


def last(folder: Path, count: int, json_log: Path | None = None) -> list[Row]:
    """The last `count` lines of the JSON log `json_log` when given, else of `folder/mail.log`
    (with no reason), oldest first. Memory is bounded by `count` lines, whatever the size
    of the file."""
    if json_log is not None:
        return list(deque(_json_rows(json_log), maxlen=count)) if json_log.is_file() else []
    text_log = folder / LOG_NAME
    return list(deque(_text_rows(text_log), maxlen=count)) if text_log.is_file() else []


def _lines(path: Path) -> Iterator[str]:
    with path.open("rb") as stream:
        while True:
            raw = stream.readline(MAX_LINE + 1)
            if not raw:
                return
            if len(raw) > MAX_LINE:
                while raw and not raw.endswith(b"\n"):  # the rest of an overlong line
                    raw = stream.readline(MAX_LINE)
                continue
            yield raw.decode("utf-8", "replace").rstrip("\n")


def _json_rows(path: Path) -> Iterator[Row]:
    for line in _lines(path):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if isinstance(data, dict):
            get = data.get
            yield Row(
                _shown(get("time")),
                _shown(get("message_id")),
                _shown(get("sender")),
                _shown(get("game")),
                _shown(get("outcome")),
                _shown(get("reason")),
            )


def _shown(value: object) -> str:
    return value if isinstance(value, str) and value else "-"


def _text_rows(path: Path) -> Iterator[Row]:
    for line in _lines(path):
        fields = line.split(" ")
        if len(fields) == 5:
            yield Row(fields[0], fields[1], fields[2], fields[3], fields[4], "-")


def table(rows: list[Row]) -> list[str]:
    """The rows as a table a game master reads: one message a line, columns aligned."""
    head = Row("time", "message-id", "sender", "game", "outcome", "reason")
    cut = [[*(_cut(value, 40) for value in row[:5]), _cut(row.reason, 100)] for row in (head, *rows)]
    widths = [max(len(row[index]) for row in cut) for index in range(5)]
    return ["  ".join([*(row[index].ljust(widths[index]) for index in range(5)), row[5]]).rstrip() for row in cut]


def _cut(text: str, limit: int) -> str:
    text = " ".join(_CONTROL.sub(" ", text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
