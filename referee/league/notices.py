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


def _targets(config: LeagueConfig, game: str | None, addresses: Iterable[str]) -> tuple[str, ...]:
    found = list(config.notify)
    found += [url for name, urls in config.notify_games if name == game for url in urls]
    for address in addresses:
        player = config.player(address)
        if player is not None:
            found += player.notify
    return tuple(dict.fromkeys(found))


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
                    notices.append(
                        Notice(
                            f"pairing {item['game']}",
                            f"{league}: [{item['game']}] paired",
                            f"Round {entry.get('round')}: [{item['game']}] {who}.",
                            _targets(config, item["game"], seats),
                        )
                    )
        elif event == "reminder" and isinstance(entry.get("game"), str) and isinstance(entry.get("to"), str):
            key = f"reminder {entry['game']} {entry.get('side')} {entry.get('deadline')} {entry.get('threshold')}"
            who = f"{names.get(entry['to'], entry['to'])} ({entry.get('side')})"
            body = f"[{entry['game']}] {who}: the deadline {entry.get('deadline')} is near."
            notices.append(
                Notice(key, f"{league}: deadline near", body, _targets(config, entry["game"], [entry["to"]]))
            )
        elif event == "digest" and isinstance(entry.get("to"), str):
            key = f"digest {entry['to']} {entry.get('day')}"
            body = f"{names.get(entry['to'], entry['to'])}: news in {', '.join(map(str, entry.get('games', [])))}."
            notices.append(
                Notice(key, f"{league}: daily digest {entry.get('day')}", body, _player_targets(config, entry["to"]))
            )
        elif event == "clinch" and isinstance(entry.get("player"), str):
            who = names.get(entry["player"], entry["player"])
            what = {"first": "first place", "promotion": "promotion", "relegation": "relegation"}.get(
                str(entry.get("what")), str(entry.get("what"))
            )
            key = f"clinch {entry['player']} {entry.get('what')}"
            targets = tuple(dict.fromkeys((*config.notify, *_player_targets(config, entry["player"]))))
            notices.append(Notice(key, f"{league}: {who} clinched {what}", f"{who} has clinched {what}.", targets))
        elif event == "season-over":
            champions = ", ".join(names.get(address, address) for address in entry.get("champions", []))
            notices.append(
                Notice("season-over", f"{league}: the season is over", f"Champion: {champions}.", config.notify)
            )
        elif event == "close":
            champions = ", ".join(str(name) for name in entry.get("champions", []))
            body = f"The standings are final. Champion: {champions}. Standings {entry.get('standings')}."
            notices.append(Notice("close", f"{league}: the season is closed", body, config.notify))
    for game, token in games:
        if game.finished:
            notices.append(
                Notice(
                    f"result {game.game}",
                    f"{league}: [{game.game}] over",
                    named(game),
                    _targets(config, game.game, game.addresses),
                )
            )
        elif game.status == Status.ONGOING and token is not None:
            seat = game.player_of(game.to_move)
            if seat is None:
                continue
            body = f"[{game.game}] {seat.name} ({game.to_move}) to move; token {token}."
            notices.append(
                Notice(
                    f"turn {game.game} {token}",
                    f"{league}: your move in [{game.game}]",
                    body,
                    _targets(config, game.game, [seat.address]),
                )
            )
    return notices


def _player_targets(config: LeagueConfig, address: str) -> tuple[str, ...]:
    player = config.player(address)
    return player.notify if player is not None else ()


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
