"""Building the site incrementally: every page is rendered from the league's files, and
written (atomically, through the project's writer) only when its text differs from what
the previous build wrote. A game is re-read (adjudicated) only when its file's bytes or
league.toml changed; what the league needs of it is kept in `OUT/.referee-site.json`,
the manifest, with the digest of every page written. So `site` on an unchanged league
writes nothing, and a changed game rewrites its own pages, its round, the players in it,
and the pages that show the standings."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import store
from referee.judge.errors import UsageError
from referee.judge.words import verdict_fields
from referee.league.config import CONFIG_FILE, load
from referee.league.folder import current_round, log_order, read_log, total_rounds
from referee.league.results import GameResult, Seat, aliases, game_files, judge_game, renamed_game, withdrawal_rounds
from referee.league.site import feed, pages
from referee.league.site.chart import Point
from referee.league.standings import rating_history, rating_order, standings
from referee.store import write_atomically

MANIFEST = ".referee-site.json"
VERSION = 2
"""Bumped when the pages or the games' reading change shape: a new version re-reads every
game (2: time-outs in Pikemen with 3-4 players are leavers; a game's deadline and leavers are kept)."""


@dataclass(frozen=True)
class Built:
    """What a build did: the files it wrote and removed (names in OUT), and how many pages
    it left as they were."""

    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: int
    bad: tuple[GameResult, ...] = ()
    """The games that are illegal or malformed (their pages say so; the command names them)."""

    def __repr__(self) -> str:
        return f"Built({len(self.written)} written, {len(self.removed)} removed, {self.unchanged} unchanged)"


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _result_json(game: GameResult) -> dict[str, Any]:
    return {
        "game": game.game,
        "round": game.round,
        "table": game.table,
        "status": str(game.status),
        "seats": [[list(seat.sides), seat.address, seat.name] for seat in game.seats],
        "message": game.message,
        "to_move": game.to_move,
        "winners": list(game.winners),
        "reason": game.reason,
        "teams": [list(team) for team in game.teams],
        "places": list(game.places),
        "finished_at": game.finished_at,
        "timeouts": list(game.timeouts),
        "deadline": game.deadline,
        "left": list(game.left),
    }


def _result_from(data: Mapping[str, Any]) -> GameResult:
    return GameResult(
        data["game"],
        int(data["round"]),
        int(data["table"]),
        str(data["status"]),
        tuple(Seat(tuple(sides), address, name) for sides, address, name in data["seats"]),
        data["message"],
        to_move=data["to_move"],
        winners=tuple(data["winners"]),
        reason=data["reason"],
        teams=tuple(tuple(team) for team in data["teams"]),
        places=tuple(data["places"]),
        finished_at=data["finished_at"],
        timeouts=tuple(data["timeouts"]),
        deadline=data["deadline"],
        left=tuple(data["left"]),
    )


def _read_manifest(out: Path) -> dict[str, Any]:
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != VERSION:
        return {}
    return data


def _inline_svg(document: str) -> str:
    """An SVG document as an element for inline HTML (its XML declaration and doctype dropped)."""
    start = document.find("<svg")
    return document[start:] if start >= 0 else ""


def build(folder: Path, out: Path) -> Built:
    """Write (or bring up to date) the site of the league in `folder` into `out`."""
    from referee.pictures import board_svg, replay_page

    config = load(folder)
    store.settle(folder)  # what a dead command left, completed first
    try:
        toml = (folder / CONFIG_FILE).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {folder / CONFIG_FILE}: {error.strerror or error}") from None
    log = read_log(folder)
    if out.resolve() == folder.resolve():
        raise UsageError(f"-o {out}: the site must go to a folder of its own, not the league's")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot make {out}: {error.strerror or error}") from None
    manifest = _read_manifest(out)
    old_games: dict[str, Any] = manifest.get("games", {}) if isinstance(manifest.get("games"), dict) else {}
    old_pages: dict[str, str] = manifest.get("pages", {}) if isinstance(manifest.get("pages"), dict) else {}
    league_key = _digest(toml)

    games: list[pages.SiteGame] = []
    fresh: dict[str, tuple[Any, str]] = {}  # game -> (replay, source text), for games read again
    new_games: dict[str, Any] = {}
    for round_number, table, path in game_files(folder):
        name = path.name.removesuffix(".rgn")
        try:
            data = path.read_bytes()
            mtime = int(path.stat().st_mtime)
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
        key = _digest(data) + ":" + league_key
        cached = old_games.get(name)
        own = (pages.game_file(name), pages.replay_file(name))
        if (
            isinstance(cached, dict)
            and cached.get("key") == key
            and all(page not in old_pages or (out / page).exists() for page in own)
        ):
            with contextlib.suppress(KeyError, TypeError, ValueError):
                item = pages.SiteGame(_result_from(cached["result"]), cached.get("clock"), int(cached["updated"]))
                games.append(item)
                new_games[name] = cached
                continue
        result, replay = judge_game(path, data, round_number, table, path.name)
        clock = verdict_fields(replay.verdict).get("clock") if replay is not None else None
        updated = result.finished_at if result.finished_at is not None else mtime
        item = pages.SiteGame(result, clock if isinstance(clock, dict) else None, updated)
        games.append(item)
        fresh[name] = (replay, data.decode("utf-8", "replace"))
        new_games[name] = {"key": key, "result": _result_json(result), "clock": item.clock, "updated": updated}

    renamed = aliases(log)
    if renamed:
        games = [dataclasses.replace(item, result=renamed_game(item.result, renamed)) for item in games]
    results = [item.result for item in games]
    order = log_order(log)
    ranked = standings(config, results, order, withdrawal_rounds(log))
    counted = [game for game in results if game.legal]
    history: dict[str, list[Point]] = {}
    for game, after in rating_history(rating_order(config, counted, order), [p.address for p in config.players]):
        for address, (mu, sigma) in after.items():
            history.setdefault(address, []).append(Point(game.game, mu - 3 * sigma))
    site = pages.Site(config, tuple(games), ranked, total_rounds(config), current_round(results), history)

    rendered: dict[str, str] = {pages.INDEX: pages.index_page(site)}
    for number in range(1, site.current + 1):
        rendered[pages.round_file(number)] = pages.round_page(site, number)
    for player in config.players:
        rendered[f"player-{player.number}.html"] = pages.player_page(site, player.address, player.name)
    kept = set(rendered)
    for item in games:
        name = item.result.game
        if name not in fresh:
            kept.update(page for page in (pages.game_file(name), pages.replay_file(name)) if page in old_pages)
            continue
        replay, text = fresh[name]
        board = ""
        if replay is not None and replay.state is not None:
            board = _inline_svg(board_svg(replay.state))
        rendered[pages.game_file(name)] = pages.game_page(site, item, board, replay is not None)
        if replay is not None:
            rendered[pages.replay_file(name)] = replay_page(
                replay, text, private=True, back=(pages.game_file(name), f"back to game {name}")
            )
    entries = [
        feed.Entry(
            item.result.game,
            pages.feed_title(site, item.result),
            f"Round {item.result.round}, table {item.result.table}: {item.result.message}",
            pages.game_file(item.result.game),
            item.updated,
        )
        for item in games
        if item.result.finished
    ]
    try:
        fallback = int((folder / CONFIG_FILE).stat().st_mtime)
    except OSError:
        fallback = 0
    rendered[feed.FEED_FILE] = feed.atom(config.name, entries, fallback)

    written: list[str] = []
    new_pages: dict[str, str] = {}
    unchanged = 0
    for page, text in rendered.items():
        digest = _digest(text.encode("utf-8"))
        new_pages[page] = digest
        if old_pages.get(page) == digest and (out / page).exists():
            unchanged += 1
            continue
        _write(out / page, text)
        written.append(page)
    for page in kept - set(rendered):
        new_pages[page] = old_pages[page]
        unchanged += 1
    removed = []
    for page in sorted(set(old_pages) - set(new_pages)):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(out / page)
        removed.append(page)
    new_manifest = {"version": VERSION, "games": new_games, "pages": dict(sorted(new_pages.items()))}
    if new_manifest != manifest:
        _write(out / MANIFEST, json.dumps(new_manifest, ensure_ascii=False, sort_keys=True) + "\n")
    return Built(tuple(written), tuple(removed), unchanged, tuple(game for game in results if not game.legal))


def _write(path: Path, text: str) -> None:
    try:
        write_atomically(path, text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def pages_in(out: Path) -> Iterator[str]:
    """The pages the last build wrote (names in OUT), from its manifest."""
    yield from _read_manifest(out).get("pages", {})
