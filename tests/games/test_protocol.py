"""The turn protocol of games/api.py, the same for every game and player count: the same
error class and the same wording for each misuse, from every engine, and copies that
share nothing mutable."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import registry
from referee.games.api import (
    RESIGN,
    GameOverError,
    GameState,
    IllegalTurnError,
    SetupError,
    TurnNotOpenError,
    TurnOpenError,
    WrongSideError,
)
from referee.games.randomness import seed_hash

CASES = [
    pytest.param(info.name, players, id=f"{info.name}-{players}")
    for info in registry.GAMES.values()
    for players in info.player_counts
]
"""Every game and player count."""

ALL = [pytest.param(*case.values, id=case.id) for case in CASES]
"""The same, unmarked: the common tags are read by the base class in every game already."""

HOOKS = ("_side_to_move", "_round", "_open_turn", "_apply", "_legal_actions", "position", "render")
TEMPLATE = (
    "begin_turn",
    "apply",
    "play_steps",
    "end_turn",
    "legal_actions",
    "copy",
    "to_move",
    "round_number",
    "agree_draw",
)


def fresh(game: str, players: int) -> GameState[Any]:
    engine = registry.engine(game)
    return engine.new_state({"Game": game, **engine.new_tags(players, "protocol", None)})


def play_turn(state: GameState[Any]) -> None:
    """Begin the due turn, play its first legal actions until it may end, and end it."""
    state.begin_turn(state.due_side())
    while not state.can_end_turn():
        state.apply(next(action for action in state.legal_actions() if action != RESIGN))
    state.end_turn()


def other_side(state: GameState[Any]) -> str:
    return next(side for side in state.sides if side != state.due_side())


def snapshot(state: GameState[Any]) -> tuple[object, ...]:
    return state.position(), state.to_move(), state.round_number(), state.turns, state.turn_open, state.outcome()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_engine_implements_the_hooks_and_none_of_the_template(game: str, players: int) -> None:
    cls = type(fresh(game, players))
    assert [hook for hook in HOOKS if getattr(cls, hook) is getattr(GameState, hook)] == []
    assert [name for name in TEMPLATE if getattr(cls, name) is not getattr(GameState, name)] == []
    assert "_outcome" not in vars(cls)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_apply_before_begin_turn(game: str, players: int) -> None:
    state = fresh(game, players)
    due = state.due_side()
    before = snapshot(state)
    with pytest.raises(TurnNotOpenError) as caught:
        state.apply(state.legal_actions()[0])
    assert caught.value.message == f"no turn is open: {due}'s turn must begin with its label first"
    with pytest.raises(TurnNotOpenError) as ended:
        state.end_turn()
    assert ended.value.message == caught.value.message
    assert snapshot(state) == before


@pytest.mark.parametrize(("game", "players"), CASES)
def test_begin_turn_twice(game: str, players: int) -> None:
    state = fresh(game, players)
    due = state.due_side()
    state.begin_turn(due)
    before = snapshot(state)
    with pytest.raises(TurnOpenError) as caught:
        state.begin_turn(due)
    assert caught.value.message == f"{due}'s turn is still open: it must end before another turn begins"
    assert snapshot(state) == before


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_turn_for_the_wrong_side(game: str, players: int) -> None:
    state = fresh(game, players)
    due, other = state.due_side(), other_side(state)
    before = snapshot(state)
    with pytest.raises(WrongSideError) as caught:
        state.begin_turn(other)
    assert caught.value.message.startswith(f"it is {due}'s turn, not {other}'s")
    absent = [side for side in registry.GAMES[game].sides if side not in state.sides]
    for side in absent:
        with pytest.raises(WrongSideError, match=f"^{side} does not play in a {players}-player game: the sides are "):
            state.begin_turn(side)
    assert snapshot(state) == before
    state.begin_turn(due)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_begin_and_apply_after_the_end(game: str, players: int) -> None:
    state = fresh(game, players)
    play_turn(state)
    state.begin_turn(state.due_side())
    state.agree_draw()
    wording = "the game ended at turn 2 (draw (agreement))"
    action = state.legal_actions()  # nothing is legal once the game is over
    assert action == []
    with pytest.raises(GameOverError) as applied:
        state.apply(RESIGN)
    assert applied.value.message == wording
    state.end_turn()
    with pytest.raises(GameOverError) as begun:
        state.begin_turn(state.due_side())
    assert begun.value.message == wording
    assert isinstance(begun.value, IllegalTurnError) and state.to_move() is None
    state.agree_draw()  # the first ending stands
    assert str(state.outcome()) == "draw (agreement)"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_resignation_is_an_action_of_the_turn_that_ends_it(game: str, players: int) -> None:
    state = fresh(game, players)
    play_turn(state)
    side = state.due_side()
    state.begin_turn(side)
    events = state.apply(RESIGN)
    assert str(events[0]).startswith(f"{side} resigns")
    outcome = state.outcome()
    if players == 2 or game == "nika":
        assert outcome is not None and outcome.reason == "resignation" and side not in outcome.winners
    else:  # Pikemen with 3 or 4 players: the side leaves, the game goes on
        assert outcome is None and state.to_move() != side
    state.end_turn()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_copies_are_independent(game: str, players: int) -> None:
    state = fresh(game, players)
    play_turn(state)
    state.begin_turn(state.due_side())
    twin = state.copy()
    assert type(twin) is type(state) and snapshot(twin) == snapshot(state)
    shared = [
        name
        for name, value in vars(state).items()
        if isinstance(value, (list, dict, set, bytearray)) and vars(twin)[name] is value
    ]
    assert shared == []
    before = snapshot(state)
    while not twin.can_end_turn():
        twin.apply(twin.legal_actions()[0])
    twin.end_turn()
    for _ in range(3):
        play_turn(twin)
    assert snapshot(state) == before and snapshot(twin) != before
    while not state.can_end_turn():  # the original plays on, untouched by its twin
        state.apply(state.legal_actions()[0])
    state.end_turn()


@pytest.mark.parametrize(("game", "players"), CASES)
def test_round_numbers_are_checked_with_one_wording(game: str, players: int) -> None:
    state = fresh(game, players)
    expected = state.round_number()
    with pytest.raises(IllegalTurnError) as caught:
        state.begin_turn(state.due_side(), number=7)
    if expected is None:
        assert caught.value.message == "a setup turn carries no round number"
    else:
        assert caught.value.message == f"this turn is in round {expected}, not round 7"
    assert state.turns == 0 and not state.turn_open


# -- the common tags -------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players"), ALL)
@pytest.mark.parametrize("written", ["5", "0", "²", "9" * 5000, "2.0", ""])
def test_players_is_read_alike_by_every_game(game: str, players: int, written: str) -> None:
    engine = registry.engine(game)
    with pytest.raises(SetupError) as caught:
        engine.new_state({"Game": game, "Seed": "s", "Players": written})
    assert caught.value.tag == "Players" and len(caught.value.message) < 100
    assert caught.value.message.startswith(f"{game} is played by {registry.GAMES[game].players_text()} players, not")


DRAWING = [case for case in ALL if registry.GAMES[case.values[0]].randomness is not None]
"""The games that draw randomness (Numica, Nieuchess): those that use `Seed`, `SeedHash`
and the salts."""

NOT_DRAWING = [case for case in ALL if registry.GAMES[case.values[0]].randomness is None]


@pytest.mark.parametrize(("game", "players"), DRAWING)
def test_a_game_that_draws_checks_the_seed_against_its_seed_hash(game: str, players: int) -> None:
    engine = registry.engine(game)
    tags = {"Game": game, **engine.new_tags(players, "the seed", None)}
    engine.new_state({**tags, "SeedHash": seed_hash("the seed").upper().replace("SHA256", "sha256")})
    with pytest.raises(SetupError, match="does not match the SeedHash") as caught:
        engine.new_state({**tags, "SeedHash": seed_hash("another seed")})
    assert caught.value.tag == "Seed"
    with pytest.raises(SetupError, match='a SeedHash reads "sha256:" and 64 hex digits'):
        engine.new_state({**tags, "SeedHash": "sha256:abc"})


@pytest.mark.parametrize(("game", "players"), NOT_DRAWING)
@pytest.mark.parametrize(
    "written",
    [{"SeedHash": "md5:abc"}, {"Seed": ""}, {"SeedHash": seed_hash("another seed")}, {"RedSalt": "", "AthensSalt": ""}],
)
def test_a_game_that_draws_nothing_ignores_seeds_and_salts(game: str, players: int, written: dict[str, str]) -> None:
    """NOTATION.md §3: a tag the game does not use is ignored (issue 45, item 16)."""
    engine = registry.engine(game)
    tags = {"Game": game, **engine.new_tags(players, "the seed", None)}
    start = engine.read_start({**tags, **written})
    assert (start.seed, start.seed_hash, start.salts) == (None, None, ())
    assert engine.new_state({**tags, **written}).position() == engine.new_state(tags).position()


@pytest.mark.parametrize(("game", "players"), ALL)
def test_the_common_tags_are_read_into_one_value(game: str, players: int) -> None:
    engine = registry.engine(game)
    info = registry.GAMES[game]
    sides = info.sides_for(players)
    tags = {
        "Game": game,
        "Players": str(players),
        "Seed": "s",
        f"{sides[-1]}Salt": "late",
        f"{sides[0]}Salt": "early",
        "GreenSalt" if "Green" not in sides else "PurpleSalt": "ignored",
        "First": sides[-1],
    }
    start = engine.read_start(tags)
    assert (start.players, start.sides, start.seed_hash) == (players, sides, None)
    assert start.first == (sides[-1] if info.first_choice else sides[0])
    if info.randomness is None:  # tags it does not use: ignored
        assert (start.seed, start.salts, start.stream_seed) == (None, (), None)
        assert engine.read_start({**tags, f"{sides[0]}Salt": ""}) == start._replace(
            tags=start.tags | {f"{sides[0]}Salt": ""}
        )
    else:
        assert start.seed == "s"
        assert start.salts == ((sides[0], "early"), (sides[-1], "late"))
        assert start.stream_seed == f"s\x1f{sides[0]}=early\x1f{sides[-1]}=late"
        with pytest.raises(SetupError, match="salt is any non-empty text"):
            engine.read_start({**tags, f"{sides[0]}Salt": ""})
    if info.first_choice:
        with pytest.raises(SetupError, match="the First tag must name one of") as caught:
            engine.read_start({**tags, "First": "Purple"})
        assert caught.value.tag == "First"


@pytest.mark.parametrize(("game", "players"), CASES)
def test_a_label_may_end_the_turn_before_in_the_same_call(game: str, players: int) -> None:
    """`begin_turn(..., ending=True)` is `end_turn()` then `begin_turn(...)`: the same state
    after a full turn; the same refusal, the turn still open, after an incomplete one; the
    same refusal when no turn is open."""
    apart, together = fresh(game, players), fresh(game, players)
    for state in (apart, together):
        state.begin_turn(state.due_side())
        while not state.can_end_turn():
            state.apply(next(action for action in state.legal_actions() if action != RESIGN))
    apart.end_turn()
    opens = apart.begin_turn(apart.due_side())
    assert together.begin_turn(together.due_side(), False, None, True) == opens
    assert snapshot(together) == snapshot(apart)

    unopened = fresh(game, players)
    with pytest.raises(TurnNotOpenError, match="^no turn is open"):
        unopened.begin_turn(unopened.due_side(), ending=True)

    incomplete = fresh(game, players)
    incomplete.begin_turn(incomplete.due_side())
    if incomplete.can_end_turn():
        return  # an empty turn may end in this game
    before = snapshot(incomplete)
    with pytest.raises(IllegalTurnError) as refused:
        incomplete.begin_turn(other_side(incomplete), ending=True)
    with pytest.raises(IllegalTurnError) as by_end_turn:
        incomplete.end_turn()
    assert refused.value.message == by_end_turn.value.message
    assert snapshot(incomplete) == before and incomplete.turn_open


@pytest.mark.parametrize(("game", "players"), CASES)
def test_the_side_due_a_game_keeps_for_begin_turn_is_always_its_turn_order(game: str, players: int) -> None:
    """A game that keeps the side due for `begin_turn` (`_due_side`) keeps it equal to
    `_side_to_move()` after every action and every turn, a resignation included."""
    import random

    chooser = random.Random(f"{game}-{players}")
    for resign_at in (None, 3):
        state = fresh(game, players)
        for turn in range(60):
            if state.is_over:
                break
            state.begin_turn(state.due_side())
            while not state.can_end_turn():
                actions = [action for action in state.legal_actions() if action != RESIGN]
                state.apply(RESIGN if turn == resign_at or not actions else chooser.choice(actions))
                assert state._due_side in (None, state._side_to_move())
            state.end_turn()
            assert state._due_side in (None, state._side_to_move())


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ('[Game "pikemen"]\n\nR+: h4(SE)\n', 3),
        ('[Game "pikemen"]\n\nR: h4(SE)\nB+: c6(E)\n', 4),
        ('[Game "nika"]\n\n1. W+: d1-W d2-W\n', 3),
        ('[Game "numica"]\n[Seed "s"]\n\nR+: SSOOSOSO\n', 4),
    ],
)
def test_a_step_label_where_the_game_has_no_steps_is_illegal_not_malformed(text: str, line: int) -> None:
    """NOTATION.md §3: `label := side ["+"]` in every game; a game without replacement
    steps finds the label illegal, at the label, with no action."""
    from referee.judge import session
    from referee.judge.core.adjudicate import adjudicate, read_source
    from referee.notation.record_splitter import split

    (result,) = read_source(text.encode())
    for found in (adjudicate(result).verdict, session.check_raw(split(text.encode())[0], "t.rgn", 1, True)):
        assert found.status == "illegal", found
        assert found.error is not None and "has no replacement steps" in found.error.message
        assert (found.error.line, found.error.action) == (line, None)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_what_a_game_keeps_for_begin_turn_is_what_its_hooks_say(game: str, players: int) -> None:
    """A game may keep, as its turn order changes, what `begin_turn` would ask its hooks
    (`_due_side`, `_opens`, `_due_round`): before every turn of a game played to its end
    (or 80 turns), each kept value equals the hook's answer."""
    state = fresh(game, players)
    for _ in range(80):
        if state.outcome() is not None:
            break
        side = state.due_side()
        if state._due_side is not None:
            assert state._due_side == state._side_to_move() == side
        if state._opens is not None:
            assert state._opens == state.copy()._open_turn(side, False)
        if state._keeps_round:
            assert state._due_round == state._label_round(side, False)
        play_turn(state)
