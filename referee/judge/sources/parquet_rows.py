"""Parquet tables as sources of records: one record per row (docs/archives.md).

A named file whose first bytes are Parquet's magic (`PAR1`) is read as a table: each row
is a record whose move text is the `movetext` column (`--movetext-column NAME` names
another) and whose tags are the other string columns, in column order (`source` and
`record`, which `referee export parquet` writes to say where a row came from, are not
tags). A null is no tag. The row's text, as the referee reads it, is one `[Name "value"]`
line per tag, a blank line, then the move text: the lines and columns of a verdict's
error count in that text, its `source` is the file and its `record` the row (1 = first).

The table is read row group by row group, a batch of `BATCH` rows at a time, only the
columns that make records: memory is bounded by a batch, whatever the file. A row's text
larger than `--max-record-bytes` is refused (its verdict says so), and one that holds a
second `[Game` tag (a move text that would start another record) is malformed: a row
holds one record. pyarrow is the `parquet` extra, imported only for a Parquet input;
in a process that has said it uses numpy nowhere (`numpy_unused`), without numpy.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from referee.errors import UnreadableError
from referee.notation.record_splitter import RawRecord, size_text, split

MAGIC = b"PAR1"
BATCH = 1024
"""Rows read at a time."""
NOT_TAGS = frozenset({"source", "record"})
TAG_NAME = re.compile(r"[A-Za-z0-9_]+")
_LINE_BREAKS = re.compile(r"[\r\n\x00]")
_column = ["movetext"]
_without_numpy = [False]


def movetext_column() -> str:
    """The column that holds the move text (`--movetext-column`)."""
    return _column[0]


def set_movetext_column(name: str) -> None:
    _column[0] = name


def numpy_unused() -> None:
    """Says that nothing in this process will use numpy (`referee check` without `--dask`,
    `stats` and `format` say so in their own process: `referee.cli.app.numpy_unused`):
    pyarrow, when this module is the first to import it, is then imported without numpy,
    which pyarrow 16 and later take as optional but import whenever it is installed (some
    0.06 CPU s, 60 % of the cost of `import pyarrow.parquet`: docs/speed.md, issue 51).
    numpy itself can still be imported afterwards; pyarrow, in this process, then does
    without it (no conversion to or from numpy arrays, which reading a table's rows as
    Python values never needs). A library caller that does not say so gets pyarrow as
    installed."""
    _without_numpy[0] = True


def _import_pyarrow() -> None:
    """pyarrow imported without numpy, when `numpy_unused` was said and neither is imported
    yet; otherwise nothing (the import that follows imports it as installed). A pyarrow that
    needs numpy (before 16) fails here and is imported with it after."""
    if not _without_numpy[0] or "pyarrow" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # (how `import numpy` is made to fail)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    finally:
        if "numpy" in sys.modules and sys.modules["numpy"] is None:
            del sys.modules["numpy"]


def is_parquet(name: str) -> bool:
    """Whether `name` is a regular file that starts with Parquet's magic bytes."""
    if name == "-":
        return False
    try:
        if not stat.S_ISREG(os.stat(name).st_mode):  # (a FIFO is never opened here: it would wait)
            return False
        with open(name, "rb") as stream:
            return stream.read(len(MAGIC)) == MAGIC
    except (OSError, ValueError):
        return False


def raw_records(
    name: str, max_record: int, groups: Callable[[int], bool] | None = None
) -> Iterator[tuple[int, RawRecord]]:
    """The rows of a Parquet file as records, with their places (1 = first row); with
    `groups`, only the row groups it holds (by index, 0 = first) are read (the rows keep
    their places in the file). Raises UnreadableError when the file cannot be read as a
    table of records."""
    table = _opened(name)
    columns = _columns(name, table.schema_arrow)
    alone = "Game" not in columns[2:]  # (a table may name two columns alike)
    number = 0
    try:
        for group in range(table.num_row_groups):
            if groups is not None and not groups(group):
                number += table.metadata.row_group(group).num_rows
                continue
            for batch in table.iter_batches(batch_size=BATCH, row_groups=[group], columns=columns):
                values = [batch.column(index).to_pylist() for index in range(len(columns))]
                for row in zip(*values, strict=True):
                    number += 1
                    yield number, _record(columns, row, number, max_record, alone)
    except OSError as error:
        raise UnreadableError(f"cannot read {name}: {error}") from None
    except Exception as error:  # pyarrow's own errors (ArrowInvalid...): a damaged file
        if isinstance(error, UnreadableError):
            raise
        raise UnreadableError(f"cannot read {name}: not a readable Parquet table ({_said(error)})") from None


def row_groups(name: str) -> list[int]:
    """The number of rows of each row group of a Parquet file."""
    metadata = _opened(name).metadata
    return [int(metadata.row_group(group).num_rows) for group in range(metadata.num_row_groups)]


class Reader:
    """A table opened with the reader that `pyarrow.parquet.ParquetFile` wraps (the same
    rows, the same errors), taken from `pyarrow._parquet` itself: importing
    `pyarrow.parquet` imports pyarrow's file systems too (S3, GCS, HDFS, Azure: some 0.015
    CPU s and 800 pages of memory, docs/speed.md, issue 51), which a local file never uses.
    Columns are chosen by name as ParquetFile chooses them: every leaf column whose dotted
    path is the name or starts with it."""

    def __init__(self, reader: Any) -> None:
        self.reader = reader
        self.schema_arrow = reader.schema_arrow
        self.metadata = reader.metadata
        self.num_row_groups = int(reader.num_row_groups)

    def iter_batches(self, batch_size: int, row_groups: list[int], columns: list[str]) -> Iterator[Any]:
        paths = [[".".join(path[:end]) for end in range(1, len(path) + 1)] for path in self.reader.column_paths]
        indices = [index for column in columns for index, prefixes in enumerate(paths) if column in prefixes]
        return iter(self.reader.iter_batches(batch_size, row_groups, column_indices=indices))


def _opened(name: str) -> Any:
    """The table's reader: a `Reader`, or a ParquetFile where pyarrow has no `_parquet`."""
    _import_pyarrow()
    try:
        made = _reader_class()
        if made is None:
            import pyarrow.parquet as pq

            return pq.ParquetFile(name)
        reader = made()
        reader.open(name)
        return Reader(reader)
    except ImportError:
        raise UnreadableError(
            f"cannot read {name}: reading Parquet needs pyarrow, which is not installed: pip install 'referee[parquet]'"
        ) from None
    except OSError as error:
        raise UnreadableError(f"cannot read {name}: {error}") from None
    except Exception as error:
        raise UnreadableError(f"cannot read {name}: not a readable Parquet table ({_said(error)})") from None


def _reader_class() -> Any:
    """pyarrow's `_parquet.ParquetReader`, or None where there is none or where it lacks a
    part `Reader` uses (a private class: a pyarrow that changes it is read through
    ParquetFile, never refused for it)."""
    try:
        from pyarrow._parquet import ParquetReader
    except ImportError:
        return None
    if not all(hasattr(ParquetReader, part) for part in _READER_PARTS):
        return None
    return ParquetReader


_READER_PARTS = ("open", "iter_batches", "column_paths", "schema_arrow", "metadata", "num_row_groups")
"""What `Reader` takes from pyarrow's private reader."""


def _columns(name: str, schema: Any) -> list[str]:
    """The columns read: the move text's first, then the tags' in the table's order."""
    import pyarrow as pa

    def is_text(field: Any) -> bool:
        return bool(pa.types.is_string(field.type) or pa.types.is_large_string(field.type))

    text = movetext_column()
    names = [field.name for field in schema]
    if text not in names or not is_text(schema.field(text)):
        shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
        raise UnreadableError(
            f'cannot read {name}: it has no string column "{text}" for the move text '
            f"(--movetext-column NAME names another); its columns: {shown}"
        )
    tags = [
        field.name
        for field in schema
        if is_text(field) and field.name != text and field.name not in NOT_TAGS and TAG_NAME.fullmatch(field.name)
    ]
    if "Game" not in tags:
        raise UnreadableError(f'cannot read {name}: it has no string column "Game": each row\'s game must be named')
    tags.remove("Game")
    return [text, "Game", *tags]


def _record(columns: list[str], values: Sequence[Any], number: int, max_record: int, alone: bool = False) -> RawRecord:
    """The row's record: its text, or refused. `alone`: `Game` is no other column's name."""
    movetext = values[0] or ""
    lines = [
        f'[{column} "{_value(value)}"]\n'
        for column, value in zip(columns[1:], values[1:], strict=True)
        if value is not None
    ]
    data = ("".join(lines) + "\n" + movetext.rstrip("\n") + "\n").encode("utf-8", "replace")
    first = data[: data.find(b"\n") + 1]
    if len(data) > max_record:
        return RawRecord(0, 1, 1, first, f"row {number} is larger than {size_text(max_record)}: refused, not read")
    if alone and values[1] is not None and "[Game" not in movetext:
        return RawRecord(0, 1, 1, data)  # one record: its Game tag starts it, and nothing else can start one
    found = len(split(data, None))  # (the records a splitter would cut from the text)
    if found == 0:  # (its Game is null)
        return RawRecord(0, 1, 1, first, f"row {number} names no game: its Game is null")
    if found > 1:
        return RawRecord(0, 1, 1, first, f"row {number} holds more than one record: its move text has a [Game tag")
    return RawRecord(0, 1, 1, data)


def _value(value: str) -> str:
    """A tag value as RGN writes it: quotes and backslashes escaped, no line break."""
    text = _LINE_BREAKS.sub(" ", value)
    return text.replace("\\", "\\\\").replace('"', '\\"') if "\\" in text or '"' in text else text


def _said(error: BaseException) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__
