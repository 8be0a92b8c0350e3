"""Placing ranges (LEAGUE.md §7, referee/league/ranges.py) against an independent brute
force: every outcome of every pending game enumerated plainly (no code shared with
ranges.py: its own outcomes, its own points in fractions, its own ranks), on random partial
seasons of the real schedules (round robins of 4-8 players, groups of 3 and 4 at a table),
up to 10 games left; ranges that only narrow from game to game; the safe bounds of the
bounded path (forced with `limit`) never claiming more than the brute force finds."""

from __future__ import annotations

import bisect
import random
import time
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from referee.league import pairing
from referee.league.ranges import Range, Season, season_ranges
from tests.helpers.sweep import cases

Game = tuple[tuple[int, ...], ...]
"""A game as the brute force sees it: its teams, each a tuple of player numbers."""


def _brute_outcomes(teams: Game) -> list[dict[int, Fraction]]:
    """Each outcome: the non-empty sets of teams sharing first, 1/k point to each member."""
    found: list[dict[int, Fraction]] = []
    for mask in range(1, 1 << len(teams)):
        firsts = [team for bit, team in enumerate(teams) if mask >> bit & 1]
        found.append({player: Fraction(1, len(firsts)) for team in firsts for player in team})
    return found


def _brute(points: Sequence[Fraction], games: Sequence[Game]) -> list[tuple[int, int]]:
    """(best, worst) of each player by plain enumeration of all outcomes, walked depth first
    in whole twelfths of a point; at each end, the ranks read off the sorted final points."""
    count = len(points)
    best = [count + 1] * count
    worst = [0] * count
    twelfths = [[{p: int(got * 12) for p, got in outcome.items()} for outcome in _brute_outcomes(g)] for g in games]

    def walk(index: int, final: list[int]) -> None:
        if index == len(games):
            ordered = sorted(final)
            for player, mine in enumerate(final):
                above = count - bisect.bisect_right(ordered, mine)
                level = count - bisect.bisect_left(ordered, mine) - 1  # less the player
                best[player] = min(best[player], 1 + above)
                worst[player] = max(worst[player], 1 + level)
            return
        for outcome in twelfths[index]:
            for player, got in outcome.items():
                final[player] += got
            walk(index + 1, final)
            for player, got in outcome.items():
                final[player] -= got

    walk(0, [int(p * 12) for p in points])
    return list(zip(best, worst, strict=True))


def _schedule(count: int, per_game: int, rng: random.Random) -> list[tuple[list[Game], list[int], Fraction]]:
    """A whole season's rounds from the real pairing rules: (games, byes, what a bye is worth)."""
    if per_game == 2:
        double = rng.random() < 0.3
        rounds = pairing.cycle_rounds(count) * (2 if double else 1)
        made = [pairing.round_robin(count, number, double=double) for number in range(1, rounds + 1)]
        worth = Fraction(0)
    else:
        made = list(pairing.groups(count, per_game, rng.randint(2, 4), f"test {rng.random()}"))
        worth = Fraction(1)
    season = []
    for played in made:
        games = [tuple((seat - 1,) for seat in table.seats) for table in played.tables]
        if per_game == 3 and rng.random() < 0.3:  # a Nika table of three: seat 1 against seats 2 and 3
            games = [((game[0][0],), (game[1][0], game[2][0])) for game in games if len(game) == 3]
        season.append((games, [bye - 1 for bye in played.byes], worth))
    return season


def _partial(rng: random.Random, count: int, per_game: int, left: int) -> tuple[list[Fraction], list[Game]]:
    """A season with its last `left` games (or fewer) pending, the others played at random."""
    season = _schedule(count, per_game, rng)
    flat = [(number, game) for number, (games, _, _) in enumerate(season) for game in games]
    cut = max(0, len(flat) - left)
    points = [Fraction(0)] * count
    for _, byes, worth in season:
        for bye in byes:
            points[bye] += worth  # byes are known from the schedule, played or to come
    for _, game in flat[:cut]:
        for player, got in rng.choice(_brute_outcomes(game)).items():
            points[player] += got
    return points, [game for _, game in flat[cut:]]


def _season(points: Sequence[Fraction], games: Sequence[Game]) -> Season:
    unit = 12
    return Season(tuple(int(p * unit) for p in points), tuple(games), (0,) * len(points), unit)


def _cases(seed: int, number: int) -> Iterator[tuple[list[Fraction], list[Game]]]:
    rng = random.Random(seed)
    for _ in range(number):
        per_game = rng.choice((2, 2, 3, 4))
        count = rng.randint(4, 8) if per_game == 2 else rng.randint(max(4, per_game), 8)
        limit = 10 if per_game == 2 else (5 if per_game == 3 else 4)  # 3^10, 7^5, 15^4 outcomes at most
        yield _partial(rng, count, per_game, rng.randint(0, limit))


COMPARED: dict[str, int] = {"leagues": 0, "players": 0}

SEASONS = cases(40, 16)
"""Random partial seasons a seed: the first 16 of each seed's 40 in the default run (128
against the brute force, 64 for the safe bounds; about 2 CPU s a seed for the 40),
REFEREE_WHOLE_SWEEPS=1 all 40."""


@pytest.mark.parametrize("seed", range(8))
def test_exact_ranges_are_the_brute_forces_on_random_partial_seasons(seed: int) -> None:
    for points, games in _cases(seed, SEASONS):
        got = season_ranges(_season(points, games))
        assert all(found.exact for found in got)
        assert [(found.best, found.worst) for found in got] == _brute(points, games), (points, games)
        COMPARED["leagues"] += 1
        COMPARED["players"] += len(points)
    print(f"compared so far: {COMPARED['leagues']} leagues, {COMPARED['players']} players")


@pytest.mark.parametrize("seed", range(4))
def test_safe_bounds_never_claim_more_than_the_brute_force(seed: int) -> None:
    for points, games in _cases(100 + seed, SEASONS):
        bounds = season_ranges(_season(points, games), limit=0)
        truth = _brute(points, games)
        for found, (best, worst) in zip(bounds, truth, strict=True):
            assert found.exact is (not games)  # no game left: nothing to try, exact
            assert found.best <= best and found.worst >= worst, (found, best, worst, points, games)


@pytest.mark.parametrize("seed", range(4))
def test_a_range_only_narrows_as_the_games_finish(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(10):
        per_game = rng.choice((2, 3, 4))
        count = rng.randint(4, 8)
        points, games = _partial(rng, count, per_game, 8 if per_game == 2 else 5)
        before = season_ranges(_season(points, games))
        while games:
            game = games.pop(0)
            for player, got in rng.choice(_brute_outcomes(game)).items():
                points[player] += got
            now = season_ranges(_season(points, games))
            for old, new in zip(before, now, strict=True):
                assert old.best <= new.best <= new.worst <= old.worst
            before = now
        assert all(found.best == 1 + sum(p > mine for p in points) for found, mine in zip(before, points, strict=True))


def test_the_limit_chooses_the_path() -> None:
    points, games = [Fraction(0)] * 4, [((0,), (1,)), ((2,), (3,))]  # 9 outcomes
    assert season_ranges(_season(points, games), limit=9) == (Range(1, 4, True),) * 4
    bounded = season_ranges(_season(points, games), limit=8)
    assert all(not found.exact and found.best == 1 and found.worst == 4 for found in bounded)


def test_unknown_pairings_give_bounds_that_hold_for_every_pairing() -> None:
    """A Swiss round not yet paired (`free`): every pairing of 4 players, every outcome."""
    points = [Fraction(2), Fraction(1), Fraction(1), Fraction(0)]
    truth: list[tuple[int, int]] = [(5, 0)] * 4
    for a in (1, 2, 3):
        rest = [p for p in (1, 2, 3) if p != a]
        games: list[Game] = [((0,), (a,)), ((rest[0],), (rest[1],))]
        truth = [(min(t[0], b[0]), max(t[1], b[1])) for t, b in zip(truth, _brute(points, games), strict=True)]
    season = Season((24, 12, 12, 0), (), (1, 1, 1, 1), 12)
    for found, (best, worst) in zip(season_ranges(season), truth, strict=True):
        assert not found.exact and found.best <= best and found.worst >= worst


def test_the_largest_exact_league_within_a_second() -> None:
    """A measure, reported: a round robin of 16 players with its last 12 games (531,441
    outcomes) left, every player level: the hardest exact case under the limit."""
    count = 16
    rounds = [pairing.round_robin(count, number) for number in range(1, count)]
    games: list[Game] = [tuple((seat - 1,) for seat in table.seats) for r in rounds for table in r.tables]
    left = games[-12:]
    started = time.perf_counter()
    got = season_ranges(_season([Fraction(7)] * count, left))
    spent = time.perf_counter() - started
    print(f"{count} players, {len(left)} games left: {spent:.3f} s")
    assert all(found.exact for found in got)
    assert spent < 5
