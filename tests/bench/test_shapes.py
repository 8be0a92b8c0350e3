"""The bench corpora's shapes (`referee.bench.corpora.SHAPES`): the long shape writes every
Nieuchess move hex by hex, with long turns, every roll and replacement steps, all legal."""

from __future__ import annotations

import re

import pytest

from referee.bench.corpora import DEFAULT_SHAPES, SHAPES, read_shape, read_shapes, shaped_play, shares
from referee.errors import UsageError
from referee.games.nieuchess.actions import Battle
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.services.random_playout import Playout

TURN = re.compile(r"^(?:\d+\. )?[RB](\+?):(.*)$", re.MULTILINE)


MOVE = re.compile(r"[a-y]\d+(?:-[a-y]\d+)+")
BATTLE = re.compile(r"([a-y]\d+(?:\+[a-y]\d+)*)x[a-y]\d+(?:\+[a-y]\d+)*(.*)")
INVASION = re.compile(r"[a-y]\d+>[a-y]\d+")


def test_long_nieuchess_records_write_rides_hex_by_hex_and_are_legal() -> None:
    text = "\n".join(shaped_play("nieuchess", None, f"shape-{i}", "long").text for i in range(2))
    for index, result in enumerate(read_source(text.encode()), start=1):
        assert adjudicate(result, "t.rgn", index).verdict.status in ("ongoing", "finished")
    main = [words.split() for step, words in TURN.findall(text) if not step and "setup" not in words]
    words = [word for turn in main for word in turn]
    moves = [word for word in words if MOVE.fullmatch(word)]
    battles = [found for word in words if (found := BATTLE.fullmatch(word))]
    assert len(moves) + len(battles) + sum(bool(INVASION.fullmatch(word)) for word in words) == len(words)
    assert max(word.count("-") for word in moves) > 10  # rides along the hot line, step by step
    assert len(words) / len(main) > 10  # long turns
    assert battles and all(re.match(r"#[1-6]=", found[2]) for found in battles)  # every roll written
    assert any("+" in found[1] for found in battles)  # battles of several attackers
    assert any(step for step, _ in TURN.findall(text))  # replacement steps


def test_the_short_shape_is_the_canonical_playout() -> None:
    from referee.judge.services.random_playout import play

    assert shaped_play("nieuchess", None, "shape-short", "short").text == play("nieuchess", None, "shape-short").text
    assert "short" in SHAPES and "long" in SHAPES


def test_an_unknown_shape_is_a_usage_error() -> None:
    assert read_shape("long") == "long"
    with pytest.raises(UsageError, match="--shape is one of purposeful, short, long"):
        read_shape("wide")


def _corpus(game: str, shape: str, games: int) -> list[Playout]:
    return [shaped_play(game, None, f"shares-{game}-{i}", shape) for i in range(games)]


@pytest.mark.parametrize("game", ["nika", "numica", "pikemen", "nieuchess"])
def test_purposeful_records_are_legal_and_end_as_their_playouts_did(game: str) -> None:
    played = _corpus(game, "purposeful", 3)
    results = read_source("\n".join(item.text for item in played).encode())
    assert len(results) == len(played)
    for index, (result, item) in enumerate(zip(results, played, strict=True), start=1):
        verdict = adjudicate(result, "t.rgn", index).verdict
        assert verdict.status == ("ongoing" if item.state.outcome() is None else "finished"), verdict
    assert any(item.state.outcome() is not None for item in played) or game == "nika"


@pytest.mark.parametrize("game", ["nika", "nieuchess"])
def test_purposeful_records_are_the_same_for_a_seed_and_differ_between_seeds(game: str) -> None:
    first = shaped_play(game, None, "again", "purposeful").text
    assert shaped_play(game, None, "again", "purposeful").text == first
    assert shaped_play(game, None, "other", "purposeful").text != first
    assert shaped_play(game, None, "again", "short").text != first  # the policy, not the seed, differs


def _battles(played: list[Playout]) -> tuple[float, float]:
    """The share of battles among the actions, and of battles of several pawns a side."""
    actions = [move.action for item in played for turn in item.record.turns for move in turn.moves]
    battles = [action for action in actions if isinstance(action, Battle)]
    several = [battle for battle in battles if len(battle.attackers) + len(battle.defenders) > 2]
    return len(battles) / len(actions), len(several) / len(actions)


def test_the_shares_of_purposeful_play_are_in_the_documented_ranges() -> None:
    """docs/speed.md, "The corpora's shapes": the ranges the purposeful shape keeps, beside
    the uniform shape's (issue 52's figures of purposeful play: phalanx moves about a quarter
    of Nika's actions; Nieuchess battles about 20 %, battles of several pawns about 5 %,
    twice the replacement steps; Numica and Pikemen captures as real games have them)."""
    nika, nika_uniform = shares(_corpus("nika", "purposeful", 4))[0], shares(_corpus("nika", "short", 4))[0]
    assert 0.20 <= nika["PhalanxMove"] <= 0.40 and nika_uniform.get("PhalanxMove", 0) < 0.03
    assert nika.get("Pass", 0) == 0
    for game, low, high in (("numica", 0.15, 0.35), ("pikemen", 0.08, 0.20)):
        kinds = shares(_corpus(game, "purposeful", 6))[0]
        uniform = shares(_corpus(game, "short", 6))[0]
        captures = sum(share for kind, share in kinds.items() if kind.endswith(" capture"))
        assert low <= captures <= high, (game, kinds)
        assert captures >= 1.5 * sum(share for kind, share in uniform.items() if kind.endswith(" capture"))
    purposeful, uniform = _corpus("nieuchess", "purposeful", 4), _corpus("nieuchess", "short", 4)
    battles, several = _battles(purposeful)
    assert 0.13 <= battles <= 0.25 and 0.03 <= several <= 0.08, (battles, several)
    assert _battles(uniform)[0] < 0.05
    assert shares(purposeful)[1] >= 2 * shares(uniform)[1]  # replacement steps, per turn


def test_several_shapes_are_read_each_once() -> None:
    assert read_shapes("purposeful,short") == ("purposeful", "short")
    assert DEFAULT_SHAPES == ("purposeful", "short")
    for wrong in ("purposeful,wide", "short,short", ""):
        with pytest.raises(UsageError, match="--shape"):
            read_shapes(wrong)


def test_every_action_weighs_one_unless_a_game_says_otherwise() -> None:
    from referee.games import registry
    from referee.games.engine_base import Engine

    assert all(
        type(registry.engine(game)).preference is not Engine.preference for game in registry.GAMES
    )  # each game plays with a purpose of its own
    state = registry.engine("nika").new_state({"Game": "nika"})
    assert Engine.preference(registry.engine("nika"), state, object()) == 1
