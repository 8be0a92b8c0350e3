"""The `referee` command line's common ground: the Typer app, the options its commands
share, and the one way they print and exit. The commands themselves are in
`referee.cli.record_commands` (check, replay, show, moves, format, new, games, stats, bench) and
`referee.cli.play_commands` (play, reveal, mail); `referee.cli.main` puts them together.

Exit status (NOTATION.md §8): 0 every record legal and every claimed result matching;
1 a record illegal or malformed, a claim that does not match, or no record found; 2 a
usage error, an unreadable input or output that cannot be written; 3 a record met an
error of the referee itself (it gets the verdict `error`, the next record is read);
75 a game file is busy.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn, Protocol, TypeVar

import typer

from referee.cli import text_output
from referee.cli.exits import Tally, exit_status
from referee.errors import UsageError
from referee.judge.core.verdicts import Problem, Verdict

if TYPE_CHECKING:
    from referee.judge.runners.verdict_table import Table


def _typer(help_text: str, *, add_completion: bool = True, pretty_exceptions_enable: bool = True) -> typer.Typer:
    """A Typer app with the settings every level of the command line shares: no arguments
    print the help, plain-text help, -h as well as --help."""
    return typer.Typer(
        add_completion=add_completion,
        no_args_is_help=True,
        rich_markup_mode=None,
        pretty_exceptions_enable=pretty_exceptions_enable,
        context_settings={"help_option_names": ["-h", "--help"]},
        help=help_text,
    )


app = _typer(
    "Referee for Nika, Numica, Pikemen and Nieuchess game records in RGN.\n\n"
    "Reads records, replays them through the rules and says for each whether it is "
    "finished, ongoing, illegal (the first broken rule) or malformed (where the text "
    "stops being RGN). FILE may be - for standard input.\n\n"
    "Exit status: 0 all legal; 1 a record illegal or malformed, a wrong Result claim or "
    "no record; 2 a usage error, an unreadable file or unwritable output; 3 an error of "
    "the referee itself (please report it); 75 a game file is busy (play, reveal, mail): try again later.",
    add_completion=False,
    pretty_exceptions_enable=False,
)


def command_group(name: str, short_help: str, help_text: str) -> typer.Typer:
    """A group of subcommands, registered on `app` as `referee NAME` (league, mail, import, export)."""
    group = _typer(help_text)
    app.add_typer(group, name=name, short_help=short_help)
    return group


Files = Annotated[list[str], typer.Argument(help="RGN files to read; - reads standard input.", metavar="FILE...")]
OneFile = Annotated[str, typer.Argument(help="An RGN file; - reads standard input.", metavar="FILE")]
GameFile = Annotated[str, typer.Argument(help="The game file: one record.", metavar="FILE")]
RecordOption = Annotated[int, typer.Option("--record", min=1, help="Which record of the file (1 = first).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Write JSON instead of text.")]

WAIT_DEFAULT = 10.0
"""Seconds `mail`, `play` and `reveal` wait for a busy game without --wait (their options'
default, and what `referee config` shows for `wait` left unset). Here, not in
`referee.cli.config_file`, so that `check` never loads the configuration's module."""
HtmlOption = Annotated[bool, typer.Option("--html", help="Write a self-contained HTML replay page instead.")]
AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of",
        metavar="TIME|now",
        help="A timed record's clock as of this instant (2026-12-06T12:00:00Z, or now) instead of its last stamp.",
    ),
]
NowOption = Annotated[
    str | None,
    typer.Option(
        "--now", metavar="TIME", help="Take this instant (2026-12-06T12:00:00Z) as now, for tests and replays."
    ),
]
PageOutputOption = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="OUT", help="With --html: the file to write (default: standard output)."),
]


MaxRecordOption = Annotated[
    int,
    typer.Option(
        "--max-record-bytes",
        min=1,
        metavar="N",
        help="Refuse a record larger than N bytes, unread (PLAY.md §8). Default: 64 MB.",
    ),
]
MAX_RECORD_DEFAULT = 64_000_000


_own_process = [False]


def own_process() -> None:
    """Said by `referee.cli.main.main` alone: this process is the `referee` command's own,
    not a caller's that runs a command in its midst (a test, a notebook), whose other
    modules may need what a command says it does without (`numpy_unused`)."""
    _own_process[0] = True


def numpy_unused() -> None:
    """Said by a command that uses numpy nowhere (`check` without `--dask`, `stats`,
    `format`): in the command's own process, a Parquet input's pyarrow is imported without
    numpy (`referee.judge.sources.parquet_rows.numpy_unused`, docs/speed.md, issue 51)."""
    if _own_process[0]:
        from referee.judge.sources import parquet_rows

        parquet_rows.numpy_unused()


def _movetext_column(value: str) -> str:
    from referee.judge.sources import parquet_rows

    parquet_rows.set_movetext_column(value)
    return value


MovetextColumnOption = Annotated[
    str,
    typer.Option(
        "--movetext-column",
        metavar="NAME",
        callback=_movetext_column,
        help="In a Parquet input, the string column that holds each row's move text (the other string "
        "columns are its tags). Default: movetext.",
    ),
]
PictureOutputOption = Annotated[
    str | None,
    typer.Option("--output", "-o", metavar="OUT", help="With --svg: the file to write (default: standard output)."),
]


# Printing: verdicts and boards to standard output, problems to standard error.


def out(text: str) -> None:
    sys.stdout.flush()  # after what `out_line` left in the buffer
    typer.echo(text)


def out_pieces(pieces: Iterable[bytes]) -> None:
    """The text of `pieces` (UTF-8) as `out` prints it joined: its last newlines as one,
    escape sequences left out of a file or a pipe; written one piece at a time."""
    sys.stdout.flush()
    newlines = b""
    for piece in pieces:
        body = piece.rstrip(b"\n")
        if not body:
            newlines += piece
            continue
        _echo(newlines + body)
        newlines = piece[len(body) :]
    _echo(b"\n")
    sys.stdout.flush()


def _echo(piece: bytes) -> None:
    text = piece.decode("utf-8")
    if "\033" in text:
        typer.echo(text, nl=False)
    else:
        sys.stdout.write(text)


@contextmanager
def parquet_table(path: str) -> Iterator[Table]:
    """`check --parquet OUT`'s table, written as every output is (`referee.store.outputs`,
    docs/files.md): into a temporary file beside OUT, renamed over it once its last row
    group and footer are written, so a link at OUT is replaced, never written through, and
    a check that fails half way leaves the old file as it was. Raises UsageError when
    pyarrow is missing or OUT cannot be written (a FIFO, a device or a folder there is
    refused unopened)."""
    if path == "-":
        raise UsageError("--parquet needs a file to write, not standard output")
    from referee.judge.runners import verdict_table as tables
    from referee.store import WriteFailed, output_file

    try:
        with output_file(Path(path)) as handle, tables.writer(handle) as table:
            yield table
    except WriteFailed as error:
        raise UsageError(f"cannot write {path}: {error.reason}") from None


def out_line(text: str) -> None:
    """One line of standard output as `out` prints it, not flushed at once: for the many
    lines of `check` (on a terminal the stream is flushed at each line anyway, into a pipe
    or a file at the end or when its buffer fills). A line with an escape character goes
    through `out`, which leaves escape sequences out of a file or a pipe."""
    if "\033" in text:
        out(text)
    else:
        sys.stdout.write(text + "\n")


def err(text: str) -> None:
    sys.stdout.flush()  # what was printed before it comes before it, even in one file (2>&1)
    typer.echo(text, err=True)


def fail_usage(error: UsageError) -> NoReturn:
    from referee.cli import text_output

    err(f"referee: {text_output.spoken_error(str(error), text_output.locale_speaker())}")
    finish(Tally(usage=True))


def stdin_text(limit: int, what: str) -> str:
    """Standard input, read within `limit` bytes, as UTF-8 text; `what` (MOVES, the queue)
    names it in the usage error (exit 2) when it is too long, not UTF-8 or cannot be read."""
    from referee.judge.sources import record_sources

    try:
        return record_sources.read_stdin_bounded(limit, f"{what} on standard input").decode("utf-8")
    except UnicodeDecodeError:
        fail_usage(UsageError(f"{what} on standard input is not UTF-8 text"))
    except UsageError as error:
        fail_usage(error)
    except (OSError, AttributeError, ValueError):
        fail_usage(UsageError(f"cannot read {what} from standard input"))


def finish(tally: Tally) -> NoReturn:
    raise typer.Exit(exit_status(tally))


def as_of_instant(as_of: str | None, now: str | None) -> int | None:
    """The instant of --as-of (through the one clock --now sets), or None; a bad value
    is a usage error (exit 2)."""
    if as_of is None:
        return None
    from referee.judge.core import clock_walk

    try:
        return clock_walk.as_of_instant(as_of, clock_walk.current_instant(now))
    except UsageError as error:
        fail_usage(error)


def verdict_as_of(verdict: Verdict, instant: int | None) -> Verdict:
    """The verdict with a timed record's clock as of `instant`; earlier than its last
    stamp is a usage error (exit 2)."""
    if instant is None:
        return verdict
    from referee.judge.core import verdicts

    try:
        return verdicts.verdict_as_of(verdict, instant)
    except UsageError as error:
        fail_usage(error)


def stderr_is_terminal() -> bool:
    return sys.stderr is not None and sys.stderr.isatty()


def _version(value: bool) -> None:
    if value:
        from referee.version import version_text

        out(version_text())
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


def tallied(item: Judged | Problem) -> tuple[Judged, Tally]:
    """A one-record command's first step: the input's problem ends it (its line on standard
    error, its exit status); a record goes on, with a tally that counts its verdict."""
    tally = Tally()
    if isinstance(item, Problem):
        tally.add(item)
        err(text_output.problem_line(item))
        finish(tally)
    tally.add(item.verdict)
    return item, tally


def print_one(item: Judged | Problem, text: Callable[[Judged], str]) -> NoReturn:
    """A one-record command's ending: its output (or the input's problem), then its exit."""
    judged, tally = tallied(item)
    out(text(judged))
    finish(tally)


def game_name(name: str) -> str:
    """A game's registered name from any spelling of it (names are case-insensitive)."""
    from referee.games import registry

    info = registry.info(name)
    if info is None:
        raise UsageError(f'unknown game "{name}": choose from {", ".join(registry.GAMES)}')
    return info.name
