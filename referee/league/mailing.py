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
from referee.league.leave import Leave, leave
from referee.league.results import GameResult, game_files, judge_game, named
from referee.live.mail import Settings
from referee.live.mail.asked import LEAVE_FORM
from referee.live.mail.compose import games_hint
from referee.live.mail.gateway_values import PLAYERS_FILE
from referee.live.mail.policy import Digest as MailDigest
from referee.live.mail.policy import Reply, Requests
from referee.notation.timing import format_duration, spoken_instant
from referee.speech import DEFAULT, Speaker, rule_text, speaker
from referee.spoken_lines import STATUS


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
        say = speaker(config.lang_of(address))
        try:
            done = leave(folder, address, duration, now, sender)
        except (UsageError, LeagueRefused, LeagueConfigError) as error:
            text = say("{league}: your leave was not granted: nothing was written.", league=config.name)
            said = error.said(say) if isinstance(error, LeagueRefused) else rule_text(str(error), say)
            text += f"\n\n{said}\n"  # the league's own line, said in the player's language
            if isinstance(error, UsageError) and str(error).startswith("DURATION"):
                text += "\n" + say("Ask for leave as") + f"\n\n  {say(LEAVE_FORM)}\n"
            return Reply(text, written=False)
        return Reply(say("{league}: leave granted.", league=config.name) + "\n\n" + leave_text(done, say), written=True)

    return granted


def leave_text(done: Leave, say: Speaker) -> str:
    """A granted leave as its player reads it: the duration, each game's sides, what is left."""
    if say.lang == DEFAULT:
        return "\n".join(done.lines()) + "\n"
    duration = format_duration(done.duration)
    lines = [say("{address}: {duration} of leave granted", address=done.address, duration=duration)]
    lines += [f"{game}: {', '.join(say.word(side) for side in sides)} +{duration}" for game, sides in done.granted]
    lines.append(
        say(
            "leave used {used} of {allowance}; {left} left",
            used=format_duration(done.used),
            allowance=format_duration(done.allowance),
            left=format_duration(max(0, done.allowance - done.used)),
        )
    )
    return "\n".join(lines) + "\n"


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
    say = speaker(config.lang_of(address))
    player = config.player(address)
    who = player.name if player is not None else address
    lines = [
        say(
            "{league}: your message names no game of the league in its Subject, so nothing was played.",
            league=config.name,
        ),
        say("Answer the mail of the game you mean, or write its [ID] in the Subject, e.g. [r1-t1]."),
        "",
    ]
    games: list[str] = []
    for result, replay in _judged_games(folder):
        if address not in result.addresses or result.status != Status.ONGOING or replay is None:
            continue
        mover = result.player_of(result.to_move)
        turn = (
            say("your move")
            if mover is not None and mover.address == address
            else say("{name} ({side}) to move", name=mover.name if mover else "?", side=say.word(str(result.to_move)))
        )
        games.append(
            "  "
            + say(
                "[{game}] round {round}: {turn}; {deadline}token {token}",
                game=result.game,
                round=result.round,
                turn=turn,
                deadline=_deadline(replay, now, say),
                token=token_of(replay),
            )
        )
    if games:
        lines += [say("The open games of {who}:", who=who), *games, ""]
        if (folder / PLAYERS_FILE).is_file():  # a keyed league: the Key: line too (issue 45.4)
            lines += [games_hint(say), ""]
    else:
        lines += [say("{who}, you have no open game in this league now.", who=who), ""]
    return "\n".join(lines)


def status_text(folder: Path, config: LeagueConfig, address: str, now: int) -> str:
    """A player's games, as `status` by mail answers: for each, the seat and sides, the
    game's line of `referee league status`, and for a game that goes on the deadline of the
    side to move (timed leagues) and the current token."""
    say = speaker(config.lang_of(address))
    player = config.player(address)
    who = player.tag if player is not None else address
    when = say.instant(now, spoken_instant(now))
    lines = [say("{league}: the games of {who} on {when}.", league=config.name, who=who, when=when), ""]
    count = 0
    yours_somewhere = False
    for result, replay in _judged_games(folder):
        seats = [number for number, seat in enumerate(result.seats, start=1) if seat.address == address]
        if not seats:
            continue
        count += 1
        seat = result.seats[seats[0] - 1]
        mover = result.player_of(result.to_move) if result.status == Status.ONGOING else None
        yours = mover is not None and mover.address == address
        yours_somewhere = yours_somewhere or yours
        sides = ", ".join(say.word(side) for side in seat.sides)
        head = say(
            "[{game}] round {round}, seat {seat} ({sides})",
            game=result.game,
            round=result.round,
            seat=seats[0],
            sides=sides,
        )
        lines.append(head + (say(": your move") if yours else ""))
        lines += [f"  {part}" for part in _game_parts(result, say)]
        if result.status == Status.ONGOING and replay is not None:
            lines.append(
                "  " + say("{deadline}token {token}", deadline=_deadline(replay, now, say), token=token_of(replay))
            )
        lines.append("")
    if count == 0:
        lines += [say("You have no game in this league yet."), ""]
    elif yours_somewhere and (folder / PLAYERS_FILE).is_file():  # a keyed league (issue 45.4)
        lines += [games_hint(say), ""]
    return "\n".join(lines)


def _game_parts(result: GameResult, say: Speaker) -> list[str]:
    """`league status`'s line of the game (without its deadline: it comes below, with the
    time left), a part a line (names hold no `;`), to keep lines short; in the player's
    language, its sides and words said again."""
    line = game_line(result, deadline=False)
    parts = line.removeprefix(f"{result.game}: ").split("; ")
    if say.lang == DEFAULT:
        return parts
    players = ", ".join(f"{'+'.join(say.word(side) for side in seat.sides)} {seat.name}" for seat in result.seats)
    if result.finished:
        said = named(result, say=say)
    elif result.legal:
        seat = result.player_of(result.to_move)
        said = say("{side} ({name}) to move", side=say.word(str(result.to_move)), name=seat.name if seat else "?")
    else:
        said = f"{say(STATUS.get(str(result.status), str(result.status)))}: {result.message}"
    out = [f"{players}: {said}" if players else said]
    if result.finished_at is not None:
        out.append(
            say("last submission {when}", when=say.instant(result.finished_at, spoken_instant(result.finished_at)))
        )
    return out


def _deadline(replay: Replay, now: int, say: Speaker) -> str:
    """`deadline 2026-12-04 13:00 UTC (2d23h left); ` for a timed game, else nothing."""
    clock = replay.verdict.clock
    if clock is None or now < clock.since:
        return ""
    view = clock.at(now)
    if view.deadline is None or view.running is None:
        return ""
    left = view.remaining(view.running)
    when = say.instant(view.deadline, spoken_instant(view.deadline))
    if left > 0:
        return say("deadline {when} ({left} left); ", when=when, left=format_duration(left))
    return say("deadline {when} (passed); ", when=when)


def _judged_games(folder: Path) -> Iterator[tuple[GameResult, Replay | None]]:
    """Every game of the league that can be read, judged (`judge_game`), in file order."""
    for round_number, table, path in game_files(folder):
        try:
            data = path.read_bytes()
        except OSError:
            continue
        yield judge_game(path, data, round_number, table)
