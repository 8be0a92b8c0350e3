"""The game API's chance hooks (`Engine.chance_of`, `with_chance`, `choice_by_opponent`):
what `referee/live` asks of a game instead of inspecting its actions."""

from __future__ import annotations

from games import registry
from games.api import Chance, Event, EventKind, Randomness
from referee.judge.playout import play


def test_only_a_game_with_dice_in_play_has_actions_that_carry_chance() -> None:
    for info in registry.GAMES.values():
        engine = registry.engine(info.name)
        played = play(info.name, None, f"chance-{info.name}", max_turns=60)
        chances = [engine.chance_of(move.action) for turn in played.record.turns for move in turn.moves]
        if info.randomness == Randomness.DICE:
            assert any(chance is not None and chance.written for chance in chances), info.name
        else:
            assert chances and all(chance is None for chance in chances), info.name


def test_a_battle_takes_its_roll_and_result_and_says_who_chooses() -> None:
    engine = registry.engine("nieuchess")
    dialect = engine.dialect()
    bare = dialect.parse_action("g6+h6xh7")
    assert engine.chance_of(bare) == Chance(None, None) and not engine.chance_of(bare).written  # type: ignore[union-attr]
    rolled = engine.with_chance(bare, 4, "DB2")
    assert engine.chance_of(rolled) == Chance(4, "DB2") and str(rolled) == "g6+h6xh7#4=DB2"
    chosen = dialect.parse_action("g6+h6xh7#1=AB2(g6-g5-g4)")
    ab2 = (Event(EventKind.RESULT, "AB2: the attackers retreat two hexes", {"result": "AB2"}),)
    db2 = (Event(EventKind.RESULT, "DB2: the defenders retreat two hexes", {"result": "DB2"}),)
    assert engine.choice_by_opponent(chosen, ab2) and not engine.choice_by_opponent(chosen, db2)
    assert not engine.choice_by_opponent(bare, ab2)  # no choice written


def test_a_game_without_chance_refuses_to_write_a_roll() -> None:
    engine = registry.engine("numica")
    action = engine.dialect().parse_action("a1-c3")
    assert engine.chance_of(action) is None and not engine.choice_by_opponent(action, ())
    try:
        engine.with_chance(action, 4, "DB2")
    except TypeError as error:
        assert "numica" in str(error)
    else:
        raise AssertionError("a roll was written on a Numica move")
