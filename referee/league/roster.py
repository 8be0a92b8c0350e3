"""The roster once the season has begun (docs/league.md, "The roster"): `league withdraw`,
`league substitute`, `league address` and `league unpair`. Each is told by mail to the
players concerned and kept in `league.log`, so that standings stay derivable from the
game files and the log:

- `{"event": "withdraw", "address"}`: the player is paired no more (Swiss: left out of the
  order; round robins and groups: a table holding the player is not made, its other
  players have a bye); each of the player's ongoing games is forfeited: `resign` written
  for the player's side when it is to move, now or by a later `tick`.
- `{"event": "address", "old", "new", "name"}` (`address` and `substitute`): NEW takes
  OLD's place in `league.toml`, in the side tags of every ongoing game and in
  `players.toml`; finished games keep the address they were played under, and the league
  reads them as NEW's (`results.read_games`), so the seat keeps its results and rating.
- `{"event": "unpair", "round", "games"}`: the last round's games deleted (with their
  keys) while no move is played in any of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.judge.core.verdicts import Status
from referee.league.folder import KEYS_DIR, LeagueRefused, append_log, league_lock, read_log
from referee.league.league_toml import (
    CONFIG_FILE,
    LeagueConfig,
    LeagueConfigError,
    checked_address,
    checked_name,
    load,
    parse,
)
from referee.league.leave import DAY, used_leave
from referee.league.notify import message, write
from referee.league.results import GameResult, game_files, judge_game, withdrawn_in
from referee.live.mail.mail_errors import DeliveryError
from referee.live.mail.retoken import retagged
from referee.live.play import changes
from referee.notation.timing import format_duration, format_instant
from referee.speech import N_, Speaker, speaker

WAIT = 10.0


@dataclass(frozen=True)
class Changed:
    """What a roster command did: its lines for the game master and the mails written."""

    lines: tuple[str, ...]
    mails: int = 0
    notes: tuple[str, ...] = field(default=())


def _player(config: LeagueConfig, address: str) -> str:
    wanted = address.strip().lower()
    if config.player(wanted) is None:
        raise UsageError(f"ADDRESS: {address} is no player of {config.name}")
    return wanted


def _games(folder: Path) -> list[tuple[Path, GameResult]]:
    found = []
    for round_number, table, path in game_files(folder):
        found.append((path, judge_game(path, path.read_bytes(), round_number, table)[0]))
    return found


def _tell(
    folder: Path,
    config: LeagueConfig,
    to: Sequence[tuple[str, str]],
    told: Callable[[Speaker, str], tuple[str, str]],
    now: int,
    sender: str,
) -> int:
    """Mail each of `to` (address, name): `told(say, address)` gives the (subject, body) in
    that player's language (docs/languages.md)."""
    mails = [
        message(sender, address, name, *told(speaker(config.lang_of(address)), address), now)
        for address, name in dict(to).items()
    ]
    try:
        write(folder, mails, now)
    except DeliveryError as error:
        raise LeagueRefused(
            N_("done and logged, but the players' mails could not be written: {error}"), error=str(error)
        ) from None
    return len(mails)


# -- withdraw -------------------------------------------------------------------------------------


def withdraw(folder: Path, address: str, now: int, sender: str) -> Changed:
    """Withdraw a player: logged, their ongoing games forfeited (resigned where it is their
    move; `tick` resigns the others when their move comes), everyone who shares a game
    with them and they themselves told."""
    with league_lock(folder), store.transaction(folder):  # all of it written, or none
        config = load(folder)
        wanted = _player(config, address)
        log = read_log(folder)
        if wanted in withdrawn_in(log):
            raise LeagueRefused(N_("{player} has already withdrawn from {league}"), player=wanted, league=config.name)
        append_log(folder, [{"event": "withdraw", "at": format_instant(now), "address": wanted}])
        lines = [f"{wanted} withdrawn from {config.name}: paired no more; their ongoing games are forfeited"]
        player = config.player(wanted)
        told: dict[str, str] = {wanted: player.name if player is not None else wanted}
        for path, game in _games(folder):
            if wanted in game.addresses and game.status == Status.ONGOING:
                told.update((seat.address, seat.name) for seat in game.seats)
                lines.append(forfeit(path, game, wanted, now) or f"{game.game}: forfeited when {wanted} is to move")
        player_name = told[wanted]

        def withdrawn(say: Speaker, _: str) -> tuple[str, str]:
            body = say(
                "{league}: {name} <{address}> has withdrawn from the league.\n\n"
                "Their ongoing games are forfeited (a resignation written when it is their move),\n"
                "and they are paired no more.\n",
                league=config.name,
                name=player_name,
                address=wanted,
            )
            return say("{league}: {name} has withdrawn", league=config.name, name=player_name), body

        count = _tell(folder, config, list(told.items()), withdrawn, now, sender)
        return Changed(tuple(lines), count)


def forfeit(path: Path, game: GameResult, address: str, now: int) -> str | None:
    """Write `resign` for the withdrawn player's side when it is to move; a line saying so,
    or None when it is not their move."""
    from referee.live.play import submit

    seat = game.player_of(game.to_move)
    if seat is None or seat.address != address or game.to_move is None:
        return None
    result = submit(path, "resign", as_side=game.to_move, now=now)
    if result.exit_code != 0:
        return f"{game.game}: the forfeit was refused: {result.error}"
    return f"{game.game}: {game.to_move} resigned (forfeit)"


# -- address and substitute ----------------------------------------------------------------------


def change_address(folder: Path, old: str, new: str, now: int, sender: str, name: str | None = None) -> Changed:
    """NEW takes OLD's place (`name`: a substitute's name; None keeps the player's name)."""
    from referee.live.mail.gateway_values import PLAYERS_FILE
    from referee.live.mail.players import load_keys, load_langs, render_keys

    with league_lock(folder), store.transaction(folder):  # all of it written, or none
        config = load(folder)
        was = _player(config, old)
        try:
            wanted = checked_address(new, None, "NEW")
            if name is not None:
                checked_name(name.strip(), None, "--name")
        except LeagueConfigError as error:
            raise UsageError(f"{error.key}: {error.message}") from None
        if config.player(wanted) is not None:
            raise UsageError(f"NEW: {wanted} is already a player of {config.name}")
        before = config.player(was)
        assert before is not None
        new_name = name.strip() if name is not None else before.name
        path = folder / CONFIG_FILE
        text = path.read_text(encoding="utf-8")
        text = _rewrite_player(text, was, wanted, new_name if name is not None else None)
        parse(text, str(path))
        lines: list[str] = []
        todo: list[str] = []
        announced = 0  # the new tokens mailed to the players to move
        games_changed: list[str] = []
        told: dict[str, str] = {was: before.name, wanted: new_name}
        tag = f"{new_name} <{wanted}>"
        for game_path, game in _games(folder):
            if was in game.addresses and game.status == Status.ONGOING:
                what = (
                    changes.wording("seated", tag=tag, was=before.tag)
                    if name is not None
                    else changes.wording("address", player=before.name, address=wanted)
                )
                done = retagged(game_path, was, tag, [what], sender=sender, now=now, wait=WAIT, lang_of=config.lang_of)
                announced += len(done.mails)
                told.update((seat.address, seat.name) for seat in game.seats if seat.address != was)
                lines.append(f"{game.game}: {tag} in place of {before.tag}")
                games_changed.append(game.game)
        store.write(path, text)
        keys_path = folder / PLAYERS_FILE
        keys = load_keys(keys_path)
        if keys is not None and was in keys:
            # the same player keeps their passphrase; a substitute, who does not know the
            # one they replace, needs their own (`league passphrases DIR --issue`)
            with store.locked(keys_path, WAIT):
                entry = keys.pop(was)
                if name is None:
                    keys[wanted] = entry
                else:  # the game master's to-do: printed, never mailed to the players
                    todo.append(f"{was}'s passphrase removed: issue {wanted} one (league passphrases --issue)")
                langs = load_langs(keys_path)
                if was in langs and name is None:
                    langs[wanted] = langs.pop(was)
                store.write(keys_path, render_keys(keys, langs))
        event = {"event": "address", "at": format_instant(now), "old": was, "new": wanted, "name": new_name}
        append_log(folder, [event])
        # "Gus <new> substitutes for Bo <old>", but "Di <old> is now Di <new>": the old first
        games = list(games_changed)

        def changed(say: Speaker, _: str) -> tuple[str, str]:
            if name is not None:
                change = say("{new} substitutes for {old}", new=tag, old=before.tag)
            else:
                change = say("{old} is now {new}", old=before.tag, new=tag)
            body = say(
                "{league}: {change} from now on:\n"
                "in league.toml, in every ongoing game (the side tags, so every token changed) and\n"
                "in the standings, where the seat keeps its results so far.\n",
                league=config.name,
                change=change,
            )
            if games:
                said = [say("{game}: {new} in place of {old}", game=game, new=tag, old=before.tag) for game in games]
                body += "\n" + say("Games:") + "\n" + "\n".join(f"  {line}" for line in said) + "\n"
            return f"{config.name}: {change}", body

        count = _tell(folder, config, list(told.items()), changed, now, sender)
        return Changed((f"{before.tag} -> {tag}", *lines, *todo), count + announced)


def _rewrite_player(text: str, old: str, new: str, name: str | None) -> str:
    """league.toml's text with the [[player]] of address OLD given address NEW (and NAME)."""
    quoted = re.escape(old)
    pattern = re.compile(r'(?m)^(\s*address\s*=\s*)"' + quoted + r'"')
    text, count = pattern.subn(lambda found: f'{found.group(1)}"{new}"', text, count=1)
    if count != 1:
        raise UsageError(f'{CONFIG_FILE}: no line address = "{old}" to change (edit it by hand)')
    if name is not None:
        at = text.index(f'"{new}"')
        start = text.rfind("[[player]]", 0, at)
        end = text.find("[[player]]", at)
        block = text[start : end if end >= 0 else len(text)]
        changed = re.sub(r'(?m)^(\s*name\s*=\s*)".*"', lambda found: f"{found.group(1)}{_toml(name)}", block, count=1)
        text = text[:start] + changed + text[start + len(block) :]
    return text


def _toml(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


# -- unpair ----------------------------------------------------------------------------------------


def unpair(folder: Path, now: int, sender: str) -> Changed:
    """Delete the last round's games while none of them holds a move; told to its players."""
    with league_lock(folder), store.transaction(folder):  # all of it written, or none
        config = load(folder)
        games = _games(folder)
        if not games:
            raise LeagueRefused(N_("{league}: no round is paired"), league=config.name)
        last = max(game.round for _, game in games)
        round_games = [(path, game) for path, game in games if game.round == last]
        played = [game.game for path, game in round_games if _has_moves(path)]
        if played:
            raise LeagueRefused(
                N_("round {round} cannot be unpaired: a move is played in {games}"), round=last, games=", ".join(played)
            )
        told: dict[str, str] = {}
        for path, game in round_games:
            told.update((seat.address, seat.name) for seat in game.seats)
            store.remove(path)
            store.remove(folder / KEYS_DIR / f"{game.game}.key")
        names = [game.game for _, game in round_games]
        log = read_log(folder)
        back = _leave_back(log, last, names, now)
        append_log(folder, [{"event": "unpair", "at": format_instant(now), "round": last, "games": names}, *back])
        lines = [f"round {last} unpaired: {', '.join(names)} deleted"]
        used = {entry["player"]: used_leave([*log, *back], entry["player"]) for entry in back}
        allowance = format_duration(config.leave_days * DAY)
        for entry in back:
            lines.append(
                f"{entry['player']}: {entry['duration']} of leave given back (granted in {', '.join(entry['games'])} "
                f"only, now deleted); {format_duration(used[entry['player']])} of {allowance} used"
            )
        deleted = ", ".join(f"[{name}]" for name in names)

        def unpaired(say: Speaker, address: str) -> tuple[str, str]:
            body = say(
                "{league}: the pairing of round {round} is withdrawn by the game master: the games\n"
                "{games} are deleted (no move was played). A new pairing follows.\n",
                league=config.name,
                round=last,
                games=deleted,
            )
            for entry in (entry for entry in back if entry["player"] == address):
                body += "\n" + say(
                    "The {duration} of leave you took in {games} are given back:\n"
                    "you have used {used} of your {allowance} of leave this season.\n",
                    duration=entry["duration"],
                    games=", ".join(f"[{name}]" for name in entry["games"]),
                    used=format_duration(used[address]),
                    allowance=allowance,
                )
            return say("{league}: round {round} unpaired", league=config.name, round=last), body

        count = _tell(folder, config, list(told.items()), unpaired, now, sender)
        return Changed(tuple(lines), count)


def _leave_back(
    log: Sequence[dict[str, Any]], round_number: int, deleted: Sequence[str], now: int
) -> list[dict[str, Any]]:
    """The `leave-back` entries of an unpair of `round_number`: every leave taken since that
    round was paired whose grants were all in the games deleted (docs/league.md: the days
    come back, since the games they extended no longer exist)."""
    start = max(
        (
            index
            for index, entry in enumerate(log)
            if entry.get("event") == "pairing" and entry.get("round") == round_number
        ),
        default=len(log),
    )
    gone = set(deleted)
    back = []
    for entry in log[start:]:
        games = entry.get("games")
        if entry.get("event") != "leave" or not isinstance(games, list) or not games or not set(games) <= gone:
            continue
        back.append(
            {
                "event": "leave-back",
                "at": format_instant(now),
                "player": entry.get("player"),
                "duration": entry.get("duration"),
                "round": round_number,
                "games": games,
            }
        )
    return back


def _has_moves(path: Path) -> bool:
    _, replay = judge_game(path, path.read_bytes(), 0, 0)
    return replay is None or bool(replay.steps) or replay.verdict.status != Status.ONGOING
