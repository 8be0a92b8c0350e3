"""Notices beyond e-mail (docs/league.md, "Notices"): the league's events told to Apprise
targets (Discord, Matrix, Slack, ntfy, a JSON webhook ...) listed in `league.toml`:
`notify` (the league's, every notice), a player's `notify` (their notices), `[notify_games]`
(a game's notices).

`tick`'s last step. Events are read from the games and `league.log`: a round paired, your
turn (the side to move and its token), a deadline near (each `reminder`), a result, a
digest, the season's end. Each (event, target) is sent once: a success is logged as
`{"event": "notice", "key", "target"}` (the target as a hash: a URL may hold a secret), a
failure as `notice-failed` and tried again by the next tick. Nothing here runs while a move
is played: a move never waits on a target.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.judge.core.verdicts import Status
from referee.league.league_toml import LeagueConfig
from referee.league.results import GameResult, named
from referee.speech import N_, Speaker, speaker

MAX_NOTICES = 200
"""Notices sent by one tick at most (the rest wait for the next)."""


@dataclass(frozen=True)
class Notice:
    """One event for some targets: `key` identifies it (deduplication), `title` and `body` say it."""

    key: str
    title: str
    body: str
    targets: tuple[str, ...]


def target_id(url: str) -> str:
    """A target as league.log names it: the first 16 hex digits of the URL's SHA-256."""
    return hashlib.sha256(url.encode("utf-8")).hexdigest()[:16]


CLINCHES = {
    # Translators: what a player has clinched (a notice: "Ann has clinched first place.")
    "first": N_("first place"),
    "promotion": N_("promotion"),
    "relegation": N_("relegation"),
}
"""The words of a `clinch` line's `what` (LEAGUE.md §7)."""


def _targets(config: LeagueConfig, game: str | None, addresses: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """The targets of an event, each with the language it is told in: the league's and the
    game's targets in the league's `lang`, a player's own in that player's (docs/languages.md)."""
    found = [(url, config.lang) for url in config.notify]
    found += [(url, config.lang) for name, urls in config.notify_games if name == game for url in urls]
    for address in addresses:
        player = config.player(address)
        if player is not None:
            found += [(url, config.lang_of(address)) for url in player.notify]
    first: dict[str, str] = {}
    for url, lang in found:
        first.setdefault(url, lang)
    return tuple(first.items())


def _player_targets(config: LeagueConfig, address: str) -> tuple[tuple[str, str], ...]:
    player = config.player(address)
    return tuple((url, config.lang_of(address)) for url in player.notify) if player is not None else ()


def _told(key: str, targets: Sequence[tuple[str, str]], says: Callable[[Speaker], tuple[str, str]]) -> list[Notice]:
    """One notice per language of its targets: `says(say)` gives its title and body."""
    notices = []
    for lang in dict.fromkeys(lang for _, lang in targets):
        title, body = says(speaker(lang))
        notices.append(Notice(key, title, body, tuple(url for url, each in targets if each == lang)))
    return notices


def events(
    config: LeagueConfig, games: Sequence[tuple[GameResult, str | None]], log: Sequence[dict[str, Any]]
) -> list[Notice]:
    """Every notice the league's state and log call for, sent or not (`games`: each game's
    league reading and current token)."""
    league = config.name
    notices: list[Notice] = []
    names = {player.address: player.name for player in config.players}
    for entry in log:
        event = entry.get("event")
        if event == "pairing":
            for item in entry.get("games", []):
                if isinstance(item, dict) and isinstance(item.get("game"), str):
                    seats = [address for address in item.get("seats", []) if isinstance(address, str)]
                    who = ", ".join(names.get(address, address) for address in seats)
                    game_name = item["game"]

                    def paired(
                        say: Speaker, game: str = game_name, who: str = who, number: object = entry.get("round")
                    ) -> tuple[str, str]:
                        return (
                            say("{league}: [{game}] paired", league=league, game=game),
                            say("Round {round}: [{game}] {who}.", round=number, game=game, who=who),
                        )

                    notices += _told(f"pairing {game_name}", _targets(config, game_name, seats), paired)
        elif event == "reminder" and isinstance(entry.get("game"), str) and isinstance(entry.get("to"), str):
            key = f"reminder {entry['game']} {entry.get('side')} {entry.get('deadline')} {entry.get('threshold')}"

            def near(say: Speaker, entry: dict[str, Any] = entry) -> tuple[str, str]:
                who = f"{names.get(entry['to'], entry['to'])} ({say.word(str(entry.get('side')))})"
                body = say(
                    "[{game}] {who}: the deadline {deadline} is near.",
                    game=entry["game"],
                    who=who,
                    deadline=entry.get("deadline"),
                )
                return say("{league}: deadline near", league=league), body

            notices += _told(key, _targets(config, entry["game"], [entry["to"]]), near)
        elif event == "digest" and isinstance(entry.get("to"), str):
            key = f"digest {entry['to']} {entry.get('day')}"

            def news(say: Speaker, entry: dict[str, Any] = entry) -> tuple[str, str]:
                games = ", ".join(map(str, entry.get("games", [])))
                body = say("{who}: news in {games}.", who=names.get(entry["to"], entry["to"]), games=games)
                return say("{league}: daily digest {day}", league=league, day=entry.get("day")), body

            notices += _told(key, _player_targets(config, entry["to"]), news)
        elif event == "clinch" and isinstance(entry.get("player"), str):
            key = f"clinch {entry['player']} {entry.get('what')}"

            def clinched(say: Speaker, entry: dict[str, Any] = entry) -> tuple[str, str]:
                who = names.get(entry["player"], entry["player"])
                what = str(entry.get("what"))
                what = say(CLINCHES[what]) if what in CLINCHES else what
                title = say("{league}: {who} clinched {what}", league=league, who=who, what=what)
                return title, say("{who} has clinched {what}.", who=who, what=what)

            notices += _told(key, _targets(config, None, [entry["player"]]), clinched)
        elif event == "season-over":
            champions = ", ".join(names.get(address, address) for address in entry.get("champions", []))

            def over(say: Speaker, champions: str = champions) -> tuple[str, str]:
                return (
                    say("{league}: the season is over", league=league),
                    say("Champion: {names}.", names=champions),
                )

            notices += _told("season-over", [(url, config.lang) for url in config.notify], over)
        elif event == "close":
            champions = ", ".join(str(name) for name in entry.get("champions", []))

            def closed(
                say: Speaker, champions: str = champions, standings: object = entry.get("standings")
            ) -> tuple[str, str]:
                body = say(
                    "The standings are final. Champion: {names}. Standings {standings}.",
                    names=champions,
                    standings=standings,
                )
                return say("{league}: the season is closed", league=league), body

            notices += _told("close", [(url, config.lang) for url in config.notify], closed)
    for game, token in games:
        if game.finished:

            def result(say: Speaker, game: GameResult = game) -> tuple[str, str]:
                return say("{league}: [{game}] over", league=league, game=game.game), named(game, say=say)

            notices += _told(f"result {game.game}", _targets(config, game.game, game.addresses), result)
        elif game.status == Status.ONGOING and token is not None:
            seat = game.player_of(game.to_move)
            if seat is None:
                continue

            def turn(
                say: Speaker, game: GameResult = game, name: str = seat.name, token: str = token
            ) -> tuple[str, str]:
                body = say(
                    "[{game}] {name} ({side}) to move; token {token}.",
                    game=game.game,
                    name=name,
                    side=say.word(str(game.to_move)),
                    token=token,
                )
                return say("{league}: your move in [{game}]", league=league, game=game.game), body

            notices += _told(f"turn {game.game} {token}", _targets(config, game.game, [seat.address]), turn)
    return notices


Sender = Callable[[str, str, str], str | None]
"""Sends one notice (url, title, body); the reason when it failed, None when sent."""


def apprise_sender() -> Sender | None:
    """The sender through Apprise, or None when the optional `notify` extra is missing."""
    try:
        import apprise
    except ImportError:
        return None

    def send(url: str, title: str, body: str) -> str | None:
        target = apprise.Apprise()
        if not target.add(url):
            return "not a notification URL Apprise knows"
        try:
            sent = target.notify(title=title, body=body)
        except Exception as error:  # a target's plugin failing in a way Apprise did not catch
            return f"{type(error).__name__}: {error}"
        return None if sent else "the target did not take it"

    return send


def due(notices: Sequence[Notice], log: Sequence[dict[str, Any]]) -> list[tuple[Notice, str]]:
    """(notice, target URL) pairs not yet sent, in order."""
    sent = {(entry.get("key"), entry.get("target")) for entry in log if entry.get("event") == "notice"}
    pairs = [(notice, url) for notice in notices for url in notice.targets if (notice.key, target_id(url)) not in sent]
    return pairs[:MAX_NOTICES]
