"""`referee.judge.sources.parquet_rows`: a named input is looked at for Parquet's magic bytes without ever
waiting on it (the tables themselves are tested in tests/archive/test_parquet.py)."""

from __future__ import annotations

import os
from pathlib import Path

from referee.judge.sources import parquet_rows
from tests.helpers.process import run_referee


def test_a_fifo_is_refused_unopened_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / "games.rgn"
    os.mkfifo(fifo)  # no writer: opening it for reading would wait for one
    done = run_referee("check", str(fifo), timeout=60)
    assert done.returncode == 2 and "it is a FIFO, not a regular file" in done.stderr
    assert not parquet_rows.is_parquet(str(fifo))


def test_only_a_regular_file_that_starts_with_the_magic_is_a_table(tmp_path: Path) -> None:
    table, text = tmp_path / "a.parquet", tmp_path / "a.rgn"
    table.write_bytes(parquet_rows.MAGIC + b"rest")
    text.write_bytes(b'[Game "nika"]\n')
    assert parquet_rows.is_parquet(str(table)) and not parquet_rows.is_parquet(str(text))
    assert (
        not parquet_rows.is_parquet(str(tmp_path))
        and not parquet_rows.is_parquet(str(tmp_path / "none"))
        and not parquet_rows.is_parquet("-")
    )
