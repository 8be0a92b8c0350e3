"""How long a `play` of one turn takes against a `check` of the same file (the issue's
target: at most 1.5 times as long, on a game of 200 turns). Measured with real
processes, as a user runs them, best of `repeats`; not a timed test.

    python -c "from referee.bench.play_bench import measure; print(measure('nika'))"
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from referee.games import registry
from referee.judge.services.random_playout import play as playout


class Figures(NamedTuple):
    """Best times of one `check` and one `play`: CPU seconds of the process (user and
    system, steady on a busy machine) and wall-clock seconds."""

    game: str
    turns: int
    check_seconds: float
    play_seconds: float
    check_wall: float = 0.0
    play_wall: float = 0.0

    @property
    def ratio(self) -> float:
        return self.play_seconds / self.check_seconds

    def __str__(self) -> str:
        return (
            f"{self.game}, {self.turns} turns: CPU check {self.check_seconds * 1000:.0f} ms, "
            f"play of one turn {self.play_seconds * 1000:.0f} ms, ratio {self.ratio:.2f} "
            f"(wall {self.check_wall * 1000:.0f} / {self.play_wall * 1000:.0f} ms)"
        )


def _best(command: list[str], repeats: int, before: object = None) -> tuple[float, float]:
    """The least CPU time and the least wall time of `repeats` runs of `command`."""
    cpu, wall = float("inf"), float("inf")
    for _ in range(repeats):
        if callable(before):
            before()
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=False)
        wall = min(wall, time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime)
    return cpu, wall


def measure(game: str = "nika", players: int | None = None, turns: int = 200, repeats: int = 5) -> Figures:
    """Time `referee check FILE` and `referee play FILE TURN` on a game of `turns` turns
    (a seeded random playout), where TURN is the game's next turn."""
    head, lines = "", list[str]()
    for attempt in range(30):  # games can end early: take the first playout long enough, else the longest
        played = playout(game, players, f"play-bench-{attempt}", max_turns=turns + 1)
        text_head, _, body = played.text.partition("\n\n")
        if len(body.splitlines()) > len(lines):
            head, lines = text_head, body.splitlines()
        if len(lines) > turns:
            break
    turns = min(turns, len(lines) - 1)
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-"))
    try:
        original = folder / "original.rgn"
        original.write_text(f"{head}\n\n" + "\n".join(lines[:turns]) + "\n")
        game_file = folder / "game.rgn"
        shutil.copy(original, game_file)
        referee = [sys.executable, "-m", "referee"]
        check = _best([*referee, "check", str(game_file)], repeats)
        restore = lambda: shutil.copy(original, game_file)  # noqa: E731
        play = _best([*referee, "play", str(game_file), lines[turns]], repeats, restore)
        return Figures(game, turns, check[0], play[0], check[1], play[1])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover
    for name in sys.argv[1:] or list(registry.GAMES):
        print(measure(name))
