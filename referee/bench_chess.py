"""`referee bench --chess`: what users run, measured beside python-chess.

For each game: random playouts (seeded, made before timing) written to a file at 1x and
10x size; the whole `referee check FILE` process is timed (start-up included, a fresh
process each run, the best of `runs`), with its peak memory. Beside it, python-chess
reads and validates a PGN of as many plies, made by python-chess itself in the same run
from seeded random games, also as a whole process. The ratio is the referee's actions per
second over python-chess's plies per second. python-chess is in the `bench` extra
(`pip install 'referee[bench]'`), not a dependency of the tool.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from games import registry
from referee.adjudicate import read_source
from referee.errors import UsageError
from referee.playout import play

SCALES = (1, 10)

# The python-chess child: read every game of a PGN (read_game parses each SAN move against
# the board, so an illegal move is an error) and play it to its end.
_CHESS_READ = """
import sys
import chess.pgn
plies = 0
with open(sys.argv[1], encoding="utf-8") as stream:
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise SystemExit(f"invalid game: {game.errors[0]}")
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
print(plies)
"""


class Timed(NamedTuple):
    seconds: float
    peak_mb: float
    status: int


# The timing child: a small fresh process that runs the command measured and reports its
# wall time, exit status and peak memory (measured from a small parent, since a child's
# peak counts the memory of the process it was forked from).
_TIME = """
import os, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
_, status, usage = os.wait4(process.pid, 0)
print(time.perf_counter() - start, os.waitstatus_to_exitcode(status), usage.ru_maxrss)
"""


def _timed(command: list[str], runs: int) -> Timed:
    """The best wall time of `runs` fresh processes, and the highest peak memory of them."""
    best, peak, status = float("inf"), 0.0, 0
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _TIME, *command], capture_output=True, text=True, check=True)
        seconds, code, kilobytes = done.stdout.split()
        best, peak, status = min(best, float(seconds)), max(peak, int(kilobytes) / 1024), int(code)
    return Timed(best, peak, status)


def chess_pgn(plies: int, seed: str) -> tuple[str, int]:
    """Random chess games made by python-chess (seeded), of `plies` plies in all (at least):
    the PGN and its number of plies."""
    import random

    import chess
    import chess.pgn

    chooser = random.Random(seed)
    games, made = [], 0
    while made < plies:
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 160 and made < plies:
            board.push(chooser.choice(list(board.legal_moves)))
            made += 1
        games.append(str(chess.pgn.Game.from_board(board)))
    return "\n\n".join(games) + "\n", made


def _referee_command() -> list[str]:
    found = shutil.which("referee")
    return [found] if found else [sys.executable, "-m", "referee"]


def compare(names: list[str] | None, records: int, seed: str, runs: int = 3) -> Iterator[str]:
    """One line per game and size: the referee's and python-chess's whole-process speed."""
    try:
        import chess  # noqa: F401
    except ImportError:
        raise UsageError("python-chess is not installed: pip install 'referee[bench]'") from None
    chosen = names or list(registry.GAMES)
    yield (
        f"{'game':<11}{'size':>5}{'records':>8}{'actions':>9}{'referee/s':>11}{'MB':>6}"
        f"{'chess plies/s':>15}{'MB':>6}{'ratio':>7}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for name in chosen:
            texts = [play(name, None, f"{seed}-{name}-{i}").text for i in range(records)]
            block = ("\n".join(texts) + "\n").encode("utf-8")
            actions = sum(len(turn.moves) for result in read_source(block) for turn in getattr(result, "turns", ()))
            for scale in SCALES:
                ours = Path(folder, f"{name}-{scale}x.rgn")
                ours.write_bytes(block * scale)
                pgn_text, plies = chess_pgn(actions * scale, f"{seed}-chess-{name}-{scale}")
                theirs = Path(folder, f"{name}-{scale}x.pgn")
                theirs.write_text(pgn_text, encoding="utf-8")
                referee = _timed([*_referee_command(), "check", str(ours)], runs)
                chess_run = _timed([sys.executable, "-c", _CHESS_READ, str(theirs)], runs)
                if referee.status != 0 or chess_run.status != 0:
                    yield f"{name:<11}{scale:>4}x  failed (exit {referee.status} / {chess_run.status})"
                    continue
                our_rate = actions * scale / referee.seconds
                their_rate = plies / chess_run.seconds
                yield (
                    f"{name:<11}{scale:>4}x{records * scale:>8}{actions * scale:>9}{our_rate:>11,.0f}"
                    f"{referee.peak_mb:>6.0f}{their_rate:>15,.0f}{chess_run.peak_mb:>6.0f}{our_rate / their_rate:>7.2f}"
                )
