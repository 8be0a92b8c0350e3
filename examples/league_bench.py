"""Benchmark (a script, not a test): `referee league tick` and `standings` on a league of
200 players and 2,000 games, and `tick` with nothing to do (issue 21).

    python examples/league_bench.py [FOLDER]

Builds (or reuses) a Pikemen league of 200 players, two-player round robin, clock
7d+1d/14d, daily digests and reminders: 20 rounds of 100 games paired with the league's
own `pair`, rounds 1-19 finished by a move and a resignation, round 20 ongoing. Then it
times real `referee` processes: the first `tick` (digests and reminders due), a second
`tick` at the same --now (nothing to do), and `standings`.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.league import folder as league
from referee.live.play import submit
from referee.notation.timing import format_instant, parse_instant

PLAYERS = 200
ROUNDS = 20
START = parse_instant("2026-12-01T12:00:00Z")
WEEK = 7 * 86_400


def build(folder: Path) -> None:
    league.init(folder, "pikemen", 2, "7d+1d/14d", "round-robin", ROUNDS, "Bench")
    config = folder / "league.toml"
    text = config.read_text(encoding="utf-8") + 'digest = "daily"\nreminders = ["48h", "12h"]\n'
    text += "".join(f'\n[[player]]\nname = "P{n}"\naddress = "p{n}@example.org"\n' for n in range(PLAYERS))
    config.write_text(text, encoding="utf-8")
    for number in range(1, ROUNDS + 1):
        at = START + (number - 1) * WEEK
        paired = league.pair(folder, at)
        if number == ROUNDS:
            break
        first = folder / f"{paired.games[0][0]}.rgn"
        listed = subprocess.run(
            [sys.executable, "-m", "referee", "moves", str(first)], capture_output=True, text=True, check=True
        ).stdout.splitlines()  # every game of the round starts from the same position
        for game, _ in paired.games:
            path = folder / f"{game}.rgn"
            submit(path, listed[1].strip(), now=at + 3600)
            submit(path, "resign", now=at + 7200)
        print(f"round {number} built", file=sys.stderr)


def timed(*args: str) -> float:
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, check=False)
    took = time.perf_counter() - began
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
    return took


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "bench"
    if not (folder / "league.toml").exists():
        build(folder)
    now = format_instant(START + (ROUNDS - 1) * WEEK + 6 * 86_400)  # round 20, a day before its deadlines
    games = len(list(folder.glob("r*-t*.rgn")))
    first = timed("league", "tick", str(folder), "--now", now)
    idle = timed("league", "tick", str(folder), "--now", now)
    table = timed("league", "standings", str(folder))
    print(f"{PLAYERS} players, {games} games ({folder})")
    print(f"tick (reminders and digests due): {first:.2f} s")
    print(f"tick with nothing to do: {idle:.2f} s")
    print(f"standings: {table:.2f} s")


if __name__ == "__main__":
    main()
