"""Large records, generated (never committed), and the peak memory of each record command
run on one of them in this process (issue 34, "Memory").

`peak(command, path, *options)` runs the command's own function of `referee.cli.record_commands`
(the code `referee COMMAND` runs, option parsing aside) with its output thrown away, and
gives the peak of Python's allocations (tracemalloc) while it ran, once a first run on a
tiny record of the same game has loaded the modules and caches every run needs.

`python -m tests.helpers.big [SCALE]` prints the table of docs/speed.md: tracemalloc
peaks in this process, then the peak resident set of whole `referee` processes
(`/usr/bin/time -v`'s maximum resident set size)."""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import tempfile
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import typer

from tests.helpers.process import REFEREE

PIKEMEN_CYCLE = b"R: h4(SE)\nB: c6(E)\nR: h4(S)\nB: c6(SE)\n"
"""Four Pikemen turns that turn two pieces back and forth: legal however often repeated."""

NUMICA_HEAD = b'[Game "numica"]\n[Seed "big-numica-game"]\n\nR: SSSOOSOO\nB: OOSSSOOS\n'
NUMICA_CYCLE = b"R: e1-c2\nB: c8-d7\nR: c2-e1\nB: d7-c8\n"
"""Four Numica turns (after the tiles of that Seed) that move two pieces there and back."""


def pikemen(turns: int, ending: bytes = b"R: h4(S)\n") -> bytes:
    """A Pikemen record of `turns` turns, two reorientations repeated, then `ending` (by
    default an illegal action: the piece already faces south)."""
    return b'[Game "pikemen"]\n\n' + PIKEMEN_CYCLE * (turns // 4) + ending


def pikemen_numbered(turns: int) -> bytes:
    """The Pikemen record of the issue: `turns` turns with round numbers (3.8 MB at 300,000),
    the piece turned back and forth, then an illegal action (an error at the end)."""
    rounds = b"".join(
        b"%d. R: h4(SE)\nB: c6(E)\n%d. R: h4(S)\nB: c6(SE)\n" % (n, n + 1) for n in range(1, turns // 2, 2)
    )
    return b'[Game "pikemen"]\n\n' + rounds + b"%d. R: h4(S)\n" % (turns // 4 * 2 + 1)


def pikemen_timed(turns: int, ending: bytes = b"R: h4(S)\n") -> bytes:
    """A timed Pikemen record (TIME.md): `pikemen`'s turns, each closed by a stamp seven
    minutes after the one before, a grant every 1,000 turns, then `ending` (by default an
    illegal action)."""
    import time

    stamps = []
    for turn in range(turns // 4 * 4):
        side = "Red" if turn % 2 == 0 else "Blue"
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1_796_126_400 + 420 * (turn + 1)))
        grant = b"{[%%grant %s 1d]} " % side.encode() if turn % 1000 == 999 else b""
        stamps.append(b"%s{[%%at %s %s]}" % (grant, at.encode(), side.encode()))
    lines = PIKEMEN_CYCLE.splitlines() * (turns // 4)
    moves = b"".join(line + b" " + stamp + b"\n" for line, stamp in zip(lines, stamps, strict=True))
    head = b'[Game "pikemen"]\n[TimeControl "10d+1d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
    return head + moves + ending


def numica(turns: int, ending: bytes = b"R: e1-e1\n") -> bytes:
    """A Numica record of `turns` turns after its tile placements, then `ending`."""
    return NUMICA_HEAD + NUMICA_CYCLE * (turns // 4) + ending


TIMED_HEAD = b'[Game "pikemen"]\n[TimeControl "1d+1h/2d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
PIKEMEN_SIDES = (b"Red", b"Blue")
START = 1_796_126_400
"""`Start` of the timed records: 2026-12-01T12:00:00Z, seconds since the Unix epoch."""


def _instant(seconds: int) -> bytes:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds)).encode("ascii")


def pikemen_clocked(turns: int, ending: str = "flag") -> bytes:
    """A timed Pikemen record (TIME.md) of a short game: `turns` turns of the two reorientations, each closed
    by a stamp a minute after the one before, a grant every 1,000 turns, then `ending`:
    "flag" (Blue's turn stamped after its time ran out: illegal), "timeout" (Blue's time
    claimed after it ran out: finished), "illegal" (an illegal action, in time), "ongoing"
    (nothing more), or "stamp" (a stamp that cannot be read: malformed)."""
    lines = []
    cycle = PIKEMEN_CYCLE.splitlines()
    at = START
    for turn in range(turns // 4 * 4):
        at += 60
        side = PIKEMEN_SIDES[turn % 2]
        line = cycle[turn % 4] + b" {[%%at %s %s]}" % (_instant(at), side)
        if turn % 1000 == 999:
            line += b" {[%grant Red 1h]}"
        lines.append(line)
    late = _instant(at + 3 * 86_400)
    lines.append(
        {
            "flag": b"R: h4(SE) {[%%at %s Red]}" % _instant(at + 60) + b"\nB: c6(E) {[%%at %s Blue]}" % late,
            "timeout": b"R: h4(SE) {[%%at %s Red]}\ntimeout {[%%at %s Blue]}" % (_instant(at + 60), late),
            "illegal": b"R: h4(S) {[%%at %s Red]}" % _instant(at + 60),
            "ongoing": b"",
            "stamp": b"R: h4(SE) {[%at 2026-13-01T00:00:00Z Red]}",
        }[ending]
    )
    return TIMED_HEAD + b"\n".join(lines).rstrip(b"\n") + b"\n"


def tag_value(size: int) -> bytes:
    """A Numica record with an `Event` tag of `size` bytes and one turn."""
    return b'[Game "numica"]\n[Event "' + b"x" * size + b'"]\n[Seed "s"]\n\nR: SSOOSOSO\n'


COMMANDS: dict[str, tuple[str, ...]] = {
    "check": ("check",),
    "check --json": ("check", "--json"),
    "replay": ("replay",),
    "replay --json": ("replay", "--json"),
    "show": ("show",),
    "show --at": ("show", "--at"),
    "show --svg": ("show", "--svg"),
    "show --svg --at": ("show", "--svg", "--at"),
    "moves": ("moves",),
    "format": ("format",),
    "stats": ("stats",),
}
"""The commands measured, by name: the command and its options (`--at` takes a round)."""

PAGES: dict[str, tuple[str, ...]] = {
    "replay --html": ("replay", "--html"),
    "replay --html -o": ("replay", "--html", "-o"),
}
"""The commands whose output is larger than the record, held to 10 times the record's
size plus the output's (docs/speed.md): `-o` writes the page beside the record (`page_of`)."""


def page_of(path: Path) -> Path:
    """Where `replay --html -o` writes the page of the record at `path`."""
    return path.with_suffix(".html")


def _call(words: tuple[str, ...], path: Path, at: int) -> Callable[[], None]:
    from referee.cli import record_commands

    name, options = words[0], words[1:]
    file = str(path)
    if name == "check":
        return lambda: record_commands.check([file], json_output="--json" in options)
    if name == "replay" and "--html" in options:
        output = str(page_of(path)) if "-o" in options else None
        return lambda: record_commands.replay(file, html=True, output=output)
    if name == "replay":
        return lambda: record_commands.replay(file, json_output="--json" in options)
    if name == "show":
        return lambda: record_commands.show(file, at=at if "--at" in options else None, svg="--svg" in options)
    if name == "moves":
        return lambda: record_commands.moves(file)
    if name == "format":
        return lambda: record_commands.format_records([file])
    assert name == "stats"
    return lambda: record_commands.stats([file])


@contextlib.contextmanager
def _silenced() -> Iterator[None]:
    """Standard output and error thrown away (written to /dev/null, not kept)."""
    with open(os.devnull, "w", encoding="utf-8") as sink:
        old = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = sink
        try:
            yield
        finally:
            sys.stdout, sys.stderr = old


def _run(call: Callable[[], None]) -> None:
    with _silenced():
        try:
            call()
        except typer.Exit:
            pass


def peak(command: str, path: Path, tiny: Path, at: int = 0) -> int:
    """Bytes: the peak of Python's allocations while `command` (a key of `COMMANDS`) ran on
    the record at `path`, after a first run on the `tiny` record of the same game."""
    words = COMMANDS[command] if command in COMMANDS else PAGES[command]
    _run(_call(words, tiny, 0))
    gc.collect()
    tracemalloc.start()
    try:
        _run(_call(words, path, at))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def cases(scale: float = 1.0) -> dict[str, tuple[bytes, bytes, int]]:
    """The measured records by name: each with a small record of its game (4,000 turns: the
    first run fills the quick reader's bounded caches of round numbers) and a middle round."""
    turns = round(300_000 * scale) // 4 * 4
    return {
        "pikemen 300k turns numbered, illegal end": (pikemen_numbered(turns), pikemen_numbered(4000), turns // 4),
        "pikemen 300k turns, illegal end": (pikemen(turns), pikemen(4000), turns // 4),
        "pikemen 300k turns, legal": (pikemen(turns, b""), pikemen(4000, b""), turns // 4),
        "numica 300k turns, illegal end": (numica(turns), numica(4000), turns // 4),
        "50 MB tag value": (tag_value(round(50_000_000 * scale)), tag_value(10), 0),
    }


def maxrss(words: tuple[str, ...], path: Path, at: int) -> int:
    """Bytes: the maximum resident set of a whole `referee` process (/usr/bin/time -v)."""
    given = {"--at": str(at), "-o": str(page_of(path))}
    options = [option for word in words[1:] for option in ((word, given[word]) if word in given else (word,))]
    argv = [*words[:1], *options, str(path)]
    done = subprocess.run(
        ["/usr/bin/time", "-v", *REFEREE, *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    line = next(line for line in done.stderr.splitlines() if "Maximum resident set size" in line)
    return int(line.rsplit(":", 1)[1]) * 1024


def main(scale: float = 1.0, processes: bool = True) -> None:
    mb = 1e6
    with tempfile.TemporaryDirectory() as folder:
        for name, (data, tiny_data, at) in cases(scale).items():
            path, tiny = Path(folder, "big.rgn"), Path(folder, "tiny.rgn")
            path.write_bytes(data)
            tiny.write_bytes(tiny_data)
            print(f"## {name}: {len(data) / mb:.2f} MB")
            for command in (*COMMANDS, *PAGES):
                traced = peak(command, path, tiny, at)
                row = f"{command:16} tracemalloc {traced / mb:7.1f} MB {traced / len(data):5.1f}x"
                if command in PAGES:
                    _run(_call(PAGES["replay --html -o"], path, at))
                    size = page_of(path).stat().st_size
                    row += f" (page {size / mb:.2f} MB; {(traced - size) / len(data):5.1f}x beside it)"
                if processes:
                    rss = maxrss(COMMANDS.get(command) or PAGES[command], path, at)
                    row += f"   maxrss {rss / mb:7.1f} MB"
                print(row, flush=True)
            del data


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 1.0, "--no-processes" not in sys.argv)
