"""Standings and ratings (LEAGUE.md §4), derived from the games alone.

Points: 1 for a first place that is not shared; the k teams tied for first share 1 point
(each player of a team gets the team's share); a bye is worth 1 point in groups and Swiss
rounds and nothing in a two-player round robin. Ratings: OpenSkill's Plackett-Luce model
with its default parameters, one match per finished game, teams ranked by their places,
games applied in the order they finished. Tie-break: Sonneborn-Berger for two-player round
robins, Buchholz otherwise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from openskill.models import PlackettLuce

from referee.league import knockout
from referee.league.league_toml import LeagueConfig, Pairing
from referee.league.points import game_points, number_text
from referee.league.results import GameResult
from referee.speech import DEFAULT, ENGLISH, N_, Speaker

SONNEBORN_BERGER = "sonneborn-berger"
BUCHHOLZ = "buchholz"


@dataclass(frozen=True)
class Row:
    """One player's line of the table."""

    rank: int
    name: str
    address: str
    games: int
    wins: int
    draws: int
    losses: int
    points: Fraction
    byes: int
    mu: float
    sigma: float
    timeouts: int
    tiebreak: Fraction

    @property
    def rating(self) -> float:
        """OpenSkill's ordinal: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def __repr__(self) -> str:
        return f"Row({self.rank}, {self.name!r}, points={number_text(self.points)}, rating={self.rating:.2f})"


@dataclass(frozen=True)
class Table:
    """The standings: rows in table order, the tie-break used, and the games counted."""

    rows: tuple[Row, ...]
    tiebreak: str
    finished: int
    ongoing: int
    byes: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    """Each round's players with a bye (addresses, `league.toml` order): what the byes
    column counts, and what the site's rounds show (`round_byes`)."""

    def __repr__(self) -> str:
        return f"Table({len(self.rows)} players, {self.finished} finished games, {self.tiebreak})"


@dataclass
class _Line:
    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: Fraction = Fraction(0)
    byes: int = 0
    timeouts: int = 0


def rating_order(
    config: LeagueConfig, games: Sequence[GameResult], log_order: Mapping[str, int] | None = None
) -> list[GameResult]:
    """The finished games in the order their ratings are applied: by the instant of their
    last stamp in a timed league, else in league.log order, else by round and table."""
    finished = [game for game in games if game.finished]
    if config.time_control is not None:
        never = float("inf")
        return sorted(
            finished,
            key=lambda g: (g.finished_at if g.finished_at is not None else never, g.round, g.table),
        )
    if log_order:
        last = len(log_order)
        return sorted(finished, key=lambda g: (log_order.get(g.game, last), g.round, g.table))
    return sorted(finished, key=lambda g: (g.round, g.table))


def standings(
    config: LeagueConfig,
    games: Sequence[GameResult],
    log_order: Mapping[str, int] | None = None,
    withdrawn: Mapping[str, int] | None = None,
) -> Table:
    """The table of the league from its games (illegal ones left out: the caller names them);
    `withdrawn`: a withdrawn player's address -> the first round paired after it withdrew,
    from which it has no more byes (`results.withdrawal_rounds` of league.log)."""
    if config.pairing is Pairing.KNOCKOUT:  # ranked by the bracket (LEAGUE.md §7)
        return knockout_table(config, games, log_order, withdrawn)
    counted = [game for game in games if game.legal]
    lines: dict[str, _Line] = {player.address: _Line(player.name) for player in config.players}
    for game in counted:
        for seat in game.seats:
            lines.setdefault(seat.address, _Line(seat.name))
    scores: dict[str, list[tuple[tuple[str, ...], Fraction]]] = {address: [] for address in lines}
    for game in counted:
        for address in game.timeouts:  # also a Pikemen player timed out of a game that goes on
            lines[address].timeouts += 1
        if not game.finished:
            continue
        points = game_points(game)
        shared = sum(1 for place in game.places if place == 1) > 1
        for address, got in points.items():
            line = lines[address]
            line.games += 1
            line.points += got
            if got and shared:
                line.draws += 1
            elif got:
                line.wins += 1
            else:
                line.losses += 1
            others = tuple(other for other in game.addresses if other != address)
            scores[address].append((others, got))
    bye_points = Fraction(0 if config.pairing is not Pairing.SWISS and config.players_per_game == 2 else 1)
    byes = round_byes(config, games, withdrawn)
    for round_byes_of in byes.values():
        for address in round_byes_of:
            lines[address].byes += 1
            lines[address].points += bye_points
    ratings = _ratings(rating_order(config, counted, log_order), lines)
    round_robin = config.players_per_game == 2 and config.pairing is not Pairing.SWISS
    tiebreaks: dict[str, Fraction] = {}
    for address, played in scores.items():
        if round_robin:  # Sonneborn-Berger: each opponent's points times one's score against them
            tiebreaks[address] = sum((lines[o].points * got for others, got in played for o in others), Fraction(0))
        else:  # Buchholz: the points of everyone one met, once per meeting
            tiebreaks[address] = sum((lines[o].points for others, _ in played for o in others), Fraction(0))

    def key(address: str) -> tuple[Fraction, Fraction, float, str]:
        mu, sigma = ratings[address]
        return (-lines[address].points, -tiebreaks[address], -(mu - 3 * sigma), lines[address].name.casefold())

    order = sorted(lines, key=key)
    rows: list[Row] = []
    for index, address in enumerate(order):
        rank = index + 1
        if rows and key(order[index - 1])[:3] == key(address)[:3]:
            rank = rows[-1].rank
        line = lines[address]
        mu, sigma = ratings[address]
        rows.append(
            Row(
                rank,
                line.name,
                address,
                line.games,
                line.wins,
                line.draws,
                line.losses,
                line.points,
                line.byes,
                mu,
                sigma,
                line.timeouts,
                tiebreaks[address],
            )
        )
    finished = sum(1 for game in counted if game.finished)
    tiebreak = SONNEBORN_BERGER if round_robin else BUCHHOLZ
    return Table(tuple(rows), tiebreak, finished, len(counted) - finished, byes)


def league_points(
    config: LeagueConfig, games: Sequence[GameResult], withdrawn: Mapping[str, int] | None = None
) -> dict[str, Fraction]:
    """Each player's points as `standings` counts them (finished legal games and byes),
    without the ratings: what the placing ranges of `tick` need (league/ranges.py)."""
    points: dict[str, Fraction] = {player.address: Fraction(0) for player in config.players}
    counted = [game for game in games if game.legal]
    for game in counted:
        for seat in game.seats:
            points.setdefault(seat.address, Fraction(0))
    for game in counted:
        if game.finished:
            for address, got in game_points(game).items():
                points[address] += got
    bye_points = Fraction(0 if config.pairing is not Pairing.SWISS and config.players_per_game == 2 else 1)
    for round_byes_of in round_byes(config, games, withdrawn).values():
        for address in round_byes_of:
            points[address] += bye_points
    return points


def round_byes(
    config: LeagueConfig, games: Sequence[GameResult], withdrawn: Mapping[str, int] | None = None
) -> dict[int, tuple[str, ...]]:
    """Each round that has games -> its players with a bye: seated in no game of the round
    (legal or not), and not withdrawn before it was paired (`withdrawn`: an address -> the
    first round paired after the withdrawal, `results.withdrawal_rounds`)."""
    seated: dict[int, set[str]] = {}
    for game in games:
        seated.setdefault(game.round, set()).update(seat.address for seat in game.seats)
    gone = withdrawn or {}
    return {
        number: tuple(
            player.address
            for player in config.players
            if player.address not in present and number < gone.get(player.address, number + 1)
        )
        for number, present in sorted(seated.items())
    }


def _ratings(ordered: Sequence[GameResult], lines: Mapping[str, _Line]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) of every player after the games, applied in order."""
    ratings = {address: (float(DEFAULT_MU), float(DEFAULT_SIGMA)) for address in lines}
    for _, rated in rating_history(ordered, lines):
        ratings.update(rated)
    return ratings


DEFAULT_MU = PlackettLuce().mu
DEFAULT_SIGMA = PlackettLuce().sigma


def rating_history(
    ordered: Sequence[GameResult], addresses: Iterable[str]
) -> Iterator[tuple[GameResult, dict[str, tuple[float, float]]]]:
    """Each rated game in order (`rating_order`), with the (mu, sigma) of its players just
    after it: the steps that `standings` adds up, and the points of the site's charts."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {address: model.rating() for address in addresses}
    for game in ordered:
        members = [address for team in game.teams for address in team]
        if len(game.teams) < 2 or len(members) != len(set(members)):
            continue  # one player on two teams (a hand-made record): no match to rate
        teams = [[ratings.setdefault(address, model.rating()) for address in team] for team in game.teams]
        rated = model.rate(teams, ranks=[float(place) for place in game.places])
        after: dict[str, tuple[float, float]] = {}
        for team, new in zip(game.teams, rated, strict=True):
            for address, rating in zip(team, new, strict=True):
                ratings[address] = rating
                after[address] = (float(rating.mu), float(rating.sigma))
        yield game, after


# -- rendering ------------------------------------------------------------------------------------


COLUMNS = (
    "rank",
    "player",
    "address",
    "games",
    "wins",
    "draws",
    "losses",
    "points",
    "byes",
    "mu",
    "sigma",
    "rating",
    "timeouts",
    "tiebreak",
)


def row_values(row: Row) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.name,
        "address": row.address,
        "games": row.games,
        "wins": row.wins,
        "draws": row.draws,
        "losses": row.losses,
        "points": round(float(row.points), 4),
        "byes": row.byes,
        "mu": round(row.mu, 4),
        "sigma": round(row.sigma, 4),
        "rating": round(row.rating, 4),
        "timeouts": row.timeouts,
        "tiebreak": round(float(row.tiebreak), 4),
    }


def as_json(
    config: LeagueConfig, table: Table, *, final: bool = False, ranges: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """`standings --json`: `final` false (provisional) until the season's close (LEAGUE.md §6);
    `ranges`: each player's placing range (`best`, `worst`, `exact`: league/ranges.py) by address."""
    more = ranges or {}
    return {
        "final": final,
        "league": config.name,
        "game": config.game,
        "tiebreak": table.tiebreak,
        "finished": table.finished,
        "ongoing": table.ongoing,
        "rows": [{**row_values(row), **more.get(row.address, {})} for row in table.rows],
    }


def row_figures(row: Row) -> tuple[str, ...]:
    """A row's figures after its rank and name, as the table writes them: games, wins,
    draws, losses, points, byes, mu, sigma, rating, time-outs, tie-break."""
    return (
        str(row.games),
        str(row.wins),
        str(row.draws),
        str(row.losses),
        number_text(row.points),
        str(row.byes),
        f"{row.mu:.2f}",
        f"{row.sigma:.2f}",
        f"{row.rating:.2f}",
        str(row.timeouts),
        number_text(row.tiebreak),
    )


SPOKEN_HEADS = {
    "player": N_("player"),
    "games": N_("games"),
    # Translators: the standings' columns: won, drawn, lost games
    "W": N_("W"),
    "D": N_("D"),
    "L": N_("L"),
    "points": N_("points"),
    "byes": N_("byes"),
    "rating": N_("rating"),
    # Translators: the standings' column of the best and worst final places still possible
    "range": N_("range"),
}
"""The standings' column heads a reader's language says (mu, sigma, T/O and the tie-break's
name are the same codes as `--json`'s)."""


def as_text(
    config: LeagueConfig,
    table: Table,
    *,
    final: bool = False,
    ranges: Mapping[str, str] | None = None,
    say: Speaker = ENGLISH,
) -> list[str]:
    """The table as text: for the game master in English, in a player's mail in the
    player's language (`say`); `ranges`: each player's placing range as text (`1-3`, `~1-3`)
    by address, written as a last column `range` (docs/league.md, "Placing ranges")."""
    header: tuple[str, ...] = ("#", "player", "games", "W", "D", "L", "points", "byes", "mu", "sigma", "rating")
    header += ("T/O", table.tiebreak, *(("range",) if ranges else ()))
    if say.lang != DEFAULT:
        header = tuple(say(SPOKEN_HEADS[head]) if head in SPOKEN_HEADS else head for head in header)
    body = [(str(row.rank), row.name, *row_figures(row), *_range_cell(row, ranges)) for row in table.rows]
    widths = [max(len(line[index]) for line in [header, *body]) for index in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(width) if index == 1 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    if say.lang != DEFAULT:
        figures: dict[str, object] = {
            "league": config.name,
            "game": config.game,
            "finished": say.plural("{count} game", "{count} games", table.finished),
            "ongoing": table.ongoing,
        }
        title = (
            say("{league}: {game}, {finished} finished, {ongoing} ongoing; final", **figures)
            if final
            else say("{league}: {game}, {finished} finished, {ongoing} ongoing; provisional", **figures)
        )
        return [title, line(header), *(line(cells) for cells in body)]
    finished = f"{table.finished} game{'' if table.finished == 1 else 's'} finished"
    title = f"{config.name}: {config.game}, {finished}, {table.ongoing} ongoing; {'final' if final else 'provisional'}"
    return [title, line(header), *(line(cells) for cells in body)]


def _range_cell(row: Row, ranges: Mapping[str, str] | None) -> tuple[str, ...]:
    return (ranges.get(row.address, ""),) if ranges else ()


def as_csv(table: Table, *, final: bool = False) -> str:
    """The table as CSV (RFC 4180, CRLF line ends, UTF-8 with a byte-order mark so that
    spreadsheets read accents); a cell that a spreadsheet would take for a formula is
    quoted with a leading apostrophe."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow((*COLUMNS, "standing"))
    standing = "final" if final else "provisional"  # LEAGUE.md §6: provisional until the close
    for row in table.rows:
        values = row_values(row)
        writer.writerow([*(_cell(values[column]) for column in COLUMNS), standing])
    return "\ufeff" + out.getvalue()


def _cell(value: object) -> str:
    text = str(value)
    if isinstance(value, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text


def knockout_table(
    config: LeagueConfig,
    games: Sequence[GameResult],
    log_order: Mapping[str, int] | None,
    withdrawn: Mapping[str, int] | None,
) -> Table:
    """The standings of a knockout: every player's games, points and ratings as §4 counts
    them, ranked by the bracket round reached (the champion first; players out in the same
    round share a rank, listed by seed), the tie-break column their seed."""
    numbers = {player.address: player.number for player in config.players}
    gone = frozenset(numbers[address] for address in (withdrawn or {}) if address in numbers)
    found = knockout.bracket(config, games, gone)
    plain = dataclasses.replace(config, pairing=Pairing.SWISS)
    nobody = {player.address: 0 for player in config.players}  # no byes counted: a knockout's bye is worth nothing
    counted = standings(plain, games, log_order, nobody)
    byes: dict[int, int] = {}
    for matches in found.stages:
        for match in matches:
            if match.bye:
                byes[match.seeds[0]] = byes.get(match.seeds[0], 0) + 1

    def place(seed: int) -> tuple[int, int]:
        return (0 if seed == found.champion else 1, -found.reached.get(seed, 0))

    rows = sorted(
        (row for row in counted.rows if row.address in numbers),
        key=lambda row: (place(numbers[row.address]), numbers[row.address]),
    )
    ranked: list[Row] = []
    for index, row in enumerate(rows):
        seed = numbers[row.address]
        rank = ranked[-1].rank if ranked and place(numbers[ranked[-1].address]) == place(seed) else index + 1
        ranked.append(dataclasses.replace(row, rank=rank, byes=byes.get(seed, 0), tiebreak=Fraction(seed)))
    return Table(
        tuple(ranked), knockout.SEED, counted.finished, counted.ongoing, knockout.bye_steps(config, found, games)
    )


def with_reached_csv(text: str, table: Table, reached: Mapping[str, object]) -> str:
    """`standings --csv` with a last column `reached`: the bracket round each player reached."""
    lines = text.split("\r\n")
    out = [lines[0] + ",reached"]
    for row, line in zip(table.rows, lines[1:], strict=False):
        out.append(f"{line},{reached.get(row.name, '')}")
    return "\r\n".join([*out, *lines[1 + len(table.rows) :]])
