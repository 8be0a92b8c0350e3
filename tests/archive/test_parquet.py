"""`referee export parquet`: records as a Parquet table, and the table read back by
check, stats and format (referee/judge/sources/parquet_rows.py), split by row groups."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFORMANCE
from tests.helpers.cli import invoke

pq = pytest.importorskip("pyarrow.parquet")

ALL = sorted(str(path) for path in CONFORMANCE.glob("*/*.rgn"))
SAME = ("game", "status", "winners", "draw", "reason", "turns", "to_move", "round", "claimed", "result_matches")


def the_game(verdict: dict[str, object]) -> tuple[object, ...]:
    """What a verdict says of the game, wherever the record stood."""
    error = verdict["error"]
    said = (error["round"], error["side"], error["action"], error["message"]) if isinstance(error, dict) else None
    return (*(verdict[key] for key in SAME), said)


def checked(*args: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in invoke("check", "--json", *args).stdout.splitlines()]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("parquet") / "all.parquet"
    code, out, err = invoke("export", "parquet", *ALL, "-o", str(path), "--row-group-rows", "50")
    assert code == 0, err
    return path


def test_one_row_per_record_each_tag_a_column(archive: Path) -> None:
    table = pq.ParquetFile(archive)
    assert table.metadata.num_rows == len(checked(*ALL)) and table.num_row_groups == 6  # (272 rows, 50 a group)
    names = table.schema_arrow.names
    assert names[0] == "Game" and names[-3:] == ["movetext", "source", "record"]
    assert {"Players", "Result", "Seed", "Athens", "Target"} <= set(names)
    first = table.read_row_group(0).slice(0, 1).to_pylist()[0]
    assert (first["source"], first["record"]) == (ALL[0], 1)
    assert first["movetext"].startswith(Path(ALL[0]).read_text().split("\n\n", 1)[1].strip("\n")[:40])


def test_check_of_the_table_says_what_check_of_the_text_says(archive: Path) -> None:
    text, table = checked(*ALL), checked(str(archive))
    assert [the_game(verdict) for verdict in table] == [the_game(verdict) for verdict in text]
    assert [(verdict["source"], verdict["record"]) for verdict in table] == [
        (str(archive), row) for row in range(1, len(text) + 1)
    ]
    assert checked("--jobs", "2", str(archive)) == table


def test_dask_checks_a_table_as_one_process_does(archive: Path) -> None:
    pytest.importorskip("distributed")
    assert (
        invoke("check", "--json", "--dask", "local:1", str(archive)).stdout
        == invoke("check", "--json", str(archive)).stdout
    )


def test_shards_split_a_table_by_row_groups(archive: Path) -> None:
    shards = [checked("--shard", f"{part}/4", str(archive)) for part in (1, 2, 3, 4)]
    groups = [[verdict["record"] for verdict in shard] for shard in shards]
    assert groups[0] == list(range(1, 51)) + list(range(201, 251))  # row groups 1 and 5
    assert sorted(record for shard in groups for record in shard) == list(range(1, 273))


def test_stats_and_format_read_the_table(archive: Path) -> None:
    assert invoke("stats", str(archive)).stdout == invoke("stats", *ALL).stdout
    table, text = (re.split(r"\n(?=\[Game )", invoke("format", *args).stdout) for args in ([str(archive)], ALL))
    malformed = [verdict["status"] == "malformed" for verdict in checked(*ALL)]
    assert len(table) == len(text) == len(malformed)
    for ours, theirs, passed_through in zip(table, text, malformed, strict=True):
        if passed_through:  # as read: the row's tags are in the table's column order
            assert sorted(ours.strip().splitlines()) == sorted(theirs.strip().splitlines())
            continue
        # canonical; the tags that no rule orders come in the table's column order
        (our_tags, _, our_moves), (their_tags, _, their_moves) = (record.partition("\n\n") for record in (ours, theirs))
        assert our_moves == their_moves and sorted(our_tags.splitlines()) == sorted(their_tags.splitlines())


def test_the_verdicts_of_a_table_as_a_table_for_duckdb(archive: Path, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    out = tmp_path / "verdicts.parquet"
    assert invoke("check", str(archive), "--parquet", str(out)).exit_code == 1  # (some are illegal)
    counts = duckdb.sql(f"SELECT status, count(*) FROM '{out}' GROUP BY status ORDER BY status").fetchall()
    expected: dict[str, int] = {}
    for verdict in checked(*ALL):
        expected[str(verdict["status"])] = expected.get(str(verdict["status"]), 0) + 1
    assert counts == sorted(expected.items())
    wins = duckdb.sql(
        f"SELECT a.source, a.record, v.winners FROM '{out}' v "
        f"JOIN read_parquet('{archive}', file_row_number = true) a ON v.record = a.file_row_number + 1 "
        "WHERE v.status = 'finished' AND a.Game = 'pikemen' AND coalesce(a.Players, '2') = '2' ORDER BY v.record"
    ).fetchall()
    by_text = [
        (verdict["source"], verdict["record"], verdict["winners"])
        for verdict in checked(*(name for name in ALL if "/pikemen/p2-" in name))
        if verdict["status"] == "finished"
    ]
    assert wins == by_text and len(wins) > 10


def test_another_movetext_column_and_tables_that_are_no_archive(tmp_path: Path) -> None:
    import pyarrow as pa

    path = tmp_path / "moves.parquet"
    pq.write_table(
        pa.table(
            {"Game": ["pikemen", "pikemen", None], "Red": ["Ann", None, "Cy"], "moves": ["R: h4(SE)", "R: h4", "x"]}
        ),
        path,
    )
    code, out, err = invoke("check", str(path))
    assert code == 2 and 'has no string column "movetext"' in err
    code, out, err = invoke("check", "--movetext-column", "moves", str(path))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{path}:1: pikemen: ongoing: Blue to move, round 1"
    assert lines[1].startswith(f"{path}:2: pikemen: malformed: line 3, col 4:")  # (the tag, a blank line, the moves)
    assert lines[2] == f"{path}:3: ?: malformed: line 1, col 1: row 3 names no game: its Game is null"
    no_game = tmp_path / "no-game.parquet"
    pq.write_table(pa.table({"movetext": ["R: h4(SE)"]}), no_game)
    assert 'no string column "Game"' in invoke("check", str(no_game)).stderr
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1" + b"\0" * 100)
    code, _, err = invoke("check", str(broken))
    assert code == 2 and "not a readable Parquet table" in err


def test_a_move_text_that_would_start_a_record_stays_in_its_row(tmp_path: Path) -> None:
    import pyarrow as pa

    path = tmp_path / "hostile.parquet"
    moves = 'R: h4(SE)\n[Game "nika"]\n1. W: d1-W d2-W'
    pq.write_table(pa.table({"Game": ["pikemen"], "Red": ['Ann"]\n[Game "nika"]'], "movetext": [moves]}), path)
    [verdict] = checked(str(path))
    assert verdict["status"] == "malformed" and "holds more than one record" in str(verdict["message"])


def test_only_a_row_that_may_hold_two_records_is_cut_by_the_splitter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row is one record when its Game is set, no other column is named Game and its move
    text holds no `[Game`: its text is not cut by the splitter again (issue 51)."""
    import pyarrow as pa

    from referee.judge.sources import parquet_rows

    cut: list[bytes] = []
    split = parquet_rows.split
    monkeypatch.setattr(parquet_rows, "split", lambda data, limit: cut.append(data) or split(data, limit))
    path = tmp_path / "rows.parquet"
    moves = ["1. R: h4(SE)", '1. R: h4(SE) { [Game "nika"] }', "1. R: h4(SE)"]
    pq.write_table(
        pa.table({"Game": ["pikemen", "pikemen", None], "Red": ['[Game "x"]', None, None], "movetext": moves}), path
    )
    rows = [raw for _, raw in parquet_rows.raw_records(str(path), 1 << 20)]
    assert [raw.refused for raw in rows] == [None, None, "row 3 names no game: its Game is null"]
    assert len(cut) == 2 and b"nika" in cut[0]
    twice = tmp_path / "twice.parquet"
    columns = [pa.array(["pikemen"]), pa.array(["pikemen"]), pa.array(["1. R: h4(SE)"])]
    pq.write_table(pa.Table.from_arrays(columns, names=["Game", "Game", "movetext"]), twice)
    [verdict] = checked(str(twice))
    assert verdict["status"] == "malformed" and "holds more than one record" in str(verdict["message"])


def test_standard_input_and_an_unwritable_output(tmp_path: Path) -> None:
    text = Path(ALL[0]).read_text()
    out = tmp_path / "stdin.parquet"
    code, _, err = invoke("export", "parquet", "-", "-o", str(out), stdin=text)
    assert code == 0, err
    assert [the_game(verdict) for verdict in checked(str(out))] == [the_game(verdict) for verdict in checked(ALL[0])]
    code, _, err = invoke("export", "parquet", ALL[0], "-o", str(tmp_path / "no" / "such" / "x.parquet"))
    assert code == 2 and err.startswith("referee: cannot write")
    code, _, err = invoke("export", "parquet", ALL[0], "-o", "-")
    assert code == 2 and "not standard output" in err


def test_the_command_reads_a_table_without_numpy_to_the_same_verdicts(archive: Path) -> None:
    """`referee check` of a table imports pyarrow without numpy (issue 51: 60 % of the cost
    of `import pyarrow.parquet`) and without its file systems, says what a process that
    has them says, and numpy can still be imported after it."""
    code = (
        "import sys\nfrom referee.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "seen = [name in sys.modules for name in ('numpy', 'pyarrow.fs', 'pyarrow.lib')]\n"
        "import numpy\n"
        "print(seen + [int(numpy.array([2]).sum()) == 2])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "check", "--json", str(archive)], capture_output=True, text=True, check=False
    )
    *lines, seen = done.stdout.splitlines()
    assert seen == "[False, False, True, True]", done.stdout[-500:] + done.stderr
    assert "\n".join(lines) + "\n" == invoke("check", "--json", str(archive)).stdout


def test_only_the_commands_own_process_does_without_numpy(archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Said by check (not with --dask, whose Dask may use numpy), stats and format, and only
    where the process is the command's own: a caller that runs a command in its midst (as
    these tests do) gets pyarrow as installed."""
    from referee.judge.sources import parquet_rows

    said: list[str] = []
    monkeypatch.setattr(parquet_rows, "numpy_unused", lambda: said.append("said"))
    assert invoke("check", str(archive)).exit_code == 1 and said == []
    monkeypatch.setattr(importlib.import_module("referee.cli.app"), "_own_process", [True])
    for args in (["check"], ["stats"], ["format"], ["check", "--dask", "nowhere"]):
        said.clear()
        code = invoke(*args, str(archive)).exit_code
        assert said == ([] if "--dask" in args else ["said"]) and code == (2 if "--dask" in args else 1), args


def test_the_reader_chooses_the_columns_parquet_file_chooses(tmp_path: Path) -> None:
    """`parquet_rows.Reader` (pyarrow's reader without pyarrow.parquet's file systems) reads
    what `ParquetFile` reads for the same names: nested, dotted and repeated ones too."""
    import pyarrow as pa

    from referee.judge.sources import parquet_rows

    path = tmp_path / "odd.parquet"
    nested = pa.array([{"Game": "nika", "b": 1}, {"Game": "x", "b": 2}])
    columns = [nested, pa.array(["p", "q"]), pa.array(["r", None]), pa.array(["1. R: h4", "m"]), pa.array(["s", "t"])]
    pq.write_table(
        pa.Table.from_arrays(columns, names=["a", "Game", "Game", "movetext", "a.Game"]), path, row_group_size=1
    )
    reader = parquet_rows._opened(str(path))
    assert isinstance(reader, parquet_rows.Reader)
    table = pq.ParquetFile(path)
    for names in (["movetext", "Game", "Game"], ["a", "a.Game", "Game"], ["a.b", "movetext"]):
        for group in (0, 1):
            ours = list(reader.iter_batches(batch_size=1, row_groups=[group], columns=names))
            theirs = list(table.iter_batches(batch_size=1, row_groups=[group], columns=names))
            assert [_columns(batch) for batch in ours] == [_columns(batch) for batch in theirs], names
    assert reader.num_row_groups == table.num_row_groups == 2 and reader.schema_arrow == table.schema_arrow


def _columns(batch: object) -> list[tuple[str, list[object]]]:
    return list(zip(batch.schema.names, [column.to_pylist() for column in batch.columns], strict=True))  # type: ignore[attr-defined]


def test_a_pyarrow_whose_private_reader_changed_is_read_through_parquet_file(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The private reader lacks a part `Reader` uses (a later pyarrow): the table is read
    through ParquetFile, to the same verdicts, never refused as unreadable."""
    from referee.judge.sources import parquet_rows

    expected = invoke("check", "--json", str(archive)).stdout
    assert isinstance(parquet_rows._opened(str(archive)), parquet_rows.Reader)
    monkeypatch.setattr(parquet_rows, "_READER_PARTS", (*parquet_rows._READER_PARTS, "a_part_gone"))
    assert not isinstance(parquet_rows._opened(str(archive)), parquet_rows.Reader)
    assert invoke("check", "--json", str(archive)).stdout == expected
