"""Running a whole `referee` process under watch: its wall time, the peak resident memory
of it and its descendants, and the most processes it had at once. The process is killed
(with its whole group) when it runs past `timeout` or its memory passes `rss_cap`, so a
test of an input bound fails quickly instead of hanging CI or eating the machine.

Memory: the command runs under a small launcher that forks and execs it and reports the
peak resident set the kernel counted for it (`wait4`'s `ru_maxrss`, which also covers its
waited-for children); the launcher is a fresh process, so that count does not start at the
size of the test process (as it would for a child forked from a large pytest). While it
runs, /proc (`VmHWM` of the process and of every descendant seen alive) is read every
20 ms, for the kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tests.helpers.process import REFEREE

MB = 1 << 20


@dataclass
class Watched:
    returncode: int | None
    """None when the process was killed (time or memory ran out)."""
    wall: float
    peak_rss: int
    """Bytes: the largest peak resident set of the process or of any descendant."""
    most_processes: int
    """The most processes of its tree seen alive at once (itself included)."""
    stdout: str
    stderr: str
    killed: str | None
    """Why it was killed ("time", "memory"), or None."""

    def describe(self) -> str:
        code = f"killed ({self.killed})" if self.killed else f"exit {self.returncode}"
        return f"{code}, {self.wall:.1f} s, peak RSS {self.peak_rss / MB:.0f} MB, {self.most_processes} processes"


def _status_kb(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                children = Path(f"/proc/{parent}/task/{task}/children").read_text().split()
            except OSError:
                continue
            for child in children:
                found.append(int(child))
                todo.append(int(child))
    return found


_LAUNCHER = """
import os, sys
report = int(sys.argv[1])
pid = os.fork()
if pid == 0:
    os.close(report)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(report, str(usage.ru_maxrss).encode())
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def referee_command(*args: str) -> list[str]:
    return [*REFEREE, *args]


def watch(
    command: list[str],
    *,
    stdin: IO[bytes] | int | None = subprocess.DEVNULL,
    timeout: float = 20.0,
    rss_cap: int = 1024 * MB,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> Watched:
    """Run `command`, watching it; kill it past `timeout` seconds or `rss_cap` bytes."""
    start = time.monotonic()
    report_read, report_write = os.pipe()
    process = subprocess.Popen(
        [sys.executable, "-c", _LAUNCHER, str(report_write), *command],
        pass_fds=(report_write,),
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    peak, most, killed = 0, 0, None
    streams: dict[str, bytes] = {}

    def drain(name: str, stream: IO[bytes]) -> None:
        data = stream.read(4 * MB)  # a bounded look at what it said
        while stream.read(1 << 16):
            pass
        streams[name] = data

    assert process.stdout is not None and process.stderr is not None
    readers = [
        threading.Thread(target=drain, args=("stdout", process.stdout), daemon=True),
        threading.Thread(target=drain, args=("stderr", process.stderr), daemon=True),
    ]
    for reader in readers:
        reader.start()
    os.close(report_write)
    returncode: int | None = None
    while returncode is None:
        returncode = process.poll()
        if returncode is not None:
            break
        tree = _descendants(process.pid)  # (the launcher itself is not counted)
        most = max(most, len(tree))
        peak = max([peak, *(_status_kb(pid, "VmHWM") for pid in tree)])
        if peak > rss_cap:
            killed = "memory"
        elif time.monotonic() - start > timeout:
            killed = "time"
        if killed:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            break
        time.sleep(0.02)
    wall = time.monotonic() - start
    with os.fdopen(report_read, "rb") as report:
        said = report.read().split()
    if said and not killed:
        peak = max(peak, int(said[0]) * 1024)
    for reader in readers:
        reader.join(5)
    try:
        os.killpg(process.pid, signal.SIGKILL)  # any worker left behind
    except OSError:
        pass
    return Watched(
        None if killed else returncode,
        wall,
        peak,
        most,
        streams.get("stdout", b"").decode("utf-8", "replace"),
        streams.get("stderr", b"").decode("utf-8", "replace"),
        killed,
    )
