"""`referee bench --archives RECORDS`: reading archives from elsewhere beside checking the
same records as RGN text (issue 51): `import abstractplay` of their APGameRecord JSON and
`check` of their Parquet table, against `check` of the text.

The records are random two-player Pikemen playouts that end (AbstractPlay keeps finished
games only), written once as RGN, as JSON Lines by `export abstractplay` and as Parquet by
`export parquet`, before anything is timed. Each command runs as a whole process, the best
of `runs` counts; CPU seconds (the process's own, user and system) are the figure to
compare on a loaded machine, wall seconds only on a quiet one.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from referee.bench.cluster_bench import _timed, cores
from referee.judge.services.random_playout import Playout, play

DISTINCT = 40
"""Distinct playouts, repeated to make up the records asked for."""


def finished_playouts(count: int, seed: str) -> list[Playout]:
    """`count` two-player Pikemen playouts that end (tried seeds in turn)."""
    found: list[Playout] = []
    attempt = 0
    while len(found) < count and attempt < count * 20:
        played = play("pikemen", 2, f"{seed}-{attempt}", max_turns=600)
        attempt += 1
        if played.state.outcome() is not None:
            found.append(played)
    return found


def compare(records: int, runs: int, seed: str, parquet: bool = True) -> Iterator[str]:
    """The table: checking text, importing AbstractPlay JSON, checking Parquet."""
    referee = shutil.which("referee")
    command = [referee] if referee else [sys.executable, "-m", "referee"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    yield f"{cores()} cores available, load average {load:.1f} before the run; {records:,} Pikemen records"
    made = finished_playouts(min(records, DISTINCT), seed)
    if not made:
        yield "no random playout ended: nothing to measure"
        return
    chosen = [made[index % len(made)] for index in range(records)]
    actions = sum(played.actions for played in chosen)
    with tempfile.TemporaryDirectory() as folder:
        text = Path(folder) / "games.rgn"
        text.write_text("\n".join(played.text for played in chosen) + "\n", encoding="utf-8")
        lines = Path(folder) / "games.jsonl"
        _timed([*command, "export", "abstractplay", str(text), "-o", str(lines)])
        written = sum(1 for line in lines.read_text(encoding="utf-8").splitlines() if json.loads(line))
        commands = {
            "check games.rgn": [*command, "check", str(text)],
            # a file, not /dev/null: the referee refuses to write a device (docs/files.md), and a
            # refused run would be timed as a fast one
            "import abstractplay": [
                *command,
                "import",
                "abstractplay",
                str(lines),
                "-o",
                str(Path(folder) / "out.rgn"),
            ],
        }
        if parquet:
            try:
                import pyarrow  # noqa: F401
            except ImportError:
                parquet = False
                yield "(pyarrow is not installed, so the Parquet row is left out: pip install 'referee[parquet]')"
        if parquet:
            table = Path(folder) / "games.parquet"
            _timed([*command, "export", "parquet", str(text), "-o", str(table)])
            commands["check games.parquet"] = [*command, "check", str(table)]
        yield (
            f"{text.stat().st_size / 1e6:.1f} MB of RGN, {lines.stat().st_size / 1e6:.1f} MB of JSON "
            f"({written:,} records), {actions:,} actions; best of {runs} rounds"
        )
        best: dict[str, tuple[float, float]] = {}
        failed: dict[str, int] = {}
        for _ in range(runs):
            for name, argv in commands.items():
                wall, cpu, _, status = _timed(argv)
                if status != 0:  # a command that did not do its work is not timed
                    failed[name] = status
                elif name not in best or cpu < best[name][1]:
                    best[name] = (wall, cpu)
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    yield f"load average {after:.1f} after the run (wall times are only comparable on a quiet machine; CPU s are)"
    yield f"{'how':<22}{'wall s':>9}{'CPU s':>8}{'records/s (CPU)':>17}{'x text':>8}"
    text_cpu = best["check games.rgn"][1] if "check games.rgn" in best else float("nan")
    for name in commands:
        if name in failed:
            yield f"{name:<22} failed (exit {failed[name]}): not timed"
            continue
        wall, cpu = best[name]
        yield f"{name:<22}{wall:>9.2f}{cpu:>8.2f}{records / cpu:>17,.0f}{text_cpu / cpu:>8.2f}"
