"""A series of seasons (LEAGUE.md §7): `league next` makes the next season from closed
leagues (divisions, promotion and relegation, newcomers) or a knockout stage of the top N
of one, and `league init --from CLOSED` seeds a knockout by a closed league's ratings.

    made = next_season([Path("2026/premier"), Path("2026/second")], Path("2027"), now, sender)

Every new division is a folder `NEWDIR/<the closed division's folder name>` (a stage:
NEWDIR itself) with the closed league's settings (less `ends`, `notify_games` and the
players), its players in order, a `league.log` that begins with a `from` line naming the
closed seasons' standings digests, and each player's mail in its outbox. The whole NEWDIR
is built in a hidden folder beside it and renamed into place at the end: a run killed
half-way leaves no NEWDIR (only the hidden folder, which the next run removes)."""

from __future__ import annotations

import datetime
import json
import os
import secrets
import shutil
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.league.close import close_entry
from referee.league.folder import LOG_FILE, LeagueRefused, read_log
from referee.league.league_toml import (
    CONFIG_FILE,
    LeagueConfig,
    LeagueConfigError,
    LeaguePlayer,
    Pairing,
    checked_address,
    checked_name,
    load,
    parse,
)
from referee.league.notify import message, write
from referee.league.results import withdrawn_in
from referee.notation.timing import format_instant
from referee.speech import N_, speaker

FROM_EVENT = "from"
STAGE_KNOCKOUT = "knockout"
STAGING = ".next-"
"""The hidden folder beside NEWDIR that `next` builds in: `.NAME.next-XXXXXXXX`."""
DROPPED_KEYS = ("name", "player", "ends", "notify_games")
"""What the next season does not take from a closed one: its own name and players; `ends`
(the old season's end: the game master sets the new one); `notify_games` (by game ID)."""


@dataclass(frozen=True)
class Closed:
    """A closed league as `next` reads it: its folder, settings, final order (addresses,
    best first, withdrawn players left out) and the standings digest of its `close` line."""

    folder: Path
    config: LeagueConfig
    order: tuple[str, ...]
    ratings: dict[str, float]
    standings: str
    raw: dict[str, Any] = field(repr=False)

    def __repr__(self) -> str:
        return f"Closed({self.config.name!r}, {len(self.order)} players, {self.standings})"


@dataclass(frozen=True)
class Division:
    """One new league: its folder name, its players (addresses, seed order) and where each came from."""

    folder: str
    name: str
    players: tuple[str, ...]
    moves: dict[str, str]
    """Each address -> `stays`, `promoted`, `relegated`, `new` or `qualified` (a stage)."""


@dataclass(frozen=True)
class Made:
    """What `next` made: NEWDIR, each division, the mails written."""

    into: Path
    divisions: tuple[Division, ...]
    mails: int

    def __repr__(self) -> str:
        return f"Made({self.into}, {len(self.divisions)} divisions, {self.mails} mails)"

    def lines(self) -> list[str]:
        out = []
        for division in self.divisions:
            path = self.into if division.folder == "" else self.into / division.folder
            out.append(f"{path}: {division.name}, {len(division.players)} players")
        out.append(f"mails: {self.mails} into the outboxes")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "into": str(self.into),
            "divisions": [
                {"folder": d.folder, "name": d.name, "players": list(d.players), "moves": d.moves}
                for d in self.divisions
            ],
            "mails": self.mails,
        }


def read_closed(folder: Path) -> Closed:
    """A closed league; LeagueRefused (exit 1) when it is not closed."""
    config = load(folder)
    store.settle(folder)
    log = read_log(folder)
    entry = close_entry(log)
    if entry is None:
        raise LeagueRefused(
            N_("{folder}: {league} is not closed: league close it first"), folder=folder, league=config.name
        )
    names = {player.name: player.address for player in config.players}
    gone = withdrawn_in(log)
    order: list[str] = []
    ratings: dict[str, float] = {}
    for row in entry.get("table", []):
        address = names.get(str(row.get("player"))) if isinstance(row, dict) else None
        if address is None or address in order:
            raise LeagueRefused(
                N_("{folder}: the close line of league.log names {row!r}, who is no player"), folder=folder, row=row
            )
        rating = row.get("rating")
        ratings[address] = float(rating) if isinstance(rating, int | float) else 0.0
        if address not in gone:
            order.append(address)
    raw = tomllib.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    return Closed(folder, config, tuple(order), ratings, str(entry.get("standings")), raw)


def seeding_from(folder: Path, pairing_name: str | None) -> Closed:
    """The closed league whose ratings seed a new knockout (`league init --pairing knockout --from CLOSED`)."""
    if pairing_name != Pairing.KNOCKOUT.value:
        raise UsageError("--from: seeds a knockout: give --pairing knockout with it")
    return read_closed(folder)


def seed(path: Path, closed: Closed) -> LeagueConfig:
    """Append `seeding = "rating"` and the closed league's players, best rating first (ties
    in final order), to the league.toml that `init` has just written at `path`."""
    order = sorted(closed.order, key=lambda address: (-closed.ratings[address], closed.order.index(address)))
    players = {player.address: player for player in closed.config.players}
    lines = ['seeding = "rating"  # the players below in the order of the final ratings of ' + closed.config.name]
    for address in order:
        lines += ["", "[[player]]", f"name = {_value(players[address].name)}", f"address = {_value(address)}"]
    text = path.read_text(encoding="utf-8") + "\n".join(lines) + "\n"
    config = parse(text, str(path))
    store.write_atomically(path, text)
    return config


def parse_add(text: str) -> tuple[str, str]:
    """`--add ADDRESS=NAME`: the address and the name, each checked (UsageError, exit 2)."""
    address, sep, name = text.partition("=")
    if not sep:
        raise UsageError(f"--add: ADDRESS=NAME, such as ann@example.org=Ann, not {text!r}")
    try:
        return checked_address(address, None, "--add"), checked_name(name.strip(), None, "--add")
    except LeagueConfigError as error:
        raise UsageError(f"{error.key}: {error.message}") from None


def divisions(closed: Sequence[Closed], added: Sequence[tuple[str, str]]) -> list[tuple[list[str], dict[str, str]]]:
    """Each new division's players (in the order of `league.toml`: those relegated into it
    first, then those who stay, then those promoted into it, each in final order;
    newcomers last) and moves.
    A division's `promote` and `relegate` say how many of its own players go up or down:
    the first division's `promote` and the last's `relegate` move no one."""
    count = len(closed)
    up: list[list[str]] = [[] for _ in closed]
    stay: list[list[str]] = [[] for _ in closed]
    down: list[list[str]] = [[] for _ in closed]
    for index, season in enumerate(closed):
        order = list(season.order)
        rising = order[: season.config.promote] if index > 0 else []
        rest = order[len(rising) :]
        falling = (
            rest[max(0, len(rest) - season.config.relegate) :] if index < count - 1 and season.config.relegate else []
        )
        if rising:
            up[index - 1].extend(rising)
        if falling:
            down[index + 1].extend(falling)
        stay[index].extend(address for address in rest if address not in falling)
    made: list[tuple[list[str], dict[str, str]]] = []
    for index in range(count):
        players = [*down[index], *stay[index], *up[index]]
        moves = {address: "promoted" for address in up[index]}
        moves |= {address: "stays" for address in stay[index]}
        moves |= {address: "relegated" for address in down[index]}
        if index == count - 1:
            for address, _ in added:
                players.append(address)
                moves[address] = "new"
        made.append((players, moves))
    return made


def next_season(
    folders: Sequence[Path],
    into: Path,
    now: int,
    sender: str,
    *,
    name: str | None = None,
    add: Sequence[str] = (),
    stage: str | None = None,
    top: int | None = None,
) -> Made:
    """`league next DIR... --into NEWDIR`: the next season of the closed leagues `folders`
    (top division first), or with `stage="knockout"` a knockout of the `top` best of one."""
    if not folders:
        raise UsageError("league next: name at least one closed league DIR")
    if stage is not None and stage != STAGE_KNOCKOUT:
        raise UsageError(f'--stage: "{STAGE_KNOCKOUT}" is the one stage there is, not {stage!r}')
    if stage is None and top is not None:
        raise UsageError("--top: is for --stage knockout")
    if stage is not None and len(folders) != 1:
        raise UsageError("--stage knockout: name one closed league DIR")
    added = [parse_add(text) for text in add]
    if stage is not None and added:
        raise UsageError("--add: a knockout stage takes the closed league's top players, no newcomers")
    if len({address for address, _ in added}) != len(added):
        raise UsageError("--add: an address is given twice")
    if into.exists() or into.is_symlink():
        raise UsageError(f"{into} already exists: next never writes into an existing folder")
    closed = [read_closed(folder) for folder in folders]
    everyone = {player.address for season in closed for player in season.config.players}
    for address, _ in added:
        if address in everyone:
            raise UsageError(f"--add: {address} already plays in {', '.join(str(f) for f in folders)}")
    base = name if name is not None else (into.resolve().name or "League")
    if stage is not None:
        planned = _stage(closed[0], base, top)
    else:
        planned = _divisions(closed, added, base)
    names = {player.address: player for season in closed for player in season.config.players}
    for address, player_name in added:
        names[address] = LeaguePlayer(0, player_name, address)
    texts = [(division, _config_text(closed_of(division, closed), division, names, stage)) for division in planned]
    configs = [parse(text, f"{into / division.folder / CONFIG_FILE}") for division, text in texts]
    origin = {
        "event": FROM_EVENT,
        "at": format_instant(now),
        "seasons": [
            {"league": season.config.name, "standings": season.standings, "folder": str(season.folder.resolve())}
            for season in closed
        ],
        **({"stage": stage, "top": top} if stage is not None else {}),
    }
    return _build(into, texts, configs, origin, now, sender)


def closed_of(division: Division, closed: Sequence[Closed]) -> Closed:
    """The closed league whose settings a new division takes: the one of the same place."""
    return next((season for season in closed if season.folder.resolve().name == division.folder), closed[0])


def _divisions(closed: Sequence[Closed], added: Sequence[tuple[str, str]], base: str) -> list[Division]:
    folders = [season.folder.resolve().name for season in closed]
    if len(set(folders)) != len(folders):
        raise UsageError(f"league next: two divisions have the same folder name: {', '.join(folders)}")
    made = []
    for index, (players, moves) in enumerate(divisions(closed, added)):
        division_name = base if len(closed) == 1 else f"{base}: {folders[index]}"
        made.append(Division(folders[index], division_name, tuple(players), moves))
    return made


def _stage(season: Closed, base: str, top: int | None) -> list[Division]:
    count = len(season.order)
    per_game = season.config.players_per_game
    if top is None:
        raise UsageError("--stage knockout: say how many go on with --top N")
    if top < max(2, per_game) or top > count:
        raise UsageError(
            f"--top: between {max(2, per_game)} and the {count} players of {season.config.name}, not {top}"
        )
    players = season.order[:top]
    return [Division("", base, players, dict.fromkeys(players, "qualified"))]


def _relative(folder: Path, league: Path) -> str:
    """Where a closed season lies, seen from a new league's folder (verify finds it there)."""
    try:
        return os.path.relpath(folder, league.resolve())
    except ValueError:  # pragma: no cover - another drive (Windows)
        return str(folder.resolve())


def _config_text(season: Closed, division: Division, names: dict[str, LeaguePlayer], stage: str | None) -> str:
    """The new division's league.toml: the closed one's settings, its own name and players."""
    raw = {key: value for key, value in season.raw.items() if key not in DROPPED_KEYS}
    if stage is not None:
        raw = {key: value for key, value in raw.items() if key not in ("rounds", "promote", "relegate")}
        raw["pairing"] = Pairing.KNOCKOUT.value
        raw["seeding"] = "order"
    lines = [
        f"# {division.name}: made by referee league next from {season.config.name} (LEAGUE.md §7).",
        f"name = {_value(division.name)}",
    ]
    tables = {key: value for key, value in raw.items() if isinstance(value, dict)}
    lines += [f"{key} = {_value(value)}" for key, value in raw.items() if key not in tables]
    for key, table in tables.items():
        lines += ["", f"[{key}]", *(f"{_value(str(k))} = {_value(v)}" for k, v in table.items())]
    for address in division.players:
        player = names[address]
        lines += ["", "[[player]]", f"name = {_value(player.name)}", f"address = {_value(address)}"]
        if player.notify:
            lines.append(f"notify = {_value(list(player.notify))}")
        if player.lang is not None:
            lines.append(f"lang = {_value(player.lang)}")
    return "\n".join(lines) + "\n"


def _value(value: object) -> str:
    """A TOML value of what league.toml holds: text, whole numbers, true/false, lists, instants."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    raise UsageError(f"league.toml holds a value next cannot copy: {value!r}")  # pragma: no cover - load refused it


def _build(
    into: Path,
    texts: Sequence[tuple[Division, str]],
    configs: Sequence[LeagueConfig],
    origin: dict[str, Any],
    now: int,
    sender: str,
) -> Made:
    """Build NEWDIR in a hidden folder beside it, then rename it into place: all or nothing."""
    parent = into.parent
    if not parent.is_dir():
        raise UsageError(f"{parent} is no folder: make it first")
    for stale in parent.glob(f".{into.name}{STAGING}*"):  # what a killed run left: never a NEWDIR
        if stale.is_dir() and not stale.is_symlink():
            shutil.rmtree(stale)
    staging = parent / f".{into.name}{STAGING}{secrets.token_hex(4)}"
    mails = 0
    try:
        staging.mkdir(mode=0o755)
        for (division, text), config in zip(texts, configs, strict=True):
            folder = staging / division.folder if division.folder else staging
            folder.mkdir(exist_ok=True)
            store.create_atomically(folder / CONFIG_FILE, text)
            seasons = [
                {**item, "folder": _relative(Path(item["folder"]), into / division.folder)}
                for item in origin["seasons"]
            ]
            entry = {**origin, "seasons": seasons, "division": division.folder or None}
            line = json.dumps(entry, ensure_ascii=False, sort_keys=True)
            store.create_atomically(folder / LOG_FILE, line + "\n")
            mails += len(write(folder, _mails(config, division, now, sender), now))
        from referee.store.ops import fsync_folder

        for division, _ in texts:
            if division.folder:
                fsync_folder(staging / division.folder)
        fsync_folder(staging)
        os.rename(staging, into)  # refuses a NEWDIR made meanwhile (a non-empty one)
        fsync_folder(parent)
    except FileExistsError:
        shutil.rmtree(staging, ignore_errors=True)
        raise UsageError(f"{into} already exists: next never writes into an existing folder") from None
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise UsageError(f"cannot make {into}: {error.strerror or error}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return Made(into, tuple(division for division, _ in texts), mails)


def _mails(config: LeagueConfig, division: Division, now: int, sender: str) -> list[EmailMessage]:
    """Each player's mail: their division, how they came there, the other players."""
    others = [player.name for player in config.players]
    mails = []
    for player in config.players:
        say = speaker(config.lang_of(player.address))
        move = division.moves.get(player.address, "stays")
        how = {
            "promoted": say("You are promoted."),
            "relegated": say("You are relegated."),
            "stays": say("You stay in this division."),
            "new": say("Welcome: you are new to the series."),
            "qualified": say("You qualified by your final rank."),
        }[move]
        body = say(
            "{league} ({game}) is the next season: you play in it. {how}\n\nIts players:\n{players}\n\n"
            "The rounds are paired by the game master (referee league pair); each game comes in its own mail.\n",
            league=config.name,
            game=config.game,
            how=how,
            players="\n".join(f"  {name}" for name in others),
        )
        subject = say("{league}: your division for the next season", league=config.name)
        mails.append(message(sender, player.address, player.name, subject, body, now))
    return mails
