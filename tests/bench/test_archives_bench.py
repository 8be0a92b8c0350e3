"""`referee bench --archives`: every row is a command that did its work, timed (a refused
run, such as an import told to write a device, would be timed as a fast one)."""

from __future__ import annotations

import re

import pytest

from referee.bench import archives


def test_every_command_the_archives_bench_times_succeeds(monkeypatch: pytest.MonkeyPatch) -> None:
    statuses: list[tuple[str, int]] = []
    timed = archives._timed

    def recording(argv: list[str]) -> tuple[float, float, bytes, int]:
        result = timed(argv)
        statuses.append((" ".join(argv[-5:]), result[3]))
        return result

    monkeypatch.setattr(archives, "_timed", recording)
    rows = list(archives.compare(12, 1, "bench-test"))
    assert statuses and all(status == 0 for _, status in statuses), statuses
    table = rows[rows.index(next(row for row in rows if row.startswith("how"))) + 1 :]
    assert [row[:22].strip() for row in table][:2] == ["check games.rgn", "import abstractplay"]
    for row in table:
        assert re.fullmatch(r".{22}\s+[\d.]+\s+[\d.]+\s+[\d,]+\s+[\d.]+", row), row


def test_a_command_that_fails_is_reported_and_not_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    timed = archives._timed

    def failing_import(argv: list[str]) -> tuple[float, float, bytes, int]:
        wall, cpu, digest, status = timed(argv)
        return (wall, cpu, digest, 2) if "import" in argv else (wall, cpu, digest, status)

    monkeypatch.setattr(archives, "_timed", failing_import)
    rows = list(archives.compare(12, 1, "bench-test"))
    assert any(re.fullmatch(r"import abstractplay\s+failed \(exit 2\): not timed", row) for row in rows), rows
