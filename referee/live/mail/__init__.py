"""The mail gateway (PLAY.md §5): `referee mail --games DIR` reads one e-mail message on
standard input, plays the moves it carries on the game its subject names, and answers.

    handled = run(sys.stdin.buffer, settings)   # exit status 0, 2 or 75, lines for stderr

Modules, by concern: `incoming` (reading the message), `body` (the move text, `Key:` and
`Token:` lines), `players` (who may play: side tags, `players.toml` and scrypt keys),
`compose` (the answers' words and headers), `delivery` (SMTP or the outbox), `ledger`
(Message-IDs already handled), `game` (the one adapter to the rest of `referee`), and
`gateway` (the order in which a message is judged)."""

from __future__ import annotations

import socket
from collections.abc import Mapping
from pathlib import Path
from typing import BinaryIO

from referee import store
from referee.errors import BusyError, ExitStatus, UsageError
from referee.judge.core.verdict_words import plural
from referee.live.mail.gateway import flush_waiting, handle
from referee.live.mail.gateway_values import MAX_SIZE, PLAYERS_FILE, Handled, Settings
from referee.live.mail.mail_errors import DeliveryError, KeysFileError

_CHUNK = 2**16


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
    max_size: int = MAX_SIZE,
    gm: str | None = None,
    now: str | None = None,
    log_file: Path | None = None,
    trust_authserv: str | None = None,
) -> Settings:
    """The options checked; UsageError for any that cannot work. `now` is the time as
    an instant (`2026-12-01T12:00:00Z`, for tests and replays), else the system clock."""
    from referee.live.mail import delivery, players, verified
    from referee.notation.timing import TimingError, parse_instant

    if not games.is_dir():
        raise UsageError(f"the games folder {games}: no such folder")
    if keys is not None and not keys.is_dir():
        raise UsageError(f"--keys {keys}: no such folder")
    if (starttls or smtp_user is not None) and smtp is None:
        raise UsageError("--starttls and --smtp-user need --smtp HOST:PORT")
    server = delivery.smtp_settings(smtp, starttls, smtp_user) if smtp is not None else None
    address = players.checked_address(sender) if sender is not None else default_sender()
    copy = players.checked_address(gm) if gm is not None else None
    if max_size < 1024:
        raise UsageError(f"--max-size {max_size}: at least 1024 bytes, so that a message's head can be read")
    try:
        moment = parse_instant(now) if now is not None else None
    except TimingError as error:
        raise UsageError(f"--now: {error}") from None
    box = outbox if outbox is not None else games / "outbox"
    store.trust(box)  # an outbox elsewhere: what a dead run owed there is completed here too
    if log_file is not None:
        from referee.store.outputs import refused_appending

        why = refused_appending(log_file)
        if why is not None:
            raise UsageError(f"--log-file {log_file}: {why}")
        if not log_file.parent.is_dir():
            raise UsageError(f"--log-file {log_file}: not a file in an existing folder")
    trusted = verified.checked_authserv(trust_authserv) if trust_authserv is not None else None
    return Settings(games, box, server, keys, address, wait, max_size, copy, moment, log_file=log_file, trusted=trusted)


def default_sender() -> str:
    """`referee@` and this machine's name (no DNS look-up): what answers come from without `--from`."""
    host = socket.gethostname().strip().lower() or "localhost"
    host = host if all(c.isalnum() or c in ".-" for c in host) else "localhost"
    return f"referee@{host}"


def run(stream: BinaryIO, config: Settings) -> Handled:
    """Handle the one message on `stream`. Never raises for anything the message holds:
    UsageError for the game folder (exit 2); a busy game or a failed write is exit 75."""
    data, too_large = read_bounded(stream, config.max_size)
    return handle_bytes(data, config, too_large)


def handle_bytes(data: bytes, config: Settings, too_large: bool = False) -> Handled:
    """Handle one message already read (at most `config.max_size` bytes of it; `too_large`
    says there was more): what `run` does with standard input, and what `referee mail
    --imap` does with each message of the mailbox. The same errors become the same exits."""
    try:
        return handle(data, config, too_large)
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


def read_bounded(stream: BinaryIO, limit: int) -> tuple[bytes, bool]:
    """The first `limit` bytes of the message, and whether there was more. The rest is read
    and thrown away a piece at a time (the mail system wants its pipe read to the end), so
    that a message of any size costs no more memory than its first `limit` bytes; but no
    more than `--max-record-bytes` of it is thrown away (PLAY.md §8: an endless input, such
    as a device, ends the reading there)."""
    from referee.judge.sources import record_sources

    data = stream.read(limit)
    extra = stream.read(_CHUNK)
    if not extra:
        return data, False
    drained, most = len(extra), record_sources.MAX_RECORD
    while drained <= most and (piece := stream.read(_CHUNK)):
        drained += len(piece)
    return data, True


def flush(config: Settings) -> Handled:
    """`mail --flush`: send every answer waiting in the outbox; exit 75 while the server cannot take them."""
    from referee.live.mail import delivery

    if config.smtp is None:
        raise UsageError("--flush sends the outbox by SMTP: give --smtp HOST:PORT")
    store.settle(config.games, config.wait)  # answers a dead gateway owed go out too
    waiting = len(delivery.waiting(config.outbox)) if config.outbox.is_dir() else 0
    try:
        flushed = flush_waiting(config)
    except DeliveryError as error:
        left = len(delivery.waiting(config.outbox))
        return Handled(ExitStatus.BUSY, (f"{error}: {plural(left, 'answer')} left in {config.outbox}",))
    if flushed.sent == 0 and not flushed.set_aside and waiting:
        return Handled(ExitStatus.BUSY, (f"another gateway is sending the outbox {config.outbox} now",))
    notes = [f"refused for good, kept as {path}" for path in flushed.set_aside]
    return Handled(0, (f"sent {plural(flushed.sent, 'answer')} from {config.outbox}", *notes))


def show_log(games: Path, count: int, json_log: Path | None = None) -> Handled:
    """`mail --games DIR --log [N]`: the last N messages handled, as a table, from the
    `--log-file` JSON log when given (with the reasons), else from DIR/mail.log."""
    from referee.live.mail import log

    if not games.is_dir():
        raise UsageError(f"the games folder {games}: no such folder")
    if count < 1:
        raise UsageError(f"--log {count}: at least 1")
    rows = log.last(games, count, json_log)
    if not rows:
        return Handled(0, (f"no message handled yet in {json_log or games / log.LOG_NAME}",))
    return Handled(0, tuple(log.table(rows)))


def check_games(games: Path) -> Handled:
    """`mail --check-games DIR`: every game whose side in play has no address (exit 1 when any)."""
    from referee.live.mail import game

    if not games.is_dir():
        raise UsageError(f"the games folder {games}: no such folder")
    store.settle(games)  # what a dead command left, completed first
    lines = game.unaddressed(games)
    if not lines:
        return Handled(0, (f"every game in {games} has an address for each side in play",))
    return Handled(1, tuple(lines))


def folder_players(games: Path) -> dict[str, str]:
    """The players (address -> name) the game files of a folder name."""
    from referee.live.mail import game

    return game.folder_players(games)


def locked_out(games: Path, players: Mapping[str, str]) -> list[str]:
    """With `DIR/players.toml`, every message that plays needs its sender's passphrase
    (PLAY.md §5): the players (of `players`, address -> name) it has none for, who could
    then play by mail no more, as `Name <address>`; [] when the file does not exist."""
    from referee.live.mail import players as keys_file

    keys = keys_file.load_keys(games / PLAYERS_FILE)
    if keys is None:
        return []
    return [f"{name} <{address}>" for address, name in sorted(players.items()) if address not in keys]


def locked_out_warning(games: Path, players: Mapping[str, str]) -> str | None:
    """The warning line for `locked_out`, or None when nobody is."""
    missing = locked_out(games, players)
    if not missing:
        return None
    return (
        f"warning: {games / PLAYERS_FILE} holds no passphrase for {plural(len(missing), 'player')}, whose mails "
        f"will all be refused until they have one: {', '.join(missing)}"
    )


def add_player(games: Path, address: str, passphrase_text: str, wait: float = 10.0) -> str:
    """Write (or replace) an address's passphrase entry in `DIR/players.toml`; returns a line saying so.
    The file is written atomically under its lock and readable by its owner only."""
    from referee.live.mail import game, players

    if not games.is_dir():
        raise UsageError(f"the games folder {games}: no such folder")
    checked = players.checked_address(address)
    entry = players.hash_passphrase(players.checked_passphrase(passphrase_text))
    path = games / PLAYERS_FILE
    try:
        with store.transaction(games, wait), game.locked(path, wait):
            keys = players.load_keys(path) or {}
            replaced = checked in keys
            keys[checked] = entry
            store.write(
                path, players.render_keys(keys, players.load_langs(path)), mode=0o600
            )  # readable by its owner only
    except store.WriteFailed:
        raise
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
    "check_games",
    "default_sender",
    "flush",
    "handle_bytes",
    "read_bounded",
    "run",
    "settings",
    "show_log",
]
