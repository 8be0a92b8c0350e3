"""The mail gateway on a league's folder (LEAGUE.md §1, §3): `referee mail --games DIR`
where DIR holds `league.toml`.

The gateway (`referee.live.mail`, a floor below) knows no league; `on_league` gives it
what the league decides as plain settings: the keys of the secret dice (`DIR/keys`,
unless `--keys` was given), the digest mode, and the handlers of the requests by mail,
`leave DURATION` (`referee.league.leave`, as `referee league leave` does it) and `status`
(the player's games: seat, whose turn, deadline, token). `players.toml` is the gateway's
own file, in the same folder, so it needs nothing here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from referee.errors import UsageError
from referee.judge.core.adjudicate import Replay
from referee.judge.core.turn_token import token_of
from referee.judge.core.verdicts import Status
from referee.league.folder import KEYS_DIR, LeagueRefused, game_line
from referee.league.league_toml import CONFIG_FILE, Dice, Digest, LeagueConfig, LeagueConfigError, load
from referee.league.leave import leave
from referee.league.results import GameResult, game_files, judge_game
from referee.live.mail import Settings
from referee.live.mail.asked import LEAVE_FORM
from referee.live.mail.compose import games_hint
from referee.live.mail.gateway import PLAYERS_FILE
from referee.live.mail.policy import Digest as MailDigest
from referee.live.mail.policy import Reply, Requests
from referee.notation.timing import format_duration, spoken_instant


def is_league(folder: Path) -> bool:
    """Whether a games folder is a league's (it holds `league.toml`)."""
    return (folder / CONFIG_FILE).is_file()


def league_players(folder: Path) -> dict[str, str]:
    """The players of the folder's league.toml (address -> name); {} for a folder that is
    no league's, or whose league.toml cannot be read (the command that reads it says why)."""
    if not is_league(folder):
        return {}
    try:
        config = load(folder, need_players=False)
    except LeagueConfigError:
        return {}
    return {player.address: player.name for player in config.players}


def on_league(settings: Settings, keys_given: bool) -> Settings:
    """The gateway's settings for a league's folder (unchanged for any other folder).
    UsageError (exit 2) for a `league.toml` that cannot be read, naming the key."""
    folder = settings.games
    if not is_league(folder):
        return settings
    try:
        config = load(folder)
    except LeagueConfigError as error:
        raise UsageError(str(error)) from None
    keys = settings.keys
    if not keys_given and config.dice is Dice.SECRET and (folder / KEYS_DIR).is_dir():
        keys = folder / KEYS_DIR
    digest = MailDigest.DAILY if config.digest is Digest.DAILY else MailDigest.EVERY_MOVE
    requests = Requests(
        config.name,
        _leave_handler(folder, config, settings.sender),
        _status_handler(folder, config),
        _open_games_handler(folder, config),
    )
    langs = tuple((player.address, player.lang) for player in config.players if player.lang is not None)
    return settings._replace(keys=keys, digest=digest, requests=requests, lang=config.lang, langs=langs)


def _leave_handler(folder: Path, config: LeagueConfig, sender: str) -> Callable[[str, str, int], Reply]:
    def granted(address: str, duration: str, now: int) -> Reply:
        try:
            done = leave(folder, address, duration, now, sender)
        except (UsageError, LeagueRefused, LeagueConfigError) as error:
            text = f"{config.name}: your leave was not granted: nothing was written.\n\n{error}\n"
            if isinstance(error, UsageError) and str(error).startswith("DURATION"):
                text += f"\nAsk for leave as\n\n  {LEAVE_FORM}\n"
            return Reply(text, written=False)
        return Reply(f"{config.name}: leave granted.\n\n" + "\n".join(done.lines()) + "\n", written=True)

    return granted


def _status_handler(folder: Path, config: LeagueConfig) -> Callable[[str, int], Reply]:
    def status(address: str, now: int) -> Reply:
        return Reply(status_text(folder, config, address, now))

    return status


def _open_games_handler(folder: Path, config: LeagueConfig) -> Callable[[str, int], Reply | None]:
    def open_games(address: str, now: int) -> Reply | None:
        if config.player(address) is None:
            return None  # a stranger: no answer (PLAY.md §5.1)
        return Reply(open_games_text(folder, config, address, now))

    return open_games


def open_games_text(folder: Path, config: LeagueConfig, address: str, now: int) -> str:
    """The answer to a league player whose mail names no game: their open games, each with
    its ID, whose move it is and its token, and how to write the subject."""
    player = config.player(address)
    who = player.name if player is not None else address
    lines = [
        f"{config.name}: your message names no game of the league in its Subject, so nothing was played.",
        "Answer the mail of the game you mean, or write its [ID] in the Subject, e.g. [r1-t1].",
        "",
    ]
    games: list[str] = []
    for result, replay in _judged_games(folder):
        if address not in result.addresses or result.status != Status.ONGOING or replay is None:
            continue
        mover = result.player_of(result.to_move)
        turn = (
            "your move"
            if mover is not None and mover.address == address
            else f"{mover.name if mover else '?'} ({result.to_move}) to move"
        )
        games.append(
            f"  [{result.game}] round {result.round}: {turn}; {_deadline(replay, now)}token {token_of(replay)}"
        )
    if games:
        lines += [f"The open games of {who}:", *games, ""]
        if (folder / PLAYERS_FILE).is_file():  # a keyed league: the Key: line too (issue 45.4)
            lines += [games_hint(), ""]
    else:
        lines += [f"{who}, you have no open game in this league now.", ""]
    return "\n".join(lines)


def status_text(folder: Path, config: LeagueConfig, address: str, now: int) -> str:
    """A player's games, as `status` by mail answers: for each, the seat and sides, the
    game's line of `referee league status`, and for a game that goes on the deadline of the
    side to move (timed leagues) and the current token."""
    player = config.player(address)
    who = player.tag if player is not None else address
    lines = [f"{config.name}: the games of {who} on {spoken_instant(now)}.", ""]
    count = 0
    yours_somewhere = False
    for result, replay in _judged_games(folder):
        seats = [number for number, seat in enumerate(result.seats, start=1) if seat.address == address]
        if not seats:
            continue
        count += 1
        seat = result.seats[seats[0] - 1]
        mover = result.player_of(result.to_move) if result.status == Status.ONGOING else None
        yours = ": your move" if mover is not None and mover.address == address else ""
        yours_somewhere = yours_somewhere or bool(yours)
        lines.append(f"[{result.game}] round {result.round}, seat {seats[0]} ({', '.join(seat.sides)}){yours}")
        # `league status`'s line of the game, a part a line (names hold no `;`), to keep lines short
        line = game_line(result, deadline=False)  # the deadline comes below, with the time left
        lines += [f"  {part}" for part in line.removeprefix(f"{result.game}: ").split("; ")]
        if result.status == Status.ONGOING and replay is not None:
            lines.append(f"  {_deadline(replay, now)}token {token_of(replay)}")
        lines.append("")
    if count == 0:
        lines += ["You have no game in this league yet.", ""]
    elif yours_somewhere and (folder / PLAYERS_FILE).is_file():  # a keyed league (issue 45.4)
        lines += [games_hint(), ""]
    return "\n".join(lines)


def _deadline(replay: Replay, now: int) -> str:
    """`deadline 2026-12-04 13:00 UTC (2d23h left); ` for a timed game, else nothing."""
    clock = replay.verdict.clock
    if clock is None or now < clock.since:
        return ""
    view = clock.at(now)
    if view.deadline is None or view.running is None:
        return ""
    left = view.remaining(view.running)
    return f"deadline {spoken_instant(view.deadline)} ({format_duration(left) + ' left' if left > 0 else 'passed'}); "


def _judged_games(folder: Path) -> Iterator[tuple[GameResult, Replay | None]]:
    """Every game of the league that can be read, judged (`judge_game`), in file order."""
    for round_number, table, path in game_files(folder):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        yield judge_game(path, data, round_number, table)
