"""Every input read within a bound (PLAY.md §8), as whole processes meet it: an endless
device, a FIFO whose writer never writes, a line of hundreds of megabytes, a passphrase
that never ends, a worker count in the tens of thousands. Each command must end (killed
here past 20 s, so a regression fails instead of hanging CI) with one line and exit 1 or
2, its peak resident memory under 150 MB. Time is not asserted (the machine may be
loaded); the kill is the bound."""

from __future__ import annotations

import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.bounded import MB, Watched, referee_command, watch

ONGOING = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n'
MOST_MEMORY = 150 * MB


def run(*args: str, stdin: object = subprocess.DEVNULL, **options: object) -> Watched:
    return watch(referee_command(*args), stdin=stdin, timeout=20, rss_cap=400 * MB, **options)  # type: ignore[arg-type]


def assert_refused_in_one_line(done: Watched, codes: tuple[int, ...] = (2,)) -> str:
    """Ended by itself, small, one line on standard error, a documented exit status."""
    assert done.killed is None, f"not bounded: {done.describe()}"
    assert done.peak_rss < MOST_MEMORY, done.describe()
    assert done.returncode in codes, (done.describe(), done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "game.rgn"
    path.write_text(ONGOING)
    return path


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO with a writer that holds it open and never writes."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    opened: list[int] = []
    writer = threading.Thread(target=lambda: opened.append(os.open(path, os.O_WRONLY)), daemon=True)
    writer.start()
    yield path
    if not opened:  # unblock the writer's open, if nothing ever read
        try:
            os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
    writer.join(5)
    for descriptor in opened:
        os.close(descriptor)


def zero() -> object:
    return open("/dev/zero", "rb")  # noqa: SIM115 - closed with the process


STDIN_COMMANDS = [["check", "-"], ["show", "-"], ["replay", "-"], ["moves", "-"], ["format", "-"], ["stats", "-"]]


@pytest.mark.parametrize("command", STDIN_COMMANDS, ids=" ".join)
def test_an_endless_device_on_standard_input_stops_at_the_limit(command: list[str]) -> None:
    with zero() as stdin:  # type: ignore[attr-defined]
        line = assert_refused_in_one_line(run(*command, stdin=stdin))
    assert "64 MB (--max-record-bytes)" in line and "standard input" in line


@pytest.mark.parametrize(
    "command",
    [
        ["check", "{path}"],
        ["check", "--email", "{path}"],
        ["check", "--jobs", "2", "{path}"],
        ["show", "{path}"],
        ["format", "{path}"],
        ["stats", "{path}"],
        ["play", "{path}", "x"],
        ["play", "{game}", "--seed-file", "{path}"],
        ["reveal", "{game}", "--seed-file", "{path}"],
    ],
    ids=" ".join,
)
@pytest.mark.parametrize("source", ["device", "fifo"])
def test_a_named_source_that_is_not_a_regular_file_is_refused_unread(
    command: list[str], source: str, game: Path, request: pytest.FixtureRequest
) -> None:
    path = "/dev/zero" if source == "device" else str(request.getfixturevalue("fifo"))
    args = [part.replace("{path}", path).replace("{game}", str(game)) for part in command]
    line = assert_refused_in_one_line(run(*args))
    assert "not a regular file" in line and path in line
    assert game.read_text() == ONGOING


def test_moves_on_standard_input_are_read_within_the_limit(game: Path) -> None:
    with zero() as stdin:  # type: ignore[attr-defined]
        line = assert_refused_in_one_line(run("play", str(game), "-", stdin=stdin))
    assert "MOVES on standard input is larger than 64 MB" in line
    assert game.read_text() == ONGOING


def test_a_message_on_standard_input_is_read_within_the_limit() -> None:
    with zero() as stdin:  # type: ignore[attr-defined]
        line = assert_refused_in_one_line(run("check", "--email", "-", stdin=stdin))
    assert "standard input is larger than 64 MB" in line


def test_a_passphrase_is_read_within_a_kilobyte(tmp_path: Path) -> None:
    with zero() as stdin:  # type: ignore[attr-defined]
        line = assert_refused_in_one_line(run("mail", "add-player", str(tmp_path), "a@b.org", stdin=stdin))
    assert "passphrase on standard input is larger than 1024 bytes" in line
    assert not (tmp_path / "players.toml").exists()


def test_a_league_passphrase_is_read_within_a_kilobyte(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    init = run("league", "init", str(folder), "--game", "numica", "--players", "2")
    assert init.returncode == 0, init.stderr
    with zero() as stdin:  # type: ignore[attr-defined]
        line = assert_refused_in_one_line(
            run("league", "add", str(folder), "a@b.org", "--name", "Ann", "--key", stdin=stdin)
        )
    assert "passphrase on standard input is larger than 1024 bytes" in line
    assert "a@b.org" not in (folder / "league.toml").read_text()


def test_the_gateway_stops_draining_an_endless_message(tmp_path: Path) -> None:
    """A message is read to 1 MB and the rest thrown away, but not forever (PLAY.md §5.1:
    exit 0, a stranger's message costs no more than reading it, within a bound)."""
    with zero() as stdin:  # type: ignore[attr-defined]
        done = run("mail", "receive", str(tmp_path), stdin=stdin)
    assert_refused_in_one_line(done, codes=(0,))


def _records_with_a_long_line(path: Path, length: int) -> None:
    long_comment = "{" + "x" * length + "}"
    path.write_text(ONGOING + "\n" + ONGOING + long_comment + "\n\n" + ONGOING)


def test_a_record_over_the_limit_is_refused_and_the_others_keep_their_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "three.rgn"
    _records_with_a_long_line(path, 5000)
    done = run("check", "--max-record-bytes", "1000", str(path))
    assert done.returncode == 1, done.stderr
    first, second, third = done.stdout.strip().splitlines()
    assert ":1: numica: ongoing" in first and ":3: numica: ongoing" in third
    assert ":2: numica: malformed" in second
    assert "larger than 1000 bytes (--max-record-bytes): refused, not read" in second


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_limit_holds_in_a_pipe_and_with_workers(tmp_path: Path, jobs: str) -> None:
    path = tmp_path / "three.rgn"
    _records_with_a_long_line(path, 5000)
    with path.open("rb") as stdin:
        piped = run("check", "--jobs", jobs, "--max-record-bytes", "1000", "-", stdin=stdin)
    assert piped.returncode == 1 and piped.stdout.count("ongoing") == 2 and piped.stdout.count("refused") == 1


def _one_long_line(path: Path, megabytes: int) -> None:
    with path.open("wb") as out:
        out.write(ONGOING.encode() + b"1. ")
        block = b"a" * MB
        for _ in range(megabytes):
            out.write(block)
        out.write(b"\n\n" + ONGOING.encode())


@pytest.mark.parametrize("command", [["check"], ["show"], ["format"], ["replay"]], ids=" ".join)
def test_a_long_line_is_never_held_whole(tmp_path: Path, command: list[str]) -> None:
    """A 20 MB line under a 1 MB limit: memory stays near the limit, not the line."""
    path = tmp_path / "line.rgn"
    _one_long_line(path, 20)
    done = run(*command, "--max-record-bytes", "1000000", str(path))
    assert done.killed is None and done.peak_rss < 60 * MB, done.describe()
    said = done.stdout + done.stderr
    assert "larger than 1 MB (--max-record-bytes): refused, not read" in said
    assert done.returncode == 1 and "Traceback" not in said


@pytest.mark.slow
@pytest.mark.parametrize("command", [["check"], ["show"], ["format"], ["stats"]], ids=" ".join)
def test_a_200_mb_line_ends_in_one_line(tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "line.rgn"
    _one_long_line(path, 200)
    done = run(*command, str(path))
    assert done.killed is None and done.peak_rss < MOST_MEMORY, done.describe()
    said = done.stdout + done.stderr
    assert done.returncode == 1 and ("larger than 64 MB" in said or "(1 ongoing, 1 malformed)" in said)


def test_jobs_never_start_more_workers_than_cores_or_work(game: Path) -> None:
    done = run("check", "--jobs", "99999", str(game))
    assert done.killed is None and done.returncode == 0, done.describe()
    cores = len(os.sched_getaffinity(0))
    assert done.most_processes <= 1 + cores, done.describe()


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "-inf"])
@pytest.mark.parametrize("command", [["play", "{game}", "x"], ["mail", "receive", "{dir}"]], ids=" ".join)
def test_a_wait_that_is_no_number_of_seconds_is_a_usage_error(value: str, command: list[str], game: Path) -> None:
    args = [part.replace("{game}", str(game)).replace("{dir}", str(game.parent)) for part in command]
    done = run(*args, "--wait", value)
    assert done.returncode == 2 and "--wait" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and game.read_text() == ONGOING
