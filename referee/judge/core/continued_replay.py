"""A replay continued: the replay of a record that goes on from a record already replayed,
made by applying only what is new to a copy of the replayed state (and of its clock walk),
as `referee.judge.core.adjudicate.run` applies it in a replay from the start (issue 17: `play`
judges a submission this way instead of replaying the game and the submission together).

What may be new, after the items the two records share (the very same objects):
- items after the record's own (new turns, a `draw`, a `timeout`, comments);
- more items in the turn the record left open (a turn begun and not ended: Nika's second
  action, a Nieuchess turn in progress, a stamp closed into it), then anything after it;
- when the game awaits something at the end of the record (a roll or a choice of its last
  action, a battle of its open turn), its last action written again (completed: its roll
  or choice written in) with anything after it: the continuation goes on from where the
  replay stood just before that action (`Replay.awaiting`), since an action applied
  open-ended may leave the state otherwise than the same action applied mid-record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from referee.games import registry
from referee.games.api import GameState
from referee.games.randomness import salt_tag
from referee.judge.core.adjudicate import Played, Replay, clock_entries, open_ended, run, verdict_of
from referee.judge.core.verdicts import Status, Verdict, crashed, malformed
from referee.notation.model import Move, Record, RecordItem, Turn

if TYPE_CHECKING:
    from referee.judge.core.clock_walk import ClockWalk, Entry


class _From(NamedTuple):
    """Where a continuation starts: the state and walk there (copied before use), the
    steps kept by then, the items to run (the first one the open turn when `resume_at`
    is set), and the turn open before them with its round."""

    state: GameState[Any]
    walk: ClockWalk | None
    steps: list[Played]
    items: Sequence[RecordItem]
    resume_at: int | None
    open_turn: Turn | None
    open_round: int | None


def continued(
    before: Replay, record: Record, source: str = "-", index: int = 1, *, keyed: bool = False
) -> Replay | None:
    """The replay of `record`, a continuation of the record `before` replayed (the same
    tags but `Result`, none in `record`; its items the very same objects, then new ones,
    or its last turn continued or its last action written again, as the module says),
    made by applying only what is new to a copy of `before`'s state (and of its clock
    walk, in a timed record), as `run` would on the whole record: the same verdict (its
    clock view included), steps (`before`'s kept ones, then the new), rounds and numbers.
    None when that cannot be sure to be the same as replaying `record` from its start,
    and the caller replays it whole: the record before is no ongoing game, tags that
    differ, a record's own item changed otherwise, something awaited by a replay that did
    not keep its steps, or a timed record replayed without its walk.

    `keyed`: `record` carries the game master's keyed tags (`keys.keyed_tags`: `Seed` the
    effective seed; no `SeedHash`, no salts) where `before` was replayed from the record's
    own (the seed's hash alone, its rolls as written). The state goes on as the game's
    engine says a replay with the key would reach it (`Engine.keyed`: the rolls used so far
    the seed's, the next drawn from it); None where it cannot say. The steps kept from
    `before` word their rolls as `before` did; the new ones as a keyed replay does."""
    old, state = before.record, before.state
    if old is None or state is None or before.verdict.status != Status.ONGOING or before.verdict.turns is None:
        return None
    if (before.verdict.clock is None) != (before.walk is None):
        return None
    if record.tag("Result") is not None:
        return None
    if record.game != old.game or not _same_tags(old, record, keyed):
        return None
    start = _after(before, old, record) if state.pending() is None else None
    start = start or _within(before, old, record)
    if start is None:
        return None
    try:
        if keyed:
            keyed_state = registry.engine(record.game).keyed(start.state, record.tag_map)
            if keyed_state is None:
                return None
            start = start._replace(state=keyed_state)
        replay = _continued(before, record, start, source, index)
    except Exception as error:  # a bug of the referee, as `adjudicate` reports it
        replay = Replay(record, None, crashed(source, index, record.game, record.span.line, error))
    replay.verdict = replay.verdict._replace(offset=record.offset)
    return replay


def _same_tags(old: Record, record: Record, keyed: bool) -> bool:
    """`record`'s tags are `old`'s but `Result`; or, `keyed`, `old`'s but `Result`, the
    `SeedHash` and the salts, and a `Seed` (`old` holding a `SeedHash` and no `Seed`)."""
    tags = {k: v for k, v in old.tag_map.items() if k != "Result"}
    if not keyed:
        return record.tag_map == tags
    info = registry.info(record.game)
    if info is None or "SeedHash" not in tags or "Seed" in tags or "Seed" not in record.tag_map:
        return False
    dropped = {"SeedHash", *(salt_tag(side) for side in info.sides)}
    return {k: v for k, v in record.tag_map.items() if k != "Seed"} == {
        k: v for k, v in tags.items() if k not in dropped
    }


def _same(these: Sequence[object], those: Sequence[object]) -> bool:
    return len(these) == len(those) and all(a is b for a, b in zip(these, those, strict=True))


def _after(before: Replay, old: Record, record: Record) -> _From | None:
    """New items after the record's own, the replayed state awaiting nothing."""
    assert before.state is not None
    count = len(old.items)
    if len(record.items) <= count or not _same(record.items[:count], old.items):
        return None
    last = next((item for item in reversed(old.items) if isinstance(item, Turn)), None)
    open_round = before.rounds[-1] if last is not None else None
    new = record.items[count:]
    return _From(before.state, before.walk, list(before.steps), new, None, last, open_round)


def _within(before: Replay, old: Record, record: Record) -> _From | None:
    """The record's last item, a turn, continued (`record` holds it again, the same turn
    with its items the same objects and more after them); or, when the game awaits
    something, that turn from its last action on written again (the action completed),
    continued from where the replay stood just before that action."""
    assert before.state is not None
    count = len(old.items)
    turn = old.items[-1] if old.items else None
    if not isinstance(turn, Turn) or len(record.items) < count or not _same(record.items[: count - 1], old.items[:-1]):
        return None
    again = record.items[count - 1]
    if not isinstance(again, Turn) or (again.side, again.step, again.number, again.span) != (
        turn.side,
        turn.step,
        turn.number,
        turn.span,
    ):
        return None
    open_round = before.rounds[-1] if before.rounds else None
    rest = record.items[count - 1 :]
    if before.state.pending() is None:
        at = len(turn.items)
        if not _same(again.items[:at], turn.items) or (again is turn and len(record.items) == count):
            return None
        steps = _renamed(before.steps, turn, again)
        return _From(before.state, before.walk, steps, rest, at, again, open_round)
    awaiting = before.awaiting
    if awaiting is None or awaiting.turn is not turn:
        return None
    found = next((place for place, item in enumerate(turn.items) if item is awaiting.move), None)
    if found is None or any(isinstance(item, Move) for item in turn.items[found + 1 :]):
        return None  # (the action applied open-ended is the turn's last)
    at = found
    if not _same(again.items[:at], turn.items[:at]) or (again is turn and len(record.items) == count):
        return None
    if awaiting.steps > len(before.steps):
        return None
    steps = _renamed(before.steps[: awaiting.steps], turn, again)
    return _From(awaiting.state, awaiting.walk, steps, rest, at, again, open_round)


def _renamed(steps: Sequence[Played], turn: Turn, again: Turn) -> list[Played]:
    """The steps kept, those of `turn` now of `again` (the same turn, continued), as a
    replay of the whole record keeps them."""
    if again is turn:
        return list(steps)
    return [step._replace(turn=again) if step.turn is turn else step for step in steps]


def _continued(before: Replay, record: Record, start: _From, source: str, index: int) -> Replay:
    """`continued` once it knows it can: the new items run from where `start` says."""
    assert before.verdict.turns is not None
    walk = start.walk.copy() if start.walk is not None else None
    entries: dict[int, tuple[Entry, ...]] = {}
    if walk is not None:  # the comments' stamps and grants still to walk, read as `_clock` reads them
        entries, problem = clock_entries(_to_walk(start))
        if problem is not None:
            span, message = problem
            return Replay(record, None, malformed(source, index, record.game, span.line, span.column, message))
    state = start.state.copy()
    replay = Replay(record, state, Verdict(source, index, record.game, Status.ONGOING))
    replay.steps, replay.rounds, replay.numbers = start.steps, list(before.rounds), list(before.numbers)
    replay.timeouts = list(before.timeouts)
    failure, turns = run(
        start.items,
        open_ended(record).__contains__,
        state,
        replay,
        keep_steps=True,
        clock=walk,
        entries=entries,
        open_turn=start.open_turn,
        open_round=start.open_round,
        resume_at=start.resume_at,
    )
    replay.verdict = verdict_of(record, state, source, index, failure, before.verdict.turns + turns)
    if walk is not None and failure is None:
        replay.verdict = replay.verdict._replace(clock=walk.view(state))
        replay.walk = walk
    return replay


def _to_walk(start: _From) -> list[RecordItem]:
    """The items whose comments the continuation walks: the open turn from where it resumes."""
    items = list(start.items)
    if start.resume_at is not None and items:
        first = items[0]
        assert isinstance(first, Turn)
        items[0] = first._replace(items=first.items[start.resume_at :])
    return items
