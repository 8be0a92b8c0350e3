"""`referee check --parquet OUT`: the JSON verdicts as a Parquet table, one row per record.

The columns are the fields of `check --json` (NOTATION.md §8) in the same order, typed:
strings, 64-bit integers and booleans, each nullable where the JSON field may be null;
`winners` and `suggestions` lists of strings; `error` and `clock` structs of their JSON
fields (`clock.remaining`, each side's seconds, a map from side to integer). Rows are
written in row groups of `ROWS` as the verdicts arrive, so memory is bounded whatever the
number of records. pyarrow is an optional extra (`pip install '.[parquet]' in the checkout`),
imported only here."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

from referee.errors import UsageError

ROWS = 8192
"""Rows per row group."""


def schema() -> Any:
    """The table's columns, in the order of the JSON verdict's fields."""
    import pyarrow as pa

    text, number, truth = pa.string(), pa.int64(), pa.bool_()
    return pa.schema(
        [
            ("source", text),
            ("record", number),
            ("game", text),
            ("status", text),
            ("winners", pa.list_(text)),
            ("draw", truth),
            ("reason", text),
            ("turns", number),
            ("to_move", text),
            ("round", number),
            ("claimed", text),
            ("result_matches", truth),
            ("pending", text),
            ("rolls_as_given", truth),
            (
                "clock",
                pa.struct(
                    [
                        ("control", text),
                        ("as_of", text),
                        ("running", text),
                        ("remaining", pa.map_(text, number)),
                        ("deadline", text),
                        ("flagged", text),
                    ]
                ),
            ),
            (
                "error",
                pa.struct(
                    [
                        ("line", number),
                        ("column", number),
                        ("round", number),
                        ("side", text),
                        ("action", text),
                        ("message", text),
                    ]
                ),
            ),
            ("message", text),
            ("token", text),
            ("suggestions", pa.list_(text)),
            ("offset", number),
        ]
    )


class Table:
    """JSON verdict lines in, row groups out."""

    def __init__(self, writer: Any, columns: Any) -> None:
        self._writer = writer
        self._schema = columns
        self._rows: list[dict[str, Any]] = []

    def add(self, lines: str) -> None:
        """JSON verdicts, one a line (each ending with a newline), as rows."""
        self._rows.extend(json.loads(line) for line in lines.splitlines())
        if len(self._rows) >= ROWS:
            self.flush()

    def flush(self) -> None:
        if self._rows:
            import pyarrow as pa

            self._writer.write_table(pa.Table.from_pylist(self._rows, schema=self._schema))
            self._rows = []


@contextmanager
def writer(handle: BinaryIO) -> Iterator[Table]:
    """A table written into the binary file `handle`: its row groups as they fill, its
    footer when the block ends. The caller opens the file as every output is opened
    (`referee.store.output_file`: beside OUT, renamed over it once the footer is written).
    Raises UsageError when pyarrow is missing."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise UsageError(
            "--parquet needs pyarrow, which is not installed: pip install '.[parquet]' in the checkout"
        ) from None
    columns = schema()
    out = pq.ParquetWriter(handle, columns)
    table = Table(out, columns)
    try:
        yield table
        table.flush()
    finally:
        out.close()
