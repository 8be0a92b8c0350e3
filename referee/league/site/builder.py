"""Building the site incrementally: every page is rendered from the league's files, and
written (atomically, through the project's writer) only when its text differs from what
the previous build wrote. A game is re-read (adjudicated) only when its file's bytes or
league.toml changed; what the league needs of it is kept in `OUT/.referee-site.json`,
the manifest, with the digest of every page written. So `site` on an unchanged league
writes nothing, and a changed game rewrites its own pages, its round, the players in it,
and the pages that show the standings.

OUT is not trusted (LEAGUE.md §5; README, security): a name read from the manifest is
removed only when it is one the build itself makes (`own_name`: a plain file name of the
site's pages, never a path), a page is written by renaming a fresh temporary file over
its name (a symbolic link there is replaced, never followed), and the temporary files a
killed build left behind (`.PAGE.tmp-XXXXXXXX`) are removed by the next."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.judge.core.verdict_words import verdict_fields
from referee.judge.core.verdicts import Status
from referee.judge.sources import record_sources
from referee.league.folder import current_round, log_order, read_log, total_rounds
from referee.league.league_toml import CONFIG_FILE, LeagueConfig, load
from referee.league.ranges import table_ranges
from referee.league.results import GameResult, Seat, aliases, game_files, judge_game, renamed_game, withdrawal_rounds
from referee.league.site import feed, pages
from referee.league.site.chart import Point
from referee.league.standings import rating_history, rating_order, standings
from referee.speech import speaker
from referee.store.ops import ops

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


_OWN = re.compile(
    r"(?:index|bracket|round-[1-9][0-9]*|player-[1-9][0-9]*|r[1-9][0-9]*-t[1-9][0-9]*(?:-replay)?)\.html|feed\.xml|league-archive\.zip"
)
_TEMPORARY = re.compile(r"\.(.+)\.tmp-[0-9a-f]{8}")


def own_name(name: object) -> bool:
    """Whether `name` is a page the build makes: a plain name in OUT, never a path."""
    return isinstance(name, str) and _OWN.fullmatch(name) is not None


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
        Status(str(data["status"])),  # (another word: a tampered manifest, the game is read again)
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
    if not _plain_file(out / MANIFEST):
        return {}
    try:
        data = json.loads(record_sources.read_bounded(out / MANIFEST, record_sources.MAX_RECORD).decode("utf-8"))
    except (OSError, ValueError):  # (UsageError, UnicodeDecodeError: ValueErrors)
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
    _clean_leftovers(out)
    manifest = _read_manifest(out)
    old_games: dict[str, Any] = manifest.get("games", {}) if isinstance(manifest.get("games"), dict) else {}
    old_pages: dict[str, str] = manifest.get("pages", {}) if isinstance(manifest.get("pages"), dict) else {}
    old_pages = {page: digest for page, digest in old_pages.items() if own_name(page)}  # (a tampered one: not ours)
    read = _read_games(folder, out, _digest(toml), old_games, old_pages)
    renamed = aliases(log)
    games = read.games
    if renamed:
        games = [dataclasses.replace(item, result=renamed_game(item.result, renamed)) for item in games]
    results = [item.result for item in games]
    site = _site_of(config, log, games, results)
    rendered, kept = _rendered(site, read.fresh, old_pages)
    if config.is_knockout:  # the bracket's page (LEAGUE.md §7)
        from referee.league.knockout import bracket_json
        from referee.league.site.bracket import BRACKET, bracket_page

        rendered[BRACKET] = bracket_page(site, bracket_json(config, results, withdrawal_rounds(log)))
    rendered[feed.FEED_FILE] = _feed(folder, site)
    written, new_pages, unchanged = _written(out, rendered, kept, old_pages)
    removed = sorted(set(old_pages) - set(new_pages))
    for page in removed:
        with contextlib.suppress(FileNotFoundError):
            ops().unlink(out / page)  # (an own name: a plain name in OUT; a link there goes, not what it names)
    new_manifest: dict[str, Any] = {"version": VERSION, "games": read.entries, "pages": dict(sorted(new_pages.items()))}
    new_manifest["archive"], archived = _archive(folder, out, manifest)
    written, unchanged = ([*written, archived], unchanged) if archived else (written, unchanged + 1)
    if new_manifest != manifest:
        _write(out / MANIFEST, json.dumps(new_manifest, ensure_ascii=False, sort_keys=True) + "\n")
    return Built(tuple(written), tuple(removed), unchanged, tuple(game for game in results if not game.legal))


@dataclass(frozen=True)
class _ReadGames:
    """The league's games as a build reads them: each game's `SiteGame` in file order,
    the games read again (name -> replay and source text) and every game's manifest entry."""

    games: list[pages.SiteGame]
    fresh: dict[str, tuple[Any, str]]
    entries: dict[str, Any]

    def __repr__(self) -> str:
        return f"_ReadGames({len(self.games)} games, {len(self.fresh)} read again)"


def _read_games(
    folder: Path, out: Path, league_key: str, old_games: Mapping[str, Any], old_pages: Mapping[str, str]
) -> _ReadGames:
    """Every game of the league, taken from the manifest when its file, league.toml and its
    pages are as the last build left them, else judged again."""
    read = _ReadGames([], {}, {})
    for round_number, table, path in game_files(folder):
        name = path.name.removesuffix(".rgn")
        try:
            data = path.read_bytes()
            mtime = int(path.stat().st_mtime)
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror or error}") from None
        key = _digest(data) + ":" + league_key
        cached = _cached_game(out, name, key, old_games.get(name), old_pages)
        if cached is not None:
            read.games.append(cached)
            read.entries[name] = old_games[name]
            continue
        result, replay = judge_game(path, data, round_number, table, path.name)
        clock = verdict_fields(replay.verdict).get("clock") if replay is not None else None
        updated = result.finished_at if result.finished_at is not None else mtime
        item = pages.SiteGame(result, clock if isinstance(clock, dict) else None, updated)
        read.games.append(item)
        read.fresh[name] = (replay, data.decode("utf-8", "replace"))
        read.entries[name] = {"key": key, "result": _result_json(result), "clock": item.clock, "updated": updated}
    return read


def _cached_game(out: Path, name: str, key: str, cached: object, old_pages: Mapping[str, str]) -> pages.SiteGame | None:
    """The game as the manifest keeps it, when its `key` (file and league.toml) is the same
    and its pages still stand as plain files; else None (it is judged again)."""
    if not isinstance(cached, dict) or cached.get("key") != key:
        return None
    own = (pages.game_file(name), pages.replay_file(name))
    if not all(page not in old_pages or _plain_file(out / page) for page in own):
        return None
    with contextlib.suppress(KeyError, TypeError, ValueError):
        return pages.SiteGame(_result_from(cached["result"]), cached.get("clock"), int(cached["updated"]))
    return None


def _site_of(
    config: LeagueConfig, log: list[dict[str, Any]], games: list[pages.SiteGame], results: list[GameResult]
) -> pages.Site:
    """The site's view of the league: its games, standings and each player's rating history."""
    order = log_order(log)
    ranked = standings(config, results, order, withdrawal_rounds(log))
    counted = [game for game in results if game.legal]
    history: dict[str, list[Point]] = {}
    for game, after in rating_history(rating_order(config, counted, order), [p.address for p in config.players]):
        for address, (mu, sigma) in after.items():
            history.setdefault(address, []).append(Point(game.game, mu - 3 * sigma))
    final = any(entry.get("event") == "close" for entry in log)  # LEAGUE.md §6: the standings are final
    ranges = {address: found.text() for address, found in (table_ranges(config, results, ranked, log) or {}).items()}
    current = current_round(results)
    return pages.Site(config, tuple(games), ranked, total_rounds(config), current, history, final=final, ranges=ranges)


def _rendered(
    site: pages.Site, fresh: Mapping[str, tuple[Any, str]], old_pages: Mapping[str, str]
) -> tuple[dict[str, str], set[str]]:
    """Every page rendered (the index, the rounds, the players, and the pages of the games
    read again), and the names of the pages kept as they are (those of the games not read again)."""
    from referee.pictures import board_svg, replay_page

    say = speaker(site.config.lang)
    rendered: dict[str, str] = {pages.INDEX: pages.index_page(site)}
    for number in range(1, site.current + 1):
        rendered[pages.round_file(number)] = pages.round_page(site, number)
    for player in site.config.players:
        rendered[f"player-{player.number}.html"] = pages.player_page(site, player.address, player.name)
    kept = set(rendered)
    for item in site.games:
        name = item.result.game
        if name not in fresh:
            kept.update(page for page in (pages.game_file(name), pages.replay_file(name)) if page in old_pages)
            continue
        replay, text = fresh[name]
        board = ""
        if replay is not None and replay.state is not None:
            board = _inline_svg(board_svg(replay.state, say=say))
        rendered[pages.game_file(name)] = pages.game_page(site, item, board, replay is not None)
        if replay is not None:
            rendered[pages.replay_file(name)] = replay_page(
                replay, text, private=True, back=(pages.game_file(name), say("back to game {game}", game=name)), say=say
            )
    return rendered, kept


def _feed(folder: Path, site: pages.Site) -> str:
    """The Atom feed of the finished games (dated by league.toml when there is none)."""
    entries = [
        feed.Entry(
            item.result.game,
            pages.feed_title(site, item.result),
            f"Round {item.result.round}, table {item.result.table}: {item.result.message}",
            pages.game_file(item.result.game),
            item.updated,
        )
        for item in site.games
        if item.result.finished
    ]
    try:
        fallback = int((folder / CONFIG_FILE).stat().st_mtime)
    except OSError:
        fallback = 0
    return feed.atom(site.config.name, entries, fallback)


def _written(
    out: Path, rendered: Mapping[str, str], kept: set[str], old_pages: Mapping[str, str]
) -> tuple[list[str], dict[str, str], int]:
    """Write the rendered pages whose text differs from the last build's (or whose file is
    gone): the pages written, every page's digest for the manifest, how many were left as they were."""
    written: list[str] = []
    new_pages: dict[str, str] = {}
    unchanged = 0
    for page, text in rendered.items():
        digest = _digest(text.encode("utf-8"))
        new_pages[page] = digest
        if old_pages.get(page) == digest and _plain_file(out / page):
            unchanged += 1
            continue
        _write(out / page, text)
        written.append(page)
    for page in kept - set(rendered):
        new_pages[page] = old_pages[page]
        unchanged += 1
    return written, new_pages, unchanged


def _archive(folder: Path, out: Path, manifest: Mapping[str, Any]) -> tuple[str, str | None]:
    """LEAGUE.md §6: the public archive beside the pages, written when it changed (or its file
    is gone): its digest for the manifest, and its name when it was written."""
    from referee.league.public_archive import ARCHIVE, packed

    archive = packed(folder)
    digest = _digest(archive)
    if manifest.get("archive") == digest and _plain_file(out / ARCHIVE):
        return digest, None
    try:
        store.replace_atomically(out / ARCHIVE, archive)
    except store.WriteFailed as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot write {out / ARCHIVE}: {error.strerror or error}") from None
    return digest, ARCHIVE


def _write(path: Path, text: str) -> None:
    try:
        write_page(path, text)
    except store.WriteFailed as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None


def write_page(path: Path, text: str) -> None:
    """Write a page (or the manifest) by renaming a fresh temporary file over its name, in
    its folder, through the store (`replace_atomically`: every write, fsync and rename goes
    through its seam): whatever stands at the name (a link included) is replaced, never
    followed."""
    store.replace_atomically(path, text)


def _plain_file(path: Path) -> bool:
    """A regular file standing at `path` itself (a link there is to be replaced)."""
    with contextlib.suppress(OSError):
        return stat.S_ISREG(os.lstat(path).st_mode)
    return False


def _clean_leftovers(out: Path) -> None:
    """Remove the temporary files a killed build left in OUT (its own names only)."""
    try:
        names = os.listdir(out)
    except OSError as error:
        raise UsageError(f"cannot read {out}: {error.strerror or error}") from None
    for name in names:
        match = _TEMPORARY.fullmatch(name)
        if match is not None and (own_name(match.group(1)) or "." + match.group(1) == MANIFEST):
            with contextlib.suppress(OSError):
                ops().unlink(out / name)
