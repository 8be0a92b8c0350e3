"""One pass of `referee mail --imap` over the mailbox (docs/mail.md, "A mailbox at a
provider"): every message handled once, then moved where its outcome says.

One pass at a time per game folder: a pass holds `DIR/imap-pass.lock` (the store's lock)
from start to end, and a pass that finds it held (cron starting a pass while the last one,
or a `--poll`, still runs) is skipped with one line, exit 0: the pass under way handles
every message.

A flood costs little. The heads of all messages (the header fields the gateway reads, and
their sizes) come in a few FETCHes; a message its head decides (a stranger's, automatic
mail, one naming no game) is decided from it by the gateway's own rules
(`gateway.screen`), and such messages are logged, recorded and moved together, a batch
at a time, with one write per file and one MOVE of a UID set. Only a message from a
possible player is fetched whole (at most `--max-size` bytes) and handled as a message on
standard input is (`handle_bytes`), in its place between the others."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from referee import store
from referee.errors import BusyError, UsageError
from referee.judge.core.verdict_words import plural
from referee.live.mail import game, log
from referee.live.mail.gateway import Screened, flush_notes, flush_waiting, screen
from referee.live.mail.gateway_values import Handled, Settings
from referee.live.mail.headers import read_head
from referee.live.mail.log import LogLine, Outcome
from referee.live.mail.players import Roster

if TYPE_CHECKING:
    from referee.live.mail.imap_connection import Connection, Mailbox

STATE_NAME = "imap-handled.tsv"
PASS_LOCK = "imap-pass"
"""`DIR/imap-pass.lock`: held for a whole pass, one pass at a time per game folder."""
HEAD_LIMIT = 64 * 1024
"""The most bytes of a message's head fields fetched in bulk; a larger head is read whole."""
BATCH = 500
"""The most messages decided by their heads that are logged and moved together."""
FOLDERS = {
    Outcome.PLAYED: "played",
    Outcome.SHOWN: "played",
    Outcome.REFUSED: "refused",
    Outcome.NOT_ACCEPTED: "refused",
    Outcome.TOO_LARGE: "refused",
    Outcome.STRANGER: "ignored",
    Outcome.NO_GAME: "ignored",
    Outcome.AUTOMATIC: "ignored",
    Outcome.DUPLICATE: "ignored",
}
"""Where a handled message goes, by its outcome (under `referee`); BUSY stays."""

Handler = Callable[[bytes, Settings, bool], Handled]


class Handledlist:
    """`DIR/imap-handled.tsv`: `UIDVALIDITY UID FOLDER URL` for every message handled and not
    yet seen moved, so that a pass cut short between the handling and the move moves it
    next time without handling it again."""

    def __init__(self, games: Path, box: Mailbox) -> None:
        self.path = games / STATE_NAME
        self.key = str(box)

    def entries(self) -> dict[tuple[int, int], str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        found: dict[tuple[int, int], str] = {}
        for line in text.splitlines():
            fields = line.split("\t")
            if len(fields) == 4 and fields[3] == self.key and fields[0].isdigit() and fields[1].isdigit():
                found[(int(fields[0]), int(fields[1]))] = fields[2]
        return found

    def add(self, validity: int, uid: int, folder: str) -> None:
        """Append one line with one write, and fsync it before the message is moved."""
        self.add_many(validity, [(uid, folder)])

    def add_many(self, validity: int, handled: list[tuple[int, str]]) -> None:
        """Append a line for each (UID, folder) with one write, and fsync it before they are moved."""
        if not handled:
            return
        data = "".join(f"{validity}\t{uid}\t{folder}\t{self.key}\n" for uid, folder in handled).encode()
        try:
            store.append_line(self.path, data)  # whole lines, whatever fails (docs/files.md)
        except store.WriteFailed as error:
            raise OSError(error.errno, error.reason) from None

    def keep_only(self, validity: int, present: set[int], wait: float) -> None:
        """Forget the lines of this mailbox whose message is no longer in it (moved)."""
        with game.locked(self.path, wait):
            try:
                lines = self.path.read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                return
            kept = [line for line in lines if _still_needed(line, self.key, validity, present)]
            if len(kept) != len(lines):
                game.write_atomically(self.path, "".join(f"{line}\n" for line in kept))


def _still_needed(line: str, key: str, validity: int, present: set[int]) -> bool:
    fields = line.split("\t")
    if len(fields) != 4 or fields[3] != key:
        return len(fields) == 4
    return fields[0] == str(validity) and fields[1].isdigit() and int(fields[1]) in present


class Pass(NamedTuple):
    """What one pass over the mailbox did: outcomes counted, messages left for the next
    pass, and lines for standard error."""

    outcomes: Counter[str]
    left: int
    notes: tuple[str, ...]
    failed: bool = False
    """The server went away or refused a command mid-pass (exit 75)."""
    skipped: bool = False
    """Another pass over the same game folder was under way: this one did nothing (exit 0)."""

    @property
    def eventful(self) -> bool:
        """Whether the pass did or met anything worth a line: a pass over an empty mailbox
        says nothing (under cron or --poll, every line is mailed or kept)."""
        return bool(self.outcomes or self.left or self.notes or self.failed)

    def lines(self, box: Mailbox) -> tuple[str, ...]:
        """Its notes and its summary; nothing for a pass that met nothing."""
        if self.skipped:
            return self.notes
        return (*self.notes, self.summary(box)) if self.eventful else ()

    def summary(self, box: Mailbox) -> str:
        handled = sum(self.outcomes.values())
        parts = ", ".join(f"{count} {outcome}" for outcome, count in sorted(self.outcomes.items()))
        text = f"{box}: {plural(handled, 'message')} handled" + (f" ({parts})" if parts else "")
        return text + (f", {plural(self.left, 'message')} left for the next pass" if self.left else "")


def one_pass(connection: Connection, settings: Settings, handler: Handler) -> Pass:
    """Handle every message of the mailbox once, holding the game folder's pass lock; a
    pass that finds it held is skipped. The gateway writes its answers into the outbox;
    they are sent (with `--smtp`) once the message is recorded as handled."""
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(store.locked(settings.games / PASS_LOCK, 0))
        except BusyError:
            note = (
                f"another pass over the mail of {settings.games} is under way ({PASS_LOCK}.lock): "
                "this one is skipped, that one handles every message"
            )
            return Pass(Counter(), 0, (note,), skipped=True)
        return _locked_pass(connection, settings, handler)


def _locked_pass(connection: Connection, settings: Settings, handler: Handler) -> Pass:
    quiet = settings._replace(smtp=None)
    validity, uids = connection.select()
    done = Handledlist(settings.games, connection.box)
    before = done.entries()
    done.keep_only(validity, set(uids), settings.wait)
    heads = connection.heads([uid for uid in uids if (validity, uid) not in before], HEAD_LIMIT)
    filing = _Filing(connection, settings, done, validity)
    rosters = _Rosters()
    for uid in uids:
        where = before.get((validity, uid))
        if where is not None:  # handled by a pass cut short before its move: moved alone
            filing.move(uid, where)
            continue
        if uid not in heads:
            continue  # gone meanwhile
        size, head = heads[uid]
        screened = (
            screen(read_head(head), settings, rosters) if head is not None and size <= settings.max_size else None
        )
        if screened is not None:
            filing.add(uid, screened)
            continue
        filing.flush()  # what came before it first, in the mailbox's order
        read = connection.read(uid, settings.max_size, size)
        if read is None:
            continue
        try:
            handled = handler(read[0], quiet, read[1])
        except UsageError as error:  # a broken game file is the game master's: the rest go on
            filing.notes.append(f"UID {uid}: {error}: left in the mailbox")
            filing.left += 1
            continue
        filing.notes.extend(f"UID {uid}: {note}" for note in handled.notes)
        if handled.outcome is None or handled.outcome is Outcome.BUSY:
            filing.left += 1  # busy, or the game folder is broken: left unseen for the next pass
            continue
        filing.outcomes[handled.outcome.value] += 1
        where = _folder_of(handled.outcome, read[0], settings.games)
        done.add(validity, uid, where)
        filing.notes.extend(_send(settings))
        filing.move(uid, where)
        filing.flush()
    filing.flush()
    return Pass(filing.outcomes, filing.left, tuple(filing.notes))


class _Rosters:
    """The players of each game file, read once a pass while the file stays the same (its
    inode, size and modification time): a flood naming one game replays it once."""

    def __init__(self) -> None:
        self._known: dict[Path, tuple[tuple[int, int, int, int], Roster | None]] = {}

    def __call__(self, path: Path) -> Roster | None:
        try:
            found = os.stat(path)
        except OSError:
            return None
        key = (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)
        known = self._known.get(path)
        if known is not None and known[0] == key:
            return known[1]
        try:
            roster: Roster | None = game.open_game(path).roster
        except UsageError:  # a broken game file: handled whole, which says so
            roster = None
        self._known[path] = (key, roster)
        return roster


class _Filing:
    """The outcomes, notes and moves of a pass, in the mailbox's order; messages decided by
    their heads wait here and are logged, recorded and moved a batch at a time."""

    def __init__(self, connection: Connection, settings: Settings, done: Handledlist, validity: int) -> None:
        self.connection = connection
        self.settings = settings
        self.done = done
        self.validity = validity
        self.outcomes: Counter[str] = Counter()
        self.notes: list[str] = []
        self.left = 0
        self._waiting: list[tuple[int, Screened]] = []
        self._moves: dict[str, list[int]] = {}
        self._folders: dict[str, str] = {}

    def add(self, uid: int, screened: Screened) -> None:
        self._waiting.append((uid, screened))
        if len(self._waiting) >= BATCH:
            self.flush()

    def move(self, uid: int, where: str) -> None:
        self._moves.setdefault(where, []).append(uid)

    def flush(self) -> None:
        """Log, record and move what waits: the log lines first (one write under the
        folder's lock), then the UIDs recorded, then one MOVE per folder."""
        waiting, self._waiting = self._waiting, []
        if waiting:
            self._file(waiting)
        moves, self._moves = self._moves, {}
        for where, uids in moves.items():
            if where not in self._folders:
                self._folders[where] = self.connection.folder(where)
            self.connection.move(uids, self._folders[where])

    def _file(self, waiting: list[tuple[int, Screened]]) -> None:
        settings = self.settings
        lines: list[LogLine] = [screened.line for _, screened in waiting]
        try:
            with store.transaction(settings.games, settings.wait):
                log.append_many(settings.games, lines)
        except (BusyError, OSError) as error:
            reason = str(error) if isinstance(error, BusyError) else (error.strerror or str(error))
            self.notes.append(f"{reason}: {plural(len(waiting), 'message')} left for the next pass")
            self.left += len(waiting)
            return
        if settings.log_file is not None:
            try:
                log.append_json_many(settings.log_file, lines)
            except OSError as error:
                self.notes.append(f"cannot write {settings.log_file}: {error.strerror or error}")
        for uid, screened in waiting:
            self.notes.extend(f"UID {uid}: {note}" for note in screened.handled.notes)
            assert screened.handled.outcome is not None
            self.outcomes[screened.handled.outcome.value] += 1
        filed = [(uid, FOLDERS[screened.handled.outcome]) for uid, screened in waiting if screened.handled.outcome]
        self.done.add_many(self.validity, filed)
        for uid, where in filed:
            self.move(uid, where)


def _folder_of(outcome: Outcome, data: bytes, games: Path) -> str:
    """Where a handled message goes. A message handled before (a pass cut short between
    the handling and the record of it, or the same message twice) goes where the ledger's
    outcome of it says: played or refused (a request answered: played)."""
    if outcome is Outcome.DUPLICATE:
        from referee.live.mail.ledger import Ledger

        head = read_head(data)
        before = Ledger(games).find(head.message_id, head.sender) if head.message_id is not None else None
        if before is not None and before.outcome in ("played", "refused"):
            return before.outcome
        if before is not None and before.outcome == "shown":
            return "played"
    return FOLDERS[outcome]


def _send(settings: Settings) -> list[str]:
    """Send what waits in the outbox (with --smtp); a server that cannot take it now leaves it there."""
    if settings.smtp is None:
        return []
    from referee.live.mail.mail_errors import DeliveryError

    try:
        flushed = flush_waiting(settings)
        return flush_notes(flushed._replace(sent=0), settings.outbox)  # only what was refused for good
    except DeliveryError as error:
        return [f"{error}: the answers wait in {settings.outbox}"]


__all__ = ["PASS_LOCK", "STATE_NAME", "Handledlist", "Handler", "Pass", "one_pass"]
