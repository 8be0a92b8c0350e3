"""`referee league leave`: a player's leave (LEAGUE.md §3, TIME.md §2-3).

`leave_days` is a player's allowance for the season, counted once per call whatever the
number of games; a call that would exceed it is refused, never trimmed. The grant is
written with its stamp, as `play --grant` writes it, to each of the player's sides in
every ongoing game (each side has its own clock; with `D/move` the clock keeps a grant
to a side that is not running for its next turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.judge.core.verdicts import Status
from referee.league.folder import LeagueRefused, append_log, league_lock, read_log
from referee.league.league_toml import load
from referee.league.results import GameResult, read_games
from referee.notation.timing import TimingError, format_duration, format_instant, parse_duration
from referee.speech import N_

DAY = 86_400


@dataclass(frozen=True)
class Leave:
    """One granted leave: the player, the duration, the games and sides granted, and the
    allowance used after it (seconds)."""

    address: str
    duration: int
    granted: tuple[tuple[str, tuple[str, ...]], ...]
    used: int
    allowance: int
    faulty: tuple[GameResult, ...] = ()
    """The league's games found illegal or malformed (no grant; named, exit 1)."""

    def __repr__(self) -> str:
        return f"Leave({self.address} {format_duration(self.duration)} in {len(self.granted)} games)"

    def lines(self) -> list[str]:
        out = [f"{self.address}: {format_duration(self.duration)} of leave granted"]
        out += [f"{game}: {', '.join(sides)} +{format_duration(self.duration)}" for game, sides in self.granted]
        left = format_duration(max(0, self.allowance - self.used))
        out.append(f"leave used {format_duration(self.used)} of {format_duration(self.allowance)}; {left} left")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.address,
            "duration": format_duration(self.duration),
            "games": [{"game": game, "sides": list(sides)} for game, sides in self.granted],
            "used": format_duration(self.used),
            "allowance": format_duration(self.allowance),
        }


def used_leave(entries: Sequence[dict[str, Any]], address: str) -> int:
    """Seconds of leave a player has taken this season, from league.log: every `leave`,
    less every `leave-back` (a leave whose games `league unpair` deleted)."""
    total = 0
    for entry in entries:
        event = entry.get("event")
        if event in ("leave", "leave-back") and entry.get("player") == address:
            try:
                seconds = parse_duration(str(entry.get("duration", "")))
            except TimingError:
                continue
            total += seconds if event == "leave" else -seconds
    return max(total, 0)


def leave(folder: Path, address: str, duration_text: str, now: int, sender: str | None = None) -> Leave:
    """Grant `duration_text` of leave to the player `address` in all their ongoing games.
    UsageError for an unknown player or a bad duration; LeagueRefused (exit 1) beyond the
    allowance, in an untimed league, or when the player has no ongoing game. The player to
    move of each game granted is mailed its new token, from `sender` (default
    referee@HOSTNAME), in the same transaction (`referee.live.mail.retoken`)."""
    from referee.live.mail import default_sender
    from referee.live.mail.retoken import submitted
    from referee.live.play import changes

    try:
        duration = parse_duration(duration_text.strip())
    except TimingError:
        raise UsageError(
            N_("DURATION: not a duration (days, hours, minutes: 3d, 12h, 1d12h): {duration!r}").format(
                duration=duration_text
            )
        ) from None
    if duration <= 0:
        raise UsageError(N_("DURATION: leave is some time, not {duration!r}").format(duration=duration_text))
    with league_lock(folder):
        config = load(folder)
        player = config.player(address.strip().lower())
        if player is None:
            raise UsageError(
                N_("ADDRESS: {address!r} is no player of {league}").format(address=address, league=config.name)
            )
        if config.time_control is None:
            raise LeagueRefused(
                N_("{league} has no clock (no time_control): there is no time to grant"), league=config.name
            )
        allowance = config.leave_days * DAY
        log = read_log(folder)
        used = used_leave(log, player.address)
        if used + duration > allowance:
            taken = (
                N_("{player} has taken {used} of the {days} days of leave_days; {more} more would exceed them")
                if used
                else N_("{player} has taken no leave of the {days} days of leave_days; {more} more would exceed them")
            )
            more = format_duration(duration)
            raise LeagueRefused(
                taken, player=player.name, used=format_duration(used), days=config.leave_days, more=more
            )
        every = list(read_games(folder))
        games = [game for game in every if game.status == Status.ONGOING]
        targets = [
            (game, sides)
            for game in games
            for seat in game.seats
            if seat.address == player.address
            and (sides := tuple(side for side in seat.sides if side not in game.left))  # still in the game
        ]
        if not targets:
            raise LeagueRefused(N_("{player} has no ongoing game: there is nothing to grant"), player=player.name)
        text = format_duration(duration)
        granted: list[tuple[str, tuple[str, ...]]] = []
        # One transaction: every grant and the log entry that counts them, or nothing (a
        # game that refuses or is busy leaves every game as it was, and no leave used).
        with store.transaction(folder):
            for game, sides in targets:
                path = folder / f"{game.game}.rgn"
                given = ", ".join(f"{side} {text}" for side in sides)
                result, _ = submitted(
                    path,
                    None,
                    sender=sender or default_sender(),
                    now=now,
                    grants=[f"{side}={text}" for side in sides],
                    reason=[changes.wording("leave", given=given, player=player.name)],
                    lang_of=config.lang_of,
                )
                if result.exit_code != 0 or not result.written:
                    refused = N_("{game}: the grant was refused: {error}")
                    raise LeagueRefused(refused, game=game.game, error=result.error)
                granted.append((game.game, sides))
            entry = {
                "event": "leave",
                "at": format_instant(now),
                "player": player.address,
                "duration": text,
                "games": [game for game, _ in granted],
            }
            append_log(folder, [entry])
        faulty = tuple(game for game in every if not game.legal)
        return Leave(player.address, duration, tuple(granted), used + duration, allowance, faulty)
