"""Benchmark (a script, not a test): the placing ranges (referee/league/ranges.py) at the
hardest exact case under the limit, 12 two-player games (531,441 outcomes) or 5 Pikemen
tables of four (759,375) still to play, on round robins and groups of ever more players,
every earlier game played at random (seeded), and the time of every player's range.

    python -m referee.bench.ranges_bench [SECONDS]

It prints one line per league and the largest whose ranges were exact within SECONDS
(default 1). Then, past the limit (`limit` raised), how many games left the exact search
still solves within SECONDS on a round robin of 16 players, for the record.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence

from referee.league import pairing
from referee.league.ranges import Season, outcomes_of, season_ranges

UNIT = 12


def _round_robin(count: int, left: int, rng: random.Random, level: bool) -> Season:
    rounds = [pairing.round_robin(count, number) for number in range(1, pairing.cycle_rounds(count) + 1)]
    games = [tuple((seat - 1,) for seat in table.seats) for played in rounds for table in played.tables]
    return _played(count, games, left, rng, level)


def _groups(count: int, left: int, rng: random.Random, level: bool) -> Season:
    rounds = pairing.groups(count, 4, max(2, -(-left * 4 // count) + 1), "bench")
    games = [tuple((seat - 1,) for seat in table.seats) for played in rounds for table in played.tables]
    return _played(count, games, left, rng, level)


def _played(
    count: int, games: Sequence[tuple[tuple[int, ...], ...]], left: int, rng: random.Random, level: bool
) -> Season:
    points = [0] * count
    for teams in games[: len(games) - left]:
        if level:  # every game drawn: everyone as close as can be, the search's hardest
            outcome = outcomes_of(teams, UNIT)[-1]
        else:
            outcome = rng.choice(outcomes_of(teams, UNIT))
        for player, got in outcome:
            points[player] += got
    return Season(tuple(points), tuple(games[len(games) - left :]), (0,) * count, UNIT)


def _timed(season: Season, limit: int = 10**6) -> tuple[float, bool]:
    started = time.perf_counter()
    found = season_ranges(season, limit)
    return time.perf_counter() - started, all(item.exact for item in found)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rng = random.Random(21)
    largest: dict[str, int] = {}
    for kind, make, left, sizes in (
        ("round robin", _round_robin, 12, (8, 16, 32, 64, 128, 256, 512, 1024)),
        ("groups of 4", _groups, 5, (8, 16, 32, 64, 128, 256)),
    ):
        for count in sizes:
            spent = max(_timed(make(count, left, rng, level))[0] for level in (False, True))
            print(f"{kind}, {count} players, {left} games left: {spent:.3f} s (the slower of random and drawn)")
            if spent <= seconds:
                largest[kind] = count
    for kind, count in largest.items():
        print(f"largest {kind} exact within {seconds:g} s: {count} players")
    for left in range(12, 121, 6):  # a round robin of 16 has 120 games
        spent = max(_timed(_round_robin(16, left, rng, level), limit=10**80)[0] for level in (False, True))
        print(f"16 players, {left} games left, limit raised: {spent:.3f} s")
        if spent > seconds:
            break


if __name__ == "__main__":
    main()
