"""`referee league passphrases DIR`: who has a passphrase in `players.toml` (`--list`), and
passphrases issued by the referee to the players who have none (`--issue`), each mailed
to its own player alone (docs/league.md, "Passphrases").

A league with `players.toml` refuses every playing mail without its sender's passphrase
(PLAY.md §5), so a file that covers only some players locks the others out: `--issue`
closes the gap, `--list` and the warnings of `league add --key`, `league pair` and
`mail --add-player` show it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from pathlib import Path

from referee import store
from referee.judge.core.verdict_words import plural
from referee.league.folder import append_log, league_lock
from referee.league.league_toml import load
from referee.league.notify import message, write
from referee.live import mail as gateway
from referee.live.mail.gateway_values import PLAYERS_FILE
from referee.live.mail.players import load_keys
from referee.notation.timing import format_instant
from referee.speech import speaker

PASSPHRASE_BYTES = 12
"""Bytes drawn from `secrets` for an issued passphrase (96 bits, 16 URL-safe characters)."""


@dataclass(frozen=True)
class Holders:
    """Who of the league's players has a passphrase, and who has none."""

    having: tuple[str, ...]
    missing: tuple[str, ...]
    folder: Path = Path("DIR")
    """The league folder, as the game master named it (the command the warning proposes names it)."""

    def lines(self) -> list[str]:
        out = [f"has a passphrase: {address}" for address in self.having]
        out += [f"has none: {address}" for address in self.missing]
        if self.missing and self.having:
            out.append(
                f"warning: {plural(len(self.missing), 'player')} without a passphrase cannot play by mail: "
                f"referee league passphrases {self.folder} --issue"
            )
        return out


def holders(folder: Path) -> Holders:
    config = load(folder)
    keys = load_keys(folder / PLAYERS_FILE) or {}
    having = tuple(player.address for player in config.players if player.address in keys)
    missing = tuple(player.address for player in config.players if player.address not in keys)
    return Holders(having, missing, folder)


def issue(folder: Path, now: int, sender: str) -> list[str]:
    """Draw a passphrase for every player who has none, write its hash into players.toml
    and mail it to that player alone (into DIR/outbox); one line per player issued."""
    with league_lock(folder):
        config = load(folder)
        keys = load_keys(folder / PLAYERS_FILE) or {}
        lines: list[str] = []
        for player in config.players:
            if player.address in keys:
                continue
            passphrase = secrets.token_urlsafe(PASSPHRASE_BYTES)
            # One transaction: the hash, its mail and the log line, or none of them (a
            # passphrase is never kept without being sent to its player).
            with store.transaction(folder):
                gateway.add_player(folder, player.address, passphrase)
                say = speaker(config.lang_of(player.address))
                body = say(
                    "{league}: your passphrase for playing by mail is\n\n"
                    "  {passphrase}\n\n"
                    "Write it on a line of its own above your moves in every mail that plays:\n\n"
                    "  Key: {passphrase}\n"
                    "  Token: (the game's current token, which every answer quotes)\n\n"
                    "Keep it to yourself: anyone who has it can play for you. The game master can issue\n"
                    "a new one (referee mail add-player GAMES ADDRESS).\n",
                    league=config.name,
                    passphrase=passphrase,
                )
                subject = say("{league}: your passphrase", league=config.name)
                mail = message(sender, player.address, player.name, subject, body, now)
                write(folder, [mail], now)
                append_log(folder, [{"event": "passphrase", "at": format_instant(now), "to": player.address}])
            lines.append(f"issued a passphrase to {player.tag} (mailed into {folder / 'outbox'})")
        if not lines:
            lines.append("every player has a passphrase: nothing issued")
        return lines
