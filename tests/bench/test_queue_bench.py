"""`referee bench --queues`: the figures of conditional moves' cost (PLAY.md §9, issue 46's
bounds) come from the commands users run, and the 64 KB queue it times is accepted whole."""

from __future__ import annotations

import re
from pathlib import Path

from referee.bench import queue_bench
from referee.live.play import queue_submit
from tests.helpers.cli import invoke


def test_the_bench_s_64_kb_queue_is_just_under_the_bound_and_accepted_whole(tmp_path: Path) -> None:
    text = queue_bench.large_queue()
    assert 60_000 < len(text.encode()) <= 64 * 1024 and text.count("\n") == 63
    path = tmp_path / "g.rgn"
    path.write_text(queue_bench.PIKEMEN)
    result = queue_submit.set_queue(path, "Red", text, wait=5)
    assert result.exit_code == 0, result.message
    assert queue_submit.set_queue(path, "Red", text + "x", wait=5).exit_code == 1  # over the bound: refused


def test_referee_bench_queues_prints_each_figure() -> None:
    code, out, err = invoke("bench", "--queues", "--runs", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("timed: referee queue and referee play, CPU seconds, best of 1")
    assert re.fullmatch(
        r"no queue set: the look per write [\d.]+ us, one play of a 200-turn Nika game \d+ ms "
        r"\([\d.]+% of it\)",
        lines[1],
    )
    assert re.fullmatch(r"a 64 KB queue checked at submission: \d+ ms in the process", lines[2])
    assert re.fullmatch(r"a 64 KB queue checked at submission: \d+ ms as a whole `referee queue` process", lines[3])
    assert re.fullmatch(r"a play that triggers a queued reply: \d+ ms, the same play with no queue: \d+ ms", lines[4])
