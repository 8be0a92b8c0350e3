"""The `referee` command line: parse options, call the library, print what
`referee.render` words, and exit with what `referee.exits.exit_status` chooses.

Exit status (NOTATION.md §8): 0 every record legal and every claimed result matching;
1 a record illegal or malformed, a claim that does not match, or no record found; 2 a
usage error, an unreadable input or output that cannot be written; 3 a record met an
error of the referee itself (it gets the verdict `error`, the next record is read);
75 a game file is busy. New commands go at the end of this file.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Annotated, NoReturn, Protocol, TypeVar

import typer

from referee import render, session
from referee.adjudicate import Replay
from referee.errors import UsageError
from referee.exits import Problem, Tally, exit_status
from referee.verdicts import Verdict

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=(
        "Referee for Nika, Numica, Pikemen and Nieuchess game records in RGN.\n\n"
        "Reads records, replays them through the rules and says for each whether it is "
        "finished, ongoing, illegal (the first broken rule) or malformed (where the text "
        "stops being RGN). FILE may be - for standard input.\n\n"
        "Exit status: 0 all legal; 1 a record illegal or malformed, a wrong Result claim or "
        "no record; 2 a usage error, an unreadable file or unwritable output; 3 an error of "
        "the referee itself (please report it)."
    ),
)

Files = Annotated[list[str], typer.Argument(help="RGN files to read; - reads standard input.", metavar="FILE...")]
OneFile = Annotated[str, typer.Argument(help="An RGN file; - reads standard input.", metavar="FILE")]
RecordOption = Annotated[int, typer.Option("--record", min=1, help="Which record of the file (1 = first).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Write JSON instead of text.")]
HtmlOption = Annotated[bool, typer.Option("--html", help="Write a self-contained HTML replay page instead.")]
OutputOption = Annotated[
    str | None,
    typer.Option(
        "--output", "-o", metavar="OUT", help="With --svg or --html: the file to write (default: standard output)."
    ),
]


# Printing: verdicts and boards to standard output, problems to standard error.


def _out(text: str) -> None:
    typer.echo(text)


def _err(text: str) -> None:
    typer.echo(text, err=True)


def _fail_usage(error: UsageError) -> NoReturn:
    _err(f"referee: {error}")
    tally = Tally()
    tally.usage = True
    _exit(tally)


def _exit(tally: Tally) -> NoReturn:
    raise typer.Exit(exit_status(tally))


def _stderr_is_terminal() -> bool:
    return sys.stderr is not None and sys.stderr.isatty()


def _version_text() -> str:
    """`referee 0.1.0`; from a checkout that is not installed, the version its
    pyproject.toml declares, said as such."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"referee {version('referee')}"
    except PackageNotFoundError:
        pass
    try:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        return f"referee {declared} (not installed)"
    except (OSError, ValueError, KeyError, TypeError):
        return "referee (not installed)"


def _version(value: bool) -> None:
    if value:
        _out(_version_text())
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Referee for Nika, Numica, Pikemen and Nieuchess game records in RGN."""


class _Judged(Protocol):
    @property
    def verdict(self) -> Verdict: ...


Judged = TypeVar("Judged", bound=_Judged)


def _print_one(item: Judged | Problem, text: Callable[[Judged], str]) -> NoReturn:
    """A one-record command's ending: its output (or the input's problem), then its exit."""
    tally = Tally()
    tally.add(item if isinstance(item, Problem) else item.verdict)
    if isinstance(item, Problem):
        _err(render.problem_line(item))
    else:
        _out(text(item))
    _exit(tally)


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
) -> None:
    """Replay every record and print one verdict line per record.

    Exit status 0 when every record is legal and every claimed Result matches, 1 when any
    is illegal, malformed or wrongly claimed (or no record was found), 2 for a usage
    error or an unreadable file, 3 when the referee itself failed on a record.

    Example: referee check games.rgn   |   cat mail.txt | referee check --json -
    """
    tally = Tally()
    from referee import batch

    for item in batch.check_files(files, jobs, annotate=json_output):
        tally.add(item)
        if isinstance(item, Problem):
            _err(render.problem_line(item))
        elif not (quiet and item.legal):
            _out(render.verdict_json(item) if json_output else render.verdict_line(item))
    if quiet:
        typer.echo(render.summary(tally), err=json_output)
    elif tally.records > 1 and _stderr_is_terminal():
        _err(render.summary(tally))
    _exit(tally)


@app.command(short_help="Every action with what it caused, then the board.")
def replay(
    file: OneFile,
    record: RecordOption = 1,
    html: HtmlOption = False,
    output: OutputOption = None,
    json_output: Annotated[
        bool,
        typer.Option(
            "--json", help="JSON Lines: one object per action, with its events' typed fields (docs/replay-json.md)."
        ),
    ] = False,
) -> None:
    """Print every action with what it caused (pushes, routs, captures, rolls, retreats), then the final board.

    With --json, one JSON object per action (JSON Lines); the verdict line of a record
    that is not legal goes to standard error.
    Example: referee replay --record 2 league.rgn   |   referee replay --html -o game.html game.rgn
    """
    if html:
        _draw(file, record, None, output, page=True)
    try:
        played = session.replay(file, record)
    except UsageError as error:
        _fail_usage(error)
    if json_output and not isinstance(played, Problem):
        _replay_json(played)
    _print_one(played, render.replay_text)


def _replay_json(played: Replay) -> NoReturn:
    tally = Tally()
    tally.add(played.verdict)
    for line in render.replay_json(played):
        _out(line)
    if not played.verdict.legal:
        _err(render.verdict_line(played.verdict))
    _exit(tally)


@app.command(short_help="The board at the end, or after round N (--at N).")
def show(
    file: OneFile,
    record: RecordOption = 1,
    at: Annotated[int | None, typer.Option("--at", min=0, help="Show the board after round N.")] = None,
    json_output: JsonOption = False,
    svg: Annotated[bool, typer.Option("--svg", help="Draw the board as an SVG picture instead.")] = False,
    output: OutputOption = None,
) -> None:
    """Print the board at the end of a record (or after round N with --at N), with its position string.

    On an illegal record, the board before the illegal action.

    Example: referee show --at 12 game.rgn   |   referee show --svg -o board.svg game.rgn
    """
    if svg:
        _draw(file, record, at, output, page=False)
    try:
        shown = session.show(file, record, at)
    except UsageError as error:
        _fail_usage(error)
    _print_one(shown, render.shown_json if json_output else render.shown_text)


@app.command(short_help="The legal actions of the side to move.")
def moves(file: OneFile, record: RecordOption = 1, json_output: JsonOption = False) -> None:
    """List the legal actions of the side to move at the end of a record, in canonical form.

    For play by e-mail: the moves open to the player whose turn the record leaves.
    Example: referee moves game.rgn
    """
    try:
        listed = session.moves(file, record)
    except UsageError as error:
        _fail_usage(error)
    _print_one(listed, render.listed_json if json_output else render.listed_text)


@app.command("format", short_help="Every record in canonical form.")
def format_records(files: Files) -> None:
    """Write every record in canonical form (NOTATION.md §7). Malformed records are passed through as read.

    Tags in order, one turn per line with short labels and round numbers, canonical
    actions, comments kept. Example: referee format messy.rgn > clean.rgn
    """
    tally = Tally()
    first = True
    for item in session.format_records(files):
        if isinstance(item, Problem):
            tally.add(item)
            _err(render.problem_line(item))
            continue
        _write_bytes(item.data if first else b"\n" + item.data)
        first = False
        if item.verdict is not None:
            tally.add(item.verdict)
            _err(render.passed_through(item.verdict))
    _exit(tally)


def _write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


@app.command(short_help="A fresh record's tags, ready for play.")
def new(
    game: Annotated[str, typer.Argument(help="nika, numica, pikemen or nieuchess.", metavar="GAME")],
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
    """Write a fresh record with its tags, ready for play. It always checks as legal.

    Example: referee new pikemen --players 3 --tag Event="Club night" > game.rgn
    Secret dice: referee new nieuchess --secret game.key > game.rgn
    """
    from referee import fresh

    if secret is not None or salt:
        _live.new_secret(game, players, seed, first, tag or [], secret, salt or [])
        return
    try:
        text = fresh.new_record(game, players, seed, first, tag or [])
    except UsageError as error:
        _fail_usage(error)
    typer.echo(text, nl=False)


@app.command(short_help="The games, their sides, player counts and variants.")
def games(json_output: JsonOption = False) -> None:
    """List the games, their sides, player counts and variants."""
    for line in render.games_json() if json_output else render.games_text():
        _out(line)


@app.command(short_help="Actions checked per second beside python-chess, peak memory.")
def bench(
    names: Annotated[
        list[str] | None, typer.Argument(help="Games to measure (default: all).", metavar="GAME...")
    ] = None,
    actions: Annotated[
        int, typer.Option("--actions", min=1, help="Size 1x: random records of at least N actions per game.")
    ] = 50_000,
    runs: Annotated[int, typer.Option("--runs", min=1, help="Processes timed per figure (the best counts).")] = 3,
    sizes: Annotated[str, typer.Option("--sizes", help="The multiples of size 1x to measure, e.g. 1,10,100.")] = "1,10",
    seed: Annotated[str, typer.Option("--seed", help="Seed of the random playouts.")] = "bench",
    in_process: Annotated[
        bool,
        typer.Option("--in-process", help="Instead, time reading and checking inside one process, per player count."),
    ] = False,
    records: Annotated[
        int, typer.Option("--records", min=1, help="With --in-process: random records per game and player count.")
    ] = 20,
    startup: Annotated[
        int, typer.Option("--startup", min=0, help="Instead, time start-up over N runs against a bare Typer app.")
    ] = 0,
    memory: Annotated[
        float,
        typer.Option(
            "--memory",
            min=0,
            metavar="SCALE",
            help="Instead, time `referee check` and its peak memory on large inputs (SCALE 1: a 50 MB file, "
            "a 10 MB tag, 200,000 comment lines, a 100,000-turn game, then one large record per path: "
            "1,000,000 turns legal, illegal, mistyped and --json, a 10 MB line, a 50 MB tag, a 2,000,000-action turn).",
        ),
    ] = 0,
) -> None:
    """Measure what users run: whole `referee check` processes on random records at sizes
    1x and 10x, actions per second and peak memory, beside python-chess reading and
    validating as many plies of its own random games, in the same run.

    The ratio is ours over python-chess's, shown beside the goal. python-chess comes with
    the bench extra: pip install 'referee[bench]'. Example: referee bench nika   |
    referee bench --actions 2000   |   referee bench --startup 21   |   referee bench --memory 0.2
    """
    from referee import benchmark

    try:
        chosen = [_game_name(name) for name in names or []]
        rows: Iterable[str]
        if memory:
            rows = benchmark.memory(memory, command=True)
        elif startup:
            rows = benchmark.startup(startup)
        elif in_process:
            rows = benchmark.run(chosen or None, records, seed)
        else:
            from referee import bench_chess

            if not bench_chess.has_chess():
                _err(
                    "referee bench: python-chess is not installed, so its figures are left out: "
                    "pip install 'referee[bench]'"
                )
            scales = bench_chess.read_sizes(sizes)
            rows = bench_chess.compare(chosen or None, actions, seed, runs, scales)
        for row in rows:
            _out(row)
    except UsageError as error:
        _fail_usage(error)


def _game_name(name: str) -> str:
    """A game's registered name from any spelling of it (names are case-insensitive)."""
    from games import registry

    info = registry.info(name)
    if info is None:
        raise UsageError(f'unknown game "{name}": choose from {", ".join(registry.GAMES)}')
    return info.name


def main() -> NoReturn:
    """Entry point of the installed `referee` command (and of `python -m referee`)."""
    from referee.entry import run

    sys.exit(run(app, sys.argv[1:]))


def _draw(file: str, record: int, at: int | None, output: str | None, *, page: bool) -> NoReturn:
    """`show --svg` and `replay --html`: the picture or page to OUT (or standard output)."""
    from referee.pictures import commands

    try:
        played = session.replay(file, record, at)
        tally = Tally()
        if isinstance(played, Problem):
            tally.add(played)
            _err(render.problem_line(played))
            _exit(tally)
        # The exit status tells of the whole record, as `show --at` does.
        whole = played if at is None else session.replay(file, record)
        tally.add(whole.verdict if isinstance(whole, Replay) else whole)
        text = commands.replay_html(played) if page else commands.board_picture(played)
        if text is None:
            _err(f"referee: no board to draw: {render.verdict_line(played.verdict)}")
        elif output is None or output == "-":
            _out(text.rstrip("\n"))
        else:
            commands.write(text, output)
    except UsageError as error:
        _fail_usage(error)
    _exit(tally)


@app.command(short_help="Records by game and status, results, lengths, and a dice audit.")
def stats(files: Files, json_output: JsonOption = False) -> None:
    """Summarise an archive: records by game and status, wins by side, reasons, lengths in
    turns (min, median, max), and a dice audit of Nieuchess battles for each side (how often
    each face came up, a chi-square test against a fair die, flagged when p < 0.01).

    The exit status is that of check. Example: referee stats --json league/*.rgn
    """
    from referee.stats import Stats, collect

    tally = Tally()
    summary = Stats()
    for item in collect(files, summary):
        tally.add(item)
        if isinstance(item, Problem):
            _err(render.problem_line(item))
    _out(render.stats_json(summary) if json_output else render.stats_text(summary))
    _exit(tally)


# The commands that run live games (play, reveal, mail) live in their own module.
from referee import cli_live as _live  # noqa: E402  (registers its commands on `app`)
