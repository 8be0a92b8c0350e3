"""The mail gateway (PLAY.md §5): `referee mail --games DIR` reads one e-mail message on
standard input, plays the moves it carries on the game its subject names, and answers.

    handled = run(sys.stdin.buffer, settings)   # exit status 0, 2 or 75, lines for stderr

Modules, by concern: `incoming` (reading the message), `body` (the move text, `Key:` and
`Token:` lines), `players` (who may play: side tags, `players.toml` and scrypt keys),
`compose` (the answers' words and headers), `delivery` (SMTP or the outbox), `ledger`
(Message-IDs already handled), `game` (the one adapter to the rest of `referee`), and
`gateway` (the order in which a message is judged)."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import BinaryIO

from referee.judge.errors import BusyError, ExitStatus, UsageError
from referee.live.mail.errors import DeliveryError, KeysFileError
from referee.live.mail.gateway import PLAYERS_FILE, Handled, Settings, handle

MAX_MESSAGE_BYTES = 64 * 2**20
"""Larger messages are not read (a line on standard error, exit 0): no game needs them."""


def settings(
    games: Path,
    *,
    outbox: Path | None = None,
    smtp: str | None = None,
    starttls: bool = False,
    smtp_user: str | None = None,
    keys: Path | None = None,
    sender: str | None = None,
    wait: float = 10.0,
) -> Settings:
    """The options checked; UsageError for any that cannot work."""
    from referee.live.mail import delivery, players

    if not games.is_dir():
        raise UsageError(f"--games {games}: no such folder")
    if keys is not None and not keys.is_dir():
        raise UsageError(f"--keys {keys}: no such folder")
    if (starttls or smtp_user is not None) and smtp is None:
        raise UsageError("--starttls and --smtp-user need --smtp HOST:PORT")
    server = delivery.smtp_settings(smtp, starttls, smtp_user) if smtp is not None else None
    address = players.checked_address(sender) if sender is not None else default_sender()
    return Settings(games, outbox if outbox is not None else games / "outbox", server, keys, address, wait)


def default_sender() -> str:
    """`referee@` and this machine's name (no DNS look-up): what answers come from without `--from`."""
    host = socket.gethostname().strip().lower() or "localhost"
    host = host if all(c.isalnum() or c in ".-" for c in host) else "localhost"
    return f"referee@{host}"


def run(stream: BinaryIO, config: Settings) -> Handled:
    """Handle the one message on `stream`. Never raises for anything the message holds:
    UsageError for the game folder (exit 2); a busy game or a failed write is exit 75."""
    data = stream.read(MAX_MESSAGE_BYTES + 1)
    if len(data) > MAX_MESSAGE_BYTES:
        return Handled(0, (f"a message over {MAX_MESSAGE_BYTES // 2**20} MiB: not read, no answer",))
    try:
        return handle(data, config)
    except BusyError as error:
        return Handled(ExitStatus.BUSY, (f"{error} (exit 75: the mail system will deliver it again)",))
    except DeliveryError as error:
        return Handled(ExitStatus.BUSY, (str(error),))
    except OSError as error:
        # The disk or the folder failed us, not the message: let the mail system try again.
        return Handled(ExitStatus.BUSY, (f"cannot handle the message now: {error.strerror or error}",))
    except UsageError:
        raise
    except Exception as error:  # a bug of the gateway: keep the message queued rather than lose it
        return Handled(ExitStatus.BUSY, (f"internal error, the message is left to the mail system: {error!r}",))


def add_player(games: Path, address: str, passphrase_text: str, wait: float = 10.0) -> str:
    """Write (or replace) an address's passphrase entry in `DIR/players.toml`; returns a line saying so.
    The file is written atomically under its lock and readable by its owner only."""
    from referee.live.mail import game, players

    if not games.is_dir():
        raise UsageError(f"--games {games}: no such folder")
    checked = players.checked_address(address)
    entry = players.hash_passphrase(players.checked_passphrase(passphrase_text))
    path = games / PLAYERS_FILE
    try:
        with game.locked(path, wait):
            keys = players.load_keys(path) or {}
            replaced = checked in keys
            keys[checked] = entry
            if not path.exists():
                path.touch(mode=0o600)
            os.chmod(path, 0o600)
            game.write_atomically(path, players.render_keys(keys))
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from None
    return f"{'replaced' if replaced else 'added'} the key of {checked} in {path}"


__all__ = [
    "BusyError",
    "DeliveryError",
    "Handled",
    "KeysFileError",
    "UsageError",
    "Settings",
    "add_player",
    "default_sender",
    "run",
    "settings",
]
