"""`referee bench`: how fast records are read and validated, on one core, in figures
anyone can re-run. Records come from seeded random playouts, generated before timing;
the best of five passes counts, which keeps a stray pause on a busy machine out of the
figures."""

from __future__ import annotations

import resource
import time
from collections.abc import Iterator

from games import registry
from referee.adjudicate import adjudicate, read_source
from referee.playout import play
from referee.session import UsageError

ROUNDS = 5


SHORT_RECORD = """[Game "numica"]
[Seed "startup"]

R: SSOOSOSO
B: OSOSOSOS
"""

BARE_APP = """import pyparsing
import typer

app = typer.Typer()


@app.command()
def check(files: list[str]) -> None:
    print(files)


@app.command()
def other() -> None:
    pass


app()
"""


def _best(seconds: list[float]) -> float:
    return min(seconds)


def startup(runs: int) -> Iterator[str]:
    """Wall time of `referee check` on one short record against a bare two-command Typer
    app that imports pyparsing, alternating runs, medians in milliseconds."""
    import shutil
    import statistics
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder, "bare.py")
        bare.write_text(BARE_APP)
        record = Path(folder, "short.rgn")
        record.write_text(SHORT_RECORD)
        referee = shutil.which("referee")
        ours = [referee] if referee else [sys.executable, "-m", "referee"]
        commands = {
            "bare Typer app": [sys.executable, str(bare), "check", str(record)],
            "referee check": [*ours, "check", str(record)],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, command in commands.items():
                start = time.perf_counter()
                subprocess.run(command, capture_output=True, check=False)
                times[name].append(time.perf_counter() - start)
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    for name, value in medians.items():
        yield f"{name:<16}{value:>8.1f} ms (median of {runs})"
    yield f"{'ratio':<16}{medians['referee check'] / medians['bare Typer app']:>8.2f}"


def run(names: list[str] | None, records: int, seed: str) -> Iterator[str]:
    """One line of figures per game and player count."""
    chosen = names or list(registry.GAMES)
    for name in chosen:
        if registry.info(name) is None:
            raise UsageError(f'unknown game "{name}": choose from {", ".join(registry.GAMES)}')
    yield f"{'game':<16}{'records':>8}{'actions':>9}{'parse act/s':>14}{'check act/s':>14}{'peak MB':>9}"
    for name in chosen:
        info = registry.GAMES[name]
        for players in tuple(info.sides_by_players) or (None,):
            label = name if players is None else f"{name} ({players}p)"
            texts = [play(name, players, f"{seed}-{name}-{players}-{i}").text for i in range(records)]
            data = "\n".join(texts).encode("utf-8")
            results = read_source(data)
            actions = sum(len(turn.moves) for result in results for turn in getattr(result, "turns", ()))
            parse, check = [], []
            for _ in range(ROUNDS):
                start = time.perf_counter()
                parsed = read_source(data)
                parse.append(time.perf_counter() - start)
                start = time.perf_counter()
                for index, result in enumerate(read_source(data), start=1):
                    adjudicate(result, "bench", index)
                check.append(time.perf_counter() - start)
            assert len(parsed) == records
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            yield (
                f"{label:<16}{records:>8}{actions:>9}{actions / _best(parse):>14,.0f}"
                f"{actions / _best(check):>14,.0f}{peak:>9.1f}"
            )
