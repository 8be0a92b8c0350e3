"""The game API's chance hooks (`Engine.chance_of`, `with_chance`, `choice_by_opponent`):
what `referee/live` asks of a game instead of inspecting its actions."""

from __future__ import annotations

from pathlib import Path

from referee.games import registry
from referee.games.api import Chance, Event, EventKind, PendingKind, Randomness
from referee.judge.services.random_playout import play
from referee.live.mail import game
from referee.live.play import agreement, submission
from referee.notation.model import Span


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
    core, `play`, the submission reader or the gateway: a part written alone at the start
    of a submission (`#4`, `(h7-h8-h9)`) is read with the game's pattern (`Engine.lone_part`)."""
    root = Path(__file__).resolve().parents[2] / "referee"
    for path in sorted((root / "judge").rglob("*.py")) + sorted((root / "live").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert 'r"#' not in text and '"#" in' not in text and "#\\s*\\d" not in text, path
        assert "#\\d" not in text and "\\([^)" not in text, path


def test_every_game_reads_a_lone_roll_or_choice_to_refuse_it_in_the_same_words(tmp_path: Path) -> None:
    """A submission that starts with a roll or a choice written alone is read as such in
    every game, with or without chance, and refused in the same words when nothing awaits it."""
    for info in registry.GAMES.values():
        for text in ("#4", "(h7-h8-h9)", "#4=DB2(h7-h8-h9)"):
            read = submission.read(f"{text} {{ a comment }}", info.name, None)
            assert read.part is not None and read.part.text == text and read.record is None, (info.name, text)
        try:  # `#4x` is not a token of its own: no part, and nothing to imply a label for
            submission.read("#4x", info.name, None)
        except submission.SubmissionError as error:
            assert error.span == Span(1, 1), info.name
        else:
            raise AssertionError(f"{info.name}: #4x was read")
    path = tmp_path / "nika.rgn"
    path.write_text('[Game "nika"]\n\n')
    refused = agreement.submit(path, "#4", wait=5)
    assert refused.exit_code == 1
    assert refused.error == (
        'submission: nika: illegal: line 1, col 1: nothing awaits "#4": no battle awaits a roll or a choice'
    )
