"""Knockout leagues (`pairing = "knockout"`, LEAGUE.md §7): the bracket, its matches and
tables, who goes on, and the bracket that `standings` shows (its table: standings.py).

The seeds are the players' numbers: `league.toml` lists them in seed order (`seeding =
"order"`: as the game master wrote them; `"rating"`: as `league init --from CLOSED` or
`league next --stage knockout` wrote them, by the closed league's ratings or final rank).
Everything here is a function of `league.toml` and the games alone, so `league verify`
recomputes it:

- two-player games: the standard bracket (`first_round`), byes to the top seeds up to the
  next power of two; a match is `match_games` games made at once, seats alternating (the
  higher seed sits first in its odd games), more points than the other goes on; a match
  still tied goes on one game at a time up to `match_games_max`, then the higher seed
  goes on; the winners of matches 1 and 2 meet next, 3 and 4, and so on;
- three- or four-player games: the players still in split into tables of `players` in
  snake order of seeds (`snake_tables`; the `n mod players` top seeds have a bye), the top
  `advance` of each table by placings (§4: a Pikemen table's placings already rank by
  score), ties by seed, go on; a round of one table is the final.

A pairing (`league pair`, one `rR` of the game IDs) is one step of the bracket: the first
games of a bracket round, or the next game of every tied match of that bracket round
(docs/league.md, "Knockout").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from referee.league import pairing
from referee.league.league_toml import LeagueConfig
from referee.league.points import game_points, number_text
from referee.league.refusal import Refused
from referee.league.results import GameResult
from referee.speech import N_

SEED = "seed"
"""The tie-break column of a knockout's table: the players' seeds (the table is in bracket order)."""


def next_power(count: int) -> int:
    """The smallest power of two at least `count` (and at least 2)."""
    size = 2
    while size < count:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """The seeds of a standard bracket of `size` (a power of two) from top to bottom: each
    pair of neighbours is a first-round match, and seeds 1 and 2 meet only in the final
    (size 8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for high in order for seed in (high, total - high)]
    return order


def first_round(count: int) -> list[tuple[int, ...]]:
    """The first round's matches of `count` seeds: (high, low) pairs, or (high,) for a bye."""
    order = bracket_order(next_power(count))
    return [(high, low) if low <= count else (high,) for high, low in zip(order[::2], order[1::2], strict=True)]


def snake_tables(seeds: Sequence[int], per_game: int) -> tuple[list[tuple[int, ...]], list[int]]:
    """The tables of `per_game` of `seeds` (best first) in snake order, and the byes: the
    top `len(seeds) % per_game` seeds. With k tables, table 1 takes seeds 1, 2k, 2k+1, 4k, ..."""
    count = len(seeds) % per_game
    byes, rest = list(seeds[:count]), list(seeds[count:])
    tables = len(rest) // per_game
    seated: list[list[int]] = [[] for _ in range(tables)]
    for index, seed in enumerate(rest):
        row, column = divmod(index, tables)
        seated[column if row % 2 == 0 else tables - 1 - column].append(seed)
    return [tuple(table) for table in seated], byes


class KnockoutStuck(Refused):
    """No next pairing: the champion is known, or a bracket round cannot be seated (fewer
    players left than a table holds). A template and its parameters, as a league's refusal."""


@dataclass(frozen=True)
class Match:
    """One match of a bracket round: its seeds (best first; one seed: a bye), its games in
    order, the points of each seed, and who goes on (empty until decided)."""

    stage: int
    number: int
    seeds: tuple[int, ...]
    games: tuple[GameResult, ...] = ()
    points: tuple[Fraction, ...] = ()
    winners: tuple[int, ...] = ()
    walkover: bool = False

    @property
    def decided(self) -> bool:
        return bool(self.winners)

    @property
    def bye(self) -> bool:
        return len(self.seeds) == 1

    def __repr__(self) -> str:
        won = f" -> {','.join(map(str, self.winners))}" if self.winners else ""
        return f"Match({self.stage}.{self.number}: {'-'.join(map(str, self.seeds))}, {len(self.games)} games{won})"


@dataclass(frozen=True)
class Bracket:
    """The knockout as its games have played it: every bracket round walked so far, the
    next pairing step, whether games of the last step are unfinished, and the champion."""

    stages: tuple[tuple[Match, ...], ...]
    next_step: int
    waiting: bool
    champion: int | None = None
    stuck: str | None = None
    reached: Mapping[int, int] = field(default_factory=dict)
    """Each seed -> the bracket round it reached (a bye's round counts as reached)."""
    first_steps: Mapping[int, int] = field(default_factory=dict)
    """Each bracket round -> the pairing step that began it (its byes are that step's)."""

    def __repr__(self) -> str:
        return f"Bracket({len(self.stages)} rounds, next step {self.next_step}, champion {self.champion})"


def stage_name(matches: Sequence[Match]) -> str:
    """`final` for a round of one match or table, else by how many are left."""
    played = [match for match in matches if not match.bye]
    if len(matches) == 1:
        return "final"
    return {2: "semi-final", 4: "quarter-final"}.get(len(played) if len(played) == len(matches) else 0, "")


class _Walk:
    """Walks the bracket from the first round through the games, step by step."""

    def __init__(self, config: LeagueConfig, games: Sequence[GameResult], withdrawn: frozenset[int]) -> None:
        self.config = config
        self.two = config.players_per_game == 2
        self.numbers = {player.address: player.number for player in config.players}
        self.withdrawn = withdrawn
        self.firsts: dict[int, int] = {}
        self.by_step: dict[int, list[GameResult]] = {}
        for game in sorted(games, key=lambda g: (g.round, g.table)):
            if game.legal:
                self.by_step.setdefault(game.round, []).append(game)

    def seeds_of(self, game: GameResult) -> frozenset[int]:
        return frozenset(self.numbers[seat.address] for seat in game.seats if seat.address in self.numbers)

    def first(self) -> list[tuple[int, ...]]:
        count = len(self.config.players)
        if self.two:
            return first_round(count)
        return self.tables([seed for seed in range(1, count + 1) if seed not in self.withdrawn])

    def tables(self, alive: Sequence[int]) -> list[tuple[int, ...]]:
        per_game = self.config.players_per_game
        if len(alive) < per_game:
            raise KnockoutStuck(
                N_("{count} players are left, fewer than the {per_game} of a table: the bracket cannot go on"),
                count=len(alive),
                per_game=per_game,
            )
        tables, byes = snake_tables(alive, per_game)
        return [(seed,) for seed in byes] + tables

    def decide(self, match: Match) -> Match:
        """The match with its points and winners, as far as its games decide it."""
        if match.bye:
            return dataclasses.replace(match, winners=match.seeds)
        finished = all(game.finished for game in match.games)
        points = _points(match, self.numbers)
        match = dataclasses.replace(match, points=points)
        gone = [seed for seed in match.seeds if seed in self.withdrawn]
        if not self.two:
            if match.games and finished:
                return dataclasses.replace(match, winners=self.placed(match))
            if gone and not match.games:
                kept = tuple(seed for seed in match.seeds if seed not in gone)
                return dataclasses.replace(match, winners=kept[: self.advance(match)], walkover=True)
            return match
        if not finished:
            return match
        high, low = match.seeds
        played = len(match.games)
        if played >= self.config.match_games and points[0] != points[1]:
            return dataclasses.replace(match, winners=(high,) if points[0] > points[1] else (low,))
        if played >= self.config.most_match_games:
            return dataclasses.replace(match, winners=(high,))
        if gone:
            return dataclasses.replace(
                match, winners=(low if high in gone and low not in gone else high,), walkover=True
            )
        return match

    def advance(self, match: Match) -> int:
        return 1 if self.final else self.config.advance

    final = False

    def placed(self, match: Match) -> tuple[int, ...]:
        """The top `advance` of a table's finished game by placings, ties by seed (withdrawn last)."""
        game = match.games[-1]
        places: dict[int, int] = {}
        for team, place in zip(game.teams, game.places, strict=True):
            for address in team:
                if address in self.numbers:
                    places[self.numbers[address]] = place
        worst = len(match.seeds) + 1
        order = sorted(match.seeds, key=lambda seed: (seed in self.withdrawn, places.get(seed, worst), seed))
        return tuple(order[: self.advance(match)])

    def walk(self) -> Bracket:
        stages: list[tuple[Match, ...]] = []
        reached: dict[int, int] = {}
        step = 1
        try:
            seeded = self.first()
        except KnockoutStuck as stuck:
            return Bracket((), step, False, None, str(stuck), reached)
        stage = 1
        while True:
            self.final = len(seeded) == 1
            self.firsts[stage] = step
            matches = [self.decide(Match(stage, index, seeds)) for index, seeds in enumerate(seeded, start=1)]
            for match in matches:
                for seed in match.seeds:
                    reached[seed] = stage
            while not all(match.decided for match in matches):
                games = self.by_step.get(step)
                if games is None:
                    stages.append(tuple(matches))
                    return Bracket(tuple(stages), step, False, None, None, reached)
                step += 1
                matches = [self.decide(_with_games(match, games, self.seeds_of)) for match in matches]
                if any(not game.finished for match in matches for game in match.games):
                    stages.append(tuple(matches))
                    return Bracket(tuple(stages), step, True, None, None, reached)
            stages.append(tuple(matches))
            winners = [seed for match in matches for seed in match.winners]
            if len(winners) <= 1 and (self.two or self.final or len(matches) == 1):
                champion = winners[0] if winners else None
                return Bracket(tuple(stages), step, False, champion, None, reached)
            stage += 1
            if self.two:
                seeded = [tuple(sorted(winners[index : index + 2])) for index in range(0, len(winners), 2)]
            else:
                alive = sorted(seed for seed in winners if seed not in self.withdrawn)
                if len(alive) == 1:
                    reached[alive[0]] = stage
                    stages.append((Match(stage, 1, (alive[0],), winners=(alive[0],)),))
                    return Bracket(tuple(stages), step, False, alive[0], None, reached)
                try:
                    seeded = self.tables(alive)
                except KnockoutStuck as stuck:
                    return Bracket(tuple(stages), step, False, None, str(stuck), reached)


def _with_games(match: Match, games: Sequence[GameResult], seeds_of: Callable[[GameResult], frozenset[int]]) -> Match:
    if match.decided or match.bye:
        return match
    wanted = frozenset(match.seeds)
    found = tuple(game for game in games if seeds_of(game) == wanted)
    return dataclasses.replace(match, games=match.games + found)


def _points(match: Match, numbers: Mapping[str, int]) -> tuple[Fraction, ...]:
    totals = dict.fromkeys(match.seeds, Fraction(0))
    for game in match.games:
        if not game.finished:
            continue
        for address, got in game_points(game).items():
            seed = numbers.get(address)
            if seed in totals:
                totals[seed] += got
    return tuple(totals[seed] for seed in match.seeds)


def bracket(config: LeagueConfig, games: Sequence[GameResult], withdrawn: frozenset[int] = frozenset()) -> Bracket:
    """The knockout of `config` as `games` have played it (`withdrawn`: the seeds of the
    players who withdrew: a walkover for their opponent in a match not yet decided)."""
    walk = _Walk(config, games, withdrawn)
    found = walk.walk()
    return dataclasses.replace(found, first_steps=dict(walk.firsts))


def schedule(
    config: LeagueConfig, number: int, games: Sequence[GameResult], withdrawn: frozenset[int] = frozenset()
) -> pairing.Round:
    """The pairing step after `games` (numbered `number`): the first games of the next
    bracket round, or the next game of each tied match. Raises LeagueRefused when the
    champion is known or the bracket cannot go on (KnockoutStuck: `pair` refuses)."""
    found = bracket(config, games, withdrawn)
    names = {player.number: player.name for player in config.players}
    if found.champion is not None:
        raise KnockoutStuck(
            N_("{league}: the knockout is over: the champion is {champion}"),
            league=config.name,
            champion=names[found.champion],
        )
    if found.stuck is not None:
        # Translators: a league's name, then why its knockout bracket cannot be paired on.
        raise KnockoutStuck(N_("{league}: {why}"), league=config.name, why=found.stuck)
    matches = found.stages[-1]
    tables: list[pairing.Table] = []
    byes: list[int] = []
    fresh = all(not match.games for match in matches)
    for match in matches:
        if match.bye or (match.walkover and fresh):
            if fresh:
                byes.extend(match.winners or match.seeds)
            continue
        if match.decided:
            continue
        if not config.players_per_game == 2:
            tables.append(pairing.Table(len(tables) + 1, match.seeds))
            continue
        made = len(match.games)
        count = config.match_games if made == 0 else 1
        high, low = match.seeds
        for index in range(made + 1, made + count + 1):
            seats = (high, low) if index % 2 == 1 else (low, high)
            tables.append(pairing.Table(len(tables) + 1, seats))
    return pairing.Round(number, tuple(tables), tuple(sorted(byes)), bye_scores=False)


def bye_steps(config: LeagueConfig, found: Bracket, games: Sequence[GameResult]) -> dict[int, tuple[str, ...]]:
    """Each pairing step that began a bracket round with byes (or walkovers before any game)
    -> those players' addresses in seed order: what the site's rounds show as byes."""
    addresses = {player.number: player.address for player in config.players}
    paired = {game.round for game in games}
    steps: dict[int, set[int]] = {}
    for matches in found.stages:
        step = found.first_steps.get(matches[0].stage)
        if step is None or step not in paired:
            continue
        for match in matches:
            if match.bye or (match.walkover and not match.games):
                steps.setdefault(step, set()).update(match.winners or match.seeds)
    return {step: tuple(addresses[seed] for seed in sorted(seeds)) for step, seeds in sorted(steps.items())}


def last_step(
    config: LeagueConfig, games: Sequence[GameResult], withdrawn: Mapping[str, int] | None, rounds: int
) -> int:
    """The league's last round for `tick`'s season's end: `rounds` (`total_rounds`) for a
    league that is no knockout; for a knockout the step of its final once the champion is
    known, else one past the most it can take (the season is not over)."""
    if not config.is_knockout:
        return rounds
    found = bracket(config, games, _gone(config, withdrawn))
    return found.next_step - 1 if found.champion is not None else most_steps(config) + 1


def stages_for(config: LeagueConfig) -> int:
    """How many bracket rounds the knockout of `config` has (at most)."""
    count = len(config.players)
    if config.players_per_game == 2:
        return max(1, (next_power(count) - 1).bit_length())
    stages = 0
    while count > 1:
        stages += 1
        tables = count // config.players_per_game
        if tables <= 1:
            break
        count = count % config.players_per_game + tables * config.advance
    return max(stages, 1)


def most_steps(config: LeagueConfig) -> int:
    """The most pairing steps the knockout can take: each bracket round's first games,
    and as many single tie-break games as `match_games_max` allows."""
    extra = config.most_match_games - config.match_games if config.players_per_game == 2 else 0
    return stages_for(config) * (1 + extra)


# -- the bracket as `standings` shows it ----------------------------------------------------------


def _gone(config: LeagueConfig, withdrawn: Mapping[str, int] | None) -> frozenset[int]:
    numbers = {player.address: player.number for player in config.players}
    return frozenset(numbers[address] for address in (withdrawn or {}) if address in numbers)


def bracket_json(
    config: LeagueConfig, games: Sequence[GameResult], withdrawn: Mapping[str, int] | None = None
) -> dict[str, object]:
    """`standings --json`'s `bracket`: every bracket round's matches (players by seed, their
    points, games, who went on), the round each player reached, and the champion."""
    found = bracket(config, games, _gone(config, withdrawn))
    names = {player.number: player.name for player in config.players}
    rounds = []
    for matches in found.stages:
        rounds.append(
            {
                "round": matches[0].stage,
                "name": stage_name(matches),
                "matches": [
                    {
                        "players": [names[seed] for seed in match.seeds],
                        "seeds": list(match.seeds),
                        "points": [number_text(points) for points in match.points],
                        "games": [game.game for game in match.games],
                        "finished": sum(1 for game in match.games if game.finished),
                        "goes_on": [names[seed] for seed in match.winners],
                        "bye": match.bye,
                        "walkover": match.walkover,
                    }
                    for match in matches
                ],
            }
        )
    return {
        "rounds": rounds,
        "reached": {names[seed]: stage for seed, stage in sorted(found.reached.items())},
        "champion": names[found.champion] if found.champion is not None else None,
    }


def bracket_lines(
    config: LeagueConfig, games: Sequence[GameResult], withdrawn: Mapping[str, int] | None = None
) -> list[str]:
    """The bracket under the text table: one line per match, then the champion."""
    shown = bracket_json(config, games, withdrawn)
    lines = ["", "Bracket:"]
    for stage in shown["rounds"]:  # type: ignore[attr-defined]
        title = f"round {stage['round']}" + (f" ({stage['name']})" if stage["name"] else "")
        for match in stage["matches"]:
            if match["bye"]:
                lines.append(f"{title}: {match['players'][0]}: bye")
                continue
            players = " - ".join(match["players"])
            points = "-".join(match["points"]) if match["finished"] else ""
            state = f" {points}" if points else ""
            went = ", ".join(match["goes_on"])
            if went:
                state += f" -> {went}" + (" (walkover)" if match["walkover"] else "")
            lines.append(f"{title}: {players}{state}")
    champion = shown["champion"]
    lines.append(f"champion: {champion}" if champion is not None else "champion: not yet")
    return lines
