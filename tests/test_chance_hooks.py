"""The game API's chance hooks (`Engine.chance_of`, `with_chance`, `choice_by_opponent`):
what `referee/live` asks of a game instead of inspecting its actions."""

from __future__ import annotations

from pathlib import Path

from games import registry
from games.api import Chance, Event, EventKind, PendingKind, Randomness
from referee.judge.playout import play
from referee.live.mail import game


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


def test_how_chance_is_written_is_the_game_s_own_and_none_for_a_game_without_dice() -> None:
    for info in registry.GAMES.values():
        syntax = registry.engine(info.name).chance_syntax()
        assert (syntax is not None) == (info.randomness == Randomness.DICE), info.name
        if syntax is not None:  # its example is a battle of its own notation, with and without the roll
            dialect = registry.engine(info.name).dialect()
            declared, rolled = dialect.parse_action(syntax.declared), dialect.parse_action(syntax.rolled)
            assert registry.engine(info.name).chance_of(declared) == Chance(None, None)
            assert registry.engine(info.name).chance_of(rolled) == Chance(int(syntax.rolled[-1]), None)
            assert syntax.bare(syntax.rolled) == syntax.declared


def test_a_battle_s_roll_and_choice_are_written_stripped_and_found_as_nieuchess_writes_them() -> None:
    syntax = registry.engine("nieuchess").chance_syntax()
    assert syntax is not None
    assert syntax.bare("g6+h6xh7#4=DB2(h7-h8-h9)") == "g6+h6xh7" == syntax.bare("g6+h6xh7")
    assert syntax.bare("a1-b2") == "a1-b2"
    rest = "#4=DB2(h7-h8-h9)"
    assert syntax.awaited_part(rest, PendingKind.ROLL) == "#4"
    assert syntax.awaited_part(rest, PendingKind.CHOICE) == "(h7-h8-h9)"
    assert syntax.awaited_part("=DB2", PendingKind.CHOICE) == "=DB2"  # neither: the rest whole
    assert syntax.writes_roll("g6+h6xh7#4") and syntax.writes_roll("R: g6+h6xh7 # 4")
    assert not syntax.writes_roll("g6+h6xh7") and not syntax.writes_roll("g6+h6xh7=DB2")


def test_the_gateway_asks_the_game_whether_a_roll_is_written(tmp_path: Path) -> None:
    """With the key at hand a written roll is refused, in the game's own words; a game
    whose actions carry no chance has no roll to refuse, whatever its text holds."""
    path = tmp_path / "n1.rgn"
    path.write_text('[Game "nieuchess"]\n[Seed "x"]\n\n')
    current = game.open_game(path)
    refusal = game.roll_refused(current, "g6+h6xh7#1 { is it a 1? }")
    assert refusal is not None and "(g6+h6xh7, not g6+h6xh7#4)" in refusal
    assert game.roll_refused(current, "g6+h6xh7 { not #1 }") is None
    numica = tmp_path / "m1.rgn"
    numica.write_text('[Game "numica"]\n[Seed "x"]\n\n')
    assert game.roll_refused(game.open_game(numica), "SSSSOOOO #1") is None


def test_referee_holds_no_roll_syntax() -> None:
    """How a roll is written lives in `games/` (issue 17): no pattern of it in the judging
    core, `play` or the gateway. (`submission.py` reads a part written alone at the start
    of any game's submission, `#4` or `(h7-h8-h9)`, to refuse it in the same words for
    every game: it is the submission grammar of PLAY.md §1.5, not one game's.)"""
    root = Path(__file__).resolve().parents[1] / "referee"
    for path in sorted((root / "judge").glob("*.py")) + sorted((root / "live").rglob("*.py")):
        if path.name == "submission.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert 'r"#' not in text and '"#" in' not in text and "#\\s*\\d" not in text, path
