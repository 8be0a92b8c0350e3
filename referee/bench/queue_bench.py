"""What conditional moves (PLAY.md §9) cost: `referee bench --queues`.

Three figures, each the best of `repeats`, in CPU seconds (steady on a busy machine):

- the look for a game's queue folder that every write makes, per write, beside one whole
  `referee play` of a turn on a 200-turn Nika game on which no queue was ever set (the
  issue: matching adds nothing measurable to a play without queues);
- checking a 64 KB queue at submission (64 lines, each replayed from the game's end), in
  the process and as a whole `referee queue` process;
- a whole `referee play` whose move triggers a queued reply, beside the same play with no
  queue set.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from referee.bench.corpora import referee_command
from referee.bench.play_bench import measure

PIKEMEN = '[Game "pikemen"]\n[GameId "bench"]\n\n1. R: f3(N)\n'
FACES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def large_queue() -> str:
    """64 lines of 36 conditions and replies each: just under 64 KB, every line legal."""
    return "\n".join(
        " ".join(f"if B: a4({FACES[(i + n) % 8]}) then R: f3({FACES[(i + 3 + n % 4) % 8]})" for i in range(36))
        for n in range(64)
    )


def _look_seconds(calls: int) -> float:
    from referee.live.play import queues

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.rgn"
        path.write_text('[Game "nika"]\n')
        started = time.process_time()
        for _ in range(calls):
            queues.has_queues(path)
        return (time.process_time() - started) / calls


def _in_process_check(repeats: int) -> float:
    from referee.live.play import queue_submit

    best = float("inf")
    text = large_queue()
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "game.rgn"
            path.write_text(PIKEMEN)
            started = time.process_time()
            result = queue_submit.set_queue(path, "Red", text, wait=5)
            best = min(best, time.process_time() - started)
            if result.exit_code != 0:
                raise RuntimeError(f"the bench's queue was refused: {result.message}")
    return best


def _process_cpu(command: list[str], before: object = None, repeats: int = 3, data: bytes = b"") -> float:
    best = float("inf")
    for _ in range(repeats):
        if callable(before):
            before()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, input=data, capture_output=True, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command[-3:])}: exit {done.returncode}: {done.stderr.decode()[-300:]}")
        best = min(best, after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
    return best


def rows(repeats: int = 3, calls: int = 10_000) -> Iterator[str]:
    """The bench's lines, one figure each."""
    referee, install = referee_command()
    yield f"timed: referee queue and referee play, CPU seconds, best of {repeats} ({install})"
    look = _look_seconds(calls)
    plain = measure("nika", repeats=repeats)
    yield (
        f"no queue set: the look per write {look * 1e6:.1f} us, one play of a 200-turn Nika game "
        f"{plain.play_seconds * 1000:.0f} ms ({look / plain.play_seconds:.4%} of it)"
    )
    yield f"a 64 KB queue checked at submission: {_in_process_check(repeats) * 1000:.0f} ms in the process"
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        path = folder / "game.rgn"

        def fresh() -> None:
            shutil.rmtree(folder / "game.rgn.queue", ignore_errors=True)
            path.write_text(PIKEMEN)

        lines = large_queue().encode()
        submit = _process_cpu([*referee, "queue", str(path), "--as", "Red", "-"], fresh, repeats, lines)
        yield f"a 64 KB queue checked at submission: {submit * 1000:.0f} ms as a whole `referee queue` process"

        def queued() -> None:
            fresh()
            subprocess.run(
                [*referee, "queue", str(path), "--as", "Red", "if B: a4(NE) then R: f3(E)"],
                capture_output=True,
                check=True,
            )

        with_queue = _process_cpu([*referee, "play", str(path), "a4(NE)"], queued, repeats)
        without = _process_cpu([*referee, "play", str(path), "a4(NE)"], fresh, repeats)
        yield (
            f"a play that triggers a queued reply: {with_queue * 1000:.0f} ms, "
            f"the same play with no queue: {without * 1000:.0f} ms"
        )
