"""Conditional moves kept beside a live game (PLAY.md §9): each side's queues in
`FILE.queue/SIDE` (mode 0600, written through the store with the game), and what every
write of the game does with them (`settled`): the commitments waiting enter the record
before the next turn appended, the replies they give are played as their side's own
submissions, spent queues are told to their side, and at the game's end every committed
queue is revealed.

A side's file holds every queue it ever set, in order, so that spent and replaced ones
stay until revealed. Nothing here is shown to another player before the reveal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UnreadableError, UsageError
from referee.games import registry
from referee.judge.core import queue_check
from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.judge.core.turn_token import canonical_text
from referee.judge.core.verdicts import Status
from referee.judge.sources import record_sources
from referee.notation.comment_commands import Command, write_commands
from referee.notation.model import Comment, Record, RecordItem, Span, Turn

NOWHERE = Span(1, 1)
FILE_BYTES = 16 * 1024 * 1024
"""The most a side's queue file is read (its queues, each at most 64 KB, at most `MAX_QUEUES`)."""
MAX_QUEUES = 100
"""How many queues one side may set in one game (each stays until revealed)."""
MAX_CHAIN = 10_000
"""A bound on the replies one write plays (every reply is a turn: the game ends first)."""


@dataclass(frozen=True)
class Entry:
    """One queue a side set (or cleared: `commitment` is `none`, no nonce, no lines).
    `serial` orders the queues of every side of a game as they were set; `written`: its
    `%queued` stands in the record; `spent`: it plays nothing more; `revealed`: its
    `%revealed` stands in the record."""

    serial: int
    commitment: str
    nonce: str | None
    canonical: str
    written: bool = False
    spent: bool = False
    revealed: bool = False

    @property
    def cleared(self) -> bool:
        return self.commitment == queue_check.CLEARED

    @property
    def active(self) -> bool:
        """It may still play a reply."""
        return not self.cleared and not self.spent and not self.revealed

    def __repr__(self) -> str:
        state = "cleared" if self.cleared else "spent" if self.spent else "active"
        return f"Entry(#{self.serial} {self.commitment[:15]} {state}{' written' if self.written else ''})"


@dataclass(frozen=True)
class SideQueues:
    """The queues of one side of one game, oldest first."""

    side: str
    entries: tuple[Entry, ...] = ()

    @property
    def current(self) -> Entry | None:
        """The queue in force (the last set), unless cleared."""
        last = self.entries[-1] if self.entries else None
        return None if last is None or last.cleared else last

    def with_entry(self, index: int, entry: Entry) -> SideQueues:
        entries = list(self.entries)
        entries[index] = entry
        return replace(self, entries=tuple(entries))


@dataclass(frozen=True)
class Notice:
    """A word for one side alone (`side`), or for every player (`side` None)."""

    side: str | None
    text: str

    def __str__(self) -> str:
        return self.text if self.side is None else f"to {self.side}: {self.text}"


def folder_of(path: Path) -> Path:
    """`FILE.queue`, beside the game."""
    return path.with_name(path.name + ".queue")


def file_of(path: Path, side: str) -> Path:
    """A side's queue file, in the referee's own `FILE.queue` folder: a link there (a folder
    from someone else) is refused, never followed, so no queue is read or written elsewhere
    (docs/files.md, "A folder from someone else")."""
    folder = folder_of(path)
    if os.path.islink(folder):
        raise UsageError(f"{folder} is a symbolic link: the queue folder is the referee's own and is never followed")
    return folder / side


def has_queues(path: Path) -> bool:
    """Whether any queue was ever set on this game (the one check a write without queues pays);
    a `FILE.queue` that is a link holds none of this game's."""
    folder = folder_of(path)
    return os.path.isdir(folder) and not os.path.islink(folder)


def load(path: Path, side: str) -> SideQueues:
    """A side's queues as the operation in progress left them (staged), else as on disk."""
    target = file_of(path, side)
    if not os.path.lexists(target) and store.read_bytes(target, _absent) == b"":
        return SideQueues(side)
    try:
        data = store.read_bytes(target, lambda p: record_sources.read_bounded(p, FILE_BYTES, f"the queue file {p}"))
    except UnreadableError as error:
        raise UsageError(str(error)) from None
    try:
        raw = json.loads(data.decode("utf-8"))
        entries = tuple(Entry(**entry) for entry in raw["queues"])
    except (ValueError, KeyError, TypeError) as error:
        raise UsageError(f"the queue file {target} cannot be read: {error}") from None
    return SideQueues(side, entries)


def _absent(path: Path) -> bytes:
    return b""


def save(path: Path, queues: SideQueues) -> None:
    """Write a side's queues (mode 0600) with the rest of the operation."""
    folder = folder_of(path)
    if not os.path.isdir(folder):
        store.ops.make_folders(folder, 0o700)
    value = {"side": queues.side, "queues": [entry.__dict__ for entry in queues.entries]}
    store.write(file_of(path, queues.side), json.dumps(value, indent=1) + "\n", 0o600)


def load_all(path: Path, sides: Iterable[str]) -> dict[str, SideQueues]:
    return {side: load(path, side) for side in sides}


def next_serial(all_queues: dict[str, SideQueues]) -> int:
    return 1 + max((entry.serial for queues in all_queues.values() for entry in queues.entries), default=0)


def queued_comment(side: str, commitment: str) -> Comment:
    return Comment(write_commands([Command(queue_check.QUEUED, (side, commitment))]), NOWHERE)


# -- what every write does ------------------------------------------------------------------

Play = Callable[[Path, Replay, str, str], "tuple[Any, str | None]"]
"""Play a reply: (game file, its replay, the moves, the side) -> (PlayResult, text or None)."""


@dataclass
class Settled:
    """What `settled` made of a write: the text to write, what every player is told of
    the replies played, the notices, and whether anything changed."""

    text: str
    events: list[str]
    notices: list[Notice]
    changed: bool = False


def replay_of(path: Path, text: str) -> Replay:
    results = read_source(text.encode("utf-8"))
    return adjudicate(results[0], str(path), keep_steps=True)


def _turn_texts(record: Record | None) -> list[str]:
    """Every turn of a record as a queue compares it (no comments, glyphs or numbers)."""
    if record is None:
        return []
    return [queue_check.turn_text(turn, record.game) for turn in queue_check.record_turns(record)]


class Work:
    def __init__(self, path: Path, text: str, sides: Iterable[str]) -> None:
        self.path = path
        self.text = text
        self.replay = replay_of(path, text)
        self.queues = load_all(path, sides)
        self.dirty: set[str] = set()
        self.events: list[str] = []
        self.notices: list[Notice] = []
        self.changed = False

    def update(self, side: str, index: int, entry: Entry) -> None:
        self.queues[side] = self.queues[side].with_entry(index, entry)
        self.dirty.add(side)

    def active(self, side: str) -> tuple[int, Entry] | None:
        entries = self.queues[side].entries
        if entries and entries[-1].active and entries[-1].written:
            return len(entries) - 1, entries[-1]
        return None

    def spend(self, side: str, why: str) -> None:
        found = self.active(side)
        if found is not None:
            self.update(side, found[0], replace(found[1], spent=True))
            self.notices.append(Notice(side, why))

    def rewrite(self, record: Record) -> None:
        self.text = canonical_text(record, self.replay)
        self.replay = replay_of(self.path, self.text)
        self.changed = True


def settled(path: Path, before: Replay | None, text: str, now: int | None, play: Play) -> Settled:
    """The write of `text` over the game `before` (its replay), with the queues of the
    game settled (PLAY.md §9). Only a write that appends turns plays replies; one that
    takes a turn back spends the queues committed before it; a side out of the game has
    its queue spent; a finished game has every committed queue revealed."""
    if not has_queues(path):
        return Settled(text, [], [])
    work = Work(path, text, _sides(text))
    record = work.replay.record
    if record is None or work.replay.verdict.status not in (Status.FINISHED, Status.ONGOING):
        return Settled(text, [], [])
    old_turns = _turn_texts(before.record if before is not None else None)
    new_turns = _turn_texts(record)
    if len(new_turns) < len(old_turns):
        for side in work.queues:
            work.spend(side, "your queued replies are spent: a turn after your commitment was taken back")
    elif new_turns != old_turns:  # actions played (offers, stamps and grants change no turn)
        _commit_waiting(work, len(old_turns))
        _play_replies(work, play)
    state = work.replay.state
    if state is not None:
        for side in work.queues:
            if not state.in_game(side):
                work.spend(side, "your queued replies are spent: you are no longer in the game")
    if work.replay.verdict.status == Status.FINISHED:
        reveal_all(work)
    for side in sorted(work.dirty):
        save(path, work.queues[side])
    return Settled(work.text, work.events, work.notices, work.changed or bool(work.dirty))


def _sides(text: str) -> list[str]:
    results = read_source(text.encode("utf-8"))
    game = getattr(results[0], "game", None) if results else None
    info = registry.info(game) if isinstance(game, str) else None
    return list(info.sides) if info is not None else []


def _waiting(work: Work) -> list[tuple[str, int, Entry]]:
    found = [
        (side, index, entry)
        for side, queues in work.queues.items()
        for index, entry in enumerate(queues.entries)
        if not entry.written
    ]
    return sorted(found, key=lambda each: each[2].serial)


def _commit_waiting(work: Work, old_turns: int) -> None:
    """Every commitment waiting enters the record just before the first turn appended."""
    waiting = _waiting(work)
    record = work.replay.record
    if not waiting or record is None:
        return
    comments = [queued_comment(side, entry.commitment) for side, _, entry in waiting]
    items: list[RecordItem] = []
    seen = 0
    for item in record.items:
        if isinstance(item, Turn):
            if seen == old_turns:
                items += comments
            seen += 1
        items.append(item)
    for side, index, entry in waiting:
        work.update(side, index, replace(entry, written=True))
    work.rewrite(record._replace(items=tuple(items)))


def _play_replies(work: Work, play: Play) -> None:
    """While the game awaits a turn of a side whose queue answers the turns played since
    its commitment, that reply is played; a queue that does not answer is spent."""
    for _ in range(MAX_CHAIN):
        replay, record = work.replay, work.replay.record
        verdict = replay.verdict
        if record is None or verdict.status != Status.ONGOING or verdict.pending is not None:
            return
        side = verdict.to_move
        if side is None or side not in work.queues:
            return
        found = work.active(side)
        if found is None:
            return
        index, entry = found
        marks = [
            mark
            for mark in queue_check.marks(record)
            if mark.name == queue_check.QUEUED and mark.side == side and len(mark.args) == 2
        ]
        if not marks or marks[-1].args[1] != entry.commitment:
            return  # the record does not hold this queue as the one in force: nothing is played
        turns = queue_check.record_turns(record)[marks[-1].turns :]
        if not turns:
            return
        played = [queue_check.turn_text(turn, record.game, bare=turn.side == side) for turn in turns]
        lines = [queue_check.read_line(line) for line in queue_check.queue_lines(entry.canonical)]
        given = queue_check.reply_after(lines, played)
        if given is None:
            own = [number for number, turn in enumerate(turns) if turn.side == side]
            after = ", ".join(played[own[-1] + 1 if own else 0 :])
            work.spend(side, f"none of your queued lines answers {after}: it is your move")
            return
        reply, more = given
        result, text = play(work.path, replay, f"{{[%by-queue {side}]}} {reply}", side)
        if text is None:
            why = getattr(result, "error", None) or "refused"
            work.spend(side, f"your queued reply {reply} cannot be played ({why}): it is your move")
            return
        work.events.append(f"{side} plays {reply} (queued)")
        work.events += [str(event) for event in getattr(result, "events", [])]
        work.text, work.replay, work.changed = text, replay_of(work.path, text), True
        if not more:
            work.update(side, index, replace(entry, spent=True))
            work.notices.append(Notice(side, f"your queued reply {reply} was your queue's last: the queue is spent"))


def reveal_all(work: Work) -> bool:
    """Every queue committed in the record and not yet revealed is revealed after the
    record's last turn, in the order of the commitments (those still waiting are
    committed first). Returns whether anything was written."""
    record = work.replay.record
    if record is None:
        return False
    items = list(record.items)
    for side, index, entry in _waiting(work):
        items.append(queued_comment(side, entry.commitment))
        work.update(side, index, replace(entry, written=True))
    commitments = [
        (mark.args[0], mark.args[1])
        for mark in queue_check.marks(record._replace(items=tuple(items)))
        if mark.name == queue_check.QUEUED and len(mark.args) == 2 and mark.args[1] != queue_check.CLEARED
    ]
    revealed = False
    for side, commitment in commitments:
        if side not in work.queues:
            continue
        for index, entry in enumerate(work.queues[side].entries):
            if entry.commitment == commitment and entry.nonce is not None and not entry.revealed:
                command = queue_check.reveal_command(side, entry.nonce, entry.canonical)
                items.append(Comment(write_commands([command]), NOWHERE))
                work.update(side, index, replace(entry, revealed=True, spent=True))
                revealed = True
                break
    if len(items) != len(record.items):
        work.rewrite(record._replace(items=tuple(items)))
    return revealed
