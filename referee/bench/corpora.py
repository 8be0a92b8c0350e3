"""`referee bench`: how fast records are read and validated, on one core, in figures
anyone can re-run. Records come from seeded random playouts, generated before timing;
the best of five passes counts, which keeps a stray pause on a busy machine out of the
figures. `memory()` measures peak memory and time on large inputs (a 50 MB file of many
records, a 10 MB tag value, an error after 200,000 comment lines or 100,000 turns), each
read one record at a time in a fresh process."""

from __future__ import annotations

import resource
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

from referee.errors import UsageError
from referee.games import registry
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.services.random_playout import Playout, play

ROUNDS = 5


class Shape(NamedTuple):
    """How a bench corpus's records are played and written (nieuchess.md allows both
    written forms): its playouts' chance of ending a turn early, whether each action is
    spelled out in full, and whether the actions are drawn as people play (weighted by
    `Engine.preference`) or uniformly."""

    end_chance: int
    spelled_out: bool
    description: str
    purposeful: bool = False


SHAPES = {
    "purposeful": Shape(
        4,
        False,
        "purposeful play (advances, pushes, captures, battles preferred, as people play), "
        "moves in destination form, every battle's roll and result written",
        purposeful=True,
    ),
    "short": Shape(
        4,
        False,
        "uniform random play, moves in destination form (e4-g7), about 4 actions a turn, "
        "every battle's roll and result written",
    ),
    "long": Shape(
        40,
        True,
        "uniform random play, every move written hex by hex (rides up to 20 steps), about 16 actions a "
        "complete turn, every battle's roll, result and choices written, replacement steps",
    ),
}
"""The shapes of the bench corpora: `purposeful` draws each legal action with the weight
the game gives it (`Engine.preference`: records as people play them, issue 52); `short` is
the canonical form of uniform playouts; `long` writes every Nieuchess move hex by hex and
lets turns run long (other games' records are the same as `short`: their actions have one
written form)."""

DEFAULT_SHAPES = ("purposeful", "short")
"""What `referee bench` measures unless told: records as people play them, and uniform ones."""


def shaped_play(game: str, players: int | None, seed: str, shape: str = "short") -> Playout:
    """A random playout whose record is played and written in a bench shape (`SHAPES`)."""
    chosen = SHAPES[shape]
    return play(
        game,
        players,
        seed,
        end_chance=chosen.end_chance,
        spelled_out=chosen.spelled_out,
        purposeful=chosen.purposeful,
    )


def read_shape(text: str) -> str:
    """`--shape short|long|purposeful`. Raises UsageError."""
    if text not in SHAPES:
        raise UsageError(f"--shape is one of {', '.join(SHAPES)} (or several, separated by commas), not {text!r}")
    return text


def read_shapes(text: str) -> tuple[str, ...]:
    """`--shape purposeful,short`: one shape or several, each once. Raises UsageError."""
    shapes = tuple(read_shape(part) for part in text.split(","))
    if len(set(shapes)) != len(shapes):
        raise UsageError(f"--shape names each shape once, not {text!r}")
    return shapes


def action_kind(action: object) -> str:
    """The kind of an action, for the shares of a corpus: the name of its class in the game
    API, `capture` added where the action says it captures."""
    name = type(action).__name__
    return f"{name} capture" if getattr(action, "capture", False) is True else name


class Tally:
    """The action kinds and replacement steps of playouts counted so far (`shares`)."""

    def __init__(self) -> None:
        self.kinds: dict[str, int] = {}
        self.turns = self.steps = 0

    def add(self, played: Playout) -> None:
        for turn in played.record.turns:
            self.turns += 1
            self.steps += turn.step
            for move in turn.moves:
                kind = action_kind(move.action)
                self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def shares(self) -> tuple[dict[str, float], float]:
        """The share of each action kind, most common first, and of turns that are steps."""
        total = sum(self.kinds.values()) or 1
        ordered = sorted(self.kinds.items(), key=lambda item: (-item[1], item[0]))
        return {kind: count / total for kind, count in ordered}, self.steps / (self.turns or 1)


def shares(playouts: list[Playout]) -> tuple[dict[str, float], float]:
    """The share of each action kind among the playouts' actions, most common first, and
    the share of their turns that are replacement steps."""
    tally = Tally()
    for played in playouts:
        tally.add(played)
    return tally.shares()


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


def referee_command() -> tuple[list[str], str]:
    """How `startup` starts the referee, and which install that is: the `referee` script
    installed beside this interpreter (the one a user's shell runs, minus any wrapper in
    front of it, such as a pyenv shim: a shell script that costs more than the whole
    referee), else `python -m referee`. The bare app is run by the same interpreter."""
    import sys
    from importlib import metadata

    script = Path(sys.executable).parent / "referee"
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "referee"]
    try:
        found = metadata.distribution("referee").read_text("direct_url.json") or ""
    except metadata.PackageNotFoundError:
        return command, "not installed"
    # An editable install's import finder runs in every start (the bare app's too).
    return command, "editable install" if '"editable": true' in found else "installed"


def startup(runs: int) -> Iterator[str]:
    """Wall time of `referee check` on one short record against a bare two-command Typer
    app that imports pyparsing, alternating runs, medians in milliseconds."""
    import statistics
    import subprocess
    import sys
    import tempfile

    ours, install = referee_command()
    with tempfile.TemporaryDirectory() as folder:
        bare = Path(folder, "bare.py")
        bare.write_text(BARE_APP)
        record = Path(folder, "short.rgn")
        record.write_text(SHORT_RECORD)
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
    yield f"timed: {' '.join(ours[-2:] if len(ours) > 1 else ours)} ({install})"
    for name, value in medians.items():
        yield f"{name:<16}{value:>8.1f} ms (median of {runs})"
    yield f"{'ratio':<16}{medians['referee check'] / medians['bare Typer app']:>8.2f}"


def run(names: list[str] | None, records: int, seed: str, shape: str = "short") -> Iterator[str]:
    """One line of figures per game and player count, on records of the given shape."""
    chosen = names or list(registry.GAMES)
    for name in chosen:
        if registry.info(name) is None:
            raise UsageError(f'unknown game "{name}": choose from {", ".join(registry.GAMES)}')
    yield f"{'game':<16}{'records':>8}{'actions':>9}{'parse act/s':>14}{'check act/s':>14}{'peak MB':>9}"
    for name in chosen:
        info = registry.GAMES[name]
        for players in tuple(info.sides_by_players) or (None,):
            label = name if players is None else f"{name} ({players}p)"
            texts = [shaped_play(name, players, f"{seed}-{name}-{players}-{i}", shape).text for i in range(records)]
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


# The child process of `memory`: reads one file one record at a time and judges each
# record, then reports on one JSON line.
_MEASURE = """
import json, resource, sys, time
start = time.perf_counter()
from referee.notation.model import ReadCrash
from referee.notation.reader import iter_records
from referee.judge.core.adjudicate import adjudicate, dialect_for
first, statuses = None, {}
with open(sys.argv[1], "rb") as stream:
    for index, result in enumerate(iter_records(stream, dialect_for), start=1):
        status = "error" if isinstance(result, ReadCrash) else adjudicate(result, "bench", index).verdict.status
        statuses[status] = statuses.get(status, 0) + 1
        if first is None:
            first = time.perf_counter() - start
total = time.perf_counter() - start
try:  # this process's own peak: ru_maxrss would count the parent's size at the fork
    peak = int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) * 1024
except (OSError, IndexError, ValueError):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"first": first, "total": total, "peak": peak, "statuses": statuses}))
"""


def memory_inputs(folder: Path, scale: float = 1.0) -> list[tuple[str, Path]]:
    """The inputs `memory` measures, written into `folder`: a file of many records (50 MB at
    scale 1), a 10 MB tag value, 200,000 comment lines then a bad token, and a
    100,000-turn Pikemen game with a typo at the end (each scaled by `scale`)."""
    playouts = max(2, min(40, round(2000 * scale)))  # 40 of each game, fewer for a quick small run
    texts = [
        play(game, None, f"memory-{game}-{i}").text for game in ("nika", "numica", "pikemen") for i in range(playouts)
    ]
    block = ("\n".join(texts) + "\n").encode("utf-8")
    cases = {
        "many records": block * max(1, round(50_000_000 * scale / len(block))),
        "long tag value": b'[Game "numica"]\n[Event "'
        + b"x" * round(10_000_000 * scale)
        + b'"]\n[Seed "s"]\n\nR: SSOOSOSO\n',
        "comment lines": b'[Game "numica"]\n[Seed "s"]\n\n'
        + b"; a comment line\n" * round(200_000 * scale)
        + b"R: SSOOSOSO zz\n",
        "long game typo": b'[Game "pikemen"]\n\n' + b"R: h4(SE)\nB: c6(E)\n" * round(50_000 * scale) + b"R: h4(SX)\n",
    }
    paths = []
    for name, data in cases.items():
        path = folder / f"{name.replace(' ', '-')}.rgn"
        path.write_bytes(data)
        paths.append((name, path))
    return paths


CYCLE = b"R: h4(SE)\nB: c6(E)\nR: h4(S)\nB: c6(SE)\n"
"""Four Pikemen turns that turn two pieces back and forth: legal however often repeated."""


def large_records(folder: Path, scale: float = 1.0) -> list[tuple[str, Path, tuple[str, ...]]]:
    """One large record per file, written into `folder`, each judged by another path of
    `referee check` (issue 19): a 1,000,000-turn game (9.5 MB at scale 1) that is legal
    (the fused path), ends with an illegal action or a typo (the detailed path), or is
    checked with --json (token and all); the same game on one 10 MB line ending with an
    illegal action; a 50 MB tag value; one Nika turn of 2,000,000 actions. Each with the
    extra arguments of its `referee check`."""
    turns = CYCLE * round(250_000 * scale)
    head = b'[Game "pikemen"]\n\n'
    line = CYCLE.replace(b"\n", b" ") * round(263_000 * scale)
    cases: list[tuple[str, bytes, tuple[str, ...]]] = [
        ("1M turns legal", head + turns, ()),
        ("1M turns illegal", head + turns + b"R: h4(S)\n", ()),
        ("1M turns typo", head + turns + b"R: h4(SX)\n", ()),
        ("1M turns --json", head + turns, ("--json",)),
        ("10 MB line", head + line + b"R: h4(S)\n", ()),
        (
            "50 MB tag value",
            b'[Game "numica"]\n[Event "' + b"x" * round(50_000_000 * scale) + b'"]\n[Seed "s"]\n\nR: SSOOSOSO\n',
            (),
        ),
        ("Nika turn 2M", b'[Game "nika"]\n\n1. W: ' + b"d1-W " * round(2_000_000 * scale) + b"\n", ()),
    ]
    found = []
    for name, data, extra in cases:
        path = folder / f"{name.replace(' ', '-').replace('--', '')}.rgn"
        path.write_bytes(data)
        found.append((name, path, extra))
    return found


# The child process of `memory(command=True)`: runs `referee check FILE` and reports when
# its first verdict line arrived, its total time and its peak memory.
_MEASURE_COMMAND = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
first_line = process.stdout.readline()
first = time.perf_counter() - start if first_line else None
lines = (1 if first_line else 0) + sum(1 for _ in process.stdout)
process.wait()
total = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"first": first, "total": total, "peak": peak, "statuses": {f"exit {process.returncode}": lines}}))
"""


def memory(scale: float = 1.0, command: bool = False, large: bool | None = None) -> Iterator[str]:
    """Peak memory and time of reading and judging large inputs one record at a time, each
    in a fresh process: the library (`iter_records` and `adjudicate`), or with `command`
    the whole `referee check FILE` process (statuses then show its exit status and the
    number of verdict lines). With `command`, the large single records of `large_records`
    follow (`large`: only them; False: not them); `x size` is the peak over the file's size."""
    import json
    import shutil
    import subprocess
    import sys
    import tempfile

    referee = shutil.which("referee")
    check = [referee] if referee else [sys.executable, "-m", "referee"]
    yield f"{'input':<16}{'MB':>8}{'records':>9}{'first s':>9}{'total s':>9}{'peak MB':>9}{'x size':>7}  statuses"
    with tempfile.TemporaryDirectory() as folder:
        inputs: list[tuple[str, Path, tuple[str, ...]]] = []
        if not large:
            inputs += [(name, path, ()) for name, path in memory_inputs(Path(folder), scale)]
        if command and large is not False:
            inputs += large_records(Path(folder), scale)
        for name, path, extra in inputs:
            child = (
                [sys.executable, "-c", _MEASURE_COMMAND, *check, "check", *extra, str(path)]
                if command
                else [
                    sys.executable,
                    "-c",
                    _MEASURE,
                    str(path),
                ]
            )
            done = subprocess.run(child, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                yield f"{name:<16}failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}"
                continue
            got = json.loads(done.stdout.strip().splitlines()[-1])
            statuses = ", ".join(f"{count} {status}" for status, count in sorted(got["statuses"].items()))
            yield (
                f"{name:<16}{path.stat().st_size / 1e6:>8.1f}{sum(got['statuses'].values()):>9}"
                f"{got['first'] or 0:>9.2f}{got['total']:>9.2f}{got['peak'] / 1e6:>9.1f}"
                f"{got['peak'] / path.stat().st_size:>7.1f}  {statuses}"
            )
