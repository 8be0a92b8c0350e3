"""`referee bench --cluster`: whole `referee check --json` processes on a folder of records,
one process against `--jobs N` and `--dask local:N` for N workers, the same bytes out.

The folder: seeded random playouts of all four games (a few distinct records per game,
made before timing, repeated in turn to the size asked), in files of 100 records. Each
command is a fresh process, timed from its start to its exit (start-up, a local cluster's
start and stop included: what a user waits for); the commands run in turn, once per round,
and each one's best round counts, so a drift of a shared machine's speed slows them alike.
Each command's output must be the one process's, byte for byte, or its row says so.
`CPU x1` is the one process's CPU time over the command's (workers included): how much of
what the command spends is the check itself, which a loaded machine does not distort as it
distorts wall time."""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from referee.errors import UsageError
from referee.games import registry
from referee.judge.services.random_playout import play

DISTINCT = 12
"""Distinct random records per game, repeated to make the folder."""
PER_FILE = 100


def folder_of(root: Path, records: int, seed: str, distinct: int = DISTINCT) -> tuple[list[str], int]:
    """`records` records in files of PER_FILE under `root` (`distinct` records per game, in
    turn): the file names and the actions in all."""
    made = [play(game, None, f"{seed}-{game}-{index}") for index in range(distinct) for game in registry.GAMES]
    names: list[str] = []
    actions = 0
    for start in range(0, records, PER_FILE):
        chosen = [made[index % len(made)] for index in range(start, min(records, start + PER_FILE))]
        path = root / f"games-{start // PER_FILE + 1:04d}.rgn"
        path.write_text("\n".join(played.text for played in chosen) + "\n", encoding="utf-8")
        actions += sum(played.actions for played in chosen)
        names.append(str(path))
    return names, actions


def read_workers(text: str) -> list[int]:
    """`1,2,4` as worker counts. Raises UsageError on anything else."""
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise UsageError(f"--workers {text}: expected worker counts such as 1,2,4")
    return counts


def _timed(command: list[str]) -> tuple[float, float, bytes, int]:
    """Wall seconds, CPU seconds of the process and every process it waited for, its
    output's SHA-256, its exit status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, hashlib.sha256(done.stdout).digest(), done.returncode


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def compare(
    records: int, workers: list[int], runs: int, seed: str, dask: bool = True, distinct: int = DISTINCT
) -> Iterator[str]:
    """The table: one row per command, the one process first."""
    referee = shutil.which("referee")
    check = [referee] if referee else [sys.executable, "-m", "referee"]
    if dask:
        try:
            import distributed  # noqa: F401
        except ImportError:
            dask = False
            yield "(Dask is not installed, so its rows are left out: pip install '.[dask]' in the checkout)"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    yield f"{cores()} cores available, load average {load:.1f} before the run; {records:,} records"
    with tempfile.TemporaryDirectory() as folder:
        names, actions = folder_of(Path(folder), records, seed, distinct)
        size = sum(Path(name).stat().st_size for name in names)
        yield f"{len(names)} files, {size / 1e6:.1f} MB, {actions:,} actions; best of {runs} rounds"
        # name: (engine, workers, command)
        commands: dict[str, tuple[str, int, list[str]]] = {
            "check --json": ("one", 1, [*check, "check", "--json", *names])
        }
        for count in workers:
            commands[f"--jobs {count}"] = ("jobs", count, [*check, "check", "--json", "--jobs", str(count), *names])
        if dask:
            for count in workers:
                command = [*check, "check", "--json", "--dask", f"local:{count}", *names]
                commands[f"--dask local:{count}"] = ("dask", count, command)
        best: dict[str, tuple[float, float]] = {}
        outputs: dict[str, set[tuple[bytes, int]]] = {name: set() for name in commands}
        for _ in range(runs):
            for name, (_, _, command) in commands.items():
                wall, cpu, digest, status = _timed(command)
                outputs[name].add((digest, status))
                if name not in best or wall < best[name][0]:
                    best[name] = (wall, cpu)
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    yield f"load average {after:.1f} after the run (wall times are only comparable on a quiet machine; CPU s are)"
    one, one_cpu = best["check --json"]
    reference = outputs["check --json"]
    yield (
        f"{'how':<18}{'workers':>8}{'wall s':>9}{'CPU s':>8}{'CPU x1':>7}{'actions/s':>12}{'x one':>7}{'x/N of 1':>9}"
        "  same bytes"
    )
    single = {engine: best[name][0] for name, (engine, count, _) in commands.items() if count == 1}
    for name, (engine, count, _) in commands.items():
        wall, cpu = best[name]
        scaling = "-" if engine == "one" or engine not in single else _cut(single[engine] / wall / count)
        same = "yes" if outputs[name] == reference and len(reference) == 1 else "NO"
        yield (
            f"{name:<18}{count:>8}{wall:>9.2f}{cpu:>8.2f}{_cut(one_cpu / cpu):>7}{actions / wall:>12,.0f}"
            f"{_cut(one / wall):>7}{scaling:>9}  {same}"
        )


def _cut(value: float) -> str:
    """Two decimals, cut rather than rounded (0.849 is 0.84, not 0.85)."""
    return f"{int(value * 100) / 100:.2f}"
