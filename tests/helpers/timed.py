"""Timed records made from untimed ones: a `TimeControl` and a `Start` tag, and a stamp
(TIME.md §2) after each turn at a random later instant, with now and then a grant, a
`timeout`, a stamp out of order or naming no side, or one that cannot be read: the
clock's every branch, on records of every game."""

from __future__ import annotations

import random

CONTROLS = ("3d+1d/5d", "1d/move", "2h+30m", "10d+1d", "36h+0m/2d", "90m/move")
START = 1_796_126_400  # 2026-12-01T12:00:00Z
GAPS = (60, 600, 3600, 4 * 3600, 20 * 3600, 2 * 86400, 5 * 86400)
IN_TIME = (60, 600, 3600)
"""Gaps no control of CONTROLS runs out in (a game played in time)."""


def instant(seconds: int) -> str:
    """A UTC instant as TIME.md writes it."""
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def timed(data: bytes, rng: random.Random, odd: float = 0.05, gaps: tuple[int, ...] = GAPS) -> bytes:
    """`data` (one untimed record, a turn a line) with a clock; `odd` is the chance of each
    unusual entry after a turn, `gaps` the seconds a stamp may come after the one before."""
    head, _, moves = data.decode("utf-8").partition("\n\n")
    control = rng.choice(CONTROLS)
    lines = [head, f'[TimeControl "{control}"]', f'[Start "{instant(START)}"]', ""]
    now = START
    for line in moves.splitlines():
        label = line.split(":", 1)[0].split(". ")[-1].strip() if ":" in line else ""
        side = label.rstrip("+") or "R"
        now += rng.choice(gaps)
        entry = f"{{[%at {instant(now)} {side}]}}"
        roll = rng.random()
        if roll < odd:
            entry = f"{{[%grant {side} 1d]}} " + entry
        elif roll < 2 * odd:
            entry = f"{{[%at {instant(now - 30 * 86400)} {side}]}}"  # earlier than the one before
        elif roll < 3 * odd:
            entry = f"{{[%at {instant(now)} Nobody]}}"
        elif roll < 4 * odd:
            entry = "timeout " + entry
        elif roll < 4.3 * odd:
            entry = "{[%at yesterday R]}"  # cannot be read: malformed at its brace
        elif roll < 4.6 * odd:
            entry = "{a note} " + entry
        lines.append(f"{line} {entry}" if line.strip() else line)
    return ("\n".join(lines) + "\n").encode("utf-8")
