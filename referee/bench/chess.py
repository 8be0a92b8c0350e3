"""`referee bench`: what users run, measured beside python-chess.

For each game: random playouts (seeded, made before timing) of at least `actions` actions
written to a file (size 1x), and at each larger size N of at least N times as many, every
record distinct (`referee.bench.generated`, which keeps them in a cache). The whole
`referee check FILE` process is timed, in text and with `--json` (what pipelines read),
start-up included, a fresh process each run, the best of `runs`, with its peak memory;
the commands compared at one size run in turn, so that a drift of the machine's speed
slows them alike.
Beside it, python-chess reads and validates (`CHESS_READ`: `read_game`, no second playing
of the moves) a PGN of as many plies as the size has actions, of distinct seeded random
games that python-chess made itself (kept in the same cache), also as a whole process.
The ratio is the referee's actions per second
over python-chess's plies per second, shown beside the goal (`GOALS`), and a
`--json` line gives its speed as a share of text's, beside that goal (`JSON_OF_TEXT`);
every goal missed is marked. python-chess is in the `bench` extra
(`pip install '.[bench]' in the checkout`), not a dependency of the tool; without it, the referee's
own figures are shown alone. When pgn-extract (a chess PGN tool in C: Debian's
`pgn-extract` package) is installed, it validates the same PGN as python-chess, also as
a whole process, and its speed is shown too.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from referee.bench.corpora import DEFAULT_SHAPES, SHAPES
from referee.bench.generated import (
    PROGRESS_EVERY,
    Corpus,
    Progress,
    Store,
    cache_folder,
    corpora,
    pgns,
    play_sizes,
    to_stderr,
)
from referee.errors import UsageError
from referee.games import registry

SCALES = (1, 10)
DEFAULT_GOAL = 7.0
GOALS = {"nieuchess": 3.0}
"""The speed `referee bench` asks of a game, as a multiple of python-chess (DEFAULT_GOAL
where a game has none of its own): issue 34 sets 7x for Nika, Numica and Pikemen (5x in
issue 23), 3x for Nieuchess. A goal belongs to the tool, not to the game's facts."""

CHESS_READ = """
import sys
import chess.pgn
plies = 0
with open(sys.argv[1], encoding="utf-8") as stream:
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise SystemExit(f"invalid game: {game.errors[0]}")
        plies += sum(1 for _ in game.mainline())
print(plies)
"""
"""The python-chess child, the yardstick: the least work python-chess needs to validate a
PGN. `read_game` parses each SAN move against the board as it reads, so an illegal or
ambiguous move is recorded in `game.errors`; the child fails on the first, and counts the
mainline's plies. Playing every move again on a fresh board (as the bench's child did
until issue 52) replays each game twice: 1.29 times the work, every ratio that much
too high."""


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


def timed_in_turn(commands: dict[str, list[str]], runs: int) -> dict[str, Timed]:
    """The best wall time of `runs` fresh processes of each command, and the highest peak
    memory of them, the commands run in turn (A B C A B C ...): a machine whose speed
    drifts during the call then slows every command alike, and the ratios between them
    hold."""
    best = dict.fromkeys(commands, float("inf"))
    peak = dict.fromkeys(commands, 0.0)
    status = dict.fromkeys(commands, 0)
    for _ in range(runs):
        for name, command in commands.items():
            done = subprocess.run([sys.executable, "-c", _TIME, *command], capture_output=True, text=True, check=True)
            seconds, code, kilobytes = done.stdout.split()
            best[name] = min(best[name], float(seconds))
            peak[name] = max(peak[name], int(kilobytes) / 1024)
            status[name] = int(code)
    return {name: Timed(best[name], peak[name], status[name]) for name in commands}


def _referee_command() -> list[str]:
    """The `referee` command of this interpreter: its console script (a shell wrapper such
    as a pyenv shim found first on PATH would add its own start-up), else `-m referee`."""
    beside = Path(sys.executable).with_name("referee")
    if beside.is_file():
        return [str(beside)]
    return [sys.executable, "-m", "referee"]


ACTIONS = 50_000
"""The default size 1x: random records of at least this many actions per game."""


def read_sizes(text: str) -> tuple[int, ...]:
    """`--sizes 1,10,100`: the multiples of size 1x to measure. Raises UsageError."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        sizes = ()
    if not sizes or min(sizes) < 1 or max(sizes) > 1000:
        raise UsageError(f"--sizes takes whole numbers from 1 to 1000 separated by commas, like 1,10,100; not {text!r}")
    return sizes


def playouts(name: str, actions: int, seed: str, shape: str = "short") -> Corpus:
    """The 1x corpus of a game and shape, played afresh (what docs/speed.md measures by
    this name): size 1 of `referee.bench.generated.play_sizes`."""
    return play_sizes(name, actions, seed, shape, [1], to_stderr, PROGRESS_EVERY)[1]


def has_chess() -> bool:
    """Whether python-chess is installed (the `bench` extra)."""
    try:
        import chess  # noqa: F401
    except ImportError:
        return False
    return True


JSON_OF_TEXT = 0.9
"""The speed `check --json` aims at, as a share of text `check`'s (issue 34; 0.85 in issue 23)."""

MODES = {"text": (), "json": ("--json",)}
"""The outputs of `referee check` that users run: verdict lines, and JSON Lines."""

PGN_EXTRACT_PLACES = "/usr/games"
"""Where Debian installs pgn-extract, looked in after PATH (it is not on a user's PATH)."""

NO_PGN_EXTRACT = "pgn-extract not installed: its column is left out (Debian: apt-get install pgn-extract)"


def pgn_extract() -> str | None:
    """The pgn-extract program, if installed: on PATH, else where Debian puts it."""
    return shutil.which("pgn-extract") or shutil.which("pgn-extract", path=PGN_EXTRACT_PLACES)


def pgn_extract_reads(program: str, pgn: Path) -> int | None:
    """The games pgn-extract reads without an error from `pgn`, when it reads every game of it
    (its validating mode `-r`: every move is played on the board), else None."""
    done = subprocess.run([program, "-r", str(pgn)], capture_output=True, text=True, check=False)
    found = re.search(r"(\d+) games? matched out of (\d+)", done.stderr)
    if done.returncode != 0 or found is None or found[1] != found[2]:
        return None
    return int(found[1])


class Row(NamedTuple):
    """The figures of one line of `compare`: rates are actions (or plies) per second, None
    when not measured."""

    game: str
    scale: int
    mode: str
    records: int
    actions: int
    rate: float | None
    """The referee's, None when `referee check` failed (then `failed` says how)."""
    peak_mb: float
    chess: float | None
    chess_mb: float
    pgn_extract: float | None
    goal: float
    text_rate: float | None = None
    """On a `--json` line: the text line's rate, for the share."""
    failed: str = ""


HEADER = (
    f"{'game':<11}{'size':>5}{'mode':>5}{'records':>8}{'actions':>9}{'referee/s':>11}{'MB':>6}"
    f"{'chess plies/s':>15}{'MB':>6}{'pgn-extract/s':>15}{'ratio':>7}{'goal':>6}"
)


def _down(value: float) -> float:
    """`value` cut (not rounded) to two decimals, so that a figure shown as meeting its goal
    does meet it: 0.849 shows as 0.84, not as 0.85 marked below 0.85."""
    return math.floor(value * 100 + 1e-9) / 100


def format_row(row: Row) -> str:
    """One line under `HEADER`: the ratio to python-chess beside the game's goal (`below`
    when missed) and, on a `--json` line, its share of text's speed beside `JSON_OF_TEXT`."""
    line = f"{row.game:<11}{row.scale:>4}x{row.mode:>5}{row.records:>8}{row.actions:>9}"
    if row.rate is None:
        return f"{line}  failed: {row.failed}"
    line += f"{row.rate:>11,.0f}{row.peak_mb:>6.0f}"
    line += f"{'-':>15}{'-':>6}" if row.chess is None else f"{row.chess:>15,.0f}{row.chess_mb:>6.0f}"
    line += f"{'-':>15}" if row.pgn_extract is None else f"{row.pgn_extract:>15,.0f}"
    if row.chess is None:
        line += f"{'-':>7}{row.goal:>6.1f}"
    else:
        ratio = row.rate / row.chess
        line += f"{_down(ratio):>7.2f}{row.goal:>6.1f}" + ("" if ratio >= row.goal else " below")
    if row.text_rate is not None:
        share = row.rate / row.text_rate
        line += f"  {_down(share):.2f} of text" + ("" if share >= JSON_OF_TEXT else f" (below {JSON_OF_TEXT})")
    return line


SHAPE_OF_SHAPE = 0.8
"""The least speed per action a shape may have beside the fastest shape of the same game,
size and mode (issue 52: no shape below 0.8 of another's)."""


def format_shares(name: str, shape: str, corpus: Corpus) -> str:
    """The line that gives a corpus's share of each action kind (and of replacement steps,
    for a game that has them)."""
    kinds = ", ".join(f"{kind} {share:.1%}" for kind, share in corpus.kinds.items())
    line = f"{name} {shape}: {kinds}"
    if registry.GAMES[name].step_labels:
        line += f"; replacement steps {corpus.steps:.1%} of turns"
    return line


def format_shapes(name: str, scale: int, mode: str, rates: dict[str, float]) -> str:
    """The line that compares the shapes' speeds per action at one size and mode: each as a
    share of the fastest's, marked when one is below `SHAPE_OF_SHAPE`."""
    fastest = max(rates.values())
    shares_of = ", ".join(f"{shape} {_down(rate / fastest):.2f}" for shape, rate in rates.items())
    low = min(rates.values()) / fastest < SHAPE_OF_SHAPE
    return f"{name:<11}{scale:>4}x{mode:>5}  {shares_of} of the fastest" + (f" (below {SHAPE_OF_SHAPE})" if low else "")


def compare(
    names: list[str] | None,
    actions: int = ACTIONS,
    seed: str = "bench",
    runs: int = 3,
    sizes: tuple[int, ...] = SCALES,
    shapes: tuple[str, ...] = DEFAULT_SHAPES,
    cache: bool = True,
    progress: Progress = to_stderr,
) -> Iterator[str]:
    """For each shape (`records.SHAPES`), a line that names it and one line per game, size
    and mode (text and `--json`): the referee's whole-process speed and peak memory, beside
    python-chess's and pgn-extract's (when installed) and the ratio to python-chess against
    the game's goal; a `--json` line also gives its speed as a share of text's. Then the
    share of each action kind in each shape's corpus (at its smallest size) and, with
    several shapes, their speeds per action side by side. Without pgn-extract, a last line
    says so. Each size's records are distinct (`referee.bench.generated`), read from the
    cache where they are kept unless `cache` is False; `progress` hears how a corpus being
    played is getting on."""
    chess_here = has_chess()
    extractor = pgn_extract()
    chosen = names or list(registry.GAMES)
    store = Store(cache_folder() if cache else None)
    smallest: dict[tuple[str, str], Corpus] = {}
    speeds: dict[tuple[str, int, str], dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for shape in shapes:
            yield f"records of the {shape} shape: {SHAPES[shape].description}"
            yield HEADER
            for name in chosen:
                sized = corpora(name, actions, seed, shape, sizes, store, progress)
                smallest[name, shape] = sized[min(sizes)]
                pgn: dict[int, tuple[str, int]] = {}
                if chess_here:  # as many plies as each size has actions
                    plies = {size: corpus.actions for size, corpus in sized.items()}
                    made = pgns(plies.values(), f"{seed}-chess-{name}", store, progress)
                    pgn = {size: made[count] for size, count in plies.items()}
                for row in _measured(name, sized, pgn, runs, sizes, folder, extractor):
                    if row.rate is not None:
                        speeds.setdefault((name, row.scale, row.mode), {})[shape] = row.rate
                    yield format_row(row)
    yield "share of each kind of action in each shape's records:"
    for name in chosen:
        for shape in shapes:
            yield format_shares(name, shape, smallest[name, shape])
    if len(shapes) > 1:
        yield "speed per action of each shape, as a share of the fastest shape's:"
        for (name, scale, mode), rates in speeds.items():
            if len(rates) > 1:
                yield format_shapes(name, scale, mode, rates)
    if extractor is None:
        yield NO_PGN_EXTRACT


def _measured(
    name: str,
    sized: dict[int, Corpus],
    pgn: dict[int, tuple[str, int]],
    runs: int,
    sizes: tuple[int, ...],
    folder: str,
    extractor: str | None,
) -> Iterator[Row]:
    """The rows of one game's corpora at every size, text and `--json`, each size's beside
    its PGN (none without python-chess)."""
    goal = GOALS.get(name, DEFAULT_GOAL)
    for scale in sizes:
        corpus = sized[scale]
        ours = Path(folder, f"{name}-{scale}x.rgn")
        ours.write_bytes(corpus.data)
        their_rate: float | None = None
        extract_rate: float | None = None
        chess_mb = 0.0
        commands = {mode: [*_referee_command(), "check", *flags, str(ours)] for mode, flags in MODES.items()}
        if scale in pgn:
            theirs = Path(folder, f"{name}-{scale}x.pgn")
            theirs.write_text(pgn[scale][0], encoding="utf-8")
            commands["chess"] = [sys.executable, "-c", CHESS_READ, str(theirs)]
            if extractor is not None and pgn_extract_reads(extractor, theirs) is not None:
                commands["pgn-extract"] = [extractor, "-r", "-s", str(theirs)]
        timed = timed_in_turn(commands, runs)
        plies = pgn[scale][1] if scale in pgn else 0
        if "chess" in timed and timed["chess"].status == 0:
            their_rate, chess_mb = plies / timed["chess"].seconds, timed["chess"].peak_mb
        if "pgn-extract" in timed and timed["pgn-extract"].status == 0:
            extract_rate = plies / timed["pgn-extract"].seconds
        text_rate: float | None = None
        for mode in MODES:
            referee = timed[mode]
            failed = referee.status != 0
            rate = None if failed else corpus.actions / referee.seconds
            yield Row(
                name,
                scale,
                mode,
                corpus.records,
                corpus.actions,
                rate,
                referee.peak_mb,
                their_rate,
                chess_mb,
                extract_rate,
                goal,
                text_rate if mode == "json" else None,
                f"referee check exited with {referee.status}" if failed else "",
            )
            if mode == "text":
                text_rate = rate
