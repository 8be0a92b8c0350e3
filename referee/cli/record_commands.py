"""The commands over records: check, replay, show, moves, format, new, games and stats
(`bench` is `referee.cli.bench_command`). Each parses its options, calls the judging core (`referee.judge`), prints what
`referee.cli.text_output` words and exits with what `referee.cli.exits.exit_status` chooses."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from contextlib import ExitStack
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from referee.cli import text_output
from referee.cli.app import (
    MAX_RECORD_DEFAULT,
    AsOfOption,
    Files,
    HtmlOption,
    JsonOption,
    MaxRecordOption,
    MovetextColumnOption,
    NowOption,
    OneFile,
    PageOutputOption,
    PictureOutputOption,
    RecordOption,
    app,
    as_of_instant,
    err,
    fail_usage,
    finish,
    numpy_unused,
    out,
    out_line,
    out_pieces,
    parquet_table,
    print_one,
    stderr_is_terminal,
    tallied,
    verdict_as_of,
)
from referee.cli.exits import Tally
from referee.errors import UsageError
from referee.games import registry
from referee.judge.core.verdict_words import verdict_json, verdict_line
from referee.judge.core.verdicts import Problem, Verdict
from referee.notation.model import Turn

if TYPE_CHECKING:
    from referee.judge.core.adjudicate import Played


@app.command(short_help="One verdict line per record (--json, --quiet).")
def check(
    files: Files,
    json_output: JsonOption = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only records that are not legal, then a summary.")
    ] = False,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs",
            "-j",
            min=0,
            metavar="N",
            help="Check records in N worker processes (0: one per core); same output, in the same order.",
        ),
    ] = 1,
    as_of: AsOfOption = None,
    now: NowOption = None,
    email: Annotated[
        bool,
        typer.Option(
            "--email",
            help="Read each FILE as one e-mail message: check the records of its first text/plain part, "
            "decoded, without quoted lines and signature.",
        ),
    ] = False,
    shard: Annotated[
        str | None,
        typer.Option(
            "--shard",
            metavar="K/N",
            help="Check only the K-th of N parts of the records (every N-th record of the inputs, in order, "
            "from the K-th): N runs, K = 1..N, check every record once.",
        ),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Check the records on a Dask cluster: a scheduler's address (tcp://host:8786), or local[:N] "
            "for N worker processes here (pip install '.[dask]' in the checkout); same output, in the same order.",
        ),
    ] = None,
    parquet: Annotated[
        str | None,
        typer.Option(
            "--parquet",
            metavar="OUT",
            help="Write the verdicts to the Parquet file OUT instead, one row per record with the fields "
            "of --json (pip install '.[parquet]' in the checkout).",
        ),
    ] = None,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
    movetext_column: MovetextColumnOption = "movetext",
) -> None:
    """Replay every record and print one verdict line per record.

    Exit status 0 when every record is legal and every claimed Result matches, 1 when any
    is illegal, malformed or wrongly claimed (or no record was found), 2 for a usage
    error or an unreadable file, 3 when the referee itself failed on a record.

    Without --email, FILE holds RGN text, or RGN text compressed with gzip, bzip2, xz or
    zstd (told by its first bytes): anything before the first [Game is skipped. A Parquet
    file is a table of records, one per row (--movetext-column, docs/archives.md).
    A timed record's verdict carries its clock as of its last stamp (--as-of: another instant).
    Example: referee check games.rgn   |   referee check --email - < message.eml
    Example: referee check --as-of now game.rgn   |   referee check --dask local:4 --json archive.rgn.zst
    """
    instant = as_of_instant(as_of, now)
    if email:
        if shard or dask or parquet:
            fail_usage(UsageError("--email reads whole messages: it does not go with --shard, --dask or --parquet"))
        _check_messages(files, json_output, quiet, instant, max_record_bytes)
    from referee.judge.runners import batch_check

    tally = Tally()
    try:
        if dask is not None and jobs != 1:
            raise UsageError("--dask and --jobs choose where records are checked: give one of them")
        parts = batch_check.Shard.parse(shard) if shard is not None else None
        form = batch_check.Form(json_output or parquet is not None, quiet and parquet is None, instant)
        if dask is not None:
            from referee.judge.runners import dask_check

            checked = dask_check.check_lines(files, form, dask_check.Address(dask), parts, max_record_bytes)
        else:
            numpy_unused()  # (not with --dask: Dask may use numpy, and pyarrow with it)
            checked = batch_check.check_lines(files, form, jobs, parts, max_record_bytes)
        say = None if form.json else text_output.locale_speaker()  # the verdicts' words, never --json's
        with ExitStack() as stack:
            table = None
            if parquet is not None:
                table = stack.enter_context(parquet_table(parquet))
            for item in checked:
                if isinstance(item, Problem):
                    tally.add(item)
                    err(text_output.problem_line(item))
                    continue
                tally.add_counts(item.statuses, item.mismatched)
                if table is not None:
                    table.add(item.text)
                elif item.text:
                    _out_lines(item.text if say is None else text_output.spoken_verdicts(item.text, say))
    except UsageError as error:
        fail_usage(error)
    _check_summary(tally, json_output, quiet)


def _check_messages(files: list[str], json_output: bool, quiet: bool, instant: int | None, max_record: int) -> NoReturn:
    """`check --email`: the records of each message, one verdict at a time."""
    from referee.cli import mailed

    tally = Tally()
    for item in mailed.check_messages(files, json_output, max_record):
        if not isinstance(item, Problem):
            item = verdict_as_of(item, instant)
        tally.add(item)
        if isinstance(item, Problem):
            err(text_output.problem_line(item))
        elif not (quiet and item.legal):
            out_line(verdict_json(item) if json_output else verdict_line(item))
    _check_summary(tally, json_output, quiet)


def _check_summary(tally: Tally, json_output: bool, quiet: bool) -> NoReturn:
    if quiet:
        (err if json_output else out)(text_output.summary(tally))
    elif tally.records > 1 and stderr_is_terminal():
        err(text_output.summary(tally))
    finish(tally)


def _out_lines(text: str) -> None:
    """Lines (each ending with a newline) as `out_line` prints them, written at once."""
    if "\033" in text:
        for line in text.split("\n")[:-1]:
            out_line(line)
    else:
        sys.stdout.write(text)


@app.command(short_help="Every action with what it caused, then the board.")
def replay(
    file: OneFile,
    record: RecordOption = 1,
    html: HtmlOption = False,
    output: PageOutputOption = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help="JSON Lines: one object per action, with its events' typed fields (docs/replay-json.md)."
        ),
    ] = False,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
) -> None:
    """Print every action with what it caused (pushes, routs, captures, rolls, retreats), then the final board.

    With --json, one JSON object per action (JSON Lines); the verdict line of a record
    that is not legal goes to standard error.
    Example: referee replay --record 2 league.rgn   |   referee replay --html -o game.html game.rgn
    """
    from referee.judge import session

    if html:
        _page(file, record, output, max_record_bytes)
    turn_before: list[Turn | None] = [None]
    printed = [False]

    def each(verdict: Verdict, played: Played) -> None:  # each action as it is replayed, none kept
        lines = (
            [text_output.step_json(verdict, played)] if json_output else text_output.step_lines(played, turn_before[0])
        )
        for line in lines:
            out_line(line)
        turn_before[0], printed[0] = played.turn, True

    try:
        replayed = session.replay_steps(file, record, each, max_record_bytes)
    except UsageError as error:
        fail_usage(error)
    replayed, tally = tallied(replayed)
    if json_output:
        if not replayed.verdict.legal:
            err(verdict_line(replayed.verdict))
    else:
        out(("\n" if printed[0] else "") + text_output.replay_end(replayed))
    finish(tally)


@app.command(short_help="The board at the end, or after round N (--at N).")
def show(
    file: OneFile,
    record: RecordOption = 1,
    at: Annotated[int | None, typer.Option("--at", min=0, help="Show the board after round N.")] = None,
    json_output: JsonOption = False,
    svg: Annotated[bool, typer.Option("--svg", help="Draw the board as an SVG picture instead.")] = False,
    output: PictureOutputOption = None,
    as_of: AsOfOption = None,
    now: NowOption = None,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
) -> None:
    """Print the board at the end of a record (or after round N with --at N), with its position string.

    On an illegal record, the board before the illegal action. A timed record shows both
    clocks and the deadline, as of its last stamp (--as-of: another instant).

    Example: referee show --at 12 game.rgn   |   referee show --svg -o board.svg game.rgn
    Example: referee show --as-of now game.rgn
    """
    from referee.judge import session

    if svg:
        _draw(file, record, at, output, max_record_bytes)
    instant = as_of_instant(as_of, now)
    try:
        shown = session.show(file, record, at, max_record_bytes)
    except UsageError as error:
        fail_usage(error)
    if not isinstance(shown, Problem):
        shown = shown._replace(verdict=verdict_as_of(shown.verdict, instant))
    print_one(shown, text_output.shown_json if json_output else text_output.shown_text)


@app.command(short_help="The legal actions of the side to move.")
def moves(
    file: OneFile,
    record: RecordOption = 1,
    json_output: JsonOption = False,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
) -> None:
    """List the legal actions of the side to move at the end of a record, in canonical form,
    each as `referee play` accepts it there (a replacement step as `R+: g4`, an awaited
    retreat as `(h7-h8-h9)`, no roll while the dice are secret).

    For play by e-mail: the moves open to the player whose turn the record leaves.
    Example: referee moves game.rgn
    """
    from referee.judge import session

    try:
        listed = session.moves(file, record, max_record_bytes)
    except UsageError as error:
        fail_usage(error)
    print_one(listed, text_output.listed_json if json_output else text_output.listed_text)


@app.command("format", short_help="Every record in canonical form.")
def format_records(
    files: Files,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
    movetext_column: MovetextColumnOption = "movetext",
) -> None:
    """Write every record in canonical form (NOTATION.md §7). Malformed records are passed through as read.

    Tags in order, one turn per line with short labels and round numbers, canonical
    actions, comments kept. Example: referee format messy.rgn > clean.rgn
    """
    from referee.judge import session

    numpy_unused()
    tally = Tally()
    first = True
    for item in session.format_records(files, max_record_bytes):
        if isinstance(item, Problem):
            tally.add(item)
            err(text_output.problem_line(item))
            continue
        if item.data:  # (a record refused for its size is not written)
            _write_bytes(item.data if first else b"\n" + item.data)
            first = False
        if item.verdict is not None:
            tally.add(item.verdict)
            err(text_output.passed_through(item.verdict) if item.data else f"referee: {verdict_line(item.verdict)}")
    finish(tally)


def _write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


_GAME_NAMES = " or ".join(filter(None, (", ".join(list(registry.GAMES)[:-1]), list(registry.GAMES)[-1])))
_NEW_EXAMPLES = {
    "nika": "referee new nika --players 2 > game.rgn",
    "numica": "referee new numica --tag Variant=warpspawn > game.rgn",
    "pikemen": 'referee new pikemen --players 3 --tag Event="Club night" > game.rgn',
    "nieuchess": "referee new nieuchess --secret game.key > game.rgn",
}
"""An example `referee new` line per game, in the registry's order, for `new --help`."""
_NEW_HELP = (
    "Write a fresh record with its tags, ready for play. It always checks as legal.\n\n"
    + "\n\n".join(f"Example: {_NEW_EXAMPLES[name]}" for name in registry.GAMES if name in _NEW_EXAMPLES)
    + "\n\nA clock (TIME.md): referee new numica --time-control 3d+1d/5d --start 2026-12-01T12:00:00Z > game.rgn"
)


@app.command(short_help="A fresh record's tags, ready for play.", help=_NEW_HELP)
def new(
    game: Annotated[str, typer.Argument(help=f"{_GAME_NAMES}.", metavar="GAME")],
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
    time_control: Annotated[
        str | None,
        typer.Option("--time-control", metavar="TC", help="A clock (TIME.md): D+I, D+I/C or D/move, like 3d+1d/5d."),
    ] = None,
    start: Annotated[
        str | None,
        typer.Option("--start", metavar="TIME", help="With --time-control: when the clocks start (default: now)."),
    ] = None,
    game_id: Annotated[
        str | None,
        typer.Option("--id", metavar="ID", help="The GameId its tokens name (default: 16 fresh random hex digits)."),
    ] = None,
    now: NowOption = None,
    force: Annotated[
        bool,
        typer.Option(
            "--force", help="Write it even when some sides have a player's address and others none (stalls by mail)."
        ),
    ] = False,
) -> None:
    from referee.cli.addressed import check_addresses
    from referee.judge.core import clock_walk
    from referee.judge.services import new_record

    try:
        if not force:
            check_addresses(game, players, tag or [])
        tag = (tag or []) + clock_walk.new_clock_tags(time_control, start, clock_walk.current_instant(now))
    except UsageError as error:
        fail_usage(error)
    if secret is not None or salt:
        from referee.cli.play_commands import new_secret

        new_secret(game, players, seed, first, tag or [], secret, salt or [], game_id)
        return
    try:
        text = new_record.new_record(game, players, seed, first, tag or [], game_id)
    except UsageError as error:
        fail_usage(error)
    typer.echo(text, nl=False)


@app.command(short_help="The games, their sides, player counts and variants.")
def games(json_output: JsonOption = False) -> None:
    """List the games, their sides, player counts and variants.

    Example: referee games   |   referee games --json
    """
    for line in text_output.games_json() if json_output else text_output.games_text():
        out(line)


def _draw(file: str, record: int, at: int | None, output: str | None, max_record: int) -> NoReturn:
    """`show --svg`: the picture to OUT (or standard output)."""
    from referee.judge import session
    from referee.pictures import picture_commands

    try:
        # The exit status tells of the whole record, as `show --at` does.
        whole, tally = tallied(session.drawn(file, record, at, max_record))
        played = whole if whole.cut is None else whole.cut
        # the picture's words follow the locale, as check's verdict lines (docs/languages.md)
        text = picture_commands.board_picture(played, text_output.locale_speaker())
        if text is None:
            err(f"referee: no board to draw: {verdict_line(played.verdict)}")
        elif output is None or output == "-":
            out(text.rstrip("\n"))
        else:
            _write(text, output)
    except UsageError as error:
        fail_usage(error)
    finish(tally)


def _page(file: str, record: int, output: str | None, max_record: int) -> NoReturn:
    """`replay --html`: the page to OUT (or standard output), written piece by piece as it
    is made from the record replayed as a stream (`referee.pictures.streamed_page`)."""
    from referee.pictures import picture_commands

    try:
        # the page's words follow the locale, as check's verdict lines (docs/languages.md)
        made, tally = tallied(picture_commands.record_page(file, record, max_record, text_output.locale_speaker()))
        if output is None or output == "-":
            out_pieces(made.pieces)
        else:
            _write(made.pieces, output)
    except UsageError as error:
        fail_usage(error)
    finish(tally)


@app.command(short_help="Records by game and status, results, lengths, and a dice audit.")
def stats(
    files: Files,
    json_output: JsonOption = False,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
    movetext_column: MovetextColumnOption = "movetext",
) -> None:
    """Summarise an archive: records by game and status, wins by side, reasons, lengths in
    turns (min, median, max), and a dice audit of Nieuchess battles for each side (how often
    each face came up, a chi-square test against a fair die, flagged when p < 0.01).

    The exit status is that of check. Example: referee stats --json league/*.rgn
    """
    from referee.judge.services.archive_stats import Stats, collect

    numpy_unused()
    tally = Tally()
    summary = Stats()
    for item in collect(files, summary, max_record_bytes):
        tally.add(item)
        if isinstance(item, Problem):
            err(text_output.problem_line(item))
    out(text_output.stats_json(summary) if json_output else text_output.stats_text(summary))
    finish(tally)


def _write(text: str | Iterable[bytes], output: str) -> None:
    """The text (or its pieces, UTF-8) to the file OUT the user named, as every output is
    written (`referee.store.outputs`, docs/files.md): whole beside it and renamed over it,
    a link there replaced (never written through), a FIFO, device or folder refused
    unopened; a failure half way leaves the old file as it was. Raises UsageError when it
    cannot be written."""
    from pathlib import Path

    from referee.store import WriteFailed, write_output

    try:
        write_output(Path(output), text)
    except WriteFailed as error:  # (its words name the file already)
        raise UsageError(f"cannot write {output}: {error.reason}") from None
    except OSError as error:
        raise UsageError(f"cannot write {output}: {error.strerror or error}") from None
