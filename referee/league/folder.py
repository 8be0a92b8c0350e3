"""The league folder (LEAGUE.md §1-3): `init`, `add`, `pair` and `status`, and
`league.log`, one JSON line per thing the league did.

Everything that writes holds the exclusive lock `DIR/league.lock` and writes atomically
(temporary file, fsync, rename); game files and keys are never overwritten.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import BusyError, UsageError
from referee.games import registry, seats
from referee.games.api import GameInfo
from referee.league import knockout, pairing
from referee.league import notify as notify_module
from referee.league.league_toml import (
    CONFIG_FILE,
    Dice,
    LeagueConfig,
    LeagueConfigError,
    Pairing,
    checked_address,
    checked_name,
    load,
    parse,
)
from referee.league.refusal import Refused
from referee.league.results import (
    GameResult,
    game_files,
    game_id,
    log_entries,
    read_games,
    withdrawal_rounds,
    withdrawn_in,
)
from referee.notation.timing import format_duration, format_instant
from referee.speech import N_
from referee.store.ops import make_folders

LOG_FILE = "league.log"
LOCK_NAME = "league"  # locked() adds ".lock": DIR/league.lock
KEYS_DIR = "keys"
LOCK_WAIT = 10.0
"""Seconds a league command waits for another to release DIR/league.lock before exit 75."""


class LeagueRefused(Refused):
    """Something the league judged and refused (exit 1): a round still being played, a
    season over, an illegal game (named). Raised with a template of the catalogue and its
    parameters, said in the reader's language by `said` (referee/league/refusal.py)."""


class LeagueBusy(BusyError):
    """The league's lock is held by another command (exit 75)."""


# -- league.log --------------------------------------------------------------------------------


def read_log(folder: Path) -> list[dict[str, Any]]:
    """The entries of league.log, in order; a line that is not a JSON object is skipped."""
    try:
        text = (folder / LOG_FILE).read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"cannot read {folder / LOG_FILE}: {getattr(error, 'strerror', None) or error}") from None
    return log_entries(text)


def append_log(folder: Path, entries: Sequence[dict[str, Any]]) -> None:
    """Append entries to league.log, one write on the file opened for appending (within
    the caller's transaction: with what the entries record). The caller holds the lock."""
    lines = "".join(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n" for entry in entries)
    store.append(folder / LOG_FILE, lines)  # a last line left without its end is cut first (docs/files.md)


def log_order(entries: Sequence[dict[str, Any]]) -> dict[str, int]:
    """Each game's place in league.log: the index of the last entry naming it."""
    order: dict[str, int] = {}
    for index, entry in enumerate(entries):
        for game in entry.get("games", []):
            name = game.get("game") if isinstance(game, dict) else game
            if isinstance(name, str):
                order[name] = index
        if isinstance(entry.get("game"), str):
            order[entry["game"]] = index
    return order


@contextlib.contextmanager
def league_lock(folder: Path) -> Iterator[None]:
    """Hold the folder's lock (completing what a dead command left: `referee.store`), then
    DIR/league.lock: one league command at a time writes in the folder. Every league
    command that writes takes it, so a closed season (a `close` line in league.log,
    LEAGUE.md §6) refuses them all here (LeagueRefused, exit 1). Only the league's
    own lock is said to be busy so: a game file found busy inside keeps its words."""
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(store.session(folder, wait=LOCK_WAIT))
            held.enter_context(store.locked(folder / LOCK_NAME, wait=LOCK_WAIT))
        except BusyError:
            raise LeagueBusy(
                f"{folder} is busy: another league command holds {folder / (LOCK_NAME + '.lock')}; try again later"
            ) from None
        closed = next((entry for entry in read_log(folder) if entry.get("event") == "close"), None)
        if closed is not None:
            raise LeagueRefused(
                N_(
                    "{folder}: the season is closed (league.log, {at}): nothing more is written; "
                    "status, standings, site and verify still run"
                ),
                folder=folder,
                at=closed.get("at", "?"),
            )
        yield


# -- init and add ----------------------------------------------------------------------------------


def init(
    folder: Path,
    game: str,
    players: int,
    time_control: str | None = None,
    pairing_name: str | None = None,
    rounds: int | None = None,
    name: str | None = None,
) -> Path:
    """Write a new league.toml in `folder` (made if missing); never over an existing one.
    The text is read back strictly first, so a bad option is refused as the key it sets."""
    info = registry.info(game)
    lines = [
        "# The league's settings and players (LEAGUE.md §1); referee league add DIR ADDRESS --name NAME adds players.",
        f"name = {_toml(name if name is not None else folder.resolve().name or 'League')}",
        f"game = {_toml(info.name if info is not None else game)}",
        f"players = {players}",
    ]
    if time_control is not None:
        lines.append(f"time_control = {_toml(time_control)}")
    lines.append(f"pairing = {_toml(pairing_name or Pairing.ROUND_ROBIN.value)}")
    if rounds is not None:
        lines.append(f"rounds = {rounds}")
    if info is not None and info.randomness is not None:
        lines.append(f'dice = {_toml(Dice.SECRET.value)}  # or "open": a Seed tag in every record from the start')
    lines += _other_settings(info, time_control is not None, rounds is not None)
    text = "\n".join(lines) + "\n"
    path = folder / CONFIG_FILE
    parse(text, str(path), need_players=False)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        _create(path, text)
    except FileExistsError:
        raise UsageError(f"{path} already exists: init never overwrites a league") from None
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    return path


def _other_settings(info: GameInfo | None, timed: bool, with_rounds: bool) -> list[str]:
    """Every setting `init` was not given, commented out at its default or with an example,
    and what it does: the game master edits league.toml by hand (LEAGUE.md §1)."""
    variants = ", ".join(info.variants) if info is not None else "the game's"
    first = info.variants[0] if info is not None else "standard"
    lines = [
        "",
        '# Every other setting, at its default or as an example: remove the "# " to set one.',
        f'# variant = "{first}"  # one of: {variants}; none: the game\'s own',
    ]
    if not timed:
        lines.append('# time_control = "7d+1d/14d"  # the games\' clock (TIME.md); none: untimed games')
    if not with_rounds:
        lines.append("# rounds = 5  # required for groups (3-4 players a game) and swiss; optional for a round robin")
    if info is None or info.randomness is None:
        lines.append('# dice = "secret"  # only for games with dice or tiles; "secret" (keys/) or "open" (a Seed tag)')
    lines += [
        '# reminders = []  # before a deadline, to the player to move, e.g. ["48h", "12h"] (league tick)',
        '# digest = "every-move"  # every move mailed to every player at once; "daily": one mail a day',
        "# leave_days = 0  # days of extension each player may take in the season (league leave)",
        "# auto_leave = false  # true: tick spends a flagged player's leave_days instead of timing them out",
        '# ends = "2027-03-01T00:00:00Z"  # the season\'s closing instant (league close); none: close with --force',
        '# adjudication = "none"  # how league close decides unfinished games: "none", "draw", "score", "gm"',
        "# promote = 0  # league next: the top k of this division go up one; tick tells a clinched promotion",
        "# relegate = 0  # league next: the bottom k go down one; tick tells a clinched relegation (LEAGUE.md §7)",
        '# seeding = "order"  # pairing = "knockout": seeds in league.toml order; "rating": init --from CLOSED',
        '# match_games = 1  # pairing = "knockout", two-player games: the games of a match',
        "# match_games_max = 3  # a tied match goes on one game at a time up to this (match_games + 2)",
        '# advance = 1  # pairing = "knockout", tables of 3-4: how many of each table go on',
        "# tell_players = false  # true: what the game master writes with play (no --as) is mailed to the players",
        '# lang = "en"  # the language of the players\' mails (a player\'s own: lang in its table): "en", "es"',
        '# notify = []  # Apprise URLs told every notice, e.g. ["json://host/path"]; a player\'s own: in its table',
        "# [notify_games]  # per game ID, e.g. (with its line below):",
        '# "r1-t1" = ["ntfy://ntfy.sh/my-topic"]',
        "# [tags]  # fixed tags of every game, e.g.:",
        '# Target = "15"',
        "",
        "# The players: referee league add DIR ADDRESS --name NAME appends a player table",
        '# (its keys: name = "Ann", address = "ann@example.org", optionally notify = [...] and lang = "es") for each.',
    ]
    return lines


def add_player(folder: Path, address: str, name: str) -> LeagueConfig:
    """Append a [[player]] table to league.toml (the GM's text kept as it is). Refused
    (exit 1) once the first round is paired: the schedule is a function of the players."""
    source = str(folder / CONFIG_FILE)
    try:
        checked = checked_address(address, None, "ADDRESS")
        checked_name(name.strip(), None, "--name")
    except LeagueConfigError as error:
        raise UsageError(f"{error.key}: {error.message}") from None
    load(folder, need_players=False)  # a missing or broken league.toml is said as such, before locking
    with league_lock(folder):
        config = load(folder, need_players=False)
        if game_files(folder):
            raise LeagueRefused(
                N_(
                    "{league}: the season has begun (round 1 is paired): the pairings are a function of "
                    "the players, so none can be added now"
                ),
                league=config.name,
            )
        path = folder / CONFIG_FILE
        text = path.read_text(encoding="utf-8")
        if text and not text.endswith("\n"):
            text += "\n"
        text += f"\n[[player]]\nname = {_toml(name.strip())}\naddress = {_toml(checked)}\n"
        updated = parse(text, source, need_players=False)
        store.write(path, text)
        return updated


def _toml(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


# -- pairing -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Paired:
    """What `pair` made: the round, its games (id, addresses by seat) and the byes."""

    round: int
    games: tuple[tuple[str, tuple[str, ...]], ...]
    byes: tuple[str, ...]
    bye_scores: bool
    mails: tuple[str, ...] = field(default=())
    """The pairing mails written into DIR/outbox."""
    notes: tuple[str, ...] = field(default=())
    """What went wrong on the way that did not undo the pairing (a mail that could not be written)."""

    def lines(self, config: LeagueConfig) -> list[str]:
        names = {player.address: player.name for player in config.players}
        out = [f"{config.name}: round {self.round} paired"]
        for game, addresses in self.games:
            out.append(f"{game}: " + " - ".join(names.get(address, address) for address in addresses))
        for address in self.byes:
            out.append(f"bye: {names.get(address, address)}{'' if self.bye_scores else ' (no point)'}")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "games": [{"game": game, "seats": list(addresses)} for game, addresses in self.games],
            "byes": list(self.byes),
            "bye_scores": self.bye_scores,
        }


def total_rounds(config: LeagueConfig) -> int:
    if config.rounds is not None:
        return config.rounds
    if config.pairing is Pairing.KNOCKOUT:
        return knockout.most_steps(config)
    cycle = pairing.cycle_rounds(len(config.players))
    return cycle * (2 if config.pairing is Pairing.DOUBLE_ROUND_ROBIN else 1)


def schedule_round(
    config: LeagueConfig,
    number: int,
    games: Sequence[GameResult],
    withdrawn: frozenset[int] = frozenset(),
    gone_since: dict[str, int] | None = None,
) -> pairing.Round:
    """Round `number` of the league as §3 pairs it (Swiss from the standings of `games`);
    `withdrawn`: the numbers of the players who withdrew (docs/league.md, "The roster")."""
    count = len(config.players)
    if config.pairing is Pairing.KNOCKOUT:  # the bracket's next step (LEAGUE.md §7)
        try:
            return knockout.schedule(config, number, games, withdrawn)
        except knockout.KnockoutStuck as stuck:
            raise LeagueRefused(stuck.template, **stuck.params) from None
    if config.pairing is Pairing.SWISS:
        return _swiss_round(config, number, games, withdrawn, gone_since)
    if config.players_per_game == 2:
        planned = pairing.round_robin(count, number, double=config.pairing is Pairing.DOUBLE_ROUND_ROBIN)
    else:
        rounds = config.rounds or number
        planned = pairing.groups(count, config.players_per_game, rounds, config.name)[number - 1]
    return _without(planned, withdrawn)


def _without(planned: pairing.Round, withdrawn: frozenset[int]) -> pairing.Round:
    """A scheduled round less the withdrawn players: a table holding one is not made, its
    other players have a bye (worth what the league's byes are worth)."""
    if not withdrawn:
        return planned
    kept = [table for table in planned.tables if not withdrawn & set(table.seats)]
    freed = [player for table in planned.tables if withdrawn & set(table.seats) for player in table.seats]
    byes = sorted({*planned.byes, *freed} - withdrawn)
    tables = tuple(pairing.Table(index, table.seats) for index, table in enumerate(kept, start=1))
    return pairing.Round(planned.number, tables, tuple(byes), planned.bye_scores)


def _swiss_round(
    config: LeagueConfig,
    number: int,
    games: Sequence[GameResult],
    withdrawn: frozenset[int],
    gone_since: dict[str, int] | None,
) -> pairing.Round:
    from referee.league.standings import standings

    numbers = {player.address: player.number for player in config.players}
    tally = pairing.Tally.empty()
    seated_in: dict[int, set[int]] = {}
    for game in games:
        seated = tuple(numbers[seat.address] for seat in game.seats if seat.address in numbers)
        seated_in.setdefault(game.round, set()).update(seated)
        if seated:
            tally.add(pairing.Round(game.round, (pairing.Table(game.table, seated),)))
    for played in seated_in.values():  # a player seated in no game of a round had a bye (§4)
        tally.add(pairing.Round(0, (), tuple(sorted(set(numbers.values()) - played))))
    if number == 1:
        order = [player.number for player in config.players]
    else:
        table = standings(config, games, None, gone_since)
        points = {numbers[row.address]: float(row.points) for row in table.rows if row.address in numbers}
        ratings = {numbers[row.address]: row.rating for row in table.rows if row.address in numbers}
        order = pairing.swiss_order([player.number for player in config.players], points, ratings)
    order = [player for player in order if player not in withdrawn]
    return pairing.swiss(number, order, config.players_per_game, tally)


def current_round(games: Sequence[GameResult]) -> int:
    return max((game.round for game in games), default=0)


def pair(folder: Path, now: int, sender: str | None = None) -> Paired:
    """Make the next round's games (LEAGUE.md §3), log the pairing, then write each player's
    mail into DIR/outbox (from `sender`; none when None). Refuses (LeagueRefused) while a
    game of the current round is unfinished (or illegal) and after the last round."""
    with league_lock(folder):
        config = load(folder)
        games = list(read_games(folder))
        current = current_round(games)
        waiting = [game.game for game in games if game.round == current and not game.finished]
        if waiting:
            raise LeagueRefused(
                N_("round {round} is still being played: {games} not finished"), round=current, games=", ".join(waiting)
            )
        bad = [game.game for game in games if not game.legal]
        if bad:
            raise LeagueRefused(N_("illegal or unreadable games: {games}"), games=", ".join(bad))
        last = total_rounds(config)
        number = current + 1
        if number > last:
            raise LeagueRefused(
                N_("{league}: the season is over: all {rounds} rounds are paired"), league=config.name, rounds=last
            )
        log = read_log(folder)
        gone = withdrawn_in(log)
        numbers = frozenset(player.number for player in config.players if player.address in gone)
        planned = schedule_round(config, number, games, numbers, withdrawal_rounds(log))
        # One transaction: the games, their keys, the log entry and every player's mail,
        # all written or none (a rerun after a crash finds the round paired, or not at all).
        with store.transaction(folder):
            made = _make_games(folder, config, planned, now)
            players = {player.number: player.address for player in config.players}
            paired = Paired(
                number,
                tuple((game, tuple(players[seat] for seat in table.seats)) for game, table in made),
                tuple(players[bye] for bye in planned.byes),
                planned.bye_scores,
            )
            entry = {"event": "pairing", "at": format_instant(now), **paired.as_json()}
            append_log(folder, [entry])
            if sender is not None:
                paired = _mail_pairing(folder, config, paired, now, sender)
        return paired


def _mail_pairing(folder: Path, config: LeagueConfig, paired: Paired, now: int, sender: str) -> Paired:
    from referee.league import notify
    from referee.live.mail.mail_errors import DeliveryError

    held = seats.seat_sides(config.info, config.players_per_game, paired.round)
    games = [(game, list(zip(addresses, held, strict=True))) for game, addresses in paired.games]
    openings = {game: _opening(folder / f"{game}.rgn") for game, _ in paired.games}
    keyed = (folder / "players.toml").is_file()
    messages = notify.pairing_mails(
        config, paired.round, games, paired.byes, paired.bye_scores, now, sender, openings, keyed
    )
    try:
        written = notify.write(folder, messages, now)
    except DeliveryError as error:
        return dataclasses.replace(paired, notes=(f"the pairing stands, but its mails were not written: {error}",))
    return dataclasses.replace(paired, mails=tuple(str(path) for path in written))


def _opening(path: Path) -> notify_module.Opening:
    """A new game's start as its pairing mail shows it: token, first side, board."""
    from referee.judge.core.turn_token import token_of
    from referee.league.results import judge_game

    _, replay = judge_game(path, store.read_bytes(path), 0, 0)  # as the pairing staged it
    if replay is None or replay.state is None:  # pragma: no cover - pair writes games it has checked
        return notify_module.Opening(None, None, "")
    return notify_module.Opening(token_of(replay), replay.verdict.to_move, replay.state.render())


def _make_games(
    folder: Path, config: LeagueConfig, planned: pairing.Round, now: int
) -> list[tuple[str, pairing.Table]]:
    """Write the round's game files (and secret keys), all texts made and checked first."""
    from referee.judge.services.new_record import new_record
    from referee.live.play.keys import fresh_seed
    from referee.live.play.secret import new_secret

    info = config.info
    by_number = {player.number: player for player in config.players}
    secret = config.dice is Dice.SECRET and info.randomness is not None
    texts: list[tuple[str, pairing.Table, str]] = []
    for table in planned.tables:
        name = game_id(planned.number, table.number)
        if (folder / f"{name}.rgn").exists():
            raise LeagueRefused(N_("{path} already exists: a game is never overwritten"), path=folder / (name + ".rgn"))
        tags = [
            f"{side}={by_number[player].tag}" for player, held in _seat_pairs(config, planned, table) for side in held
        ]
        if "Event" not in dict(config.tags):  # [tags] Event = "..." names the event otherwise
            tags.append(f"Event={config.name}")
        tags += [f"Round={planned.number}", f"Table={table.number}"]
        if config.variant is not None:
            tags.append(f"Variant={config.variant}")
        tags += [f"{tag}={value}" for tag, value in config.tags]
        if config.time_control is not None:
            tags += [f"TimeControl={config.time_control}", f"Start={format_instant(now)}"]
        players = config.players_per_game if len(info.player_counts) > 1 else None
        named = f"{config.name}/{name}"  # PLAY.md §2: the league's name and the game's
        if not secret:
            texts.append((name, table, new_record(info.name, players, None, None, tags, named)))
            continue
        keys = folder / KEYS_DIR
        if not keys.is_dir():
            try:
                make_folders(keys, 0o700)  # before the transaction: an empty folder is no half pairing
            except OSError as error:
                raise store.WriteFailed(keys, error) from None
        key = keys / f"{name}.key"
        # A key without its game (left by a pairing of an older referee that failed before
        # writing the game) was never published: it is dropped rather than reused.
        if key.exists() and not (folder / f"{name}.rgn").exists():
            key.unlink()
        drawn = fresh_seed()
        text = new_secret(new_record(info.name, players, drawn, None, tags, named), key, [], drawn)
        texts.append((name, table, text))
    made: list[tuple[str, pairing.Table]] = []
    for name, table, text in texts:
        try:
            _create(folder / f"{name}.rgn", text)
        except FileExistsError:
            raise LeagueRefused(
                N_("{path} already exists: a game is never overwritten"), path=folder / (name + ".rgn")
            ) from None
        made.append((name, table))
    return made


def _seat_pairs(
    config: LeagueConfig, planned: pairing.Round, table: pairing.Table
) -> Iterator[tuple[int, tuple[str, ...]]]:
    held = seats.seat_sides(config.info, config.players_per_game, planned.number)
    yield from zip(table.seats, held, strict=True)


def _create(path: Path, text: str) -> None:
    """Write a new file (an fsynced temporary file, then a hard link, which refuses to
    replace anything: FileExistsError when `path` exists), with the operation's others."""
    store.create(path, text)


# -- status --------------------------------------------------------------------------------------


def status(folder: Path) -> tuple[LeagueConfig, list[GameResult], list[dict[str, Any]]]:
    """The league, its games as read from their files, and league.log (what a dead
    command left completed first)."""
    store.settle(folder, LOCK_WAIT)
    config = load(folder)
    return config, list(read_games(folder)), read_log(folder)


def time_left(game: GameResult, now: int | None) -> int | None:
    """Seconds the side to move has left at `now` (0 once its deadline has passed), or None:
    no `now`, no deadline, or a `now` before the game's last stamp (the record is ahead of it)."""
    if now is None or game.deadline is None or (game.finished_at is not None and now < game.finished_at):
        return None
    return max(0, game.deadline - now)


def game_json(game: GameResult, now: int | None = None) -> dict[str, Any]:
    seat = game.player_of(game.to_move)
    left = time_left(game, now)
    return {
        "game": game.game,
        "round": game.round,
        "table": game.table,
        "status": str(game.status),
        "seats": [{"sides": list(s.sides), "name": s.name, "address": s.address} for s in game.seats],
        "to_move": game.to_move,
        "to_move_player": seat.address if seat is not None else None,
        "deadline": format_instant(game.deadline) if game.deadline is not None else None,
        **({"left": left} if now is not None else {}),
        "last_submission": format_instant(game.finished_at) if game.finished_at is not None else None,
        "winners": list(game.winners),
        "reason": game.reason,
        "message": game.message,
    }


def game_line(game: GameResult, *, deadline: bool = True, now: int | None = None) -> str:
    """The game's line of `league status`; without its deadline (`deadline=False`) for a
    caller that tells it its own way (`status` by mail: with the time left); with `now`,
    the time left at that instant after the deadline (`league status --now`)."""
    players = ", ".join(f"{'+'.join(seat.sides)} {seat.name}" for seat in game.seats)
    if game.finished:
        result = game.message
    elif game.legal:
        seat = game.player_of(game.to_move)
        result = f"{game.to_move} ({seat.name if seat else '?'}) to move"
        if deadline and game.deadline is not None:
            result += f", deadline {format_instant(game.deadline)}"
            left = time_left(game, now)
            if left is not None:
                passed = " (passed: tick writes the time-out)"
                result += f" ({format_duration(left - left % 60)} left)" if left else passed
    else:
        result = f"{game.status}: {game.message}"
    stamp = f"; last submission {format_instant(game.finished_at)}" if game.finished_at is not None else ""
    seated = f" {players}:" if players else ""  # a malformed record may name nobody
    return f"{game.game}:{seated} {result}{stamp}"
