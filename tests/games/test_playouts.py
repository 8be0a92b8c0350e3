"""The conformance test every game joins (OpenSpiel style): random playouts through the
uniform API, for every game and player count. Every listed legal action applies; the
same seed replays identically; the canonical record reads back and replays to the same
verdict."""

from __future__ import annotations

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.services.random_playout import play

CASES = [
    (name, players) for name, info in registry.GAMES.items() for players in (tuple(info.sides_by_players) or (None,))
]
PLAYOUTS = 4
MAX_TURNS = 80


@pytest.mark.parametrize(("game", "players"), CASES, ids=lambda case: str(case))
def test_random_playouts(game: str, players: int | None) -> None:
    for index in range(PLAYOUTS):
        seed = f"playout-{game}-{players}-{index}"
        playout = play(game, players, seed, max_turns=MAX_TURNS)
        assert play(game, players, seed, max_turns=MAX_TURNS).text == playout.text, "replays must be identical"
        (result,) = read_source(playout.text.encode())
        verdict = adjudicate(result).verdict
        outcome = playout.state.outcome()
        assert verdict.status == ("finished" if outcome else "ongoing"), (verdict, playout.text)
        if outcome:
            assert (set(verdict.winners), verdict.reason) == (set(outcome.winners), outcome.reason)
        else:
            assert verdict.to_move == playout.state.to_move()
        assert adjudicate(result).state.position() == playout.state.position()


@pytest.mark.slow
@pytest.mark.parametrize(("game", "players"), CASES, ids=lambda case: str(case))
def test_long_random_playouts(game: str, players: int | None) -> None:
    """Soak: many whole games (run apart with `pytest -m slow`)."""
    for index in range(40):
        playout = play(game, players, f"soak-{game}-{players}-{index}", max_turns=600)
        (result,) = read_source(playout.text.encode())
        assert adjudicate(result).verdict.status in ("finished", "ongoing")
