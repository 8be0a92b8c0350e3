"""The `referee` command line: parse options, call the library, render, choose the exit code.

Exit status: 0 when every record read is legal and every claimed result matches; 1 when
any record is illegal or malformed, a claimed result does not match, or no record was
found; 2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from referee import session
from referee.session import UsageError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help=(
        "Referee for Nika, Numica, Pikemen and Nieuchess game records in RGN.\n\n"
        "Reads records, replays them through the rules and says for each whether it is "
        "finished, ongoing, illegal (the first broken rule) or malformed (where the text "
        "stops being RGN). FILE may be - for standard input."
    ),
)

Files = Annotated[list[str], typer.Argument(help="RGN files to read; - reads standard input.", metavar="FILE...")]
OneFile = Annotated[str, typer.Argument(help="An RGN file; - reads standard input.", metavar="FILE")]
RecordOption = Annotated[int, typer.Option("--record", min=1, help="Which record of the file (1 = first).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Write JSON instead of text.")]
HtmlOption = Annotated[bool, typer.Option("--html", help="Write a self-contained HTML replay page instead.")]
OutputOption = Annotated[
    str | None,
    typer.Option("--output", "-o", help="With --svg or --html: the file to write (default: standard output)."),
]


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"referee {version('referee')}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Referee for Nika, Numica, Pikemen and Nieuchess game records in RGN."""


def _fail_usage(error: UsageError) -> None:
    typer.echo(f"referee: {error}", err=True)
    raise typer.Exit(2)


@app.command()
def check(
    files: Files,
    json_output: JsonOption = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only records that are not legal, then a summary.")
    ] = False,
) -> None:
    """Replay every record and print one verdict line per record.

    Exit status 0 when every record is legal and every claimed Result matches, 1 when
    any is illegal, malformed or wrongly claimed (or no record was found), 2 for a
    usage error or an unreadable file.

    Example: referee check games.rgn   |   cat mail.txt | referee check --json -
    """
    from referee import report

    if json_output:
        import json
    outcome = session.check_files(files, annotate=json_output)
    counts: dict[str, int] = {}
    for verdict in outcome:
        counts[verdict.status] = counts.get(verdict.status, 0) + 1
        if quiet and verdict.legal:
            continue
        if json_output:
            typer.echo(json.dumps(report.as_json(verdict)))
        else:
            typer.echo(report.line(verdict))
    for problem in outcome.problems:
        typer.echo(f"referee: {problem}", err=True)
    if quiet:
        summary = ", ".join(
            f"{counts.get(status, 0)} {status}" for status in ("finished", "ongoing", "illegal", "malformed")
        )
        mismatched = sum(1 for v in outcome.verdicts if v.result_matches is False)
        typer.echo(
            f"{len(outcome.verdicts)} records: {summary}; {mismatched} claimed results do not match", err=json_output
        )
    raise typer.Exit(outcome.exit_code)


@app.command()
def replay(
    file: OneFile,
    record: RecordOption = 1,
    html: HtmlOption = False,
    output: OutputOption = None,
) -> None:
    """Print every action with what it caused (pushes, routs, captures, rolls, retreats), then the final board.

    Example: referee replay --record 2 league.rgn   |   referee replay --html -o game.html game.rgn
    """
    if html:
        _pictures("replay_html", file, record, output)
    try:
        text, code = session.replay_text(file, record)
    except UsageError as error:
        _fail_usage(error)
    typer.echo(text)
    raise typer.Exit(code)


@app.command()
def show(
    file: OneFile,
    record: RecordOption = 1,
    at: Annotated[int | None, typer.Option("--at", min=0, help="Show the board after round N.")] = None,
    json_output: JsonOption = False,
    svg: Annotated[bool, typer.Option("--svg", help="Draw the board as an SVG picture instead.")] = False,
    output: OutputOption = None,
) -> None:
    """Print the board at the end of a record (or after round N with --at N), with its position string.

    Example: referee show --at 12 game.rgn   |   referee show --svg -o board.svg game.rgn
    """
    import json

    if svg:
        _pictures("show_svg", file, record, at, output)
    try:
        shown = session.show(file, record, at)
    except UsageError as error:
        _fail_usage(error)
    if json_output:
        typer.echo(json.dumps(shown.as_json()))
    else:
        typer.echo(shown.text())
    raise typer.Exit(shown.exit_code)


@app.command()
def moves(file: OneFile, record: RecordOption = 1, json_output: JsonOption = False) -> None:
    """List the legal actions of the side to move at the end of a record, in canonical form.

    For play by e-mail: the moves open to the player whose turn the record leaves.
    Example: referee moves game.rgn
    """
    import json

    try:
        listed = session.moves(file, record)
    except UsageError as error:
        _fail_usage(error)
    if json_output:
        typer.echo(json.dumps(listed.as_json()))
    else:
        typer.echo(listed.text())
    raise typer.Exit(listed.exit_code)


@app.command("format")
def format_records(files: Files) -> None:
    """Write every record in canonical form (NOTATION.md §7). Malformed records are passed through as read.

    Tags in order, one turn per line with short labels and round numbers, canonical
    actions, comments kept. Example: referee format messy.rgn > clean.rgn
    """
    outcome = session.format_files(files)
    sys.stdout.write(outcome.text)
    for problem in outcome.problems:
        typer.echo(f"referee: {problem}", err=True)
    raise typer.Exit(outcome.exit_code)


@app.command()
def new(
    game: Annotated[str, typer.Argument(help="nika, numica, pikemen or nieuchess.")],
    players: Annotated[
        int | None, typer.Option("--players", help="Number of players, where the game allows several.")
    ] = None,
    seed: Annotated[
        str | None, typer.Option("--seed", help="Seed of the game's randomness (default: a fresh random seed).")
    ] = None,
    first: Annotated[
        str | None, typer.Option("--first", help="The side that moves first, where the rules let players choose.")
    ] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", help="Any other tag, as NAME=VALUE (repeatable).")] = None,
    secret: Annotated[
        str | None,
        typer.Option("--secret", help="Keep the seed secret: write it to the new key file KEY, publish its SeedHash."),
    ] = None,
    salt: Annotated[
        list[str] | None, typer.Option("--salt", help="With --secret: a side's salt, as SIDE=TEXT (repeatable).")
    ] = None,
) -> None:
    """Write a fresh record with its tags, ready for play.

    Example: referee new pikemen --players 3 --tag Event="Club night" > game.rgn
    Secret dice: referee new nieuchess --secret game.key > game.rgn
    """
    if secret is not None or salt:
        _new_secret(game, players, seed, first, tag or [], secret, salt or [])
        return
    try:
        typer.echo(session.new_record(game, players, seed, first, tag or []), nl=False)
    except UsageError as error:
        _fail_usage(error)


@app.command()
def games(json_output: JsonOption = False) -> None:
    """List the games, their sides, player counts and variants."""
    import json

    from games.registry import GAMES

    if json_output:
        for info in GAMES.values():
            typer.echo(
                json.dumps(
                    {
                        "name": info.name,
                        "title": info.title,
                        "sides": list(info.sides),
                        "players": list(info.player_counts),
                        "variants": list(info.variants),
                        "labels": sorted({**{v: k for k, v in info.short_labels.items()}}),
                    }
                )
            )
        return
    for info in GAMES.values():
        counts = ", ".join(map(str, info.player_counts))
        typer.echo(f"{info.name}: {info.title}")
        typer.echo(f"  sides: {', '.join(f'{s} ({info.short_labels[s]})' for s in info.sides)}")
        typer.echo(f"  players: {counts}; variants: {', '.join(info.variants)}")


@app.command()
def bench(
    names: Annotated[
        list[str] | None, typer.Argument(help="Games to measure (default: all).", metavar="GAME...")
    ] = None,
    records: Annotated[int, typer.Option("--records", min=1, help="Random records per game and player count.")] = 20,
    seed: Annotated[str, typer.Option("--seed", help="Seed of the random playouts.")] = "bench",
    startup: Annotated[
        int, typer.Option("--startup", min=0, help="Instead, time start-up over N runs against a bare Typer app.")
    ] = 0,
) -> None:
    """Measure actions parsed and validated per second, on one core, with peak memory.

    Records are random playouts made before timing; the best of 5 passes counts.
    """
    from referee import benchmark

    try:
        rows = benchmark.startup(startup) if startup else benchmark.run(names or None, records, seed)
        for row in rows:
            typer.echo(row)
    except UsageError as error:
        _fail_usage(error)


def main() -> None:
    """Entry point of the installed `referee` command."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.stderr.close()
        sys.exit(1)


# -- live games: play, reveal (referee.play) ------------------------------------------


def _new_secret(
    game: str,
    players: int | None,
    seed: str | None,
    first: str | None,
    tags: list[str],
    key: str | None,
    salts: list[str],
) -> None:
    from pathlib import Path

    from referee.play import PlayUsageError
    from referee.play.keys import fresh_seed
    from referee.play.secret import new_secret

    if key is None:
        _fail_usage(UsageError("--salt goes with --secret KEY: salts are for a secret seed"))
    if seed is not None:
        _fail_usage(UsageError("--seed and --secret exclude each other: a secret seed is drawn fresh"))
    assert key is not None
    try:
        fresh = fresh_seed()
        text = new_secret(session.new_record(game, players, fresh, first, tags), Path(key), salts, fresh)
    except (UsageError, PlayUsageError) as error:
        _fail_usage(UsageError(str(error)))
    typer.echo(text, nl=False)


def _moves_text(moves: str | None, gm_only: bool) -> str | None:
    """MOVES as given; `-`, or absent without --seed-file/--salt, reads standard input."""
    if moves is not None and moves != "-":
        return moves
    if moves is None and gm_only:
        return None
    try:
        return sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError:
        _fail_usage(UsageError("MOVES on standard input is not UTF-8 text"))
    except (OSError, AttributeError, ValueError):
        _fail_usage(UsageError("cannot read MOVES from standard input"))
    return None


WaitOption = Annotated[
    float, typer.Option("--wait", min=0, help="Seconds to wait for a busy game before giving up (exit 75).")
]
SeedFileOption = Annotated[
    str | None, typer.Option("--seed-file", help="The game master's key file: rolls are drawn from the secret seed.")
]


@app.command()
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
    wait: WaitOption = 10.0,
) -> None:
    """Append moves to a live game: checked, all or nothing, written safely.

    MOVES continues the record; a first action without a label is the side to move's.

    Exit status: 0 written (or would be, with --dry-run); 1 refused; 2 usage; 75 busy, try again later.

    Example: referee play game.rgn "d1-W d2-W" --as Athens --expect 12-ab12cd34ef
    """
    import json
    from pathlib import Path

    from referee.play import GameBusy, PlayUsageError, read_key, submit

    try:
        seed = read_key(Path(seed_file)) if seed_file is not None else None
        text = _moves_text(moves, gm_only=seed_file is not None or bool(salt))
        pairs = [(entry.partition("=")[0], entry.partition("=")[2]) for entry in salt or []]
        for entry in salt or []:
            if "=" not in entry:
                raise PlayUsageError(f'--salt takes SIDE=TEXT, not "{entry}"')
        result = submit(
            Path(file), text, as_side=as_side, expect=expect, dry_run=dry_run, seed=seed, salts=pairs, wait=wait
        )
    except PlayUsageError as error:
        _fail_usage(UsageError(str(error)))
    except GameBusy as error:
        typer.echo(f"referee: {error}", err=True)
        raise typer.Exit(75) from None
    typer.echo(json.dumps(result.as_json()) if json_output else result.text())
    raise typer.Exit(result.exit_code)


@app.command()
def reveal(
    file: Annotated[str, typer.Argument(help="The game file: one record.", metavar="FILE")],
    seed_file: Annotated[str, typer.Option("--seed-file", help="The game master's key file.")],
    json_output: JsonOption = False,
    wait: WaitOption = 10.0,
) -> None:
    """Publish a secret game's seed (the Seed tag, SeedHash kept): check then verifies every roll.

    Exit status: 0 the revealed record is legal; 1 it is not (the seed is written either way); 2 usage; 75 busy.

    Example: referee reveal game.rgn --seed-file game.key
    """
    import json
    from pathlib import Path

    from referee.play import GameBusy, PlayUsageError, read_key
    from referee.play.secret import reveal as reveal_seed

    try:
        result = reveal_seed(Path(file), read_key(Path(seed_file)), wait)
    except PlayUsageError as error:
        _fail_usage(UsageError(str(error)))
    except GameBusy as error:
        typer.echo(f"referee: {error}", err=True)
        raise typer.Exit(75) from None
    typer.echo(json.dumps(result.as_json()) if json_output else result.text())
    raise typer.Exit(result.exit_code)


@app.command()
def mail(
    games_dir: Annotated[
        str, typer.Option("--games", help="The game folder: game ID is the file DIR/ID.rgn.", metavar="DIR")
    ],
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
    wait: Annotated[float, typer.Option("--wait", min=0, help="Seconds to wait for a busy game.")] = 10.0,
    add_player: Annotated[
        str | None,
        typer.Option(
            "--add-player",
            help="Write ADDRESS's passphrase (read from stdin) into DIR/players.toml.",
            metavar="ADDRESS",
        ),
    ] = None,
) -> None:
    """Play the moves of one e-mail message read on standard input, and answer (PLAY.md §5).

    The subject names the game as [ID], the file DIR/ID.rgn; the sender must be a player
    that the record's side tags name. Strangers get no answer.

    Exit status 0 when the message was handled (a refusal or a stranger included), 75 when
    the game is busy (the mail system delivers it again), 2 for a usage error.

    Example (procmail, fetchmail --mda): referee mail --games "$HOME/games" --from gm@example.org --smtp localhost:25
    """
    from pathlib import Path

    from referee import mail as gateway

    try:
        if add_player is not None:
            typer.echo(gateway.add_player(Path(games_dir), add_player, sys.stdin.read(), wait), err=True)
            return
        config = gateway.settings(
            Path(games_dir),
            outbox=Path(outbox) if outbox is not None else None,
            smtp=smtp,
            starttls=starttls,
            smtp_user=smtp_user,
            keys=Path(keys) if keys is not None else None,
            sender=sender,
            wait=wait,
        )
        handled = gateway.run(sys.stdin.buffer, config)
    except gateway.BusyError as error:
        typer.echo(f"referee mail: {error}", err=True)
        raise typer.Exit(gateway.EX_TEMPFAIL) from None
    except gateway.MailUsageError as error:
        typer.echo(f"referee mail: {error}", err=True)
        raise typer.Exit(2) from None
    for note in handled.notes:
        typer.echo(f"referee mail: {note}", err=True)
    raise typer.Exit(handled.exit_code)


def _pictures(command: str, *arguments: object) -> None:
    """Run a command of `referee.pictures.commands` and exit with its status."""
    from referee.pictures import commands

    try:
        code = getattr(commands, command)(*arguments)
    except UsageError as error:
        _fail_usage(error)
    raise typer.Exit(code)
