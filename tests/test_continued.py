"""`adjudicate.continued`: a record's replay continued with new turns is the same value as
the replay of the whole record from its start (issue 17: `play` continues the game's one
replay with the submission instead of replaying the game and the submission together).
Compared over random playouts of every registered game, legal and broken continuations,
field by field: the verdict (with its error's place and rule), the steps and their events,
the round numbers the canonical text writes, and the position reached."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import registry
from notation.model import Comment, Record, Span, Turn
from referee.judge.adjudicate import Replay, adjudicate, continued, read_source
from referee.judge.playout import play


def _read(text: str) -> Record:
    results = read_source(text.encode("utf-8"))
    assert len(results) == 1 and isinstance(results[0], Record)
    record = results[0]
    return record._replace(tags=tuple(tag for tag in record.tags if tag.name != "Result"))


def _value(replay: Replay) -> dict[str, Any]:
    state = replay.state
    return {
        "verdict": replay.verdict,
        "numbers": replay.numbers,
        "rounds": replay.rounds,
        "steps": [(id(step.move), step.number, step.round, step.turn.span, step.events) for step in replay.steps],
        "position": state.position() if state is not None else None,
        "record": replay.record,
    }


def _split(record: Record, at: int) -> tuple[Replay, Record]:
    """The replay of the record's first `at` items, and the whole record (the same items)."""
    before = adjudicate(record._replace(items=record.items[:at]), "g.rgn", keep_steps=True)
    return before, record


def _cases() -> list[tuple[str, int | None, str]]:
    cases = []
    for game, info in registry.GAMES.items():
        for index in range(6):
            players = info.player_counts[index % len(info.player_counts)]
            cases.append((game, players, f"continued-{index}"))
    return cases


@pytest.mark.parametrize(("game", "players", "seed"), _cases())
def test_a_continued_replay_is_the_replay_of_the_whole_record(game: str, players: int | None, seed: str) -> None:
    rng = random.Random(seed)
    record = _read(play(game, players, seed, max_turns=rng.choice([6, 20, 60])).text)
    turns = [at for at, item in enumerate(record.items) if isinstance(item, Turn)]
    used = 0
    for at in sorted(set(rng.sample(turns, min(len(turns), 8)))):
        before, whole = _split(record, at)
        found = continued(before, whole, "g.rgn")
        if found is None:  # something awaited, or a replacement step: the caller replays it whole
            first = whole.items[at]
            assert before.state is not None and (before.state.pending() is not None or first.step), at
            continue
        used += 1
        assert _value(found) == _value(adjudicate(whole, "g.rgn", keep_steps=True))
    assert used or len(turns) < 2


@pytest.mark.parametrize(("game", "players", "seed"), _cases())
def test_a_broken_continuation_is_refused_where_and_as_the_whole_replay_refuses_it(
    game: str, players: int | None, seed: str
) -> None:
    """A turn of the continuation gets another turn's actions (mostly illegal there): the
    same error, at the same line, column, round, side, action and rule."""
    rng = random.Random(seed + "broken")
    record = _read(play(game, players, seed, max_turns=30).text)
    turns = [at for at, item in enumerate(record.items) if isinstance(item, Turn) and item.items]
    if len(turns) < 4:
        pytest.skip("too short a playout")
    at = turns[len(turns) // 2]
    donor, victim = record.items[turns[1]], record.items[rng.choice(turns[len(turns) // 2 + 1 :])]
    assert isinstance(donor, Turn) and isinstance(victim, Turn)
    broken = record._replace(
        items=tuple(victim._replace(items=donor.items) if item is victim else item for item in record.items)
    )
    before, whole = _split(broken, at)
    found = continued(before, whole, "g.rgn")
    if found is None:
        first = whole.items[at]
        assert before.state is not None and (before.state.pending() is not None or first.step)
        return
    assert _value(found) == _value(adjudicate(whole, "g.rgn", keep_steps=True))


def test_the_state_replayed_before_is_left_as_it_was() -> None:
    record = _read(play("nika", None, "untouched", max_turns=12).text)
    before, whole = _split(record, 6)
    position = before.state.position() if before.state is not None else None
    found = continued(before, whole, "g.rgn")
    assert found is not None and found.state is not before.state
    assert before.state is not None and before.state.position() == position


def test_what_it_cannot_be_sure_of_is_left_to_a_whole_replay() -> None:
    text = play("nika", None, "declined", max_turns=8).text
    record = _read(text)
    before, whole = _split(record, 4)
    assert continued(before, whole) is not None
    # The open turn continued, or a part written onto its battle: its items are not the
    # record's own objects any more.
    last = whole.items[3]
    assert isinstance(last, Turn)
    changed = whole._replace(items=(*whole.items[:3], last._replace(items=last.items), *whole.items[4:]))
    assert continued(before, changed) is None
    # Other tags, a Result, a clock, only comments.
    assert continued(before, whole._replace(tags=whole.tags[1:])) is None
    assert continued(before, whole._replace(tags=(*whole.tags, whole.tags[0]._replace(name="Result")))) is None
    only_comments = whole._replace(items=(*whole.items[:4], Comment("{ just a note }", Span(9, 1))))
    assert continued(before, only_comments) is None
    timed = _read(text.replace('[Game "nika"]', '[Game "nika"]\n[TimeControl "3d+1d"]\n[Start "2026-12-01T12:00:00Z"]'))
    timed_before, timed_whole = _split(timed, 4)
    assert timed_before.verdict.clock is not None and continued(timed_before, timed_whole) is None
