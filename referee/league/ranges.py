"""Placing ranges (LEAGUE.md §7, docs/league.md "Placing ranges"): each player's best and
worst final rank still possible by points, over every outcome of the games not yet
finished or not yet paired.

Ranks here are by points alone: `best` is 1 + the players with more points (ties in the
player's favour), `worst` 1 + the others with as many or more (ties against). An outcome of
a game is any set of its teams sharing first place (one team: a win; all: a draw), each
member of a team of the k sharing getting 1/k, as `standings.game_points` counts.

Exact while the outcomes to try (the product over the pending games of their outcome
counts) are at most `LIMIT` and every pairing is known; else safe bounds (`exact` false):
`best` never worse than the true best, `worst` never better than the true worst.

The exact search, for one player p: for `best`, p's team wins each of p's games (no other
outcome is better for p: every other player gains no more against p), and the other games
are searched for the fewest players above p; for `worst`, p's team loses each of its games
(two teams: the other one wins; more: every non-empty set of the others may share), and the
search seeks the most players level with or above p. The search is a depth-first walk over
the games with memory: each player's points are cut at the threshold that counts (above
it, nothing changes), a player who can no longer reach it is set to 0 and one whose games
are over is counted and forgotten, so equal positions are solved once.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.games import seats as seating
from referee.league.folder import schedule_round, total_rounds
from referee.league.league_toml import LeagueConfig, Pairing
from referee.league.results import GameResult, Seat, withdrawn_in
from referee.league.standings import Table

LIMIT = 10**6
"""The most outcomes the exact search tries (LEAGUE.md §7); past it, safe bounds."""

Teams = tuple[tuple[int, ...], ...]
"""A pending game: its teams, each the indices of its players."""


@dataclass(frozen=True)
class Range:
    """A player's best and worst final rank still possible by points; `exact` false: safe bounds."""

    best: int
    worst: int
    exact: bool

    def __repr__(self) -> str:
        return f"Range({self.best}-{self.worst}{'' if self.exact else ', bounds'})"

    def values(self) -> dict[str, object]:
        """The row's keys in `standings --json`."""
        return {"best": self.best, "worst": self.worst, "exact": self.exact}

    def text(self) -> str:
        """`1`, `2-5`, `~2-5` as the table writes it: `~` before safe bounds that are not exact."""
        span = str(self.best) if self.best == self.worst else f"{self.best}-{self.worst}"
        return span if self.exact else f"~{span}"


@dataclass(frozen=True)
class Season:
    """What is left of a season, in whole units of points (`unit` units = 1 point): each
    player's points so far with the byes still to come (`points`), the games pending
    (finished in no outcome yet: ongoing, illegal or paired in the future), and `free`:
    the rounds of unknown pairing each player still plays (Swiss), each worth 0 to 1 point."""

    points: tuple[int, ...]
    games: tuple[Teams, ...]
    free: tuple[int, ...]
    unit: int

    def __repr__(self) -> str:
        return f"Season({len(self.points)} players, {len(self.games)} games pending, unit {self.unit})"

    @property
    def outcomes(self) -> int:
        """The outcomes to try: the product of each pending game's outcome count."""
        return math.prod((1 << len(teams)) - 1 for teams in self.games)


def outcomes_of(teams: Teams, unit: int) -> list[tuple[tuple[int, int], ...]]:
    """Every outcome of a game as (player, units gained) pairs: each non-empty set of its
    teams sharing first place, each member of the k teams sharing getting unit / k."""
    found = []
    for size in range(1, len(teams) + 1):
        for firsts in itertools.combinations(teams, size):
            found.append(tuple((player, unit // size) for team in firsts for player in team))
    return found


def season_ranges(season: Season, limit: int = LIMIT) -> tuple[Range, ...]:
    """Every player's range (exact while the outcomes are at most `limit` and no pairing is unknown)."""
    exact = not any(season.free) and _at_most(season.games, limit)
    if exact:
        search = _Exact(season)
        return tuple(Range(*search(player), True) for player in range(len(season.points)))
    bounds = _Bounds(season)
    return tuple(Range(*bounds(player), False) for player in range(len(season.points)))


def _at_most(games: Sequence[Teams], limit: int) -> bool:
    """Whether the games' outcomes are at most `limit` (no games: one outcome, nothing to try)."""
    product = 1
    for teams in games:
        product *= (1 << len(teams)) - 1
        if product > limit:
            return False
    return True


def _split(season: Season, player: int) -> tuple[list[Teams], list[tuple[Teams, int]]]:
    """The pending games without `player`, and those with (with the index of its team)."""
    others: list[Teams] = []
    own: list[tuple[Teams, int]] = []
    for teams in season.games:
        mine = next((index for index, team in enumerate(teams) if player in team), None)
        if mine is None:
            others.append(teams)
        else:
            own.append((teams, mine))
    return others, own


class _Bounds:
    """Safe bounds for every player, in time linear in the games: for `best`, p wins every
    game and round left and the others gain only what p's games give them (a Nika partner's
    share); for `worst`, p gains nothing and every other player gains all their games and
    rounds could give (a partner of p nothing in p's games, which p's team loses)."""

    def __init__(self, season: Season) -> None:
        unit = season.unit
        self.season = season
        self.games_of: dict[int, list[Teams]] = {}
        high = [points + free * unit for points, free in zip(season.points, season.free, strict=True)]
        for teams in season.games:
            for team in teams:
                for member in team:
                    high[member] += unit
                    self.games_of.setdefault(member, []).append(teams)
        self.high = high
        self.by_points = sorted(season.points)
        self.by_high = sorted(high)

    def __call__(self, player: int) -> tuple[int, int]:
        season, unit = self.season, self.season.unit
        count = len(season.points)
        own = self.games_of.get(player, [])
        partners: dict[int, int] = {}
        for teams in own:
            for member in next(team for team in teams if player in team):
                if member != player:
                    partners[member] = partners.get(member, 0) + 1
        top = season.points[player] + (len(own) + season.free[player]) * unit
        above = count - bisect.bisect_right(self.by_points, top)
        for member, times in partners.items():  # a partner's share of p's wins
            if season.points[member] <= top < season.points[member] + times * unit:
                above += 1
        floor = season.points[player]
        level = count - bisect.bisect_left(self.by_high, floor) - 1  # less p (whose high is at least floor)
        for member, times in partners.items():  # a partner gains nothing in p's games
            if self.high[member] >= floor > self.high[member] - times * unit:
                level -= 1
        return 1 + above, 1 + level


class _Exact:
    """The exact search for every player: the players in no pending game (their points
    final) are counted from their sorted points, the others searched."""

    def __init__(self, season: Season) -> None:
        self.season = season
        self.playing = sorted({member for teams in season.games for team in teams for member in team})
        playing = set(self.playing)
        self.idle = sorted(points for index, points in enumerate(season.points) if index not in playing)
        self.playing_set = playing

    def _idle_from(self, player: int, threshold: int) -> int:
        """The players in no pending game but `player` with at least `threshold` points."""
        found = len(self.idle) - bisect.bisect_left(self.idle, threshold)
        if player not in self.playing_set and self.season.points[player] >= threshold:
            found -= 1
        return found

    def __call__(self, player: int) -> tuple[int, int]:
        season, unit = self.season, self.season.unit
        others, own = _split(season, player)
        rivals = [other for other in self.playing if other != player]
        # best: p's team wins each of p's games
        points = {other: season.points[other] for other in rivals}
        top = season.points[player]
        for teams, mine in own:
            top += unit
            for member in teams[mine]:
                if member != player:
                    points[member] += unit
        games = [outcomes_of(teams, unit) for teams in others]
        fewest = _search(points, games, top + 1, minimise=True) + self._idle_from(player, top + 1)
        # worst: p's team loses each of p's games; two teams: the other wins, more: any set of the others
        points = {other: season.points[other] for other in rivals}
        floor = season.points[player]
        games = [outcomes_of(teams, unit) for teams in others]
        for teams, mine in own:
            rest = tuple(team for index, team in enumerate(teams) if index != mine)
            if len(rest) == 1:
                for member in rest[0]:
                    points[member] += unit
            else:
                games.append(outcomes_of(rest, unit))
        most = _search(points, games, floor, minimise=False) + self._idle_from(player, floor)
        return 1 + fewest, 1 + most


Outcome = tuple[tuple[int, int], ...]


def _search(points: Mapping[int, int], games: Sequence[Sequence[Outcome]], threshold: int, *, minimise: bool) -> int:
    """The fewest (`minimise`) or the most rivals (the keys of `points`, with their points)
    whose points reach `threshold`, over every outcome of `games` (each a list of outcomes:
    (player, gain) pairs)."""
    rivals = points.keys()
    order = _ordered(games)
    playing = [sorted({player for outcome in game for player, _ in outcome}) for game in order]
    last: dict[int, int] = {}
    for index, players in enumerate(playing):
        for member in players:
            last[member] = index
    rival_set = {rival for rival in rivals if rival in last}  # the rivals who still play
    settled = sum(1 for rival in rivals if rival not in last and points[rival] >= threshold)
    # alive[i]: the rivals who play in game i or later; reach[i][rival]: the most they can still gain
    alive: list[tuple[int, ...]] = []
    reach: list[dict[int, int]] = []
    for index in range(len(order)):
        alive.append(tuple(sorted(r for r in rival_set if last[r] >= index)))
    gain_left: dict[int, int] = dict.fromkeys(rival_set, 0)
    for index in range(len(order) - 1, -1, -1):
        best_gain: dict[int, int] = {}
        for outcome in order[index]:
            for member, gain in outcome:
                best_gain[member] = max(best_gain.get(member, 0), gain)
        for member, gain in best_gain.items():
            if member in gain_left:
                gain_left[member] += gain
        reach.append(dict(gain_left))
    reach.reverse()
    memo: dict[tuple[int, tuple[int, ...]], int] = {}

    def norm(index: int, values: dict[int, int]) -> tuple[int, ...]:
        state = []
        for rival in alive[index]:
            value = min(values[rival], threshold)
            if value + reach[index][rival] < threshold:
                value = 0  # can no longer reach it: all such positions are one
            state.append(value)
        return tuple(state)

    def walk(index: int, state: tuple[int, ...]) -> int:
        if index == len(order):
            return 0
        key = (index, state)
        found = memo.get(key)
        if found is not None:
            return found
        values = dict(zip(alive[index], state, strict=True))
        sure = sum(1 for value in state if value >= threshold)
        could = sum(1 for rival, value in values.items() if value + reach[index][rival] >= threshold)
        goal = sure if minimise else could  # no outcome does better: stop there
        result: int | None = None
        following = alive[index + 1] if index + 1 < len(order) else ()
        for outcome in order[index]:
            moved = dict(values)
            for member, gain in outcome:
                if member in moved:
                    moved[member] += gain
            leaving = sum(1 for rival in alive[index] if rival not in following and moved[rival] >= threshold)
            total = leaving + walk(index + 1, norm(index + 1, moved) if index + 1 < len(order) else ())
            if result is None or (total < result if minimise else total > result):
                result = total
            if result == goal:
                break
        assert result is not None
        memo[key] = result
        return result

    if not order:
        return settled
    start = {rival: points[rival] for rival in alive[0]}
    return settled + walk(0, norm(0, start))


def _ordered(games: Sequence[Sequence[Outcome]]) -> list[Sequence[Outcome]]:
    """The games in an order that lets players' games end early (fewer players in the
    memory's positions): greedily, the game whose players have the fewest games left."""
    left = list(games)
    count: dict[int, int] = {}
    for game in left:
        for member in {player for outcome in game for player, _ in outcome}:
            count[member] = count.get(member, 0) + 1
    order: list[Sequence[Outcome]] = []
    while left:
        pick = min(
            range(len(left)),
            key=lambda i: sum(count[m] for m in {player for outcome in left[i] for player, _ in outcome}),
        )
        game = left.pop(pick)
        for member in {player for outcome in game for player, _ in outcome}:
            count[member] -= 1
        order.append(game)
    return order


# -- the league's season --------------------------------------------------------------------------


def ranged(config: LeagueConfig) -> bool:
    """Whether the league's pairing has ranges (not a knockout: docs/league.md)."""
    return config.pairing in (Pairing.ROUND_ROBIN, Pairing.DOUBLE_ROUND_ROBIN, Pairing.SWISS)


def season_of(
    config: LeagueConfig,
    games: Sequence[GameResult],
    points: Mapping[str, Fraction],
    withdrawn: Collection[str] = (),
) -> tuple[tuple[str, ...], Season]:
    """The players (in `points`' order) and what is left of their season: the games not
    finished of the rounds paired, the rounds still to pair as the schedule gives them
    (round robins and groups) or as rounds of unknown pairing (Swiss); `withdrawn`: the
    addresses of the players who withdrew (no more games, no more byes)."""
    players = tuple(points)
    index = {address: number for number, address in enumerate(players)}
    unit = math.lcm(12, *(value.denominator for value in points.values()))
    totals = [int(points[address] * unit) for address in players]
    pending: list[Teams] = []
    for game in games:
        if not game.finished:
            teams = _teams(config, game.seats, index)
            if len(teams) > 1:
                pending.append(teams)
    current = max((game.round for game in games), default=0)
    last = total_rounds(config)
    free = [0] * len(players)
    active = [address for address in (player.address for player in config.players) if address not in withdrawn]
    if config.pairing is Pairing.SWISS:
        for address in active:
            free[index[address]] = max(0, last - current)
    else:
        numbers = {player.number: player.address for player in config.players}
        gone = frozenset(player.number for player in config.players if player.address in withdrawn)
        bye = 0 if config.players_per_game == 2 else unit
        for number in range(current + 1, last + 1):
            planned = schedule_round(config, number, games, gone)
            held = seating.seat_sides(config.info, config.players_per_game, number)
            for table in planned.tables:
                seats = [(numbers[seat], sides) for seat, sides in zip(table.seats, held, strict=True)]
                pending.append(_teams_of(config, seats, index))
            for seat in planned.byes:
                totals[index[numbers[seat]]] += bye
    return players, Season(tuple(totals), tuple(pending), tuple(free), unit)


def _teams(config: LeagueConfig, game_seats: Sequence[Seat], index: Mapping[str, int]) -> Teams:
    return _teams_of(config, [(seat.address, seat.sides) for seat in game_seats], index)


def _teams_of(config: LeagueConfig, seats: Sequence[tuple[str, Sequence[str]]], index: Mapping[str, int]) -> Teams:
    """A table's teams: the players holding each alliance's sides (Nika), else each player alone."""
    teams: list[tuple[int, ...]] = []
    for alliance in seating.alliances(config.info):
        held = (address for address, sides in seats if set(sides) & set(alliance) and address in index)
        members = tuple(dict.fromkeys(index[address] for address in held))
        if members:
            teams.append(members)
    return tuple(teams)


def league_ranges(
    config: LeagueConfig,
    games: Sequence[GameResult],
    points: Mapping[str, Fraction],
    withdrawn: Collection[str] = (),
    limit: int = LIMIT,
) -> dict[str, Range] | None:
    """Each player's range (by address), None for a league without ranges (a knockout)."""
    if not ranged(config):
        return None
    players, season = season_of(config, games, points, withdrawn)
    return dict(zip(players, season_ranges(season, limit), strict=True))


def table_ranges(
    config: LeagueConfig, games: Sequence[GameResult], table: Table, log: Sequence[dict[str, Any]], limit: int = LIMIT
) -> dict[str, Range] | None:
    """The ranges of the standings `table` (made from `games`, as named in `log`)."""
    points = {row.address: row.points for row in table.rows}
    return league_ranges(config, games, points, withdrawn_in(log), limit)
