"""The site's HTML pages, as text: the index (standings and the current round), a page per
round, per game and per player. Every text from outside goes through `escape` (`esc` for
markup, `bdi` for names and messages); links are relative file names in one folder, so
the site works from `file://`. No page holds a script: the replay pages are apart."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.judge.core.verdict_words import plural
from referee.league.league_toml import LeagueConfig
from referee.league.points import game_points, number_text, points_text
from referee.league.results import GameResult, placing
from referee.league.site.chart import Point, rating_chart
from referee.league.site.escape import bdi, esc
from referee.league.standings import SPOKEN_HEADS, Table, row_figures
from referee.notation.timing import TimingError, parse_instant, spoken_duration, spoken_instant
from referee.speech import DEFAULT, ENGLISH, N_, Speaker, speaker
from referee.spoken_lines import STATUS, verdict_words

INDEX = "index.html"
CSS = """
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0 auto; padding: 10px; max-width: 960px;
  color: #222; background: #fafafa; line-height: 1.35; overflow-wrap: anywhere; }
h1 { font-size: 20px; margin: 4px 0 8px 0; } h2 { font-size: 16px; margin: 18px 0 6px 0; }
nav.crumbs { font-size: 13px; margin-bottom: 6px; } nav.crumbs a { margin-right: 4px; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: 13px; background: #fff; }
th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; overflow-wrap: normal; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.board svg, svg.chart { display: block; max-width: 100%; height: auto; }
.board { max-width: 520px; }
.status-illegal, .status-malformed, .status-error { color: #b00000; }
p.meta { font-size: 13px; color: #555; margin: 4px 0; }
ul.rounds { padding-left: 18px; } footer { font-size: 12px; color: #666; margin-top: 20px; }
a.replay { display: inline-block; font-weight: bold; margin: 8px 0; }
"""


def round_file(number: int) -> str:
    return f"round-{number}.html"


def game_file(game: str) -> str:
    return f"{game}.html"


def replay_file(game: str) -> str:
    return f"{game}-replay.html"


@dataclass(frozen=True)
class SiteGame:
    """A game as the site shows it: what the league reads, the clock of its verdict (TIME.md
    §5, None when untimed), and the instant the feed dates it by."""

    result: GameResult
    clock: Mapping[str, Any] | None
    updated: int

    def __repr__(self) -> str:
        return f"SiteGame({self.result.game}: {self.result.status})"


@dataclass(frozen=True)
class Site:
    """Everything the pages show, read once."""

    config: LeagueConfig
    games: tuple[SiteGame, ...]
    table: Table
    rounds: int
    current: int
    history: Mapping[str, Sequence[Point]] = field(default_factory=dict)
    final: bool = False
    """Whether the season is closed: its standings final (LEAGUE.md §6), else provisional."""
    ranges: Mapping[str, str] = field(default_factory=dict)
    """Each player's placing range as text (`1-3`, `~1-3`: league/ranges.py), by address;
    a column of the standings while the season is not closed (LEAGUE.md §7)."""

    def __repr__(self) -> str:
        return f"Site({self.config.name!r}: {len(self.games)} games, round {self.current} of {self.rounds})"

    @functools.cached_property
    def _players(self) -> dict[str, tuple[int, str]]:
        return {player.address: (player.number, player.name) for player in self.config.players}

    @functools.cached_property
    def games_of(self) -> dict[str, list[SiteGame]]:
        """Each player's games (by address), in round and table order."""
        found: dict[str, list[SiteGame]] = {}
        for item in self.games:
            for address in item.result.addresses:
                found.setdefault(address, []).append(item)
        return found

    def player_page(self, address: str) -> str | None:
        known = self._players.get(address)
        return None if known is None else f"player-{known[0]}.html"

    def name_of(self, address: str, name: str) -> str:
        """A player's name as the site shows it: league.toml's for a player of the league,
        else the record's; never an e-mail address (a public page)."""
        known = self._players.get(address)
        if known is not None:
            return known[1]
        if not name or name == address or "@" in name:
            return address.split("@", 1)[0] + "@…"
        return name


def layout(site: Site, title: str, crumbs: Sequence[tuple[str, str]], body: str) -> str:
    """A whole page: `title` and `crumbs` ((link, label) pairs) are outside text, escaped here."""
    trail = "".join(f'<a href="{esc(href)}">{bdi(label)}</a> › ' for href, label in crumbs)
    say = speaker(site.config.lang)
    feed, made = esc(say("Atom feed of results")), esc(say("made by referee league site"))
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{esc(site.config.lang.replace("_", "-"))}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">\n"
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        f'<nav class="crumbs">{trail}</nav>\n<main>\n{body}\n</main>\n'
        f'<footer><a href="{INDEX}">{bdi(site.config.name)}</a> · '
        f'<a href="feed.xml">{feed}</a> · '
        f"{made}</footer>\n</body>\n</html>\n"
    )


def _scroll(table: str) -> str:
    return f'<div class="scroll">{table}</div>'


def _player(site: Site, address: str, name: str) -> str:
    page = site.player_page(address)
    name = site.name_of(address, name)
    return bdi(name) if page is None else f'<a class="player" href="{page}">{bdi(name)}</a>'


def _say(site: Site) -> Speaker:
    """The speaker of the league's `lang`: the site's language (docs/languages.md)."""
    return speaker(site.config.lang)


def _sides(say: Speaker, sides: Sequence[str], joint: str = "+") -> str:
    return joint.join(say.word(side) for side in sides)


def seats_text(site: Site, game: GameResult) -> str:
    say = _say(site)
    return ", ".join(f"{esc(_sides(say, seat.sides))} {_player(site, seat.address, seat.name)}" for seat in game.seats)


def status_text(game: GameResult, say: Speaker = ENGLISH) -> str:
    """A game's status cell: the words in the site's language, a result's sides too (its
    reason a code, as `--json` writes it)."""
    if game.finished:
        marker = "\x00"
        return esc(say("finished: {result}", result=marker)).replace(marker, bdi(verdict_words(game.message, say)))
    if game.legal:
        return esc(say("ongoing"))
    status = say(STATUS[str(game.status)]) if str(game.status) in STATUS else str(game.status)
    return f'<span class="status-{esc(game.status)}">{esc(status)}: {bdi(game.message)}</span>'


def turn_text(site: Site, game: GameResult) -> str:
    if not game.legal or game.finished or game.to_move is None:
        return "—"
    seat = game.player_of(game.to_move)
    who = _player(site, seat.address, seat.name) if seat is not None else "?"
    return f"{esc(_say(site).word(game.to_move))} ({who})"


def _instant(value: object, say: Speaker = ENGLISH) -> str:
    """An instant of the clock's JSON as people read it (2026-12-05 12:00 UTC; in Spanish
    5 dic 2026, 12:00:00 UTC), escaped."""
    if not isinstance(value, str):
        return "—"
    try:
        seconds = parse_instant(value)
    except TimingError:
        return esc(value)
    return esc(say.instant(seconds, spoken_instant(seconds)))


def deadline_text(item: SiteGame, say: Speaker = ENGLISH) -> str:
    clock = item.clock
    if not clock or item.result.finished:
        return "—"
    text = _instant(clock.get("deadline"), say)
    if clock.get("flagged"):
        text += " (" + esc(say("{side}: time ran out", side=say.word(str(clock["flagged"])))) + ")"
    return text


def _games_table(site: Site, games: Sequence[SiteGame]) -> str:
    say = speaker(site.config.lang)
    heads = (say("game"), say("players by seat"), say("status"), say("to move"), say("deadline"))
    rows = ["<tr>" + "".join(f"<th>{esc(head)}</th>" for head in heads) + "</tr>"]
    for item in games:
        game = item.result
        rows.append(
            f'<tr class="game" data-game="{esc(game.game)}"><td><a href="{game_file(game.game)}">{esc(game.game)}</a>'
            f"</td><td>{seats_text(site, game)}</td><td>{status_text(game, say)}</td><td>{turn_text(site, game)}</td>"
            f"<td>{deadline_text(item, say)}</td></tr>"
        )
    return _scroll('<table class="games">' + "".join(rows) + "</table>")


def _byes(site: Site, number: int) -> list[tuple[str, str]]:
    """The round's byes as the standings count them (a player withdrawn before the round
    was paired has none: docs/league.md, "The roster")."""
    names = {player.address: player.name for player in site.config.players}
    return [(address, names[address]) for address in site.table.byes.get(number, ())]


STANDING_HEADS = ("#", "player", "games", "W", "D", "L", "points", "byes", "mu", "sigma", "rating", "T/O")


def standings_table(site: Site) -> str:
    ranged = bool(site.ranges) and not site.final
    heads = [*STANDING_HEADS, site.table.tiebreak, *(["range"] if ranged else [])]
    say = speaker(site.config.lang)
    shown = [say(SPOKEN_HEADS[h]) if h in SPOKEN_HEADS else h for h in heads]
    rows = [
        "<tr>"
        + "".join(f"<th{'' if h == 'player' else ' class=n'}>{esc(t)}</th>" for h, t in zip(heads, shown, strict=True))
        + "</tr>"
    ]
    for row in site.table.rows:
        cells = [str(row.rank), *row_figures(row), *([esc(site.ranges.get(row.address, ""))] if ranged else [])]
        numbers = "".join(f'<td class="n">{cell}</td>' for cell in cells[1:])
        rows.append(
            f'<tr class="standing"><td class="n">{cells[0]}</td>'
            f"<td>{_player(site, row.address, row.name)}</td>{numbers}</tr>"
        )
    return _scroll('<table class="standings">' + "".join(rows) + "</table>")


def _standing(site: Site, say: Speaker) -> str:
    """What the standings are (LEAGUE.md §6): final once the season is closed, provisional
    until then; and where anyone can check them."""
    said = (
        say("Final standings: the season is closed.")
        if site.final
        else say("Provisional standings: the season is not closed.")
    )
    anyone = say("Anyone can check them:")
    return (
        f"{esc(said)} {esc(anyone)} "
        '<a href="league-archive.zip">league-archive.zip</a> '
        "(<code>referee league verify league-archive.zip</code>)."
    )


def index_page(site: Site) -> str:
    config = site.config
    say = speaker(config.lang)
    meta = say(
        "{game}, {count} players a game, {pairing}; round {round} of {rounds}; {finished} finished, {ongoing} ongoing",
        game=config.game,
        count=config.players_per_game,
        pairing=config.pairing.value,
        round=site.current,
        rounds=site.rounds,
        finished=say.plural("{count} game", "{count} games", site.table.finished),
        ongoing=site.table.ongoing,
    )
    current = [item for item in site.games if item.result.round == site.current]
    body = [
        f"<h1>{bdi(config.name)}</h1>",
        '<p class="meta">' + esc(meta) + "</p>",
        "<h2>" + esc(say("Standings")) + "</h2>",
        f'<p class="standing">{_standing(site, say)}</p>',
        standings_table(site),
    ]
    if config.is_knockout:
        body.append('<p><a href="bracket.html">' + esc(say("The bracket")) + "</a></p>")
    if site.current:
        heading = esc(say("Round {round}", round=site.current))
        page = esc(say("(page)"))
        body += [f'<h2>{heading} <a href="{round_file(site.current)}">{page}</a></h2>']
        body.append(_games_table(site, current))
        body.append(_byes_text(site, site.current))
        links = "".join(
            f'<li><a href="{round_file(number)}">{esc(said)}</a></li>'
            for number, said in ((number, say("Round {round}", round=number)) for number in range(1, site.current + 1))
        )
        body += ["<h2>" + esc(say("Rounds")) + "</h2>", f'<ul class="rounds">{links}</ul>']
    else:
        body.append("<p>" + esc(say("No round is paired yet.")) + "</p>")
    return layout(site, config.name, [], "\n".join(body))


def _byes_text(site: Site, number: int) -> str:
    byes = _byes(site, number)
    if not byes:
        return ""
    label = esc(_say(site)("Bye:"))
    return f'<p class="byes">{label} ' + ", ".join(_player(site, a, n) for a, n in byes) + "</p>"


def round_page(site: Site, number: int) -> str:
    say = _say(site)
    games = [item for item in site.games if item.result.round == number]
    nav = []
    if number > 1:
        before = esc(say("round {round}", round=number - 1))
        nav.append(f'<a href="{round_file(number - 1)}">← {before}</a>')
    if number < site.current:
        after = esc(say("round {round}", round=number + 1))
        nav.append(f'<a href="{round_file(number + 1)}">{after} →</a>')
    heading = esc(say("round {round} of {rounds}", round=number, rounds=site.rounds))
    body = [
        f"<h1>{bdi(site.config.name)}: {heading}</h1>",
        _games_table(site, games),
        _byes_text(site, number),
        f'<p class="meta">{" · ".join(nav)}</p>' if nav else "",
    ]
    title = site.config.name + ": " + say("round {round}", round=number)
    return layout(site, title, [(INDEX, site.config.name)], "\n".join(body))


def _clock_table(clock: Mapping[str, Any], say: Speaker = ENGLISH) -> str:
    heads = {key: esc(say(key)) for key in (N_("control"), N_("deadline"), N_("flagged"), N_("as of"))}
    rows = [f"<tr><th>{heads['control']}</th><td>{esc(clock.get('control', ''))}</td></tr>"]
    remaining = clock.get("remaining") or {}
    if isinstance(remaining, Mapping):
        for side, seconds in remaining.items():
            shown = spoken_duration(seconds) if isinstance(seconds, int) else str(seconds)  # the clock's notation
            running = " " + say("(running)") if clock.get("running") == side else ""
            rows.append(f"<tr><th>{esc(say.word(side))}</th><td>{esc(shown)}{esc(running)}</td></tr>")
    rows.append(f"<tr><th>{heads['deadline']}</th><td>{_instant(clock.get('deadline'), say)}</td></tr>")
    if clock.get("flagged"):
        rows.append(f"<tr><th>{heads['flagged']}</th><td>{esc(say.word(str(clock['flagged'])))}</td></tr>")
    rows.append(f"<tr><th>{heads['as of']}</th><td>{_instant(clock.get('as_of'), say)}</td></tr>")
    return _scroll('<table class="clock">' + "".join(rows) + "</table>")


def game_page(site: Site, item: SiteGame, board: str, has_replay: bool) -> str:
    """A game's page; `board` is the final board as an inline `<svg>` element (trusted:
    drawn by referee.pictures, which escapes what it shows)."""
    say = _say(site)
    game = item.result
    heads = "".join(f"<th>{esc(say(head))}</th>" for head in (N_("seat"), N_("sides"), N_("player")))
    seats = [f"<tr>{heads}</tr>"]
    for number, seat in enumerate(game.seats, start=1):
        seats.append(
            f'<tr class="seat"><td class="n">{number}</td><td>{esc(_sides(say, seat.sides, " + "))}</td>'
            f"<td>{_player(site, seat.address, seat.name)}</td></tr>"
        )
    where = esc(say("round {round}, table {table}", round=game.round, table=game.table))
    status, to_move = esc(say("Status:")), esc(say("To move:"))
    body = [
        f"<h1>{bdi(site.config.name)}: {esc(game.game)}</h1>",
        f'<p class="meta">{where}</p>',
        _scroll('<table class="seats">' + "".join(seats) + "</table>"),
        f'<p class="status">{status} {status_text(game, say)}</p>',
        f'<p class="turn">{to_move} {turn_text(site, game)}</p>',
    ]
    if item.clock:
        body += ["<h2>" + esc(say("Clock")) + "</h2>", _clock_table(item.clock, say)]
    if has_replay:
        replay = esc(say("Replay: step through every move"))
        body.append(f'<a class="replay" href="{replay_file(game.game)}">{replay} ▶</a>')
    if board:
        body.append(f'<div class="board">{board}</div>')
    crumbs = [(INDEX, site.config.name), (round_file(game.round), say("round {round}", round=game.round))]
    return layout(site, f"{site.config.name}: {game.game}", crumbs, "\n".join(body))


OUTCOMES = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss"), "ongoing": N_("ongoing")}
"""A player's result in a game, as the player's page says it."""


def outcome_for(game: GameResult, address: str) -> tuple[str, Fraction | None]:
    if not game.finished:
        return ("ongoing" if game.legal else str(game.status)), None
    points = game_points(game)
    got = points.get(address, Fraction(0))
    shared = sum(1 for place in game.places if place == 1) > 1
    if got:
        return ("draw" if shared else "win"), got
    return placing(game, address) or "loss", got  # "3rd of 4" where there were more than two


def player_page(site: Site, address: str, name: str) -> str:
    say = _say(site)
    row = next((row for row in site.table.rows if row.address == address), None)
    points = list(site.history.get(address, ()))
    after = {point.game: point.rating for point in points}
    body = [f"<h1>{bdi(name)}</h1>"]
    if row is not None:
        if say.lang == DEFAULT:
            meta = (
                f"rank {row.rank}; {points_text(row.points)} from {plural(row.games, 'game')} "
                f"({row.wins} won, {row.draws} drawn, {row.losses} lost, {plural(row.byes, 'bye')}); "
                f"rating {row.rating:.2f} (mu {row.mu:.2f}, sigma {row.sigma:.2f})"
            )
        else:
            number = number_text(row.points)
            meta = say(
                "rank {rank}; {points} from {games} ({wins} won, {draws} drawn, {losses} lost, {byes}); "
                "rating {rating} (mu {mu}, sigma {sigma})",
                rank=row.rank,
                points=say.plural("{count} point", "{count} points", 1 if row.points == 1 else 2, count=number),
                games=say.plural("{count} game", "{count} games", row.games),
                wins=row.wins,
                draws=row.draws,
                losses=row.losses,
                byes=say.plural("{count} bye", "{count} byes", row.byes),
                rating=f"{row.rating:.2f}",
                mu=f"{row.mu:.2f}",
                sigma=f"{row.sigma:.2f}",
            )
        body.append(f'<p class="meta">{esc(meta)}</p>')
    body.append("<h2>" + esc(say("Rating after each game")) + "</h2>")
    body.append(rating_chart(points) if points else "<p>" + esc(say("No finished game yet.")) + "</p>")
    heads = (N_("round"), N_("game"), N_("players by seat"), N_("result"), N_("points"), N_("rating"))
    rows = ["<tr>" + "".join(f"<th>{esc(say(head))}</th>" for head in heads) + "</tr>"]
    for item in site.games_of.get(address, []):
        game = item.result
        result, got = outcome_for(game, address)
        shown = say(OUTCOMES[result]) if result in OUTCOMES else _placing_text(result, say)
        rating = f"{after[game.game]:.2f}" if game.game in after else "—"
        rows.append(
            f'<tr class="game"><td class="n">{game.round}</td><td><a href="{game_file(game.game)}">'
            f"{esc(game.game)}</a></td><td>{seats_text(site, game)}</td><td>{esc(shown)}</td>"
            f'<td class="n">{number_text(got) if got is not None else "—"}</td><td class="n">{rating}</td></tr>'
        )
    body += ["<h2>" + esc(say("Games")) + "</h2>", _scroll('<table class="games">' + "".join(rows) + "</table>")]
    return layout(site, f"{site.config.name}: {name}", [(INDEX, site.config.name)], "\n".join(body))


_PLACING = re.compile(r"(?P<shared>shared )?(?P<place>\d+)(?:st|nd|rd|th) of (?P<teams>\d+)")


def _placing_text(text: str, say: Speaker) -> str:
    """`3rd of 4` (results.placing) in the speaker's language; a status as it is."""
    found = _PLACING.fullmatch(text)
    if found is None or say.lang == DEFAULT:
        return say(STATUS[text]) if text in STATUS else text
    if found["shared"]:
        return say("shared place {place} of {teams}", place=found["place"], teams=found["teams"])
    return say("place {place} of {teams}", place=found["place"], teams=found["teams"])


def feed_title(site: Site, game: GameResult) -> str:
    names = " vs ".join(site.name_of(seat.address, seat.name) for seat in game.seats)
    return f"{game.game}: {names}: {game.message}"
