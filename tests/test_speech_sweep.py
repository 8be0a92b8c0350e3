"""A sweep of what a Spanish player reads (issue 49, docs/languages.md): every game's board
at its start and at the end of a played game, a finished game's verdict for every reason,
the grammar's detail for malformed actions of every game, and the refusals that name sides
hold no English side name, no reason's code and none of pyparsing's English; the notation
(squares, moves, the symbols of the boards' rows) stays as written."""

from __future__ import annotations

import re

import pytest

from referee import speech, spoken_lines
from referee.games import registry
from referee.games.randomness import SeedStream
from referee.games.values import RESIGN, Reason, RuleError
from referee.judge.core.adjudicate import dialect_for
from referee.judge.services.random_playout import play
from referee.notation.model import Malformed
from referee.notation.reader import read

SAY = speech.speaker("es")
SIDES = sorted({side for info in registry.GAMES.values() for side in info.sides})
ENGLISH_SIDE = re.compile(r"\b(?:" + "|".join(SIDES) + r")\b")
REASON_CODE = re.compile(r"\((?:" + "|".join(re.escape(reason) for reason in Reason) + r")\)")
PYPARSING = re.compile(r"[{|}]|\bsuch as\b|\bexpected\b|\bend of text\b|\bor\b")


def _seatings() -> list[tuple[str, int]]:
    return [(name, count) for name, info in registry.GAMES.items() for count in info.player_counts]


@pytest.mark.parametrize(("game", "players"), _seatings())
def test_a_board_names_every_side_in_spanish(game: str, players: int) -> None:
    """The lines under a board (its key, the routed pieces, the scores, who is to move, the
    outcome), at the start and when a played game has ended."""
    engine = registry.engine(game)
    start = engine.new_state({"Game": game, **engine.new_tags(players, "sweep-game", None)})
    ended = play(game, players, f"sweep-{game}-{players}", max_turns=400, purposeful=True).state
    if ended.outcome() is None:  # (Nika's random play runs long: the side to move gives up)
        label = ended.next_turn()
        assert label is not None
        ended.begin_turn(*label, ending=True)
        ended.apply(RESIGN)
    assert ended.outcome() is not None
    for state in (start, ended):
        said = spoken_lines.board(state.render(), SAY)
        assert not ENGLISH_SIDE.search(said), said
        assert not REASON_CODE.search(said), said
        assert "centre line" not in said  # (Nieuchess's: a row of the board, its words said)


@pytest.mark.parametrize("reason", list(Reason))
def test_every_reason_a_game_ends_for_is_said_in_spanish(reason: Reason) -> None:
    for line in (
        f"g1: finished: Red wins ({reason}) after 3 turns",
        f"g1: finished: Athens+Messene win ({reason}) after 30 turns",
        f"g1: finished: draw ({reason}) after 1 turn",
        f"g1: finished: Blue wins ({reason})",
    ):
        said = spoken_lines.verdict_line(line, SAY)
        assert said.startswith("g1: terminada: ") and SAY.word(reason) in said, said
        assert not ENGLISH_SIDE.search(said) and str(reason) not in said, said


def _malformed_actions(game: str) -> list[str]:
    """Every prefix of the game's example actions, and each followed by a stray character."""
    examples = {
        "nika": ["d1-W", "c1+d1-N", "*d1>N", "d1>E"],
        "numica": ["a1-c3", "a1xc3", "SSOOSOSO"],
        "pikemen": ["e1-e5(NE)", "a4(U)", "e1xe5"],
        "nieuchess": ["e4-g7", "g6+h6xh7#4=DB2(h7-h8-h9)", "b4>y33", "setup a1 b1"],
    }[game]
    return sorted(
        {prefix + tail for text in examples for n in range(1, len(text)) for prefix in [text[:n]] for tail in ("", "Q")}
    )


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_what_a_malformed_action_expected_is_never_pyparsings_english(game: str) -> None:
    label = next(iter(registry.GAMES[game].short_labels.values()))
    head = f'[Game "{game}"]\n[Seed "s"]\n' if game == "numica" else f'[Game "{game}"]\n'
    seen = 0
    for action in _malformed_actions(game):
        [result] = read(f"{head}\n1. {label}: {action}\n", dialect_for)
        if not isinstance(result, Malformed) or "after " not in result.error.message:
            continue  # read, or refused before the action's grammar explains it
        seen += 1
        said = speech.rule_text(result.error.message, SAY)
        bare = re.sub(r"'[^']*'|\"[^\"]*\"", "", said)  # the tokens quoted stay as written
        assert not PYPARSING.search(bare) and not ENGLISH_SIDE.search(bare), (result.error.message, said)
    assert seen >= 3


def test_a_side_that_does_not_play_and_a_game_over_are_said_in_spanish() -> None:
    state = registry.engine("pikemen").new_state({"Game": "pikemen", "Players": "3"})
    with pytest.raises(RuleError) as refused:
        state.begin_turn("Green")
    said = speech.rule_text(str(refused.value), SAY)
    assert not ENGLISH_SIDE.search(said) and "Verde" in said, said
    ended = registry.engine("nika").new_state({"Game": "nika"})
    athens, sparta = registry.GAMES["nika"].sides[:2]
    ended.begin_turn(athens)
    ended.apply(RESIGN)
    assert ended.outcome() is not None
    with pytest.raises(RuleError) as over:
        ended.begin_turn(sparta, ending=True)
    said = speech.rule_text(str(over.value), SAY)
    assert said.startswith("la partida terminó") and not ENGLISH_SIDE.search(said), said
    assert not REASON_CODE.search(said), said


ENGLISH_WORD = re.compile(r"\b(?:the|and|are|is|of|on|by|die|one|turning|chosen|written)\b")
"""Common English words a Spanish text never holds (the notation has none of them)."""


@pytest.mark.parametrize("result", ["AE", "DE", "EX", "AB2", "DB2"])
@pytest.mark.parametrize("seeded", [True, False])
def test_a_nieuchess_battles_die_and_result_are_said_in_spanish(result: str, seeded: bool) -> None:
    from referee.games.nieuchess.combat import RESULT_EVENTS, RESULT_WORDS, Resolution, carry_out
    from referee.games.nieuchess.movement import Field
    from referee.games.randomness import Dice

    assert RESULT_EVENTS[result] == f"{result}: {RESULT_WORDS[result]}"  # (the rule messages' words, with the code)
    dice = Dice("sweep") if seeded else None
    for event in carry_out(Field(), Resolution(4, result, [], dice)):
        said = speech.rule_text(event.text, SAY)
        assert said != event.text and not ENGLISH_WORD.search(said), (event.text, said)
        assert said.startswith("dado 4") or said.startswith(f"{result}: "), said


def test_a_pikemen_games_events_are_said_in_spanish() -> None:
    """What each move of a played game caused, charges with and without their turn (`d1
    charges to d3, turning S`) and captures: each its own template, so the turn is said too."""
    engine = registry.engine("pikemen")
    state = engine.new_state({"Game": "pikemen", **engine.new_tags(2, "sweep-events", None)})
    choose = SeedStream("sweep-events", "playout")
    seen: set[tuple[str, bool]] = set()
    for _ in range(300):
        label = state.next_turn()
        if label is None or state.outcome() is not None:
            break
        state.begin_turn(*label)
        legal = [action for action in state.legal_actions() if str(action) != "resign"]
        for event in state.apply(legal[choose.below(len(legal))]):
            said = speech.rule_text(event.text, SAY)
            assert not ENGLISH_WORD.search(said) and not ENGLISH_SIDE.search(said), (event.text, said)
            seen.add((event.kind, "turning" in event.text))
        if state.outcome() is None:
            state.end_turn()
    assert {("charge", True), ("charge", False)} <= seen, seen
