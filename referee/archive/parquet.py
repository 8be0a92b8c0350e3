"""`referee export parquet FILE... -o ARCHIVE.parquet`: records as a Parquet table, one row
per record (docs/archives.md).

Each tag is a string column (null where a record has no such tag), in the order the tags
are first met; `movetext` holds what follows the record's tags, as written; `source` and
`record` say where the row came from (the file as named, the record's place there, 1 =
first). Tags named `movetext`, `source` or `record` cannot be columns: they stay at the
head of the row's move text, where a reader of the table still reads them as tags.

The sources are read twice, the first time for the tags' names only (standard input is
kept in a temporary file between the two); rows are written in row groups of at most
`ROWS` rows (`--row-group-rows`) or about `GROUP_BYTES` bytes of text, each handed to the
output writer as soon as it is full: memory is bounded by a row group, whatever the number of records. Reading a
table back is `referee.judge.sources.parquet_rows` (check, stats and format take `.parquet` inputs).
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, NamedTuple

from referee.errors import UnreadableError, UsageError
from referee.judge.core.verdicts import Problem, ProblemKind
from referee.judge.sources import parquet_rows, record_sources
from referee.notation.record_splitter import MAX_RECORD

ROWS = 8192
GROUP_BYTES = 8 << 20
RESERVED = frozenset({"movetext", *parquet_rows.NOT_TAGS})
_TAG = re.compile(rb'\s*\[([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]', re.DOTALL)
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)


class Note(NamedTuple):
    """A record written with something lost or changed, or not written: its one line."""

    line: str
    refused: bool = False


class Split(NamedTuple):
    tags: list[tuple[str, str]]
    movetext: str


def split_record(raw: bytes) -> Split:
    """A record's tags (name, value unescaped) and what follows them, as written."""
    tags: list[tuple[str, str]] = []
    at = 0
    while match := _TAG.match(raw, at):
        name, value = match.group(1).decode("ascii"), match.group(2).decode("utf-8", "replace")
        tags.append((name, _UNESCAPE.sub(r"\1", value)))
        at = match.end()
    return Split(tags, raw[at:].decode("utf-8", "replace").strip("\n"))


def require_pyarrow() -> None:
    """Raises UsageError when pyarrow (the `parquet` extra) is not installed."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise UsageError(
            "export parquet needs pyarrow, which is not installed: pip install 'referee[parquet]'"
        ) from None


def table(
    names: list[str], said: list[Note | Problem], group_rows: int = ROWS, max_record: int = MAX_RECORD
) -> Iterator[bytes]:
    """The Parquet file of the records of `names`, a row group at a time, for the output
    writer (`referee.store`: written whole beside the file and renamed over it); what is
    worth saying goes to `said` as it is met (the sources' problems before the first
    piece)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with ExitStack() as stack:
        spooled = {name: _spool(stack) for name in names if name == "-"}
        problems: list[Problem] = []
        columns = _columns(names, spooled, problems, max_record)
        said.extend(problems)
        schema = pa.schema(
            [(name, pa.string()) for name in columns]
            + [("movetext", pa.string()), ("source", pa.string()), ("record", pa.int64())]
        )
        notes: list[Note] = []
        yield from _pieces(names, spooled, columns, schema, pq, notes, group_rows, max_record)
        said.extend(notes)


def _spool(stack: ExitStack) -> str:
    """Standard input copied to a temporary file (read twice), its name."""
    folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-"))
    path = Path(folder) / "stdin"
    with record_sources.open_source("-") as stream, path.open("wb") as copy:
        shutil.copyfileobj(stream, copy, 1 << 20)
    return str(path)


def _records(name: str, spooled: dict[str, str], max_record: int) -> Iterator[tuple[int, Any]]:
    yield from record_sources.raw_records(spooled.get(name, name), max_record)


def _columns(names: list[str], spooled: dict[str, str], problems: list[Problem], max_record: int) -> list[str]:
    """The tags' names in the order first met (the first pass); `Game` first."""
    seen: dict[str, None] = {"Game": None}
    for name in names:
        try:
            for _, raw in _records(name, spooled, max_record):
                for tag, _ in split_record(raw.raw).tags:
                    if tag not in RESERVED:
                        seen.setdefault(tag, None)
        except UnreadableError as error:
            problems.append(Problem(ProblemKind.UNREADABLE, str(error)))
    return list(seen)


class _Sink(io.RawIOBase):
    """What pyarrow writes, kept until taken."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []
        self.position = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        piece = bytes(data)
        self.parts.append(piece)
        self.position += len(piece)
        return len(piece)

    def tell(self) -> int:
        return self.position

    def take(self) -> bytes:
        data, self.parts = b"".join(self.parts), []
        return data


def _pieces(
    names: list[str],
    spooled: dict[str, str],
    columns: list[str],
    schema: Any,
    pq: Any,
    notes: list[Note],
    group_rows: int,
    max_record: int,
) -> Iterator[bytes]:
    """The file's bytes, a row group at a time (the second pass)."""
    import pyarrow as pa

    sink = _Sink()
    writer = pq.ParquetWriter(sink, schema)
    group: list[dict[str, Any]] = []
    size = 0
    known = set(columns)
    for name in names:
        try:
            for number, raw in _records(name, spooled, max_record):
                if raw.refused is not None:
                    notes.append(Note(f"{name}:{number}: not written: {raw.refused}", refused=True))
                    continue
                found = split_record(raw.raw)
                row: dict[str, Any] = {"source": name, "record": number}
                kept = []
                for tag, value in found.tags:
                    if tag in known and tag not in row:
                        row[tag] = value
                    else:  # a column's name, or a repeated tag: it stays a tag of the move text
                        kept.append(
                            f'[{tag} "{value.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'
                        )
                row["movetext"] = "\n".join([*kept, found.movetext]) if kept else found.movetext
                if b"\xef\xbf\xbd" not in raw.raw and "\ufffd" in row["movetext"] + "".join(
                    value for _, value in found.tags
                ):
                    notes.append(Note(f"{name}:{number}: bytes that are not UTF-8 written as U+FFFD"))
                group.append(row)
                size += len(raw.raw)
                if len(group) >= group_rows or size >= GROUP_BYTES:
                    writer.write_table(pa.Table.from_pylist(group, schema=schema))
                    group, size = [], 0
                    yield sink.take()
        except UnreadableError:
            continue  # (said in the first pass)
    if group:
        writer.write_table(pa.Table.from_pylist(group, schema=schema))
    writer.close()
    yield sink.take()
