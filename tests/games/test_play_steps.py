"""`GameState.play_steps`, the framework's loop that the fused check plays a record with:
the same as the turn protocol's calls one at a time (`begin_turn` ending the turn before,
`apply`, `agree_draw`), on random playouts of every game and on those steps mutated: the
same state, turns and round numbers to rewrite, or the same rule error."""

from __future__ import annotations

import random
from array import array
from collections.abc import Container
from functools import partial
from typing import Any

import pytest

from referee.games import registry
from referee.games.api import RESIGN, GameOverError, GameState, RuleError
from referee.judge.core.adjudicate import dialect_for
from referee.judge.core.replay_loop import open_ended, quick_kinds
from referee.judge.services.random_playout import play
from referee.notation.quick import scan
from referee.notation.scanned import DRAW, Label

CASES = [
    (name, players) for name, info in registry.GAMES.items() for players in (tuple(info.sides_by_players) or (None,))
]
PLAYOUTS = 3
MUTATIONS = 15


def by_the_protocol(state: GameState[Any], steps: list[object], ended: Container[int]) -> tuple[int, list[int]]:
    """The steps played one protocol call at a time: the turns begun and the round numbers
    to rewrite (as `play_steps` gives them in `renumbered`)."""
    turns, opened, renumbered = 0, False, []
    for at, item in enumerate(steps):
        if isinstance(item, Label):
            opens = state.begin_turn(item.side, item.step, item.number, ending=opened)
            turns, opened = turns + 1, True
            if opens and item.number is None:
                renumbered += [turns - 1, state.round_number() or 0]
            elif not opens and item.number is not None:
                renumbered += [turns - 1, 0]
        elif item is DRAW:
            if state.outcome() is not None:
                raise GameOverError("a draw after the end")
            state.agree_draw()
        else:
            state.apply(item, at in ended)
    return turns, renumbered


def mutated(steps: list[object], rng: random.Random) -> list[object]:
    """The steps with one change: a step left out, doubled or moved, a draw or `resign`
    put in, a label's round number taken away or changed, its side changed or its `+`
    (a replacement step) put in or taken away."""
    changed = list(steps)
    at = rng.randrange(len(changed))
    how = rng.randrange(8)
    if how == 0:
        del changed[at]
    elif how == 1:
        changed.insert(at, changed[at])
    elif how == 2 and at + 1 < len(changed):
        changed[at], changed[at + 1] = changed[at + 1], changed[at]
    elif how == 3:
        changed.insert(at, DRAW)
    elif how == 4:
        changed.insert(at, RESIGN)
    else:
        labels = [place for place, item in enumerate(changed) if isinstance(item, Label)]
        place = rng.choice(labels)
        label = changed[place]
        assert isinstance(label, Label)
        if how == 5:
            number = None if label.number is not None else rng.randrange(1, 4)
            changed[place] = label._replace(number=number)
        elif how == 6:
            sides = sorted({item.side for item in changed if isinstance(item, Label)} - {label.side})
            changed[place] = label._replace(side=rng.choice(sides) if sides else "Nobody")
        else:
            changed[place] = label._replace(step=not label.step)
    return changed


def fast(
    state: GameState[Any], steps: list[object], ended: Container[int], renumbered: array[int]
) -> tuple[int, list[int]]:
    """The steps played by `play_steps`: the turns begun and the round numbers to rewrite."""
    return state.play_steps(steps, ended, renumbered), list(renumbered)


def outcome(state: GameState[Any], run: Any) -> tuple[object, ...]:
    """What a run gives (its value, or its error's class and words) and the state it leaves."""
    try:
        given: object = run()
    except RuleError as error:
        given = (type(error).__name__, str(error))
    return given, state.position(), state.to_move(), state.round_number(), state.turns, state.outcome()


@pytest.mark.parametrize(("game", "players"), CASES, ids=lambda case: str(case))
def test_play_steps_plays_as_the_protocol_calls_do(game: str, players: int | None) -> None:
    rng = random.Random(f"play-steps-{game}-{players}")
    engine = registry.engine(game)
    errors = 0
    for index in range(PLAYOUTS):
        playout = play(game, players, f"play-steps-{game}-{players}-{index}", max_turns=60)
        scanned = scan(playout.text, dialect_for)
        assert scanned is not None, playout.text
        variants = [list(scanned.items)] + [mutated(list(scanned.items), rng) for _ in range(MUTATIONS)]
        for steps in variants:
            ended = open_ended(quick_kinds(steps))  # type: ignore[arg-type]
            one = engine.new_state(scanned.tags)
            other = engine.new_state(scanned.tags)
            renumbered = array("i")
            played = outcome(one, partial(fast, one, steps, ended, renumbered))
            expected = outcome(other, partial(by_the_protocol, other, steps, ended))
            assert played == expected, (steps, playout.text)
            errors += isinstance(expected[0], tuple) and isinstance(expected[0][0], str)
    assert errors, "some mutations must break a rule"
