"""`referee mail`, the mail gateway (PLAY.md §5), as six subcommands over one games folder
GAMES (given as `league` takes its folder: the first argument, or `games` in the configuration file):

- `mail receive GAMES`: play the moves of one message read on standard input, and answer;
- `mail imap GAMES URL`: the same for each message of an IMAP mailbox (one pass, --poll, --idle);
- `mail flush GAMES`: send the answers waiting in the outbox;
- `mail check GAMES`: the games with a side nobody could be told about;
- `mail log GAMES [N]`: the last N messages handled;
- `mail add-player GAMES ADDRESS`: a player's passphrase, read on standard input.

The spellings of the single `mail` command before them (`mail --games DIR`, `--imap`,
`--flush`, `--check-games`, `--log [N]`, `--add-player`) are read by
`referee.cli.mail_spelling` and keep working for one release, with a one-line notice."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from referee.cli.app import WAIT_DEFAULT, command_group, err, fail_usage, finish, out
from referee.cli.exits import Tally
from referee.cli.play_commands import finite_wait, passphrase_text
from referee.errors import BusyError, ExitStatus, UsageError

mail_app = command_group(
    "mail",
    "The mail gateway: play e-mail from standard input or an IMAP mailbox, answer the players.",
    "The mail gateway: play the moves that arrive by e-mail, answer every player (PLAY.md §5).\n\n"
    "Example (.forward, procmail): /usr/local/bin/referee mail receive /home/gm/games --smtp localhost:25",
)

Games = Annotated[
    str | None,
    typer.Argument(
        help="The games folder: game ID is the file GAMES/ID.rgn (default: `games` of the configuration file).",
        metavar="GAMES",
        show_default=False,
    ),
]
Outbox = Annotated[
    str | None, typer.Option("--outbox", help="Write answers as .eml files here (default GAMES/outbox).", metavar="DIR")
]
Smtp = Annotated[str | None, typer.Option("--smtp", help="Send answers by SMTP to HOST:PORT.", metavar="HOST:PORT")]
Starttls = Annotated[bool, typer.Option("--starttls", help="Use STARTTLS with --smtp.")]
SmtpUser = Annotated[
    str | None,
    typer.Option(
        "--smtp-user", help="Log in as USER; the password is read from REFEREE_SMTP_PASSWORD.", metavar="USER"
    ),
]
Keys = Annotated[
    str | None, typer.Option("--keys", help="The GM's seed files KEYS/ID.key: rolls are drawn at once.", metavar="KEYS")
]
Sender = Annotated[
    str | None,
    typer.Option("--from", help="The address answers come from (default referee@HOSTNAME).", metavar="ADDRESS"),
]
Wait = Annotated[float, typer.Option("--wait", callback=finite_wait, help="Seconds to wait for a busy game.")]
MaxSize = Annotated[
    int, typer.Option("--max-size", help="Read at most BYTES of a message before its sender is known.", metavar="BYTES")
]
Gm = Annotated[
    str | None, typer.Option("--gm", help="The game master's address, copied (Cc) on every answer.", metavar="ADDRESS")
]
Now = Annotated[
    str | None,
    typer.Option("--now", help="The time of mail.log and of the stamps, as 2026-12-01T12:00:00Z (default: the clock)."),
]
LogFile = Annotated[
    str | None, typer.Option("--log-file", help="Append each message's JSON log line here too.", metavar="PATH")
]
TrustAuthserv = Annotated[
    str | None,
    typer.Option(
        "--trust-authserv",
        help="Trust the Authentication-Results (dmarc=pass, aligned dkim=pass) of this authserv-id.",
        metavar="ID",
    ),
]


def _folder(games_dir: str | None) -> Path:
    if games_dir is None:
        raise UsageError("give the games folder GAMES (or set `games` in the configuration file: referee config)")
    return Path(games_dir)


def _settings(games_dir: str | None, **options: Any) -> Any:
    from referee.live import mail as gateway

    for name in ("outbox", "keys", "log_file"):
        if options.get(name) is not None:
            options[name] = Path(options[name])
    return gateway.settings(_folder(games_dir), **options)


def _message_settings(games_dir: str | None, **options: Any) -> Any:
    """What `receive` and `imap` handle a message with: the options' settings, and on a
    league's folder the league's keys (unless --keys), digest and requests."""
    from referee.league.mailing import on_league

    return on_league(_settings(games_dir, **options), keys_given=options["keys"] is not None)


def _stdin() -> None:
    if sys.stdin is None:
        raise UsageError("cannot read standard input: it is closed")


def _done(handled: Any) -> NoReturn:
    """The end of `receive` and `imap`: their notes, then 0 or 75."""
    for note in handled.notes:
        err(f"referee mail: {note}")
    finish(Tally(busy=handled.exit_code == ExitStatus.BUSY))


def _report(handled: Any) -> NoReturn:
    """The end of `flush`, `check` and `log`: their lines, then 0, 1 or 75."""
    busy = handled.exit_code == ExitStatus.BUSY
    for note in handled.notes:
        if busy:
            err(f"referee mail: {note}")
        else:
            out(note)
    finish(Tally(busy=busy, refused=handled.exit_code == ExitStatus.REJECTED))


def _refused(error: Exception) -> NoReturn:
    if isinstance(error, BusyError):
        err(f"referee: mail: {error}")
        finish(Tally(busy=True))
    if isinstance(error, UsageError):
        fail_usage(UsageError(f"mail: {error}"))
    assert isinstance(error, OSError)
    fail_usage(UsageError(f"mail: {error.strerror or error}"))  # a full disk: the file named


@mail_app.command(short_help="Play the moves of one message read on standard input, and answer.")
def receive(
    games_dir: Games = None,
    outbox: Outbox = None,
    smtp: Smtp = None,
    starttls: Starttls = False,
    smtp_user: SmtpUser = None,
    keys: Keys = None,
    sender: Sender = None,
    wait: Wait = WAIT_DEFAULT,
    max_size: MaxSize = 2**20,
    gm: Gm = None,
    now: Now = None,
    log_file: LogFile = None,
    trust_authserv: TrustAuthserv = None,
) -> None:
    """Play the moves of one e-mail message read on standard input, and answer (PLAY.md §5).

    The subject names the game as [ID], the file GAMES/ID.rgn; the sender must be a player
    that the record's side tags name. Strangers get no answer.

    Exit status 0 when the message was handled (a refusal or a stranger included), 75 when
    the game is busy or the answers cannot be sent (the mail system delivers it again), 2
    for a usage error. Every message's outcome is a line of GAMES/mail.log.

    On a league's folder (GAMES/league.toml) it plays with the league's keys (GAMES/keys),
    answers moves as its digest setting says, and reads the requests `status` and
    `leave DURATION` (LEAGUE.md; docs/league.md). --trust-authserv ID lets the provider's
    DMARC/DKIM verdict stand for a passphrase.

    Example (.forward, procmail): /usr/local/bin/referee mail receive /home/gm/games --smtp localhost:25
    """
    from referee.live import mail as gateway

    try:
        _stdin()
        config = _message_settings(
            games_dir, outbox=outbox, smtp=smtp, starttls=starttls, smtp_user=smtp_user, keys=keys,
            sender=sender, wait=wait, max_size=max_size, gm=gm, now=now, log_file=log_file,
            trust_authserv=trust_authserv,
        )  # fmt: skip
        handled = gateway.run(sys.stdin.buffer, config)
    except (BusyError, UsageError, OSError) as error:
        _refused(error)
    _done(handled)


@mail_app.command(short_help="Play the messages of an IMAP mailbox: one pass, or --poll / --idle.")
def imap(
    games_dir: Games = None,
    url: Annotated[
        str | None,
        typer.Argument(
            help="The mailbox: imaps://USER@HOST[:PORT]/MAILBOX (imap:// for STARTTLS; default: `imap` of the "
            "configuration file). The password from REFEREE_IMAP_PASSWORD or --imap-password-file, or an OAuth2 "
            "token from REFEREE_IMAP_OAUTH2_TOKEN.",
            metavar="URL",
            show_default=False,
        ),
    ] = None,
    imap_password_file: Annotated[
        str | None, typer.Option("--imap-password-file", help="Read the IMAP password from this file.", metavar="PATH")
    ] = None,
    poll: Annotated[
        float | None, typer.Option("--poll", min=1, help="A pass every SECONDS, until stopped.", metavar="SECONDS")
    ] = None,
    idle: Annotated[bool, typer.Option("--idle", help="Wait for new mail with IMAP IDLE, until stopped.")] = False,
    outbox: Outbox = None,
    smtp: Smtp = None,
    starttls: Starttls = False,
    smtp_user: SmtpUser = None,
    keys: Keys = None,
    sender: Sender = None,
    wait: Wait = WAIT_DEFAULT,
    max_size: MaxSize = 2**20,
    gm: Gm = None,
    now: Now = None,
    log_file: LogFile = None,
    trust_authserv: TrustAuthserv = None,
) -> None:
    """Read the game master's mailbox instead of standard input, each message handled as
    `mail receive` handles one (docs/mail.md).

    One pass (for cron), or --poll SECONDS / --idle to keep running; each message handled is
    moved to referee/played, referee/refused or referee/ignored. Exit 75 when one is left for
    the next pass (a busy game) or the server failed.

    Example: referee mail imap /home/gm/games imaps://gm@mail.example.org/INBOX --idle
    """
    from referee.live import mail as gateway
    from referee.live.mail import imap as mailbox

    try:
        if url is None:
            raise UsageError("give the mailbox URL (or set `imap` in the configuration file: referee config)")
        if poll is not None and idle:
            raise UsageError("--poll and --idle exclude each other")
        config = _message_settings(
            games_dir, outbox=outbox, smtp=smtp, starttls=starttls, smtp_user=smtp_user, keys=keys,
            sender=sender, wait=wait, max_size=max_size, gm=gm, now=now, log_file=log_file,
            trust_authserv=trust_authserv,
        )  # fmt: skip
        box = mailbox.parse_url(url)
        login = mailbox.login_from(Path(imap_password_file) if imap_password_file is not None else None)
        try:
            handled = mailbox.run(box, login, config, gateway.handle_bytes, poll=poll, idle=idle, report=_note)
        except KeyboardInterrupt:  # the game master's Ctrl-C: every message handled so far is recorded
            handled = gateway.Handled(0, ("stopped",))
    except (BusyError, UsageError, OSError) as error:
        _refused(error)
    _done(handled)


def _note(line: str) -> None:
    err(f"referee mail: {line}")


@mail_app.command(short_help="Send the answers waiting in the outbox (exit 75 while the server is down).")
def flush(
    games_dir: Games = None,
    outbox: Outbox = None,
    smtp: Smtp = None,
    starttls: Starttls = False,
    smtp_user: SmtpUser = None,
    sender: Sender = None,
    now: Now = None,
    log_file: LogFile = None,
) -> None:
    """Send the answers waiting in GAMES/outbox (or --outbox) through --smtp, oldest first; each
    sent is removed. Exit 75 while the server is down: the rest wait for the next flush.

    Example (cron): */10 * * * * referee mail flush /home/gm/games --smtp localhost:25
    """
    from referee.live import mail as gateway

    try:
        config = _settings(
            games_dir, outbox=outbox, smtp=smtp, starttls=starttls, smtp_user=smtp_user, sender=sender, now=now,
            log_file=log_file,
        )  # fmt: skip
        handled = gateway.flush(config)
    except (BusyError, UsageError, OSError) as error:
        _refused(error)
    _report(handled)


@mail_app.command(short_help="List the games of GAMES with a side that has no address (exit 1 when there is one).")
def check(games_dir: Games = None) -> None:
    """List the games of GAMES with a side nobody could be told about: a side tag without an
    e-mail address. Exit 1 when there is one, 0 when every side has an address.

    Example: referee mail check /home/gm/games
    """
    from referee.live import mail as gateway

    try:
        handled = gateway.check_games(_folder(games_dir))
    except (BusyError, UsageError, OSError) as error:
        _refused(error)
    _report(handled)


@mail_app.command(name="log", short_help="Print the last N messages handled (default 20) as a table.")
def show_log(
    games_dir: Games = None,
    count: Annotated[int, typer.Argument(help="How many messages, the newest last.", metavar="[N]")] = 20,
    log_file: Annotated[
        str | None,
        typer.Option(
            "--log-file", help="Read the JSON log lines of this file instead of GAMES/mail.log.", metavar="PATH"
        ),
    ] = None,
) -> None:
    """Print the last N messages handled (default 20) as a table: when, from whom, which game,
    what became of it.

    Example: referee mail log /home/gm/games 5
    """
    from referee.live import mail as gateway

    try:
        handled = gateway.show_log(_folder(games_dir), count, Path(log_file) if log_file is not None else None)
    except (BusyError, UsageError, OSError) as error:
        _refused(error)
    _report(handled)


@mail_app.command(name="add-player", short_help="Write ADDRESS's passphrase (read from stdin) into GAMES/players.toml.")
def add_player(
    games_dir: Games = None,
    address: Annotated[str | None, typer.Argument(help="The player's address.", metavar="ADDRESS")] = None,
    wait: Wait = WAIT_DEFAULT,
) -> None:
    """Write a player's passphrase, read on standard input, into GAMES/players.toml (0600):
    from then on that player's moves need it. Only a player of a game of the folder (or of
    its league), when the folder has any.

    Example: printf 'correct horse battery' | referee mail add-player /home/gm/games ann@example.org
    """
    try:
        _stdin()
        if address is None:
            raise UsageError("give the player's ADDRESS")
        _add_player(_folder(games_dir), address, wait)
    except (BusyError, UsageError, OSError) as error:
        _refused(error)
    finish(Tally())


def _add_player(folder: Path, address: str, wait: float) -> None:
    """Only a player of a game of the folder (or of its league), when the folder has any,
    then the warning when players.toml leaves other players without a passphrase."""
    from referee.league.mailing import league_players
    from referee.live import mail as gateway
    from referee.live.mail.players import checked_address

    if not folder.is_dir():
        raise UsageError(f"the games folder {folder}: no such folder")
    known = {**gateway.folder_players(folder), **league_players(folder)}
    wanted = checked_address(address)
    if known and wanted not in known:  # a folder with no game yet: players.toml made first
        raise UsageError(
            f"add-player {address}: no game in {folder} names this address as a player (nor its league.toml)"
        )
    err(gateway.add_player(folder, address, passphrase_text(), wait))
    warning = gateway.locked_out_warning(folder, known)
    if warning is not None:
        err(f"referee: {warning}")
