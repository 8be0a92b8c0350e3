"""`referee queue` and `referee reveal --queues` (PLAY.md §9): a side's queue set,
cleared or shown, and every committed queue revealed on the game master's word.

    result = set_queue(Path("g.rgn"), "Red", "if B: e8-e3(E) then R: d1-d2(SE)")
    print(result.text())   # Red has queued replies; commitment sha256:...

Setting a queue writes its side's queue file only (under the game's lock, in a store
transaction): the record is not written, so no token goes stale; the commitment enters
the record with the next turn appended (`referee.live.play.queues.settled`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee import store
from referee.games import registry
from referee.judge.core import queue_check
from referee.judge.core.adjudicate import Replay
from referee.judge.core.turn_token import token_of
from referee.judge.core.verdict_words import verdict_line
from referee.judge.core.verdicts import Status, annotated
from referee.live.play import changes, core, keys, queue_lines, queues
from referee.live.play.queue_lines import QueueRefusal
from referee.notation.model import Turn


@dataclass(frozen=True)
class QueueResult:
    """What a queue submission came to. `exit_code` 0: stored (or shown); 1: refused.
    `commitment` is what every player is told; `lines` the queue shown (its side's only)."""

    exit_code: int
    side: str | None
    message: str
    commitment: str | None = None
    lines: tuple[str, ...] = ()
    suggestions: tuple[str, ...] = ()
    written: bool = False
    token: str | None = None
    announce: bool = False
    """Whether every player is told `message` (a commitment, a clearing)."""
    extra: dict[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        out = [self.message]
        if self.suggestions:
            out.append(f"did you mean: {', '.join(self.suggestions)}?")
        out += list(self.lines)
        return "\n".join(out)

    def as_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "written": self.written,
            "refused": self.message if self.exit_code else None,
            "message": self.message,
            "commitment": self.commitment,
            "lines": list(self.lines),
            "suggestions": list(self.suggestions),
            "token": self.token,
            **self.extra,
        }


def _refused(side: str | None, message: str, suggestions: list[str] | None = None) -> QueueResult:
    return QueueResult(1, side, message, suggestions=tuple(suggestions or ()))


def set_queue(
    path: Path,
    as_side: str,
    text: str | None,
    *,
    expect: str | None = None,
    wait: float = 10.0,
) -> QueueResult:
    """Set `as_side`'s queue to the lines of `text` (None: clear it), replacing any.
    Raises BusyError (exit 75) and UsageError (exit 2)."""
    path = Path(path)
    with core.locked_game(path, wait) as data:
        current = core.replay_file(path, data)
        return _set(path, current, as_side, text, expect)


def _set(path: Path, current: Replay, as_side: str, text: str | None, expect: str | None) -> QueueResult:
    record, verdict, state = current.record, current.verdict, current.state
    if record is None or state is None or not verdict.legal:
        return _refused(None, verdict_line(annotated(verdict, None)))
    info = registry.GAMES[record.game]
    side = keys.side_of(info, as_side)
    token = token_of(current)
    if expect is not None and expect.strip() != token:
        return _refused(side, changes.stale(path, expect.strip(), token, wrote="this"))
    if verdict.status == Status.FINISHED:
        return _refused(side, f"{verdict_line(verdict)}: the game is over, nothing can be queued")
    if not state.in_game(side):
        return _refused(side, f"{side} has left the game: it queues nothing")
    all_queues = queues.load_all(path, info.sides)
    mine = all_queues[side]
    if text is None:
        current_queue = mine.current
        if current_queue is None or not current_queue.active:
            return QueueResult(0, side, f"{side} has no queued replies: nothing to clear", token=token)
        entry = queues.Entry(queues.next_serial(all_queues), queue_check.CLEARED, None, "")
        queues.save(path, queues.SideQueues(side, (*mine.entries, entry)))
        return QueueResult(0, side, f"{side} has cleared its queued replies", written=True, token=token, announce=True)
    if verdict.to_move == side:
        return _refused(side, f"it is your move: play it ({side} is to move)")
    if verdict.pending is not None:
        return _refused(side, f"the game awaits {verdict.pending_message}: queue once it is given")
    last = next((item for item in reversed(record.items) if isinstance(item, Turn)), None)
    if last is not None and last.side == verdict.to_move and last.moves:
        return _refused(side, f"{last.side}'s turn is in progress: queue once it is complete")
    if len(mine.entries) >= queues.MAX_QUEUES:
        return _refused(side, f"{side} has set {queues.MAX_QUEUES} queues in this game: no more can be kept")
    try:
        canonical = queue_lines.checked(current, side, text)
    except QueueRefusal as refusal:
        return _refused(side, refusal.message, refusal.suggestions)
    nonce = secrets.token_hex(queue_check.NONCE_BITS // 8)
    commitment = queue_check.commitment(nonce, canonical)
    entry = queues.Entry(queues.next_serial(all_queues), commitment, nonce, canonical)
    queues.save(path, queues.SideQueues(side, (*mine.entries, entry)))
    return QueueResult(
        0,
        side,
        f"{side} has queued replies; commitment {commitment}",
        commitment=commitment,
        written=True,
        token=token,
        announce=True,
        extra={"count": len(queue_check.queue_lines(canonical))},
    )


def show_queue(path: Path, as_side: str) -> QueueResult:
    """The side's queue in force, for that side alone."""
    path = Path(path)
    current = core.replay_file(path, core.read_game(path))
    record = current.record
    if record is None:
        return _refused(None, verdict_line(current.verdict))
    side = keys.side_of(registry.GAMES[record.game], as_side)
    entry = queues.load(path, side).current
    if entry is None or not entry.active:
        return QueueResult(0, side, f"{side} has no queued replies")
    lines = tuple(queue_check.queue_lines(entry.canonical))
    state = "committed in the record" if entry.written else "committed, entering the record with the next turn"
    return QueueResult(
        0, side, f"{side}'s queued replies ({state}; commitment {entry.commitment}):", entry.commitment, lines
    )


def reveal_queues(path: Path, *, wait: float = 10.0) -> QueueResult:
    """Reveal every queue committed in the record (PLAY.md §9, `reveal --queues`): the
    game master's word, at any time; a queue revealed plays nothing more."""
    path = Path(path)
    with core.locked_game(path, wait) as data:
        text = data.decode("utf-8", "replace")
        current = core.replay_file(path, text.encode("utf-8"))
        if current.record is None or not current.verdict.legal:
            return _refused(None, verdict_line(annotated(current.verdict, None)))
        if not queues.has_queues(path):
            return QueueResult(0, None, "no queue to reveal")
        work = queues.Work(path, text, registry.GAMES[current.record.game].sides)
        queues.reveal_all(work)
        if not work.changed:
            return QueueResult(0, None, "no queue to reveal")
        store.write(path, work.text)
        for side in sorted(work.dirty):
            queues.save(path, work.queues[side])
        shown = [f"{side}: {len(queue_check.queue_lines(e.canonical))} lines" for side, e in _revealed(work)]
        return replace(
            QueueResult(0, None, "revealed: " + ", ".join(shown), written=True, announce=True),
            token=token_of(work.replay),
        )


def _revealed(work: queues.Work) -> list[tuple[str, queues.Entry]]:
    return [
        (side, entry)
        for side in sorted(work.dirty)
        for entry in work.queues[side].entries
        if entry.revealed and not entry.cleared
    ]
