"""`referee check --parquet OUT` (`referee.judge.runners.verdict_table`): one row per record, the fields of
`check --json` as typed columns, written in row groups; read back with pyarrow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli.app import parquet_table
from referee.judge.runners import verdict_table
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.cli import invoke
from tests.helpers.process import run_referee_without

pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow is not installed: pip install 'referee[parquet]'")

TIMED = """[Game "pikemen"]
[Players "3"]
[TimeControl "2d/move"]
[Start "2026-12-01T12:00:00Z"]
[Result "*"]

{[%grant Blue 1d] [%at 2026-12-01T14:00:00Z Red]}
timeout
{[%at 2026-12-03T14:00:00Z Red]}
1. Y: a1(N) {[%at 2026-12-04T14:00:00Z Yellow]}
"""


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Records of every status and game (finished, drawn, ongoing, illegal with suggestions,
    malformed, a timed one with its clock), over several files."""
    folder = tmp_path_factory.mktemp("table")
    timed = folder / "timed.rgn"
    timed.write_text(TIMED)
    picked = sorted(CONFORMANCE.glob("*/*.rgn"))[::4] + sorted(EXAMPLES.rglob("*.rgn"))
    return [str(path) for path in picked] + [str(timed)]


def _plain(value: Any) -> Any:
    """A value read back from Parquet as JSON has it (a map comes back as pairs)."""
    if isinstance(value, list) and value and all(isinstance(item, tuple) and len(item) == 2 for item in value):
        return {key: _plain(item) for key, item in value}
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def test_every_row_holds_the_fields_of_the_json_verdict(
    files: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verdict_table, "ROWS", 16)  # several row groups
    expected = invoke("check", "--json", *files)
    out = tmp_path / "verdicts.parquet"
    done = invoke("check", "--parquet", str(out), *files)
    assert (done.exit_code, done.stdout) == (expected.exit_code, "")
    assert done.exit_code == 1
    verdicts = [json.loads(line) for line in expected.stdout.splitlines()]
    read = pq.ParquetFile(out)
    assert read.metadata.num_row_groups == -(-len(verdicts) // 16) > 1
    rows = read.read().to_pylist()
    assert len(rows) == len(verdicts) > 50
    statuses = {verdict["status"] for verdict in verdicts}
    assert statuses == {"finished", "ongoing", "illegal", "malformed"}
    assert any(verdict["clock"] for verdict in verdicts) and any(verdict["suggestions"] for verdict in verdicts)
    for row, verdict in zip(rows, verdicts, strict=True):
        assert list(row) == list(verdict)  # the same fields, in the same order
        for field, value in verdict.items():
            assert _plain(row[field]) == value, field


def test_the_columns_are_typed_and_nested_fields_are_structs(files: list[str], tmp_path: Path) -> None:
    out = tmp_path / "verdicts.parquet"
    invoke("check", "--parquet", str(out), *files[:3])
    schema = pq.read_schema(out)
    types = {name: str(schema.field(name).type) for name in schema.names}
    assert types["record"] == types["offset"] == types["turns"] == "int64"
    assert types["draw"] == types["result_matches"] == "bool"
    assert types["winners"] == types["suggestions"] == "list<element: string>"
    assert types["error"].startswith("struct<line: int64, column: int64, round: int64, side: string")
    assert types["clock"].startswith("struct<control: string, as_of: string, running: string, remaining: map<")


def test_a_file_that_cannot_be_written_is_one_line_and_exit_2(files: list[str], tmp_path: Path) -> None:
    done = invoke("check", "--parquet", str(tmp_path / "no" / "such" / "t.parquet"), *files[:2])
    assert done.exit_code == 2
    assert done.stderr.startswith(f"referee: cannot write {tmp_path / 'no' / 'such' / 't.parquet'}: ")
    assert len(done.stderr.splitlines()) == 1
    assert invoke("check", "--parquet", "-", *files[:2]).exit_code == 2


def test_a_table_cut_short_leaves_the_old_file_and_no_temporary_file(tmp_path: Path) -> None:
    """Issue 44 item 3: the table is written beside OUT and renamed over it once its footer
    is written; a check that stops half way (here an error while rows arrive) leaves the old
    OUT as it was. Before, OUT was opened in place and left half written."""
    pytest.importorskip("pyarrow", reason="pyarrow is not installed: pip install 'referee[parquet]'")
    out = tmp_path / "t.parquet"
    out.write_bytes(b"the old table")
    with pytest.raises(KeyboardInterrupt), parquet_table(str(out)) as rows:
        rows.add(json.dumps({"source": "a.rgn", "record": 1, "status": "legal"}) + "\n")
        rows.flush()
        raise KeyboardInterrupt
    assert out.read_bytes() == b"the old table"
    assert [path.name for path in tmp_path.iterdir()] == ["t.parquet"]
    with parquet_table(str(out)) as rows:
        rows.add(json.dumps({"source": "a.rgn", "record": 1, "status": "legal"}) + "\n")
    assert out.read_bytes()[:4] == b"PAR1" and [path.name for path in tmp_path.iterdir()] == ["t.parquet"]


def test_without_pyarrow_parquet_is_one_line_and_exit_2(files: list[str], tmp_path: Path) -> None:
    done = run_referee_without("pyarrow", "check", "--parquet", str(tmp_path / "t.parquet"), files[0])
    assert done.returncode == 2
    assert done.stderr == (
        "referee: --parquet needs pyarrow, which is not installed: pip install '.[parquet]' in the checkout\n"
    )
