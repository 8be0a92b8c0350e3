"""`resume.continued`: a record's replay continued with new turns, with more of the turn
it left open, or with the roll or choice it awaits written in, is the same value as the
replay of the whole record from its start (issue 17: `play` continues the game's one
replay with the submission instead of replaying the game and the submission together).
Compared over random playouts of every registered game, legal and broken continuations,
field by field: the verdict (with its error's place and rule), the steps and their events,
the round numbers the canonical text writes, and the position reached."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from referee.games import registry
from referee.games.api import EventKind
from referee.games.randomness import effective_seed, salt_tag, seed_hash
from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.judge.core.clock_walk import format_instant
from referee.judge.core.continued_replay import continued
from referee.judge.services.random_playout import play
from referee.live.play.keys import keyed_tags
from referee.notation.model import Comment, Move, Record, Span, Tag, Timeout, Turn


@functools.cache
def _played(game: str, players: int | None, seed: str, max_turns: int) -> str:
    """The text of a random playout, played once in a process: the tests below share their
    seeds (a timed playout is read by its own test and by the sweep of every clock case)."""
    return play(game, players, seed, max_turns=max_turns).text


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
        "timeouts": replay.timeouts,
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
    record = _read(_played(game, players, seed, rng.choice([6, 20, 60])))
    turns = [at for at, item in enumerate(record.items) if isinstance(item, Turn)]
    used = 0
    for at in sorted(set(rng.sample(turns, min(len(turns), 8)))):
        before, whole = _split(record, at)
        found = continued(before, whole, "g.rgn")
        if found is None:  # the record before is over
            assert before.verdict.status != "ongoing", at
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
    record = _read(_played(game, players, seed, 30))
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
        assert before.verdict.status != "ongoing"
        return
    assert _value(found) == _value(adjudicate(whole, "g.rgn", keep_steps=True))


def test_the_state_replayed_before_is_left_as_it_was() -> None:
    record = _read(_played("nika", None, "untouched", 12))
    before, whole = _split(record, 6)
    position = before.state.position() if before.state is not None else None
    found = continued(before, whole, "g.rgn")
    assert found is not None and found.state is not before.state
    assert before.state is not None and before.state.position() == position


def test_what_it_cannot_be_sure_of_is_left_to_a_whole_replay() -> None:
    text = _played("nika", None, "declined", 8)
    record = _read(text)
    before, whole = _split(record, 4)
    assert continued(before, whole) is not None
    # A turn before the record's last one changed (another object, though the same
    # items), or the last one's own items: not the record's own objects any more.
    third, last = whole.items[2], whole.items[3]
    assert isinstance(third, Turn) and isinstance(last, Turn) and last.items
    changed = whole._replace(items=(*whole.items[:2], third._replace(items=third.items), *whole.items[3:]))
    assert continued(before, changed) is None
    copied = last._replace(items=tuple(item._replace() for item in last.items))
    assert continued(before, whole._replace(items=(*whole.items[:3], copied, *whole.items[4:]))) is None
    other = last._replace(span=Span(last.span.line + 1, last.span.column))
    assert continued(before, whole._replace(items=(*whole.items[:3], other, *whole.items[4:]))) is None
    # Other tags, a Result, nothing new.
    assert continued(before, whole._replace(tags=whole.tags[1:])) is None
    assert continued(before, whole._replace(tags=(*whole.tags, whole.tags[0]._replace(name="Result")))) is None
    assert continued(before, whole._replace(items=whole.items[:4])) is None
    # A timed record replayed without its clock walk (as no caller makes it).
    timed = _read(text.replace('[Game "nika"]', '[Game "nika"]\n[TimeControl "3d+1d"]\n[Start "2026-12-01T12:00:00Z"]'))
    timed_before, timed_whole = _split(timed, 4)
    assert timed_before.verdict.clock is not None and continued(timed_before, timed_whole) is not None
    timed_before.walk = None
    assert continued(timed_before, timed_whole) is None


# -- inside a turn: the open turn continued, an awaited roll or choice completed ---------


def _cut_inside(record: Record, at: int, within: int, last: Move | None = None) -> Record:
    """The record's first `at` items and the first `within` items of its turn at `at`
    (then `last`, when given): a record that stops inside that turn."""
    turn = record.items[at]
    assert isinstance(turn, Turn)
    tail = (last,) if last is not None else ()
    return record._replace(items=(*record.items[:at], turn._replace(items=turn.items[:within] + tail)))


def _inside_points(record: Record, rng: random.Random, count: int) -> list[tuple[int, int]]:
    """Places inside turns (a turn's index and how many of its items come before)."""
    points = [
        (at, within)
        for at, item in enumerate(record.items)
        if isinstance(item, Turn)
        for within in range(len(item.items) + 1)
    ]
    return sorted(rng.sample(points, min(len(points), count)))


def _continued_inside(record: Record, rng: random.Random, count: int) -> Iterator[tuple[int, int, Replay]]:
    """The record cut at `count` places inside turns (`_inside_points`), each cut replayed and
    continued by the whole record: the place and the continued replay, wherever `continued`
    gives one (where it declines, the cut record must be no ongoing game)."""
    for at, within in _inside_points(record, rng, count):
        before = adjudicate(_cut_inside(record, at, within), "g.rgn", keep_steps=True)
        found = continued(before, record, "g.rgn")
        if found is None:
            assert before.verdict.status != "ongoing", (at, within)
            continue
        yield at, within, found


@pytest.mark.parametrize(("game", "players", "seed"), _cases())
def test_a_turn_continued_from_inside_is_the_replay_of_the_whole_record(
    game: str, players: int | None, seed: str
) -> None:
    """The record stops inside a turn (a turn begun, some of its actions, maybe awaiting
    battles or a choice); the whole record continues that turn and goes on: the same value
    as the whole record replayed, every time (the turn's steps, numbers, rounds included)."""
    rng = random.Random(seed + "inside")
    record = _read(_played(game, players, seed, rng.choice([6, 20, 60])))
    expected = _value(adjudicate(record, "g.rgn", keep_steps=True))
    used = 0
    for at, within, found in _continued_inside(record, rng, 12):
        used += 1
        assert _value(found) == expected, (at, within)
        assert found.steps and all(
            step.turn is record.items[at] for step in found.steps if step.turn.span == record.items[at].span
        )
    assert used


def _chance_cases() -> list[tuple[str, str, bool]]:
    """Every game whose actions carry chance, with its Seed and with physical dice."""
    return [
        (game, f"awaited-{index}", seeded)
        for game in registry.GAMES
        if registry.engine(game).chance_syntax() is not None
        for index in range(4)
        for seeded in (True, False)
    ]


@pytest.mark.parametrize(("game", "seed", "seeded"), _chance_cases())
def test_an_awaited_roll_or_choice_completed_is_the_replay_of_the_whole_record(
    game: str, seed: str, seeded: bool
) -> None:
    """The record stops at a battle written without its roll (physical dice: the roll is
    awaited), or without its choice (awaited), or its roll, result and choice (with the
    Seed: the die is drawn, a choice may be awaited); the whole record writes the battle
    whole and goes on. The continuation starts from where the replay stood before that
    battle (`Replay.awaiting`): the same value as the whole record replayed."""
    rng = random.Random(seed)
    record = _read(_played(game, None, seed, 80))
    if not seeded:
        record = record._replace(tags=tuple(tag for tag in record.tags if tag.name != "Seed"))
    engine = registry.engine(game)
    syntax = engine.chance_syntax()
    assert syntax is not None
    dialect = engine.dialect()
    expected = _value(adjudicate(record, "g.rgn", keep_steps=True))
    battles = [
        (at, within)
        for at, item in enumerate(record.items)
        if isinstance(item, Turn)
        for within, sub in enumerate(item.items)
        if isinstance(sub, Move) and engine.chance_of(sub.action) is not None
    ]
    awaited: set[str] = set()
    for at, within in sorted(rng.sample(battles, min(len(battles), 10))):
        turn = record.items[at]
        assert isinstance(turn, Turn)
        move = turn.items[within]
        assert isinstance(move, Move)
        for text in {syntax.bare(move.text), re.sub(syntax.choice, "", move.text)} - {move.text}:
            action = dialect.parse_action(text)
            before = adjudicate(
                _cut_inside(record, at, within, Move(action, text, move.span, move.glyph)), "g.rgn", keep_steps=True
            )
            assert before.verdict.status == "ongoing" and before.state is not None, (at, within, text)
            pending = before.state.pending()
            found = continued(before, record, "g.rgn")
            if pending is None:  # nothing awaited (the die drawn, no choice left): no submission completes it
                assert found is None and before.awaiting is None
                continue
            assert found is not None, (at, within, text)
            assert _value(found) == expected, (at, within, text)
            awaited.add(str(pending))
            again = continued(before, record, "g.rgn")  # `before` is left as it was
            assert again is not None and _value(again) == expected
            # Completed in part, the record ending there (the roll given, the choice still
            # awaited): the battle is applied open-ended again, as in the whole record.
            part = re.sub(syntax.choice, "", move.text)
            if part != text:
                partly = _cut_inside(record, at, within, Move(dialect.parse_action(part), part, move.span, move.glyph))
                found = continued(before, partly, "g.rgn")
                assert found is not None and found.state is not None
                assert _value(found) == _value(adjudicate(partly, "g.rgn", keep_steps=True))
                if found.state.pending() is not None:
                    awaited.add("part")
    if battles:
        assert awaited & {"roll", "choice"}
        assert seeded or "roll" in awaited


def test_a_battle_awaiting_its_roll_in_a_timed_game_is_completed_as_the_whole_record_replays() -> None:
    """Physical dice and a clock: the battle left awaiting its roll was stamped (with a
    grant); the roll written onto it, a new stamp after the old: the walk goes on from
    where it stood before the battle (its grant and stamp walked again after the roll, not
    twice), as the whole record's."""
    engine = registry.engine("nieuchess")
    syntax = engine.chance_syntax()
    assert syntax is not None
    checked = 0
    for index in range(4):
        checked += _check_timed_battles(engine, syntax, _read(_played("nieuchess", None, f"timed-{index}", 80)))
    assert checked >= 3


def _battles(engine: Any, record: Record) -> Iterator[tuple[int, Turn, int, Move]]:
    """Each battle (an action with a chance) of `record`: its turn's place among the items,
    the turn, its place in the turn, the move."""
    for at, item in enumerate(record.items):
        if isinstance(item, Turn):
            for within, move in enumerate(item.items):
                if isinstance(move, Move) and engine.chance_of(move.action) is not None:
                    yield at, item, within, move


def _check_timed_battles(engine: Any, syntax: Any, record: Record) -> int:
    tags = tuple(tag for tag in record.tags if tag.name != "Seed")
    tags += (Tag("TimeControl", "3d+1d", Span(1, 1)), Tag("Start", format_instant(START), Span(1, 1)))
    record = record._replace(tags=tags)
    checked = 0
    for at, item, within, move in _battles(engine, record):
        text = syntax.bare(move.text)
        bare = Move(engine.dialect().parse_action(text), text, move.span, move.glyph)
        stamp = Comment(f"[%grant {item.side} 1d] {_at(START + (at + 1) * 60, item.side)}", Span(move.span.line, 90))
        later = Comment(_at(START + (at + 3) * 60, item.side), Span(move.span.line, 120))
        head = record.items[:at]
        before = adjudicate(
            record._replace(items=(*head, item._replace(items=(*item.items[:within], bare, stamp)))),
            "g.rgn",
            keep_steps=True,
        )
        assert before.state is not None and before.state.pending() == "roll"
        whole = record._replace(items=(*head, item._replace(items=(*item.items[:within], move, stamp, later))))
        found = continued(before, whole, "g.rgn")
        assert found is not None and _value(found) == _value(adjudicate(whole, "g.rgn", keep_steps=True))
        assert found.verdict.clock is not None, found.verdict.error
        checked += 1
    return checked


def test_a_broken_continuation_inside_a_turn_is_refused_as_the_whole_replay_refuses_it() -> None:
    """The turn left open, or the battle awaiting its part, goes on with actions that are
    illegal there: the same error, every field, as the whole record replayed."""
    checked = 0
    for game, players, seed in _cases():
        rng = random.Random(seed + "broken inside")
        record = _read(_played(game, players, seed, 30))
        turns = [at for at, item in enumerate(record.items) if isinstance(item, Turn) and item.items]
        if len(turns) < 4:
            continue
        at = turns[len(turns) // 2]
        turn, donor = record.items[at], record.items[rng.choice(turns[: len(turns) // 2])]
        assert isinstance(turn, Turn) and isinstance(donor, Turn)
        within = rng.randrange(len(turn.items) + 1)
        broken = record._replace(
            items=(*record.items[:at], turn._replace(items=turn.items[:within] + donor.items), *record.items[at + 1 :])
        )
        before = adjudicate(_cut_inside(broken, at, within), "g.rgn", keep_steps=True)
        found = continued(before, broken, "g.rgn")
        if found is None:
            assert before.verdict.status != "ongoing"
            continue
        whole = adjudicate(broken, "g.rgn", keep_steps=True)
        assert _value(found) == _value(whole)
        checked += whole.verdict.status == "illegal"
    assert checked >= len(registry.GAMES)


# -- timed records (TIME.md): the clock walk goes on from where the replay stopped ---------

START = 1_796_126_400  # 2026-12-01T12:00:00Z
HOUR = 3600
CONTROLS = ("3d+1d/5d", "2d+12h", "3d/move")


def _at(instant: int, side: str) -> str:
    return f"[%at {format_instant(instant)} {side}]"


FAULTS = (
    *("none", "late", "backwards", "before_start", "nobody", "unreadable"),
    *("timeout", "early_timeout", "bare_timeout", "draw", "flagged"),
)


def _stamped(text: str, rng: random.Random, control: str, fault: str, stop: bool) -> str:
    """The playout's text with a clock: a stamp closing every turn, naming (mostly) the
    turn's side, some grants, double stamps and stamps naming the game master or another
    side; and at one turn of its second half, `fault`: a late submission, a stamp going
    backwards or before Start, one naming no side, one unreadable, a `timeout` after a long
    wait (legal), too early, or without a stamp, a `draw`, or a grant to one side stamped
    long after by the side awaited (which stays flagged); with `stop`, the record ends there."""
    header, _, moves = text.partition("\n\n")
    info = registry.GAMES[header.split('"')[1]]
    now = START
    out: list[str] = []
    lines = [line for line in moves.splitlines() if line.strip()]
    faulty = rng.randrange(len(lines) // 2, len(lines))
    present = sorted({info.side(line.split(":")[0].split(".")[-1].strip()) or info.sides[0] for line in lines})
    for at, line in enumerate(lines):
        side = info.side(line.split(":")[0].split(".")[-1].strip()) or info.sides[0]
        now += rng.choice((HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, 20 * HOUR))
        here = fault if at == faulty else "none"
        if here == "late":
            now += 8 * 24 * HOUR
        named = side if rng.random() > 0.06 else rng.choice(("GM", rng.choice(info.sides)))
        stamp = _at(START - HOUR if here == "before start" else now - 3 * HOUR if here == "backwards" else now, named)
        if here == "nobody":
            stamp = _at(now, "Nobody")
        elif here == "unreadable":
            stamp = f"[%at 2026-12-01 {side}]"
        commands = [stamp]
        if rng.random() < 0.1:
            commands.insert(0, f"[%grant {rng.choice(present)} {rng.choice(('12h', '1d', '3d'))}]")
        comment = "{" + " ".join(commands) + "}"
        if rng.random() < 0.06:
            now += HOUR
            comment += " {" + _at(now, named) + "}"
        out.append(f"{line} {comment}")
        following = lines[at + 1] if at + 1 < len(lines) else None
        awaited = (info.side(following.split(":")[0].split(".")[-1].strip()) if following else None) or side
        if here in ("timeout", "early timeout"):
            now += HOUR if here == "early timeout" else 30 * 24 * HOUR
            out.append(f"timeout {{ claimed }} {{{_at(now, awaited)}}}")
        elif here == "bare timeout":
            out.append("timeout")
        elif here == "draw":
            now += HOUR
            out.append(f"draw {{{_at(now, side)}}}")
        elif here == "flagged":
            now += 9 * 24 * HOUR
            out.append(f"{{[%grant {side} 12h] {_at(now, awaited)}}}")
        elif rng.random() < 0.04:
            out.append(f"{{[%grant {rng.choice(present)} 1d]}}")
        if here in ("timeout", "draw", "flagged") and stop:
            break
    return f'{header}\n[TimeControl "{control}"]\n[Start "{format_instant(START)}"]\n\n' + "\n".join(out) + "\n"


def _timed_cases() -> list[tuple[str, int | None, str]]:
    cases = []
    for game, info in registry.GAMES.items():
        for index, fault in enumerate(FAULTS * 2):
            players = info.player_counts[index % len(info.player_counts)]
            cases.append((game, players, f"timed-{fault}-{index}"))
    return cases


def _timed_record(game: str, players: int | None, seed: str) -> tuple[Record, random.Random]:
    rng = random.Random(seed)
    text = _played(game, players, seed, rng.choice([8, 24, 50]))
    _, fault, index = seed.split("-", 2)
    control = CONTROLS[int(index) % len(CONTROLS)]
    return _read(_stamped(text, rng, control, fault.replace("_", " "), int(index) < len(FAULTS))), rng


def _left_whole(before: Replay) -> bool:
    """Why `continued` may decline a timed continuation: the record before it is no
    ongoing game (illegal, malformed or over). (A game awaiting a roll or a choice is
    continued from where its replay stood before the action that left it awaited.)"""
    return before.verdict.status != "ongoing" or before.state is None


@pytest.mark.parametrize(("game", "players", "seed"), _timed_cases())
def test_a_timed_record_continued_is_the_replay_of_the_whole_record(game: str, players: int | None, seed: str) -> None:
    """Split anywhere between items (a turn, a comment, a `timeout`, a `draw` first), and
    continued again from the continuation: the same verdict, clock view included, the
    same error with every field, steps, rounds, numbers and position."""
    record, rng = _timed_record(game, players, seed)
    whole = adjudicate(record, "g.rgn", keep_steps=True)
    expected = _value(whole)
    points = sorted(rng.sample(range(1, len(record.items)), min(len(record.items) - 1, 10)))
    used = 0
    for at in points:
        before, _ = _split(record, at)
        found = continued(before, record, "g.rgn")
        if found is None:
            assert _left_whole(before), at
            continue
        used += 1
        assert _value(found) == expected, at
        again = continued(before, record, "g.rgn")  # `before` (its state, its walk) is left as it was
        assert again is not None and _value(again) == expected, at
    # Split inside a turn (before its stamp, between a battle and its stamp, ...): the
    # open turn continued, or its last action written again when something is awaited.
    for at, within, found in _continued_inside(record, rng, 8):
        used += 1
        assert _value(found) == expected, (at, within)
    # A chain: the record continued in three parts gives the same value.
    middle = points[len(points) // 2] if points else 1
    first = adjudicate(record._replace(items=record.items[: points[0] if points else 1]), "g.rgn", keep_steps=True)
    second = continued(first, record._replace(items=record.items[:middle]), "g.rgn")
    if second is not None:
        third = continued(second, record, "g.rgn")
        if third is not None:
            assert _value(third) == expected
        else:
            assert _left_whole(second)
    if not used:
        assert all(_left_whole(_split(record, at)[0]) for at in points)


def test_the_timed_continuations_meet_every_clock_case() -> None:
    """The comparisons above are not vacuous: continuations from the timed playouts end
    every way a timed record can, a legal `timeout` in the new part among them."""
    seen: set[str] = set()
    for game, players, seed in _timed_cases():
        record, rng = _timed_record(game, players, seed)
        for at in range(1, len(record.items)):
            found = continued(_split(record, at)[0], record, "g.rgn")
            if found is None:
                continue
            verdict = found.verdict
            seen.add(verdict.status)
            if verdict.outcome is not None and verdict.outcome.reason == "time":
                seen.add("time")
            if verdict.clock is not None and verdict.clock.flagged is not None:
                seen.add("flagged")
            if verdict.error is not None and "time ran out" in verdict.error.message:
                seen.add("late")
            if verdict.error is not None and verdict.error.action == "timeout":
                seen.add("refused timeout")
            if verdict.clock is not None and verdict.clock.control.per_move:
                seen.add("per move")
    assert seen >= {"ongoing", "finished", "illegal", "malformed", "time", "flagged", "late", "refused timeout"}
    assert "per move" in seen


def test_a_stamp_right_after_the_last_one_takes_back_its_increment_as_a_whole_replay_does() -> None:
    """The walk is kept as the replay left it, before the verdict's view settled the
    increment the last stamp defers: a stamp that follows at once (a battle's next part,
    TIME.md §3) takes that increment back in a continuation as in a whole replay."""
    text = (
        '[Game "numica"]\n[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]\n[Seed "7"]\n\n'
        "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\nB: SOSOSOSO {[%at 2026-12-03T12:00:00Z Blue]}\n"
    )
    record = _read(text)
    before = adjudicate(record, "g.rgn", keep_steps=True)
    assert before.verdict.clock is not None and before.verdict.clock.remaining("Blue") == 3 * 86400
    stamp = Comment("[%at 2026-12-03T18:00:00Z Blue]", Span(7, 1))
    whole = record._replace(items=(*record.items, stamp))
    found = continued(before, whole, "g.rgn")
    expected = adjudicate(whole, "g.rgn", keep_steps=True)
    assert found is not None and _value(found) == _value(expected)
    # Blue's 3d is 2d again (the increment taken back), less 6h, plus the increment: 2d 18h.
    assert found.verdict.clock is not None and found.verdict.clock.remaining("Blue") == 2 * 86400 + 18 * 3600


def test_a_side_that_left_on_time_is_kept_in_the_continuation() -> None:
    """Pikemen with 3 players: Yellow times out and leaves, the game goes on. A replay
    continued from after the `timeout` keeps it (`Replay.timeouts`, what the league's
    standings read), as the whole replay has it, and the clocks of all three sides."""
    head, _, moves = _played("pikemen", 3, "left-on-time", 12).partition("\n\n")
    now, out = START, []
    kept = [line for line in moves.splitlines() if not line.lstrip("0123456789. ").startswith("Y")]
    for at, line in enumerate(kept):
        now += HOUR
        out.append(f"{line} {{{_at(now, 'Red' if 'R:' in line else 'Blue')}}}")
        if at == 0:
            now += 30 * 24 * HOUR
            out.append(f"timeout {{{_at(now, 'Yellow')}}}")
    record = _read(f'{head}\n[TimeControl "3d+1d"]\n[Start "{format_instant(START)}"]\n\n' + "\n".join(out) + "\n")
    whole = adjudicate(record, "g.rgn", keep_steps=True)
    assert whole.verdict.status == "ongoing" and [side for _, side, _ in whole.timeouts] == ["Yellow"]
    after = next(at for at, item in enumerate(record.items) if isinstance(item, Timeout)) + 2
    for at in (after - 2, after, len(record.items) - 1):  # the timeout new, then behind
        found = continued(_split(record, at)[0], record, "g.rgn")
        assert found is not None and _value(found) == _value(whole), at


def _secret_game(seed: str, salted: bool, max_turns: int) -> tuple[Record, Record]:
    """A Nieuchess playout with a secret seed (`new --secret`, the players' salts when
    `salted`): the record as written (its `SeedHash` and salts, the rolls drawn from the
    effective seed written on its battles) and the same record with the game master's
    keyed tags (`keys.keyed_tags`), the very same items."""
    key = f"{seed}-key"
    salts = [("Red", f"r{seed}"), ("Blue", f"b{seed}-game")] if salted else []
    stream = effective_seed(key if salted else f"{key}-game", salts)
    text = play("nieuchess", None, stream.removesuffix("-game"), max_turns=max_turns).text
    assert f'[Seed "{stream}"]' in text
    record = _read(text.replace(f'[Seed "{stream}"]\n', ""))
    key = key if salted else f"{key}-game"
    written = {"Game": "nieuchess", "SeedHash": seed_hash(key), **{salt_tag(side): salt for side, salt in salts}}
    keyed = keyed_tags(registry.GAMES["nieuchess"], written, key)
    assert keyed["Seed"] == stream and key not in str(written)

    def tagged(tags: dict[str, str]) -> Record:
        return record._replace(tags=tuple(Tag(name, value, Span(1, 1)) for name, value in tags.items()))

    return tagged(written), tagged(keyed)


def _keyed_value(found: Replay, before: Replay) -> dict[str, Any]:
    """`_value` with only the steps new after `before` (those kept word their rolls as the
    replay without the key did: "die 4 (as written)")."""
    value = _value(found)
    value["steps"] = value["steps"][len(before.steps) :]
    return value


@pytest.mark.parametrize(("seed", "salted"), [(f"keyed-{index}", salted) for index in range(1, 5) for salted in (0, 1)])
def test_a_game_continued_with_the_game_masters_key_is_the_whole_keyed_replay(seed: str, salted: bool) -> None:
    """The game replayed from its record (the seed's hash alone: rolls as written), split
    at every turn and continued with the keyed tags (`continued(keyed=True)`, the engine's
    `keyed` state drawing the next dice from the seed): the same verdict, new steps (their
    dice worded as drawn, "die 4"), rounds, numbers and position as the whole record
    replayed with the key. And a battle left awaiting its roll (the secret seed: the game
    master's key draws it) completed by the keyed record, as a battle by mail with
    `--keys` is."""
    written, keyed = _secret_game(seed, bool(salted), 90)
    whole = adjudicate(keyed, "g.rgn", keep_steps=True)
    assert whole.verdict.status in ("ongoing", "finished") and whole.state is not None
    engine = registry.engine("nieuchess")
    syntax = engine.chance_syntax()
    assert syntax is not None
    continued_from = drawn = 0
    for at, item in enumerate(keyed.items):
        if not isinstance(item, Turn):
            continue
        before = adjudicate(written._replace(items=written.items[:at]), "g.rgn", keep_steps=True)
        assert continued(before, keyed, "g.rgn") is None  # (the keyed tags are not the record's own)
        found = continued(before, keyed, "g.rgn", keyed=True)
        if before.verdict.status != "ongoing":
            assert found is None
            continue
        assert found is not None, at
        continued_from += 1
        assert _keyed_value(found, before) == _keyed_value(whole, before), at
        drawn += sum(event.kind == EventKind.ROLL for step in found.steps[len(before.steps) :] for event in step.events)
        for within, move in enumerate(item.items):  # a battle of this turn written without its roll
            if not isinstance(move, Move) or engine.chance_of(move.action) is None:
                continue
            bare = syntax.bare(move.text)
            cut = _cut_inside(written, at, within, Move(engine.dialect().parse_action(bare), bare, move.span))
            awaiting = adjudicate(cut, "g.rgn", keep_steps=True)
            assert awaiting.state is not None and awaiting.state.pending() == "roll", (at, within)
            found = continued(awaiting, keyed, "g.rgn", keyed=True)
            assert found is not None, (at, within)
            assert _keyed_value(found, awaiting) == _keyed_value(whole, awaiting), (at, within)
    assert continued_from > 1 and drawn, (continued_from, drawn)
    assert not any("as written" in str(event) for step in whole.steps for event in step.events)


def test_a_game_whose_rolls_are_not_the_keys_is_not_continued_with_the_key() -> None:
    """A roll written before that is not the secret seed's die at its place (the result
    and retreats the same, so the replay without the key takes it): the engine's `keyed`
    says None, `continued` declines, and the whole replay with the key, which the caller
    then makes, finds that roll illegal."""
    engine = registry.engine("nieuchess")
    planted = 0
    for index in range(6):
        written, keyed = _secret_game(f"planted-{index}", bool(index % 2), 90)
        for at, item, within, move in _battles(engine, written):
            for roll in set(range(1, 7)) - {int(re.findall(r"#(\d)", move.text)[0])}:
                text = re.sub(r"#\d", f"#{roll}", move.text)
                wrong = Move(engine.dialect().parse_action(text), text, move.span)
                turn = item._replace(items=(*item.items[:within], wrong, *item.items[within + 1 :]))
                items = (*written.items[:at], turn, *written.items[at + 1 :])
                cut = written._replace(items=items[: at + 2])
                before = adjudicate(cut, "g.rgn", keep_steps=True)
                if before.verdict.status != "ongoing" or before.state is None:
                    continue  # (that roll gives another result: refused without the key too)
                planted += 1
                assert engine.keyed(before.state, keyed.tag_map) is None
                whole = keyed._replace(items=items)
                assert continued(before, whole, "g.rgn", keyed=True) is None
                verdict = adjudicate(whole, "g.rgn").verdict
                assert verdict.status == "illegal" and verdict.error is not None
                assert "the die of this battle is" in verdict.error.message
                break
    assert planted >= 3, planted
