"""The mail gateway's limits, measured (PLAY.md §5.1, "Bounded before trusted"):

    python -m referee.bench.mail            # a table; exit 1 if a goal is missed
    python -m referee.bench.mail --imap URL --count 5000   # one IMAP pass over a flood (bench/imap_bench.py)

Each case runs `referee mail` as the mail system does, a fresh process with the message on
its standard input, and measures its wall time and its peak memory (the resident set the
kernel reports for it, `ru_maxrss`, Python itself included). The goals: a 1 MB message of
encoded words from a stranger dropped in under 0.5 s and 60 MB; no message of any size
makes the gateway use more than 150 MB. Each case runs three times; the table gives the
best wall time (the others are slowed by whatever else the machine runs), the CPU time
(user and system) of that run, and the highest peak of the three. The time goal is judged
on the CPU time, which other jobs on the machine do not inflate; on a quiet machine the
wall time is close to it (the load average is printed first, to read the wall times by)."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

MB = 2**20
STRANGER = "Eve <eve@evil.example>"
PLAYER = "Ann <ann@example.org>"
GAME = (
    '[Game "nika"]\n[Players "4"]\n[Athens "Ann <ann@example.org>"]\n[Sparta "Bo <bo@example.org>"]\n'
    '[Messene "Cy <cy@example.org>"]\n[Thebes "Di <di@example.org>"]\n'
)


class Case(NamedTuple):
    name: str
    make: Callable[[Path], None]
    seconds: float | None
    """The time goal, None for none."""
    megabytes: float


class Measured(NamedTuple):
    name: str
    size: int
    seconds: float
    cpu: float
    megabytes: float
    exit_code: int
    goal_seconds: float | None
    goal_megabytes: float

    @property
    def met(self) -> bool:
        fast = self.goal_seconds is None or self.cpu < self.goal_seconds
        return fast and self.megabytes < self.goal_megabytes and self.exit_code == 0

    def row(self) -> str:
        goal = f"< {self.goal_seconds:g} s CPU, " if self.goal_seconds is not None else ""
        goal += f"< {self.goal_megabytes:g} MB"
        return (
            f"{self.name:<46} {self.size / MB:7.1f} MB {self.seconds:6.2f} s {self.cpu:6.2f} s "
            f"{self.megabytes:6.1f} MB   "
            f"{goal:<22} {'met' if self.met else 'MISSED'}"
        )


def _subject_bomb(sender: str, size: int) -> Callable[[Path], None]:
    """Issue 18's attack: a Subject of encoded words filling `size` bytes."""

    def make(path: Path) -> None:
        word = "=?utf-8?b?" + base64.b64encode("Ἀθῆναι".encode()).decode() + "?="
        head = f"From: {sender}\nTo: gm@example.org\nMessage-ID: <bomb@example.org>\nSubject: [g1] "
        tail = "\n\nd1+d2+d3-W i3-E\n"
        count = (size - len(head) - len(tail)) // (len(word) + 1)
        path.write_text(head + " ".join([word] * count) + tail, encoding="utf-8")

    return make


def _big_body(sender: str, size: int) -> Callable[[Path], None]:
    """A message of `size` bytes, most of it a base64 attachment, written a piece at a time."""

    def make(path: Path) -> None:
        head = (
            f"From: {sender}\nTo: gm@example.org\nSubject: [g1] with a film\nMessage-ID: <big@example.org>\n"
            'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\n'
            "d1+d2+d3-W i3-E\n--b\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n"
            'Content-Disposition: attachment; filename="film.bin"\n\n'
        )
        line = base64.b64encode(b"\x00" * 57).decode() + "\n"
        with path.open("w", encoding="ascii") as out:
            out.write(head)
            written = len(head)
            chunk = line * 1000
            while written < size - 20:
                out.write(chunk)
                written += len(chunk)
            out.write("--b--\n")

    return make


def _nested(sender: str, depth: int) -> Callable[[Path], None]:
    """Parts nested `depth` deep: a message the parser cannot read (a player's, within the limit)."""

    def make(path: Path) -> None:
        head = f"From: {sender}\nTo: gm@example.org\nSubject: [g1]\nMessage-ID: <deep@example.org>\nMIME-Version: 1.0\n"
        opening = "".join(f'Content-Type: multipart/mixed; boundary="{i}"\n\n--{i}\n' for i in range(depth))
        path.write_text(head + opening + "Content-Type: text/plain\n\nshow\n", encoding="ascii")

    return make


CASES = (
    Case("stranger: 1 MB Subject of encoded words", _subject_bomb(STRANGER, MB - 64), 0.5, 60),
    Case("player: 1 MB Subject of encoded words, a move", _subject_bomb(PLAYER, MB - 64), None, 150),
    Case("player: 1 MB message with an attachment", _big_body(PLAYER, MB - 512), None, 150),
    Case("player: 1 MB of parts nested 20000 deep", _nested(PLAYER, 20000), None, 150),
    Case("stranger: 64 MB message", _big_body(STRANGER, 64 * MB), None, 150),
    Case("player: 64 MB message (answered: too large)", _big_body(PLAYER, 64 * MB), None, 150),
    Case("player: 512 MB message (answered: too large)", _big_body(PLAYER, 512 * MB), None, 150),
)


def measure(case: Case, folder: Path, runs: int = 3) -> Measured:
    """`runs` runs of `referee mail` on the case's message, each in a fresh game folder."""
    data = folder / "message.eml"
    case.make(data)
    best: tuple[float, float] | None = None
    peak = 0.0
    code = 0
    for run in range(runs):
        games = folder / f"games-{run}"
        games.mkdir()
        (games / "g1.rgn").write_text(GAME, encoding="utf-8")
        command = [sys.executable, "-m", "referee", "mail", "--games", str(games), "--from", "gm@example.org"]
        with data.open("rb") as stdin:
            started = time.perf_counter()
            process = subprocess.Popen(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - started
        code = code or os.waitstatus_to_exitcode(status)
        peak = max(peak, usage.ru_maxrss / 1024)  # kilobytes on Linux
        if best is None or seconds < best[0]:
            best = (seconds, usage.ru_utime + usage.ru_stime)
    assert best is not None
    return Measured(case.name, data.stat().st_size, best[0], best[1], peak, code, case.seconds, case.megabytes)


def main(argv: list[str] | None = None) -> int:
    """The table of cases; with `--imap URL [--count N]`, instead, one IMAP pass over a
    flood of N strangers' messages (referee/bench/imap_bench.py)."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m referee.bench.mail", description=__doc__.splitlines()[0])
    parser.add_argument("--imap", metavar="URL", help="a throwaway mailbox to flood (REFEREE_IMAP_PASSWORD)")
    parser.add_argument("--count", type=int, default=5000, help="with --imap: the strangers' messages (5000)")
    options = parser.parse_args(argv)
    if options.imap is not None:
        from referee.bench.imap_bench import flood
        from referee.errors import UsageError

        try:
            flooded = flood(options.imap, options.count)
        except UsageError as error:
            print(f"referee bench: {error}", file=sys.stderr)
            return 2
        for row in flooded.rows():
            print(row)
        return 0 if flooded.exit_code == 0 and flooded.ignored == flooded.messages and not flooded.answers else 1
    print(f"load average {' '.join(f'{value:.1f}' for value in os.getloadavg())} on {os.cpu_count()} cores")
    print(f"{'case':<46} {'size':>10} {'wall':>8} {'CPU':>8} {'peak':>9}   {'goal':<22} result")
    missed = 0
    for case in CASES:
        with tempfile.TemporaryDirectory(prefix="referee-mail-bench-") as folder:
            result = measure(case, Path(folder))
        print(result.row(), flush=True)
        missed += not result.met
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
