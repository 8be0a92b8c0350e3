"""Files written safely beyond the plain case (issue 19, items 7, 9, 10): `-o` pictures and
pages written atomically, game files that are symbolic links, lock files that are links,
and a lock file deleted while writers race. Real processes throughout."""

from __future__ import annotations

import fcntl
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.store import lock_path, write_atomically
from tests.helpers.process import run_referee
from tests.live.play.test_safety import NIKA, race_reports, referee, spawn, turns_of

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _limited(size: int) -> None:
    """In the child: no file may grow past `size` bytes (writes beyond fail with EFBIG,
    as on a full disk; Python ignores SIGXFSZ)."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def _referee_on_a_full_disk(size: int, *arguments: str) -> subprocess.CompletedProcess[str]:
    return run_referee(*arguments, preexec_fn=lambda: _limited(size), env={"PYTHONDONTWRITEBYTECODE": "1"})


@pytest.mark.parametrize(
    ("command", "example"),
    [
        (["replay", "--html"], "nieuchess-finished.rgn"),
        (["show", "--svg"], "nieuchess-finished.rgn"),
    ],
)
def test_an_output_that_fails_half_way_leaves_the_old_file_intact(
    tmp_path: Path, command: list[str], example: str
) -> None:
    out = tmp_path / "out"
    good = referee(*command, str(EXAMPLES / "nika-won.rgn"), "-o", str(out))
    assert good.returncode == 0, good.stderr
    old = out.read_bytes()
    assert len(old) > 8192
    failed = _referee_on_a_full_disk(4096, *command, str(EXAMPLES / example), "-o", str(out))
    assert failed.returncode == 2
    assert failed.stderr.startswith("referee: cannot write") and "Traceback" not in failed.stderr
    assert out.read_bytes() == old, "the old file was damaged"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out"], "a temporary file was left"
    # With room on the disk the new picture replaces the old one.
    assert referee(*command, str(EXAMPLES / example), "-o", str(out)).returncode == 0
    assert out.read_bytes() != old


def test_an_output_to_a_device_is_refused_not_written_to(tmp_path: Path) -> None:
    """Issue 44 item 3: `-o /dev/null` was written into (a device could not be replaced);
    now a device, a FIFO or a folder at OUT is refused unopened (docs/files.md, "Outputs")."""
    done = referee("show", "--svg", str(EXAMPLES / "nika-won.rgn"), "-o", os.devnull)
    assert done.returncode == 2
    assert done.stderr == f"referee: cannot write {os.devnull}: it is a device, not a regular file: refused\n"
    assert Path(os.devnull).is_char_device()


def test_write_atomically_writes_bytes_too(tmp_path: Path) -> None:
    write_atomically(tmp_path / "a", b"\x00\xff")
    assert (tmp_path / "a").read_bytes() == b"\x00\xff"


def test_a_game_file_that_is_a_link_is_written_through_to_its_target(tmp_path: Path) -> None:
    (tmp_path / "store").mkdir()
    real = tmp_path / "store" / "real.rgn"
    real.write_text(NIKA)
    link = tmp_path / "game.rgn"
    link.symlink_to(Path("store") / "real.rgn")
    done = referee("play", str(link), "d1-W d2-W")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(Path("store") / "real.rgn")
    assert real.read_text().endswith("1. W: d1-W d2-W\n")
    # A second move through the link sees the first: the target really is the game.
    assert referee("play", str(link), "a4-S b4-S").returncode == 0
    assert real.read_text().endswith("1. W: d1-W d2-W\nR: a4-S b4-S\n")
    assert sorted(path.name for path in (tmp_path / "store").iterdir()) == ["real.rgn", "real.rgn.lock"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.rgn", "store"]


def test_an_output_that_is_a_link_is_replaced_not_written_through(tmp_path: Path) -> None:
    """Issue 44 item 3: an OUT that was a link used to be written through (a planted link
    overwrote its target); now the link itself is replaced by the page, its target left as
    it was. A game file named through a link is still written through (the test above)."""
    real = tmp_path / "page.html"
    real.write_text("old")
    link = tmp_path / "latest.html"
    link.symlink_to("page.html")
    assert referee("replay", "--html", str(EXAMPLES / "nika-won.rgn"), "-o", str(link)).returncode == 0
    assert not link.is_symlink() and link.read_text().startswith("<!DOCTYPE html>")
    assert real.read_text() == "old"


@pytest.mark.parametrize("dangling", [True, False])
def test_a_lock_file_that_is_a_link_is_refused_and_never_followed(tmp_path: Path, dangling: bool) -> None:
    path = tmp_path / "game.rgn"
    path.write_text(NIKA)
    elsewhere = tmp_path / "elsewhere"
    if not dangling:
        elsewhere.write_text("precious\n")
    lock_path(path).symlink_to(elsewhere)
    done = referee("play", str(path), "d1-W d2-W")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "symbolic link" in done.stderr and "Traceback" not in done.stderr
    assert path.read_text() == NIKA
    if dangling:
        assert not elsewhere.exists(), "the dangling link was followed"
    else:
        assert elsewhere.read_text() == "precious\n"
    assert lock_path(path).is_symlink()


def test_a_lock_file_replaced_while_waiting_is_locked_again(tmp_path: Path) -> None:
    """A waiter that got the flock of a file no longer at FILE.lock must not go on: another
    process may hold the lock of the file that is there now."""
    path = tmp_path / "game.rgn"
    path.write_text(NIKA)
    with open(lock_path(path), "w") as old:
        fcntl.flock(old, fcntl.LOCK_EX)
        waiter = spawn("play", str(path), "d1-W d2-W", "--wait", "30")
        assert _opens(waiter.pid, lock_path(path)), "the waiter never opened FILE.lock"
        time.sleep(0.2)  # it polls the flock of the file it opened
        lock_path(path).unlink()
        with open(lock_path(path), "w") as new:
            fcntl.flock(new, fcntl.LOCK_EX)
            old.close()
            time.sleep(1.0)
            assert waiter.poll() is None, "the waiter went on while another process held the lock"
            assert path.read_text() == NIKA
    out, err = waiter.communicate(timeout=60)
    assert waiter.returncode == 0, err
    assert path.read_text().endswith("1. W: d1-W d2-W\n")


def _opens(pid: int, path: Path, timeout: float = 30) -> bool:
    """Whether process `pid` comes to hold `path` open (read from /proc), within `timeout`."""
    wanted = path.stat()
    deadline = time.monotonic() + timeout
    folder = Path(f"/proc/{pid}/fd")
    while time.monotonic() < deadline:
        for fd in folder.glob("*") if folder.exists() else ():
            try:
                found = fd.stat()
            except OSError:
                continue
            if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
                return True
        time.sleep(0.02)
    return False


def test_deleting_the_lock_while_twenty_plays_race_loses_no_accepted_move(tmp_path: Path) -> None:
    """Twenty `referee play` processes on one four-player game, five different first turns
    for each side and no --expect, so that several submissions are legal in the same state,
    while a deleter removes FILE.lock in a loop: every submission reported written is in the
    file, and the file holds exactly as many turns as were reported written."""
    variants = [turns_of("nika", 4, 4, f"race-{n}") for n in range(5)]
    tags = variants[0][0]
    submissions = [turns[side].removeprefix("1. ") for _, turns in variants for side in range(4)]
    assert len(set(submissions)) == 20
    path = tmp_path / "game.rgn"
    path.write_text(tags)
    deleter = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, sys, time\n"
            "end = time.monotonic() + 90\n"
            "while time.monotonic() < end:\n"
            "    try: os.unlink(sys.argv[1])\n"
            "    except FileNotFoundError: pass\n"
            "    time.sleep(0.0005)\n",
            str(lock_path(path)),
        ]
    )
    try:
        processes = [spawn("play", str(path), text, "--json", "--wait", "60") for text in submissions]
        reports = race_reports(processes)
    finally:
        deleter.kill()
        deleter.wait()
    written = [text for text, (code, data) in zip(submissions, reports, strict=True) if code == 0 and data["written"]]
    assert written, "no submission was written"
    body = path.read_text().split("\n\n", 1)[1].splitlines()
    turns = [re.sub(r"^\d+\. ", "", line) for line in body]  # a W turn may come round again
    for text in written:
        assert text in turns, f"{text!r} was reported written but is not in the file"
    assert len(turns) == len(written), f"{len(written)} submissions reported written, {len(turns)} turns in the file"
    assert referee("check", str(path)).returncode == 0


def test_a_key_file_that_fails_half_way_is_not_left_half_written(tmp_path: Path) -> None:
    """`new --secret KEY` on a disk that fills while the key is written: no key file at
    all (a half-written one would be a wrong key), exit 2; then, with room, a whole key
    that is never overwritten."""
    key = tmp_path / "game.key"
    failed = _referee_on_a_full_disk(10, "new", "nieuchess", "--secret", str(key))
    assert failed.returncode == 2 and "cannot create the key file" in failed.stderr
    assert "Traceback" not in failed.stderr and "SeedHash" not in failed.stdout
    assert sorted(path.name for path in tmp_path.iterdir()) == []
    made = referee("new", "nieuchess", "--secret", str(key))
    assert made.returncode == 0, made.stderr
    assert len(key.read_text().strip()) == 32 and oct(key.stat().st_mode & 0o777) == "0o600"
    again = referee("new", "nieuchess", "--secret", str(key))
    assert again.returncode == 2 and "never overwritten" in again.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.key"]
