"""A league game's points (LEAGUE.md §4) and how people read them: the lowest floor of
the league's tables, shared by the standings, the knockout's bracket and the site."""

from __future__ import annotations

from fractions import Fraction

from referee.league.results import GameResult


def game_points(game: GameResult) -> dict[str, Fraction]:
    """What each player of a finished game scores: a first place not shared is 1 point, the
    k teams tied first share 1 point (each member gets its team's share), the others 0."""
    firsts = [team for team, place in zip(game.teams, game.places, strict=True) if place == 1]
    scored: dict[str, Fraction] = {address: Fraction(0) for address in game.addresses}
    for team in firsts:
        for address in team:
            scored[address] = Fraction(1, len(firsts))
    return scored


def number_text(value: Fraction) -> str:
    """Points as people read them: `2`, `1.5`, `0.33`."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.2f}"
    return text.rstrip("0").rstrip(".") if value.denominator in (2, 4) else text


def points_text(value: Fraction) -> str:
    """`1 point`, `0 points`, `1.5 points`: the number with its noun, singular only for one."""
    return f"{number_text(value)} {'point' if value == 1 else 'points'}"
