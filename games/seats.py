"""What a league needs to know of a game's sides (LEAGUE.md §3-4), kept here so that the
referee's league code names no game: which sides each seat of a table holds, which sides
form a team, and the placings of a finished game.

    seat_sides(info, 3, round_number=2)   # Nika, 3 players: ((Sparta, Thebes), (Athens,), (Messene,))
    alliances(info)                       # Nika: ((Athens, Messene), (Sparta, Thebes))
    placings(info, state, winners, left)  # best first: ((Red,), (Blue, Yellow), (Green,))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from referee.games.values import Event, EventKind, GameInfo, Side

NIKA_ALLIANCES: tuple[tuple[Side, ...], ...] = (("Athens", "Messene"), ("Sparta", "Thebes"))
"""Nika's two alliances (nika.md: Athens and Messene against Sparta and Thebes)."""


def game_sides(info: GameInfo, players: int) -> tuple[Side, ...]:
    """The sides of a game of `players` players, in turn order."""
    return info.sides_for(players)


def alliances(info: GameInfo) -> tuple[tuple[Side, ...], ...]:
    """The game's teams of sides: Nika's two alliances; in every other game each side alone."""
    if info.name == "nika":
        return NIKA_ALLIANCES
    return tuple((side,) for side in info.sides)


def seat_sides(info: GameInfo, players: int, round_number: int) -> tuple[tuple[Side, ...], ...]:
    """The sides each seat of a table holds, seat 1 first (LEAGUE.md §3, Seats).

    Seats are the game's sides in turn order, one each; in Nika with 2 players seat 1
    holds Athens and Messene and seat 2 Sparta and Thebes; with 3 players seat 1 holds one
    alliance's two cities (Athens and Messene in odd rounds, Sparta and Thebes in even
    ones) and seats 2 and 3 the other alliance's cities in turn order."""
    if players not in info.player_counts:
        raise ValueError(f"{info.name} is played by {info.players_text()} players, not {players}")
    if info.name == "nika" and players == 2:
        return NIKA_ALLIANCES
    if info.name == "nika" and players == 3:
        first, other = NIKA_ALLIANCES if round_number % 2 == 1 else NIKA_ALLIANCES[::-1]
        return (first, *((side,) for side in other))
    return tuple((side,) for side in info.sides_for(players))


def leavers(steps: Iterable[tuple[Side, Sequence[Event]]]) -> tuple[Side, ...]:
    """The sides that left a game before its end, in the order they left, from the replay:
    each step is the acting side with the events of one action. A side leaves when an
    `eliminated` event says so: the captured side after a capture, else the acting side
    (a resignation in Pikemen with 3-4 players)."""
    gone: list[Side] = []
    for side, events in steps:
        captured = [event.data.get("side") for event in events if event.kind is EventKind.CAPTURE]
        for event in events:
            if event.kind is not EventKind.ELIMINATED:
                continue
            victim = captured[-1] if captured else side
            if isinstance(victim, str) and victim not in gone:
                gone.append(victim)
    return tuple(gone)


def scores(info: GameInfo, state: Any) -> dict[Side, int] | None:
    """The sides' scores at the end of a game that keeps a score (Pikemen), else None."""
    if info.name != "pikemen":
        return None
    values = getattr(state, "scores", None)
    if not isinstance(values, list):
        return None
    return {side: int(score) for side, score in zip(state.sides, values, strict=False)}


def placings(
    info: GameInfo, sides: Sequence[Side], winners: Sequence[Side], left: Sequence[Side], state: Any = None
) -> tuple[tuple[Side, ...], ...]:
    """The places of a finished game's sides, best first, each place the sides tied on it
    (LEAGUE.md §4, Placings). `winners` is empty for a draw; `left` holds the sides that
    left before the end in the order they left; `state` is the final state, for scores.

    The winners first; then the sides still in the game by score (equal scores tie; a game
    without scores ties them all); then those who left, the later one first. A draw ties
    the sides still in the game, above those who left."""
    gone = [side for side in left if side in sides and side not in winners]
    remaining = [side for side in sides if side not in winners and side not in gone]
    places: list[tuple[Side, ...]] = []
    if winners:
        places.append(tuple(side for side in sides if side in winners))
        points = scores(info, state)
        if points is None:
            if remaining:
                places.append(tuple(remaining))
        else:
            for value in sorted({points.get(side, 0) for side in remaining}, reverse=True):
                places.append(tuple(side for side in remaining if points.get(side, 0) == value))
    elif remaining:
        places.append(tuple(remaining))
    places += [(side,) for side in reversed(gone)]
    return tuple(places)
