"""Every game's metadata, declared statically so that listing games or reading a record
imports only the engine of the game it touches."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from referee.games.api import GameInfo, GameState, Randomness
from referee.games.engine_base import Engine


def _labels(*sides: tuple[str, ...]) -> dict[str, str]:
    """Label forms (lower case) to long names; each tuple lists a side's forms, long name last."""
    return {form.lower(): forms[-1] for forms in sides for form in forms}


NUMICA = GameInfo(
    name="numica",
    title="Numica (Lloyd Krassner): random tiles decide how pieces move",
    sides=("Red", "Blue"),
    player_counts=(2,),
    variants=("standard", "warpspawn"),
    labels=_labels(("R", "Red"), ("B", "Blue")),
    short_labels={"Red": "R", "Blue": "B"},
    engine=".numica",
    randomness=Randomness.TILES,
    example_action="a1-c3",
)

PIKEMEN = GameInfo(
    name="pikemen",
    title="Pikemen (Jacob Davenport): Icehouse pyramids that charge and capture",
    sides=("Red", "Yellow", "Blue", "Green"),
    player_counts=(2, 3, 4),
    variants=("standard",),
    labels=_labels(("R", "Red"), ("Y", "Yellow"), ("B", "Blue"), ("G", "Green")),
    short_labels={"Red": "R", "Yellow": "Y", "Blue": "B", "Green": "G"},
    engine=".pikemen",
    example_action="e1-e5(NE)",
    first_choice=True,
    sides_by_players={
        2: ("Red", "Blue"),
        3: ("Red", "Yellow", "Blue"),
        4: ("Red", "Yellow", "Blue", "Green"),
    },
)

NIKA = GameInfo(
    name="nika",
    title="Nika (Josh Raab): four cities, phalanxes that push",
    sides=("Athens", "Sparta", "Messene", "Thebes"),
    player_counts=(2, 3, 4),
    variants=("standard",),
    labels=_labels(
        ("W", "White", "Athens"),
        ("R", "Red", "Sparta"),
        ("B", "Blue", "Messene"),
        ("K", "Black", "Thebes"),
    ),
    short_labels={"Athens": "W", "Sparta": "R", "Messene": "B", "Thebes": "K"},
    engine=".nika",
    example_action="d1-W",
)

NIEUCHESS = GameInfo(
    name="nieuchess",
    title="Nieuchess (Avalon Hill, 1961): a hex wargame of zones of control and combat",
    sides=("Red", "Blue"),
    player_counts=(2,),
    variants=("standard",),
    labels=_labels(("R", "Red"), ("B", "Blue")),
    short_labels={"Red": "R", "Blue": "B"},
    engine=".nieuchess",
    randomness=Randomness.DICE,
    example_action="e4-g7",
    step_labels=True,
    first_choice=True,
)

GAMES: dict[str, GameInfo] = {info.name: info for info in (NIKA, NUMICA, PIKEMEN, NIEUCHESS)}


def info(name: str) -> GameInfo | None:
    """A game's metadata by its `Game` tag value (case-insensitive), or None."""
    return GAMES.get(name.strip().lower())


@cache
def engine(name: str) -> Engine[GameState[Any]]:
    """The rule engine of a game, imported on first use."""
    game = GAMES[name.strip().lower()]
    module = importlib.import_module(game.engine, __package__)  # relative: this package's
    found: Engine[GameState[Any]] = module.ENGINE
    return found
