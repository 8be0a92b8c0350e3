"""`referee.judge.sources.parquet_rows`: a named input is looked at for Parquet's magic bytes without ever
waiting on it (the tables themselves are tested in tests/archive/test_parquet.py)."""

from __future__ import annotations

import os
import subprocess
import sys
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


def _imported(tmp_path: Path, pyarrow_init: str) -> str:
    """What a process makes of `numpy_unused` and `_import_pyarrow` with stand-ins for
    pyarrow (whose `__init__` is `pyarrow_init`) and numpy first on its path."""
    for name, text in (("pyarrow", pyarrow_init), ("numpy", "")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(text)
    code = (
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        "from referee.judge.sources import parquet_rows\n"
        "parquet_rows.numpy_unused()\nparquet_rows._import_pyarrow()\n"
        "seen = ['pyarrow' in sys.modules, 'numpy' in sys.modules]\n"
        "import pyarrow, numpy\n"
        "print(seen + [pyarrow.numpy is not None])"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_pyarrow_is_imported_without_numpy_and_numpy_still_can_be(tmp_path: Path) -> None:
    optional = "try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"
    assert _imported(tmp_path, optional) == "[True, False, False]"  # (pyarrow 16 and later)


def test_a_pyarrow_that_needs_numpy_is_imported_with_it(tmp_path: Path) -> None:
    assert _imported(tmp_path, "import numpy\n") == "[False, False, True]"  # (before 16)
