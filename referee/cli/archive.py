"""`referee import abstractplay` and `referee export abstractplay`: AbstractPlay's Pikemen
records in and out (docs/archives.md).

Exit status of both: 0 every record imported (exported) and, for import, the replay agreeing
with AbstractPlay; 1 a record that cannot be read, a disagreement, a record refused for
export, or an input with no record; 2 a usage error, an unreadable input or an output that
cannot be written; 3 an error of the referee itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.app import (
    MAX_RECORD_DEFAULT,
    MaxRecordOption,
    MovetextColumnOption,
    NowOption,
    command_group,
    err,
    fail_usage,
    finish,
)
from referee.cli.exits import Tally
from referee.errors import UsageError
from referee.judge.core.verdicts import Problem, ProblemKind, Status

if TYPE_CHECKING:
    from referee.archive.apimport import Imported

import_app = command_group(
    "import",
    "AbstractPlay's Pikemen records as RGN, replayed and compared.",
    "Records of other sites as RGN: referee import abstractplay games.json > games.rgn",
)
export_app = command_group(
    "export",
    "Records as AbstractPlay game records (JSON) or a Parquet table.",
    "Records as others keep them: referee export abstractplay games.rgn > games.jsonl; "
    "referee export parquet games.rgn -o games.parquet",
)

JsonFiles = Annotated[
    list[str],
    typer.Argument(
        help="AbstractPlay records: one JSON record, a JSON array or JSON Lines; - reads standard input.",
        metavar="FILE...",
    ),
]
RgnFiles = Annotated[list[str], typer.Argument(help="RGN files to read; - reads standard input.", metavar="FILE...")]
OutputOption = Annotated[
    str | None, typer.Option("--output", "-o", metavar="OUT", help="The file to write (default: standard output).")
]


@import_app.command("abstractplay", short_help="AbstractPlay's Pikemen records as RGN, with a report.")
def import_abstractplay(
    files: JsonFiles,
    output: OutputOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Write the report as JSON Lines.")] = False,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
) -> None:
    """Write AbstractPlay's Pikemen game records (APGameRecord JSON, compressed or not) as RGN
    records in canonical form, replaying each through these rules.

    The records go to standard output (or -o OUT, written whole or not at all); a report
    line per record goes to standard error: "agrees", "disagrees" (a move AbstractPlay
    accepted that these rules call illegal, a result or score the replay does not give)
    or "error" (a record that cannot be read, named by its place; the others are still
    imported). Exit status: 0 all imported and agreeing, 1 a disagreement or a record not
    read, 2 an unreadable file.

    Example: referee import abstractplay pikemen.json.gz -o pikemen.rgn
    """
    from referee.judge.core.verdict_words import json_line

    tally = Tally()

    def pieces() -> Iterator[bytes]:
        first = True
        for item in _imported(files, max_record_bytes):
            if isinstance(item, Problem):
                tally.add(item)
                err(f"referee: {item.message}")
                continue
            rgn, report = item
            if report.status != "agrees":
                tally.refused = True
            if report.verdict is not None and report.verdict.status is Status.ERROR:
                tally.add(report.verdict)
            err(json_line(report.fields()) if json_output else report.line())
            if rgn is not None:
                yield rgn.encode("utf-8") if first else b"\n" + rgn.encode("utf-8")
                first = False

    _emit(pieces(), output)
    finish(tally)


def _imported(files: list[str], max_record: int) -> Iterator[Imported | Problem]:
    from referee.archive.apimport import Imported, Report, ReportStatus, import_value
    from referee.archive.jsonstream import Broken, json_values
    from referee.errors import UnreadableError
    from referee.judge.sources import record_sources

    for name in files:
        label = "standard input" if name == "-" else name
        found = False
        try:
            with record_sources.open_source(name) as stream:
                for number, value in json_values(stream, max_record):
                    found = True
                    if isinstance(value, Broken):
                        message = f"record {number}: {value.reason}"
                        yield Imported(None, Report(label, number, None, ReportStatus.ERROR, message))
                    else:
                        yield import_value(value, label, number)
        except UnreadableError as error:
            yield Problem(ProblemKind.UNREADABLE, str(error))
            continue
        except OSError as error:
            yield Problem(ProblemKind.UNREADABLE, f"cannot read {label}: {error.strerror or error}")
            continue
        if not found:
            yield Problem(ProblemKind.NO_RECORD, f"{label}: no record found (no JSON value)")


@export_app.command("abstractplay", short_help="Finished two-player Pikemen records as APGameRecord JSON.")
def export_abstractplay(
    files: RgnFiles,
    output: OutputOption = None,
    now: NowOption = None,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
) -> None:
    """Write finished two-player Pikemen records as AbstractPlay game records (APGameRecord
    JSON, one per line: JSON Lines), for AbstractPlay's records and ratings.

    A record of another game, of 3-4 players, not finished, illegal or malformed, or one
    that AbstractPlay cannot play (a Position, Blue moving first, a Target other than 12
    or 15) is refused with one line on standard error; the others are still written.
    date-generated (and a date no tag gives) is now, or --now. Exit status: 0 all
    written, 1 a record refused, 2 an unreadable file.

    Example: referee export abstractplay season.rgn -o season.json
    """
    from referee.archive.apexport import Note, Refused, exported
    from referee.judge.core import clock_walk

    try:
        instant = clock_walk.current_instant(now)
    except UsageError as error:
        fail_usage(error)
    tally = Tally()

    def pieces() -> Iterator[bytes]:
        for item in exported(files, instant, max_record_bytes):
            if isinstance(item, Problem):
                tally.add(item)
                err(f"referee: {item.message}")
            elif isinstance(item, Refused | Note):
                tally.refused = tally.refused or isinstance(item, Refused)
                err(item.line)
            else:
                yield item

    _emit(pieces(), output)
    finish(tally)


def _emit(pieces: Iterator[bytes], output: str | None) -> None:
    """The pieces to standard output as they come, or to `output` atomically."""
    import sys

    if output is None:
        for piece in pieces:
            sys.stdout.flush()
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
        return
    from referee.cli.record_commands import _write

    try:
        _write(_batched(pieces), output)
    except UsageError as error:
        fail_usage(error)


BATCH_BYTES = 1 << 18
"""The pieces for a file are written some hundred kilobytes at a time."""


def _batched(pieces: Iterator[bytes]) -> Iterator[bytes]:
    """The pieces joined up to `BATCH_BYTES` or so at a time: a file written whole or not at
    all (`referee.store.outputs`) gains nothing by a write per record (a system call each)."""
    held: list[bytes] = []
    size = 0
    for piece in pieces:
        held.append(piece)
        size += len(piece)
        if size >= BATCH_BYTES:
            yield b"".join(held)
            held, size = [], 0
    if held:
        yield b"".join(held)


@export_app.command("parquet", short_help="Records as a Parquet table, one row per record.")
def export_parquet(
    files: RgnFiles,
    output: Annotated[
        str, typer.Option("--output", "-o", metavar="ARCHIVE", help="The Parquet file to write (required).")
    ],
    row_group_rows: Annotated[
        int,
        typer.Option(
            "--row-group-rows",
            min=1,
            max=1_000_000,
            metavar="N",
            help="Records per row group (the unit --shard splits a table by). Default: 8192.",
        ),
    ] = 8192,
    max_record_bytes: MaxRecordOption = MAX_RECORD_DEFAULT,
    movetext_column: MovetextColumnOption = "movetext",
) -> None:
    """Write records as a Parquet table for DuckDB, polars or Spark (pip install
    'referee[parquet]'): one row per record, each tag a string column, `movetext` (what
    follows the tags, as written), `source` and `record` (where it came from).

    Rows go out in row groups of at most 8192 records (--row-group-rows), so memory is bounded whatever the
    archive; the file is written whole or not at all. check, stats and format read the
    table back. Exit status: 0 every record written, 1 a record left out (larger than
    --max-record-bytes) or an input with no record, 2 an unreadable input or an
    unwritable output.

    Example: referee export parquet season/*.rgn -o season.parquet
    """
    from referee.archive.parquet import Note, require_pyarrow, table

    tally = Tally()
    said: list[Note | Problem] = []
    try:
        if output == "-":
            raise UsageError("export parquet needs a file to write (-o ARCHIVE.parquet), not standard output")
        require_pyarrow()
    except UsageError as error:
        fail_usage(error)
    _emit(table(files, said, row_group_rows, max_record_bytes), output)
    for item in said:
        if isinstance(item, Note):
            tally.refused = tally.refused or item.refused
            err(item.line)
        else:
            tally.add(item)
            err(f"referee: {item.message}")
    finish(tally)
