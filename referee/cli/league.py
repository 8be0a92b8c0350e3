"""`referee league`: a season of games run from one folder (LEAGUE.md §2). Registered on
`referee.cli.app` as a sub-command group (`referee.cli.main` imports it); each command parses its options, calls
`referee.league` and chooses the exit status: 0 done, 1 refused or a game judged illegal
(named), 2 usage, 75 busy."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, Protocol

if TYPE_CHECKING:
    from referee.league.roster import Changed
    from referee.speech import Speaker

import typer

from referee.cli.app import JsonOption, command_group, err, fail_usage, finish, out
from referee.cli.exits import Tally
from referee.errors import BusyError, UsageError
from referee.judge.core.verdict_words import json_line

league_app = command_group(
    "league",
    "Run a league: pairings, tick, leave, status, standings (LEAGUE.md).",
    "Run a league: a season of games in one folder (LEAGUE.md).\n\n"
    "Example: referee league init autumn --game pikemen --players 3 --rounds 4; "
    "referee league add autumn ann@example.org --name Ann; referee league pair autumn; "
    "referee league standings autumn",
)

Folder = Annotated[str, typer.Argument(help="The league folder (it holds league.toml).", metavar="DIR")]
PlayerAddress = Annotated[str, typer.Argument(help="The player's e-mail address.", metavar="ADDRESS")]
SenderOption = Annotated[
    str | None,
    typer.Option("--from", help="The address the mails come from (default referee@HOSTNAME).", metavar="ADDRESS"),
]
NowOption = Annotated[
    str | None,
    typer.Option("--now", metavar="TIME", help="The current time, UTC: 2026-12-01T12:00:00Z (default: the clock)."),
]


def _refused(message: str) -> NoReturn:
    """A refusal already said in the locale's language (`_said`), exit 1."""
    err(f"referee league: {message}")
    finish(Tally(refused=True))


def _speaker() -> Speaker:
    """The command line's language (the locale), English by default (no catalogue read)."""
    from referee.cli import text_output
    from referee.speech import ENGLISH

    return text_output.locale_speaker() or ENGLISH


@contextmanager
def _boundary() -> Iterator[None]:
    """The league's errors as exit statuses: usage 2, refused 1, busy 75."""
    from referee.league.folder import LeagueRefused
    from referee.league.league_toml import LeagueConfigError

    try:
        yield
    except (UsageError, LeagueConfigError) as error:
        fail_usage(UsageError(f"league: {error}"))
    except LeagueRefused as error:
        _refused(error.said(_speaker()))
    except BusyError as error:
        err(f"referee league: {error}")
        finish(Tally(busy=True))
    except BrokenPipeError:
        raise  # the reader of standard output has gone: `referee.cli.entry` exits quietly
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        fail_usage(UsageError(f"league: {error.strerror or error}{where}"))


def _now(text: str | None) -> int:
    from referee.notation.timing import TimingError, parse_instant

    if text is None:
        from referee.judge.core.clock_walk import current_instant  # the one clock

        return current_instant()
    try:
        return parse_instant(text.strip())
    except TimingError as error:
        raise UsageError(f"--now: {error}") from None


def _sender(sender: str | None) -> str:
    from referee.live import mail as gateway
    from referee.live.mail.players import checked_address

    try:
        return checked_address(sender) if sender is not None else gateway.default_sender()
    except UsageError as error:
        raise UsageError(f"--from: {error}") from None


class _Shown(Protocol):
    def lines(self) -> list[str]: ...

    def as_json(self) -> dict[str, Any]: ...


def _show(result: _Shown, json_output: bool, notes: Sequence[str] = ()) -> None:
    """A command's result: one JSON line (--json) or its lines of text; then its notes on standard error."""
    if json_output:
        out(json_line(result.as_json()))
    else:
        for line in result.lines():
            out(line)
    for note in notes:
        err(f"referee league: {note}")


@league_app.command(short_help="Write a new league.toml (never overwrites).")
def init(
    folder: Folder,
    game: Annotated[str, typer.Option("--game", help="The game: any of `referee games`.", metavar="G")],
    players: Annotated[int, typer.Option("--players", help="Players per game.", metavar="N")],
    time_control: Annotated[
        str | None, typer.Option("--time-control", help="The games' clock (TIME.md): 7d+1d/14d.", metavar="TC")
    ] = None,
    pairing: Annotated[
        str | None,
        typer.Option("--pairing", help="round-robin (default), double-round-robin or swiss.", metavar="P"),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Rounds (required for groups and swiss).", metavar="R")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The league's name (default: the folder's).")] = None,
    seeded_from: Annotated[
        str | None,
        typer.Option("--from", help="A knockout's players, seeded by this closed league's ratings.", metavar="CLOSED"),
    ] = None,
) -> None:
    """Write DIR/league.toml for a new league; it never overwrites one. With --pairing
    knockout --from CLOSED, its players are those of the closed league CLOSED (withdrawn
    ones left out), in the order of their final ratings (seeding = "rating").

    Example: referee league init autumn --game nika --players 4 --rounds 6 --time-control 7d+1d/14d
    """
    from referee.league import folder as league

    with _boundary():
        if seeded_from is not None:
            from referee.league import series

            closed = series.seeding_from(Path(seeded_from), pairing)
        path = league.init(Path(folder), game, players, time_control, pairing, rounds, name)
        if seeded_from is not None:
            series.seed(path, closed)
            out(f"wrote {path}: {len(closed.order)} players seeded by the ratings of {closed.config.name}")
            return
        out(f"wrote {path}: add players with referee league add {folder} ADDRESS --name NAME")


@league_app.command(short_help="Add a player (--key: a passphrase from standard input).")
def add(
    folder: Folder,
    address: PlayerAddress,
    name: Annotated[str, typer.Option("--name", help="The player's name, as side tags show it.")],
    key: Annotated[
        bool, typer.Option("--key", help="Read the player's passphrase from standard input into players.toml.")
    ] = False,
) -> None:
    """Add a player to league.toml, before the first round is paired.

    Example: referee league add autumn ann@example.org --name Ann   |
    echo 'correct horse' | referee league add autumn bo@example.org --name Bo --key
    """
    from referee import store
    from referee.league import folder as league
    from referee.league.league_toml import load
    from referee.live import mail as gateway

    with _boundary():
        passphrase = _passphrase() if key else None  # checked before the player is written
        said = None
        load(Path(folder), need_players=False)  # a missing or broken league.toml said as such first
        try:
            with store.transaction(Path(folder), league.LOCK_WAIT):  # league.toml and players.toml: both or neither
                config = league.add_player(Path(folder), address, name)
                player = config.players[-1]
                if passphrase is not None:
                    said = gateway.add_player(Path(folder), player.address, passphrase, 10.0)
        except BusyError:  # the folder taken by another league command, which waits for league.lock
            lock = Path(folder) / (league.LOCK_NAME + ".lock")
            raise league.LeagueBusy(f"{folder} is busy: another league command holds {lock}; try again later") from None
        out(f"added player {player.number}: {player.tag}")
        if said is not None:
            err(said)
        _warn_locked_out(Path(folder))


def _warn_locked_out(folder: Path) -> None:
    """The warning, on standard error, when players.toml leaves league players without a passphrase."""
    from referee.league.mailing import league_players
    from referee.live import mail as gateway

    try:
        warning = gateway.locked_out_warning(folder, league_players(folder))
    except UsageError:  # an unreadable players.toml: the gateway names it when it reads it
        return
    if warning is not None:
        err(f"referee: {warning}; referee league passphrases {folder} --issue")


def _passphrase() -> str:
    """The passphrase text on standard input, refused (UsageError) when there is none."""
    from referee.live.mail.players import checked_passphrase

    try:
        from referee.judge.sources import record_sources

        text = record_sources.read_stdin_bounded(
            record_sources.PASSPHRASE_BYTES, "the passphrase on standard input"
        ).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the passphrase on standard input is not UTF-8 text") from None
    checked_passphrase(text)
    return text


@league_app.command(short_help="Make the next round's games.")
def pair(
    folder: Folder,
    now: NowOption = None,
    json_output: JsonOption = False,
    sender: Annotated[
        str | None,
        typer.Option(
            "--from", help="The address the pairing mails come from (default referee@HOSTNAME).", metavar="ADDRESS"
        ),
    ] = None,
) -> None:
    """Make the next round's games (r<ROUND>-t<TABLE>.rgn), with side tags `Name <address>`,
    Round and Table tags, the league's clock starting at --now, and secret keys in keys/;
    then write each player's mail (their game, or their bye) into DIR/outbox.

    Refused (exit 1) while a game of the current round is unfinished, and after the last round.
    Example: referee league pair autumn --now 2026-12-01T12:00:00Z
    """
    from referee.league import folder as league
    from referee.league.league_toml import load
    from referee.league.notify import OUTBOX

    with _boundary():
        config = load(Path(folder))
        address = _sender(sender)
        paired = league.pair(Path(folder), _now(now), address)
        _warn_locked_out(Path(folder))
        if json_output:
            out(json_line({**paired.as_json(), "mails": list(paired.mails)}))
        else:
            for line in paired.lines(config):
                out(line)
            if paired.mails:  # they wait there: `league tick --smtp` (or `mail --flush`) sends them
                out(f"mails: {len(paired.mails)} into {Path(folder) / OUTBOX} (league tick --smtp sends them)")
        for note in paired.notes:
            err(f"referee league: {note}")


StatusNowOption = Annotated[
    str | None,
    typer.Option(
        "--now",
        metavar="TIME",
        help="Show each deadline's time left at TIME, UTC: 2026-12-01T12:00:00Z, or now (the clock).",
    ),
]


@league_app.command(short_help="Every game: players by seat, whose turn, deadline, result.")
def status(folder: Folder, now: StatusNowOption = None, json_output: JsonOption = False) -> None:
    """Every game of the league: its players by seat, whose turn it is and when that side's
    time runs out (timed leagues; with --now, the time left at that instant), its last
    submission and its result. Exit 1 when a game is illegal or malformed (named).

    Example: referee league status autumn --now 2026-12-02T12:00:00Z --json
    """
    from referee.league import folder as league
    from referee.notation.timing import format_instant

    with _boundary():
        # without --now no time left is shown, and the clock is not read
        instant = None if now is None else _now(None if now.strip() == "now" else now)
        config, games, _ = league.status(Path(folder))
        if json_output:
            round_number = league.current_round(games)
            out(
                json_line(
                    {
                        "league": config.name,
                        "round": round_number,
                        "rounds": league.total_rounds(config),
                        **({"now": format_instant(instant)} if instant is not None else {}),
                        "games": [league.game_json(game, instant) for game in games],
                    }
                )
            )
        else:
            out(f"{config.name}: {config.game}, round {league.current_round(games)} of {league.total_rounds(config)}")
            for game in games:
                out(league.game_line(game, now=instant))
        _judged(games)


@league_app.command(short_help="The table: points, tie-break, ratings (--json, --csv).")
def standings(
    folder: Folder,
    json_output: JsonOption = False,
    csv_output: Annotated[bool, typer.Option("--csv", help="CSV that a spreadsheet opens.")] = False,
) -> None:
    """The league table (LEAGUE.md §4), derived from the game files: rank, player, games,
    wins, draws, losses, points, byes, rating (mu, sigma, mu - 3 sigma), time-outs, the
    tie-break, and until the close each player's placing range (LEAGUE.md §7: the best and
    worst final rank still possible by points; `~` marks safe bounds; --json: best, worst,
    exact). Exit 1 when a game is illegal or malformed (named; it is not counted).

    Example: referee league standings autumn --csv > autumn.csv
    """
    from referee.league import folder as league
    from referee.league import standings as table
    from referee.league.ranges import table_ranges
    from referee.league.results import withdrawal_rounds

    if json_output and csv_output:
        fail_usage(UsageError("league standings: --json and --csv exclude each other"))
    with _boundary():
        config, games, log = league.status(Path(folder))
        result = table.standings(config, games, league.log_order(log), withdrawal_rounds(log))
        final = any(entry.get("event") == "close" for entry in log)
        ranges = table_ranges(config, games, result, log) or {}
        if json_output:
            values = {address: found.values() for address, found in ranges.items()}
            shown = table.as_json(config, result, final=final, ranges=values)
            if config.is_knockout:  # the bracket (LEAGUE.md §7)
                from referee.league.knockout import bracket_json

                shown["bracket"] = bracket_json(config, games, withdrawal_rounds(log))
            out(json_line(shown))
        elif csv_output:
            text = table.as_csv(result, final=final)
            if config.is_knockout:
                from referee.league.knockout import bracket_json
                from referee.league.standings import with_reached_csv

                reached = bracket_json(config, games, withdrawal_rounds(log))["reached"]
                text = with_reached_csv(text, result, reached)  # type: ignore[arg-type]
            sys.stdout.flush()
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.buffer.flush()
        else:
            texts = {} if final else {address: found.text() for address, found in ranges.items()}
            for line in table.as_text(config, result, final=final, ranges=texts):
                out(line)
            if config.is_knockout:
                from referee.league.knockout import bracket_lines

                for line in bracket_lines(config, games, withdrawal_rounds(log)):
                    out(line)
        _judged(games)


@league_app.command(short_help="The league's static web site: standings, rounds, games, players, feed.")
def site(
    folder: Folder,
    output: Annotated[str, typer.Option("-o", "--output", help="The folder the site is written to.", metavar="OUT")],
    json_output: JsonOption = False,
) -> None:
    """Write the league's static web site into OUT (LEAGUE.md §5): index.html with the
    standings and the current round, a page per round, per game (with its replay page) and
    per player (with a rating chart), and feed.xml, an Atom feed of results. Only pages
    whose content changed are written, so it can run after every tick. Exit 1 when a game
    is illegal or malformed (named; its page says so).

    Example: referee league site autumn -o /var/www/autumn   (then open /var/www/autumn/index.html)
    """
    from referee.league.site import build

    with _boundary():
        built = build(Path(folder), Path(output))
        if json_output:
            written, removed = list(built.written), list(built.removed)
            out(json_line({"written": written, "removed": removed, "unchanged": built.unchanged}))
        else:
            out(
                f"{output}: {len(built.written)} written, {len(built.removed)} removed, "
                f"{built.unchanged} unchanged; open {Path(output) / 'index.html'}"
            )
        _judged(built.bad)


def _judged(games: Sequence[object]) -> None:
    """Exit 1 naming the games that are not legal, else 0."""
    from referee.league.results import GameResult

    bad = [game for game in games if isinstance(game, GameResult) and not game.legal]
    say = _speaker() if bad else None
    for game in bad:
        status, message = str(game.status), game.message
        if say is not None and say.lang != "en":  # the game's verdict in the locale's language
            from referee import spoken_lines

            status = say(spoken_lines.STATUS[status]) if status in spoken_lines.STATUS else status
            message = spoken_lines.verdict_words(message, say)
        err(f"referee league: {game.game}: {status}: {message}")
    if bad:
        finish(Tally(refused=True))


SmtpOption = Annotated[
    str | None,
    typer.Option("--smtp", help="Send the mails by SMTP to HOST:PORT (else into DIR/outbox).", metavar="HOST:PORT"),
]


@league_app.command(short_help="The periodic job (cron): time-outs, reminders, reveals, digests.")
def tick(
    folder: Folder,
    now: NowOption = None,
    json_output: JsonOption = False,
    smtp: SmtpOption = None,
    starttls: Annotated[bool, typer.Option("--starttls", help="Use STARTTLS with --smtp.")] = False,
    smtp_user: Annotated[
        str | None,
        typer.Option("--smtp-user", help="Log in as USER; the password from REFEREE_SMTP_PASSWORD.", metavar="USER"),
    ] = None,
    sender: SenderOption = None,
) -> None:
    """Run the league's periodic job once, in this order: flush the outbox (with --smtp);
    write a timeout for every side whose time has run out; remind the side to move when
    a threshold of `reminders` has passed; reveal the seeds of finished secret games; send
    the daily digest. Everything done is logged in league.log, so running it again at
    the same time does nothing. Mails go by --smtp, or into DIR/outbox.

    Example (crontab, every 10 minutes): */10 * * * * referee league tick /srv/autumn --smtp localhost:25
    """
    from referee.league.tick import tick as run_tick
    from referee.live.mail.delivery import smtp_settings

    with _boundary():
        settings = smtp_settings(smtp, starttls, smtp_user) if smtp is not None else None
        address = _sender(sender)
        ticked = run_tick(Path(folder), _now(now), address, settings)
        _show(ticked, json_output, ticked.notes)
        _judged(ticked.faulty)


@league_app.command(short_help="Grant a player leave in every ongoing game (within leave_days).")
def leave(
    folder: Folder,
    address: PlayerAddress,
    duration: Annotated[str, typer.Argument(help="How long: 3d, 12h, 1d12h.", metavar="DURATION")],
    now: NowOption = None,
    json_output: JsonOption = False,
) -> None:
    """Grant DURATION to each of the player's sides in every ongoing game (a %grant with
    its stamp, as play --grant writes it). leave_days in league.toml is the player's
    allowance for the season, counted once per call; a call that would exceed it is
    refused (exit 1), never trimmed.

    Example: referee league leave autumn ann@example.org 3d --now 2026-12-10T08:00:00Z
    """
    from referee.league.leave import leave as grant_leave

    with _boundary():
        granted = grant_leave(Path(folder), address, duration, _now(now))
        _show(granted, json_output)
        _judged(granted.faulty)


@league_app.command(short_help="Passphrases: who has one (--list), issue and mail the missing ones (--issue).")
def passphrases(
    folder: Folder,
    issue: Annotated[
        bool, typer.Option("--issue", help="Draw a passphrase for every player who has none and mail it to them.")
    ] = False,
    list_them: Annotated[bool, typer.Option("--list", help="Show who has a passphrase and who has none.")] = False,
    now: NowOption = None,
    sender: SenderOption = None,
) -> None:
    """With players.toml every mail that plays needs its sender's passphrase, so a player
    without one cannot play by mail. --list shows who has one; --issue draws one (from
    `secrets`) for every player who has none, writes its hash into players.toml and mails
    it to that player alone (into DIR/outbox).

    Example: referee league passphrases autumn --issue --now 2026-12-01T12:00:00Z
    """
    from referee.league import passphrases as keys

    with _boundary():
        if issue == list_them:
            raise UsageError("give --issue or --list")
        if list_them:
            for line in keys.holders(Path(folder)).lines():
                out(line)
            return
        address = _sender(sender)
        for line in keys.issue(Path(folder), _now(now), address):
            out(line)


def _roster_out(changed: Changed) -> None:
    for line in changed.lines:
        out(line)
    out(f"mails: {changed.mails} into the outbox")


@league_app.command(short_help="A player withdraws: paired no more, ongoing games forfeited.")
def withdraw(
    folder: Folder,
    address: PlayerAddress,
    now: NowOption = None,
    sender: SenderOption = None,
) -> None:
    """Withdraw a player: logged in league.log; their ongoing games forfeited (resign written
    when it is their move, now or by a later tick); paired no more (a scheduled table holding
    them is not made, its other players have a bye); the players concerned told by mail.

    Example: referee league withdraw autumn ann@example.org
    """
    from referee.league import roster

    with _boundary():
        _roster_out(roster.withdraw(Path(folder), address, _now(now), _sender(sender)))


@league_app.command(short_help="A new player takes a player's place, results so far included.")
def substitute(
    folder: Folder,
    old: Annotated[str, typer.Argument(help="The address of the player replaced.", metavar="OLD")],
    new: Annotated[str, typer.Argument(help="The substitute's address.", metavar="NEW")],
    name: Annotated[str, typer.Option("--name", help="The substitute's name.")],
    now: NowOption = None,
    sender: SenderOption = None,
) -> None:
    """NEW (named NAME) takes OLD's place: in league.toml, in every ongoing game's side tags,
    in players.toml; the seat keeps its results; logged and told to the players concerned.

    Example: referee league substitute autumn ann@example.org eve@example.org --name Eve
    """
    from referee.league import roster

    with _boundary():
        _roster_out(roster.change_address(Path(folder), old, new, _now(now), _sender(sender), name))


@league_app.command(short_help="A player's new address, everywhere in the league.")
def address(
    folder: Folder,
    old: Annotated[str, typer.Argument(help="The player's address now.", metavar="OLD")],
    new: Annotated[str, typer.Argument(help="The player's new address.", metavar="NEW")],
    now: NowOption = None,
    sender: SenderOption = None,
) -> None:
    """The player of OLD plays from NEW on: league.toml, ongoing games, players.toml; logged,
    and told to both addresses and to the players who share a game with them.

    Example: referee league address autumn ann@example.org ann@example.net
    """
    from referee.league import roster

    with _boundary():
        _roster_out(roster.change_address(Path(folder), old, new, _now(now), _sender(sender)))


@league_app.command(short_help="Take back the last round's pairing, while no move is played.")
def unpair(folder: Folder, now: NowOption = None, sender: SenderOption = None) -> None:
    """Delete the last round's games (and keys) while none holds a move; logged, and told to
    its players. `pair` then pairs the round again.

    Example: referee league unpair autumn
    """
    from referee.league import roster

    with _boundary():
        _roster_out(roster.unpair(Path(folder), _now(now), _sender(sender)))
