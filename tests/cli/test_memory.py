"""Every record command within 10 times a record's size (issue 34, "Memory"): the peak of
Python's allocations (tracemalloc, as tests/judge/fast/test_streamed_verdict.py measures `check`) while
`check`, `check --json`, `replay`, `replay --json`, `show`, `show --at`, `show --svg` (and
with `--at`), `moves`, `format` and `stats` run on one large record, their output thrown
away (`tests.helpers.big.peak`), on records with and without a clock (TIME.md).
`replay --html` (to standard output and with `-o`), whose page must be larger than the
record, is held to 10 times the record plus the page's size (docs/speed.md). `play` is
not held yet.

The allowance beside the 10 times is a constant ALLOWANCE for what any run allocates
whatever the record (a verdict, a board, the caches a run fills). The interpreter and its
modules (about 40 MB of resident memory) are loaded before the measure, and not counted."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import big, sweep

ALLOWANCE = 1 << 20
"""Bytes allowed beside 10 times the record's size."""

TURNS = 40_000
"""About 0.5 MB of Pikemen (0.35 MB of Numica): the whole record model took 75 to 90 times that."""
SIZES = [
    pytest.param(TURNS // 4, id="10k"),
    pytest.param(TURNS, id="40k", marks=pytest.mark.slow),
]
"""The default run measures records of 10,000 turns (about 0.13 MB of Pikemen: 10 times that
plus ALLOWANCE is 2.3 MB, where the whole record model took 10 MB); `-m slow` the 40,000 of
issue 34. Under tracemalloc the long ones took a quarter of the default run's time."""

RECORDS: dict[str, tuple[Callable[[int], bytes], int]] = {
    "pikemen": (big.pikemen_numbered, 1),
    "numica": (big.numica, 1),
    "pikemen timed": (big.pikemen_timed, 2),  # a stamp a turn: 0.9 MB at 40,000 / 2
}
"""Records ending with an illegal action (the detailed path): each with the divisor of its turns."""


def _measured(tmp_path: Path, data: bytes, tiny: bytes, command: str, at: int) -> int:
    """The peak of `command` on `data`, after a first run on `tiny` (which fills the quick
    reader's bounded caches of round numbers as far as any run does)."""
    path, small = tmp_path / "big.rgn", tmp_path / "tiny.rgn"
    path.write_bytes(data)
    small.write_bytes(tiny)
    return big.peak(command, path, small, at)


PAIRS = [(command, game) for command in big.COMMANDS for game in RECORDS]
"""Every command on every game's record: the default run measures each command once, on
the three games in turn (`sweep.params`: the others under `-m slow`, REFEREE_WHOLE_SWEEPS=1
runs them all); each took about a second under tracemalloc."""


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("command", "game"), sweep.params(PAIRS, len(big.COMMANDS), [f"{c}-{g}" for c, g in PAIRS]))
def test_a_command_on_a_long_record_peaks_under_ten_times_its_size(
    tmp_path: Path, command: str, game: str, size: int
) -> None:
    make, divisor = RECORDS[game]
    turns = size // divisor
    data = make(turns)
    peak = _measured(tmp_path, data, make(4000), command, turns // 4)
    assert peak < 10 * len(data) + ALLOWANCE, f"{peak / len(data):.1f} times the record's size"


@pytest.mark.parametrize("command", ["check --json"])
def test_check_of_numbered_rounds_peaks_under_ten_times_its_size_with_nothing_read_before(
    tmp_path: Path, command: str
) -> None:
    """The quick reader on a long record of numbered rounds, its caches empty (the first run
    reads a record of 8 turns): the caches it fills stay small, and it copies no more of
    the move text than a piece at a time (it copied the whole text twice: 11.1 times)."""
    data = big.pikemen_numbered(100_000)
    peak = _measured(tmp_path, data, big.pikemen_numbered(8), command, 0)
    assert peak < 10 * len(data) + ALLOWANCE, f"{peak / len(data):.1f} times the record's size"


@pytest.mark.parametrize("command", list(big.COMMANDS))
def test_a_command_on_a_large_tag_value_peaks_under_ten_times_its_size(tmp_path: Path, command: str) -> None:
    """A 5 MB tag value: the record's bytes, its text and the tag's value, a few times over."""
    data = big.tag_value(5_000_000)
    peak = _measured(tmp_path, data, big.tag_value(10), command, 0)
    assert peak < 10 * len(data) + ALLOWANCE, f"{peak / len(data):.1f} times the record's size"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("command", ["moves", "show --svg", "show --svg --at"])
def test_a_command_on_a_long_ongoing_record_peaks_under_ten_times_its_size(
    tmp_path: Path, command: str, size: int
) -> None:
    """A legal record left ongoing: `moves` lists the actions at its end and `show --svg`
    marks its last turn, both from a replay that keeps only that turn."""
    data = big.pikemen(size, b"")
    peak = _measured(tmp_path, data, big.pikemen(4000, b""), command, size // 8)
    assert peak < 10 * len(data) + ALLOWANCE, f"{peak / len(data):.1f} times the record's size"


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", list(RECORDS))
def test_replay_html_on_a_long_record_peaks_under_ten_times_its_size_plus_the_page(
    tmp_path: Path, game: str, size: int
) -> None:
    """`replay --html` writes a page 4 to 15 times the record (every position of the game):
    to a file (`-o`) or to standard output, it is held to 10 times the record plus the page
    (docs/speed.md). The page is made as the record is replayed as a stream, each step
    written as it is known, and written out piece by piece."""
    make, divisor = RECORDS[game]
    data = make(size // divisor // 2)  # (half the others' records: at 40k, a page of 2 to 3 MB)
    to_file = _measured(tmp_path, data, make(4000), "replay --html -o", 0)
    page = big.page_of(tmp_path / "big.rgn").stat().st_size
    assert page > 4 * len(data)
    printed = big.peak("replay --html", tmp_path / "big.rgn", tmp_path / "tiny.rgn")
    for peak in (to_file, printed):
        beside = (peak - page) / len(data)
        assert peak < 10 * len(data) + page + ALLOWANCE, f"{beside:.1f} times the record's size beside the page"
