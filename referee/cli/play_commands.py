"""The `referee` commands that run live games: `play` and `reveal` (PLAY.md §1-4), the mail
gateway `mail` (PLAY.md §5), and `new --secret`. Registered on `referee.cli.app`; like
every command they parse options, call the library (`referee.live.play`, `referee.live.mail`),
print through `referee.cli.text_output` and exit through the one exit rule."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from referee.cli.app import WAIT_DEFAULT, AsOfOption, JsonOption, NowOption, app, err, fail_usage, finish, out
from referee.cli.exits import Tally
from referee.errors import ExitStatus, UsageError
from referee.judge.core.verdict_words import json_line

if TYPE_CHECKING:
    from referee.live.play.result import PlayResult


def new_secret(
    game: str,
    players: int | None,
    seed: str | None,
    first: str | None,
    tags: list[str],
    key: str | None,
    salts: list[str],
    game_id: str | None = None,
) -> None:
    from pathlib import Path

    from referee.errors import UsageError
    from referee.judge.services.new_record import new_record
    from referee.live.play.keys import fresh_seed
    from referee.live.play.secret import new_secret

    if key is None:
        fail_usage(UsageError("--salt goes with --secret KEY: salts are for a secret seed"))
    if seed is not None:
        fail_usage(UsageError("--seed and --secret exclude each other: a secret seed is drawn fresh"))
    assert key is not None
    try:
        drawn = fresh_seed()
        text = new_secret(new_record(game, players, drawn, first, tags, game_id), Path(key), salts, drawn)
    except UsageError as error:
        fail_usage(error)
    typer.echo(text, nl=False)


def _moves_text(moves: str | None, gm_only: bool) -> str | None:
    """MOVES as given; `-`, or absent without --seed-file/--salt, reads standard input."""
    if moves is not None and moves != "-":
        return moves
    if moves is None and gm_only:
        return None
    from referee.judge.sources import record_sources

    try:
        return record_sources.read_stdin_bounded(record_sources.MAX_RECORD, "MOVES on standard input").decode("utf-8")
    except UnicodeDecodeError:
        fail_usage(UsageError("MOVES on standard input is not UTF-8 text"))
    except UsageError as error:
        fail_usage(error)
    except (OSError, AttributeError, ValueError):
        fail_usage(UsageError("cannot read MOVES from standard input"))
    return None


def _passphrase_text() -> str:
    """The passphrase on standard input, read within its bound (PLAY.md §8)."""
    from referee.judge.sources import record_sources

    try:
        return record_sources.read_stdin_bounded(
            record_sources.PASSPHRASE_BYTES, "the passphrase on standard input"
        ).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the passphrase on standard input is not UTF-8 text") from None


def _finite_wait(value: float) -> float:
    """--wait: a finite number of seconds, 0 or more (nan, inf and negatives are usage errors)."""
    if not math.isfinite(value) or value < 0:
        raise typer.BadParameter(f"{value} is not a number of seconds (0 or more, finite)")
    return value


WaitOption = Annotated[
    float,
    typer.Option("--wait", callback=_finite_wait, help="Seconds to wait for a busy game before giving up (exit 75)."),
]
SeedFileOption = Annotated[
    str | None, typer.Option("--seed-file", help="The game master's key file: rolls are drawn from the secret seed.")
]


@app.command(short_help="Append moves to a live game, safely (secret dice, tokens).")
def play(
    file: Annotated[str, typer.Argument(help="The game file: one record.", metavar="FILE")],
    moves: Annotated[
        str | None, typer.Argument(help="RGN move text that continues the game; - or absent: standard input.")
    ] = None,
    as_side: Annotated[str | None, typer.Option("--as", help="The side submitting: only its turns.")] = None,
    expect: Annotated[
        str | None, typer.Option("--expect", help="Refuse unless the game is at this turn token.")
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Check and report everything, write nothing.")] = False,
    seed_file: SeedFileOption = None,
    salt: Annotated[
        list[str] | None, typer.Option("--salt", help="Write a side's salt, as SIDE=TEXT (repeatable).")
    ] = None,
    json_output: JsonOption = False,
    wait: WaitOption = WAIT_DEFAULT,
    now: NowOption = None,
    grant: Annotated[
        list[str] | None,
        typer.Option(
            "--grant", metavar="SIDE=DURATION", help="Timed games: extend a side's time, like Blue=1d (repeatable)."
        ),
    ] = None,
    as_of: AsOfOption = None,
) -> None:
    """Append moves to a live game: checked, all or nothing, written safely.

    MOVES continues the record; a first action without a label is the side to move's.
    In a timed game (TimeControl) every submission is stamped with the time (--now TIME
    replaces the system clock); MOVES "timeout" ends the game of a side whose time has
    run out, and --grant SIDE=DURATION gives a side more time.

    Exit status: 0 written (or would be, with --dry-run); 1 refused; 2 usage; 75 busy, try again later.

    Example: referee play game.rgn "d1-W d2-W" --as Athens --expect 12-ab12cd34ef

    Draws and undo need every player (PLAY.md §6): referee play game.rgn draw --as Sparta
    writes Sparta's offer, and the draw once every player has offered it (likewise undo);
    without --as, draw ends the game and undo takes the last turn back at once.

    Example: referee play game.rgn timeout --as Red   |   referee play game.rgn --grant Blue=1d
    """
    from functools import partial
    from pathlib import Path

    from referee.errors import BusyError, UsageError
    from referee.judge.core import clock_walk
    from referee.live.mail import default_sender
    from referee.live.mail.retoken import submitted
    from referee.live.play import read_key, submit
    from referee.store import WriteFailed

    try:
        instant = clock_walk.current_instant(now)
        moment = clock_walk.as_of_instant(as_of, instant) if as_of is not None else None
    except UsageError as error:
        fail_usage(error)
    try:
        seed = read_key(Path(seed_file)) if seed_file is not None else None
        text = _moves_text(moves, gm_only=seed_file is not None or bool(salt) or bool(grant))
        pairs = [(entry.partition("=")[0], entry.partition("=")[2]) for entry in salt or []]
        for entry in salt or []:
            if "=" not in entry:
                raise UsageError(f'--salt takes SIDE=TEXT, not "{entry}"')
        # A grant or a salt alone changes the token and not the board: the player to move
        # of a mail game is sent the new token with it (referee/live/mail/retoken.py).
        write = partial(submitted, sender=default_sender()) if grant or salt else partial(_plain, submit)
        result, mailed = write(
            Path(file),
            text,
            as_side=as_side,
            expect=expect,
            dry_run=dry_run,
            seed=seed,
            salts=pairs,
            wait=wait,
            now=instant,
            grants=grant or [],
            as_of=moment,
        )
    except UsageError as error:
        fail_usage(UsageError(str(error)))
    except BusyError as error:
        _busy(error)
    except WriteFailed as error:  # a full disk: the file named, nothing written (PLAY.md §4)
        fail_usage(UsageError(str(error)))
    for path in mailed:
        err(f"referee: the new token is mailed to the player to move ({path})")
    if as_side is None and result.written:  # the game master's writing on a league's game: its players are told
        from referee.league.told import tell_players

        if grant:
            what = "a grant of " + ", ".join(grant)
        else:
            words = " ".join((text or "").split())
            what = words if len(words) <= 80 else words[:77] + "..."
        told = tell_players(Path(file), what, result, instant, default_sender())
        if told is not None:
            err(f"referee: {told}")
    _submitted(result.as_json() if json_output else result.text(), refused=result.exit_code != 0)


def _plain(submit: Callable[..., PlayResult], *args: Any, **options: Any) -> tuple[PlayResult, tuple[Path, ...]]:
    """`submit`, shaped as `retoken.submitted`'s answer: a move mails no new token."""
    return submit(*args, **options), ()


@app.command(short_help="Publish a secret game's seed: every roll is then checked.")
def reveal(
    file: Annotated[str, typer.Argument(help="The game file: one record.", metavar="FILE")],
    seed_file: Annotated[str, typer.Option("--seed-file", help="The game master's key file.")],
    json_output: JsonOption = False,
    wait: WaitOption = WAIT_DEFAULT,
    force: Annotated[
        bool, typer.Option("--force", help="Reveal an ongoing game's seed too (every future die becomes predictable).")
    ] = False,
) -> None:
    """Publish a secret game's seed (the Seed tag, SeedHash kept): check then verifies every roll.

    An ongoing game is refused without --force: its seed makes every future die predictable.

    Exit status: 0 the revealed record is legal; 1 it is not (the seed is written either way) or the game is
    ongoing (nothing written); 2 usage; 75 busy.

    Example: referee reveal game.rgn --seed-file game.key
    """
    from pathlib import Path

    from referee.errors import BusyError, UsageError
    from referee.live.play import read_key
    from referee.live.play.secret import reveal as reveal_seed
    from referee.store import WriteFailed

    try:
        result = reveal_seed(Path(file), read_key(Path(seed_file)), wait, force)
    except UsageError as error:
        fail_usage(UsageError(str(error)))
    except BusyError as error:
        _busy(error)
    except WriteFailed as error:  # a full disk: the file named, nothing written (PLAY.md §4)
        fail_usage(UsageError(str(error)))
    _submitted(result.as_json() if json_output else result.text(), refused=result.exit_code != 0)


def _add_player(folder: Path, address: str, wait: float) -> None:
    """`mail --add-player`: only a player of a game of the folder (or of its league), when
    the folder has any, then the warning when players.toml leaves other players without a
    passphrase."""
    from referee.league.mailing import league_players
    from referee.live import mail as gateway

    if not folder.is_dir():
        raise UsageError(f"--games {folder}: no such folder")
    from referee.live.mail.players import checked_address

    known = {**gateway.folder_players(folder), **league_players(folder)}
    wanted = checked_address(address)
    if known and wanted not in known:  # a folder with no game yet: players.toml made first
        raise UsageError(
            f"--add-player {address}: no game in {folder} names this address as a player (nor its league.toml)"
        )
    err(gateway.add_player(folder, address, _passphrase_text(), wait))
    warning = gateway.locked_out_warning(folder, known)
    if warning is not None:
        err(f"referee: {warning}")


def _busy(error: Exception | str) -> NoReturn:
    err(f"referee: {error}")
    tally = Tally()
    tally.busy = True
    finish(tally)


def _submitted(output: str | dict[str, object], refused: bool) -> NoReturn:
    """The end of `play` and `reveal`: their report, then 0 written or 1 refused."""
    out(output if isinstance(output, str) else json_line(output))
    tally = Tally()
    tally.refused = refused
    finish(tally)


@app.command(short_help="The mail gateway: play e-mail from standard input or an IMAP mailbox, answer the players.")
def mail(
    games_dir: Annotated[
        str | None, typer.Option("--games", help="The game folder: game ID is the file DIR/ID.rgn.", metavar="DIR")
    ] = None,
    outbox: Annotated[
        str | None,
        typer.Option("--outbox", help="Write answers as .eml files here (default DIR/outbox).", metavar="DIR"),
    ] = None,
    smtp: Annotated[
        str | None, typer.Option("--smtp", help="Send answers by SMTP to HOST:PORT.", metavar="HOST:PORT")
    ] = None,
    starttls: Annotated[bool, typer.Option("--starttls", help="Use STARTTLS with --smtp.")] = False,
    smtp_user: Annotated[
        str | None,
        typer.Option(
            "--smtp-user", help="Log in as USER; the password is read from REFEREE_SMTP_PASSWORD.", metavar="USER"
        ),
    ] = None,
    keys: Annotated[
        str | None,
        typer.Option("--keys", help="The GM's seed files KEYS/ID.key: rolls are drawn at once.", metavar="KEYS"),
    ] = None,
    sender: Annotated[
        str | None,
        typer.Option("--from", help="The address answers come from (default referee@HOSTNAME).", metavar="ADDRESS"),
    ] = None,
    wait: Annotated[
        float, typer.Option("--wait", callback=_finite_wait, help="Seconds to wait for a busy game.")
    ] = WAIT_DEFAULT,
    add_player: Annotated[
        str | None,
        typer.Option(
            "--add-player",
            help="Write ADDRESS's passphrase (read from stdin) into DIR/players.toml.",
            metavar="ADDRESS",
        ),
    ] = None,
    max_size: Annotated[
        int,
        typer.Option("--max-size", help="Read at most BYTES of a message before its sender is known.", metavar="BYTES"),
    ] = 2**20,
    gm: Annotated[
        str | None,
        typer.Option("--gm", help="The game master's address, copied (Cc) on every answer.", metavar="ADDRESS"),
    ] = None,
    flush: Annotated[
        bool, typer.Option("--flush", help="Send the answers waiting in the outbox (exit 75 while the server is down).")
    ] = False,
    check_games: Annotated[
        str | None,
        typer.Option("--check-games", help="List the games of DIR with a side that has no address.", metavar="DIR"),
    ] = None,
    now: Annotated[
        str | None,
        typer.Option(
            "--now", help="The time of mail.log and of the stamps, as 2026-12-01T12:00:00Z (default: the clock)."
        ),
    ] = None,
    imap: Annotated[
        str | None,
        typer.Option(
            "--imap",
            help="Read the messages of this mailbox (imaps://USER@HOST[:PORT]/MAILBOX; imap:// for STARTTLS) "
            "instead of standard input; the password from REFEREE_IMAP_PASSWORD or --imap-password-file, "
            "or an OAuth2 token from REFEREE_IMAP_OAUTH2_TOKEN.",
            metavar="URL",
        ),
    ] = None,
    imap_password_file: Annotated[
        str | None,
        typer.Option("--imap-password-file", help="Read the IMAP password from this file.", metavar="PATH"),
    ] = None,
    poll: Annotated[
        float | None,
        typer.Option("--poll", min=1, help="With --imap: a pass every SECONDS, until stopped.", metavar="SECONDS"),
    ] = None,
    idle: Annotated[
        bool, typer.Option("--idle", help="With --imap: wait for new mail with IMAP IDLE, until stopped.")
    ] = False,
    log_file: Annotated[
        str | None,
        typer.Option("--log-file", help="Append each message's JSON log line here too.", metavar="PATH"),
    ] = None,
    trust_authserv: Annotated[
        str | None,
        typer.Option(
            "--trust-authserv",
            help="Trust the Authentication-Results (dmarc=pass, aligned dkim=pass) of this authserv-id.",
            metavar="ID",
        ),
    ] = None,
    show_log: Annotated[
        int | None,
        typer.Option(
            "--log",
            help="Print the last N messages handled (default 20) as a table, from --log-file when given.",
            metavar="[N]",
        ),
    ] = None,
) -> None:
    """Play the moves of one e-mail message read on standard input, and answer (PLAY.md §5).

    The subject names the game as [ID], the file DIR/ID.rgn; the sender must be a player
    that the record's side tags name. Strangers get no answer.

    Exit status 0 when the message was handled (a refusal or a stranger included), 75 when
    the game is busy or the answers cannot be sent (the mail system delivers it again), 2
    for a usage error. Every message's outcome is a line of DIR/mail.log.

    --flush sends the answers waiting in the outbox; --check-games DIR lists games that
    have a side nobody could be told about (exit 1 when there is one).

    On a league's folder (DIR/league.toml) it plays with the league's keys (DIR/keys),
    answers moves as its digest setting says, and reads the requests `status` and
    `leave DURATION` (LEAGUE.md; docs/league.md).

    --imap URL reads the game master's mailbox instead of standard input: one pass (for
    cron), or --poll SECONDS / --idle to keep running; each message handled is moved to
    referee/played, referee/refused or referee/ignored; exit 75 when one is left for the
    next pass (a busy game) or the server failed (docs/mail.md). --log [N] prints the last
    N messages handled; --trust-authserv ID lets the provider's DMARC/DKIM verdict stand
    for a passphrase.

    Example (.forward, procmail): /usr/local/bin/referee mail --games /home/gm/games --smtp localhost:25
    """
    from pathlib import Path

    from referee.live import mail as gateway

    try:
        if sys.stdin is None:
            raise UsageError("cannot read standard input: it is closed")
        if check_games is not None:
            _report(gateway.check_games(Path(check_games)))
        if games_dir is None:
            raise UsageError("give --games DIR (or --check-games DIR)")
        if add_player is not None:
            _add_player(Path(games_dir), add_player, wait)
            finish(Tally())
        if show_log is not None:
            _report(gateway.show_log(Path(games_dir), show_log, Path(log_file) if log_file is not None else None))
        if (poll is not None or idle or imap_password_file is not None) and imap is None:
            raise UsageError("--poll, --idle and --imap-password-file go with --imap URL")
        config = gateway.settings(
            Path(games_dir),
            outbox=Path(outbox) if outbox is not None else None,
            smtp=smtp,
            starttls=starttls,
            smtp_user=smtp_user,
            keys=Path(keys) if keys is not None else None,
            sender=sender,
            wait=wait,
            max_size=max_size,
            gm=gm,
            now=now,
            log_file=Path(log_file) if log_file is not None else None,
            trust_authserv=trust_authserv,
        )
        if flush:
            _report(gateway.flush(config))
        from referee.league.mailing import on_league

        config = on_league(config, keys_given=keys is not None)  # a league's folder: its keys, digest, requests
        if imap is not None:
            handled = _imap(imap, imap_password_file, config, poll, idle)
        else:
            handled = gateway.run(sys.stdin.buffer, config)
    except gateway.BusyError as error:
        _busy(f"mail: {error}")
    except UsageError as error:
        fail_usage(UsageError(f"mail: {error}"))
    except OSError as error:  # `--add-player` on a full disk: the file named
        fail_usage(UsageError(f"mail: {error.strerror or error}"))
    for note in handled.notes:
        err(f"referee mail: {note}")
    tally = Tally()
    tally.busy = handled.exit_code == ExitStatus.BUSY
    finish(tally)


def _imap(url: str, password_file: str | None, config: Any, poll: float | None, idle: bool) -> Any:
    """`mail --imap URL`: one pass over the mailbox, or passes until stopped (--poll, --idle)."""
    from pathlib import Path

    from referee.live import mail as gateway
    from referee.live.mail import imap

    if poll is not None and idle:
        raise UsageError("--poll and --idle exclude each other")
    box = imap.parse_url(url)
    login = imap.login_from(Path(password_file) if password_file is not None else None)
    try:
        return imap.run(box, login, config, gateway.handle_bytes, poll=poll, idle=idle, report=_note)
    except KeyboardInterrupt:  # the game master's Ctrl-C: every message handled so far is recorded
        return gateway.Handled(0, ("stopped",))


def _note(line: str) -> None:
    err(f"referee mail: {line}")


def _report(handled: Any) -> NoReturn:
    """The end of `mail --flush` and `mail --check-games`: their lines, then 0, 1 or 75."""
    busy = handled.exit_code == ExitStatus.BUSY
    for note in handled.notes:
        if busy:
            err(f"referee mail: {note}")
        else:
            out(note)
    tally = Tally()
    tally.busy = busy
    tally.refused = handled.exit_code == ExitStatus.REJECTED
    finish(tally)
