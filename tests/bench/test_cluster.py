"""`referee bench --cluster` (`referee.bench.cluster_bench`): its folder, its worker counts and its
table, on a few records; no test asserts a speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.bench import cluster_bench
from referee.errors import UsageError
from referee.notation.record_splitter import split


def test_the_folder_holds_the_records_asked_for_in_files_of_100(tmp_path: Path) -> None:
    names, actions = cluster_bench.folder_of(tmp_path, 250, "t", distinct=1)
    assert [Path(name).name for name in names] == ["games-0001.rgn", "games-0002.rgn", "games-0003.rgn"]
    counts = [len(split(Path(name).read_bytes())) for name in names]
    assert counts == [100, 100, 50] and actions > 250


@pytest.mark.parametrize("text", ["", "0", "1,x", "-2"])
def test_bad_worker_counts_are_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="expected worker counts"):
        cluster_bench.read_workers(text)


def test_the_table_has_a_row_per_command_each_with_the_same_bytes() -> None:
    assert cluster_bench.read_workers("1, 2") == [1, 2]
    rows = list(cluster_bench.compare(12, [1, 2], 1, "t", dask=False, distinct=1))
    table = rows[rows.index(next(row for row in rows if row.startswith("how"))) + 1 :]
    assert [row.split("  ")[0].strip() for row in table] == ["check --json", "--jobs 1", "--jobs 2"]
    assert all(row.endswith("  yes") for row in table)
    assert table[0].split()[-3:] == ["1.00", "-", "yes"]  # the one process: itself, no scaling
    assert table[1].split()[-2:] == ["1.00", "yes"]  # one worker against itself
