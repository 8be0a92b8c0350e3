"""`--max-record-bytes` is given to the reading it bounds, never kept: a later reading in the
same process (another command in-process, a library call, a server or a test run) reads
with its own limit (issue 50, item 5)."""

from __future__ import annotations

from pathlib import Path

from referee.judge.sources import record_sources
from tests.helpers.cli import invoke

ONGOING = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n'


def _three(path: Path) -> Path:
    path.write_text(ONGOING + "\n" + ONGOING + "{" + "x" * 5000 + "}\n\n" + ONGOING)
    return path


def test_a_limit_given_to_one_command_does_not_bound_the_next_reading(tmp_path: Path) -> None:
    path = str(_three(tmp_path / "three.rgn"))
    bounded = invoke("check", "--max-record-bytes", "1000", path)
    assert bounded.exit_code == 1, bounded.output
    assert "larger than 1000 bytes (--max-record-bytes): refused, not read" in bounded.stdout.splitlines()[1]
    # A reader that is not given a limit (the league's, live play's, a library caller's) has
    # the default one, not the last command's.
    assert [raw.refused for _, raw in record_sources.raw_records(path)] == [None, None, None]
    unbounded = invoke("check", path)
    assert [line.split(": ")[1:3] for line in unbounded.stdout.splitlines()] == [["numica", "ongoing"]] * 3


def test_each_reading_of_the_library_has_its_own_limit(tmp_path: Path) -> None:
    path = str(_three(tmp_path / "three.rgn"))
    refused = [raw.refused is not None for _, raw in record_sources.raw_records(path, 1000)]
    assert refused == [False, True, False]
    assert [raw.refused for _, raw in record_sources.raw_records(path)] == [None, None, None]
    assert [raw.refused is not None for _, raw in record_sources.raw_records(path, 6000)] == [False, False, False]
