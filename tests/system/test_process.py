"""The command line as a real process meets a hostile environment: output that cannot be
written, closed streams, broken pipes, a checkout that is not installed, a record that
makes the referee itself fail. Never a traceback; one line and a documented exit status."""

from __future__ import annotations

import json
import os
import pty
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.process import REFEREE, run_referee_bytes

ROOT = Path(__file__).resolve().parents[2]
FINISHED = '[Game "numica"]\n[Seed "cli"]\n[Result "Red"]\n\nR: SSOOSOSO\nB: resign\n'
ONGOING = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n'
ILLEGAL = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n1. R: a1-h8\n'


def run(*args: str, **options: object) -> subprocess.CompletedProcess[bytes]:
    return run_referee_bytes(*args, timeout=60, **options)  # type: ignore[arg-type]


def assert_clean(done: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in done.stderr and b"Traceback" not in (done.stdout or b"")


@pytest.fixture
def record(tmp_path: Path) -> str:
    path = tmp_path / "game.rgn"
    path.write_text(FINISHED + ONGOING)
    return str(path)


COMMANDS = [
    ["check", "{f}"],
    ["check", "--json", "{f}"],
    ["replay", "{f}"],
    ["show", "{f}"],
    ["show", "--json", "{f}"],
    ["moves", "--record", "2", "{f}"],
    ["format", "{f}"],
    ["new", "numica"],
    ["games"],
    ["games", "--json"],
    ["--help"],
    ["-h"],
    ["check", "--help"],
    ["--version"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_a_failed_write_to_standard_output_is_one_line_and_exit_2(record: str, command: list[str]) -> None:
    args = [part.replace("{f}", record) for part in command]
    with open("/dev/full", "wb") as full:
        done = subprocess.run([*REFEREE, *args], stdout=full, stderr=subprocess.PIPE, check=False, timeout=60)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().splitlines() == ["referee: cannot write the output: No space left on device"]


def test_closed_standard_output_fails_rather_than_losing_verdicts(record: str) -> None:
    script = 'exec "$0" -m referee check "$1" >&-'
    done = subprocess.run(["sh", "-c", script, sys.executable, record], capture_output=True, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == ["referee: standard output is closed: the output would be lost"]


def test_closed_standard_input_is_an_unreadable_input(record: str) -> None:
    script = 'exec "$0" -m referee check - "$1" <&-'
    done = subprocess.run(["sh", "-c", script, sys.executable, record], capture_output=True, check=False)
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == ["referee: cannot read standard input: it is closed"]
    assert done.stdout.decode().count(": numica: ") == 2  # the next file is still checked


def test_a_broken_pipe_is_quiet(tmp_path: Path) -> None:
    big = tmp_path / "big.rgn"
    big.write_text((FINISHED + ONGOING) * 1500)
    process = subprocess.Popen([*REFEREE, "check", str(big)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # like `| head -1`
    errors = process.stderr.read()
    assert process.wait(timeout=60) == 2
    assert first.endswith(b"numica: finished: Red wins (resignation) after 2 turns\n")
    assert errors == b""


def test_usage_errors_are_one_line_naming_the_command() -> None:
    done = run("check", "--frobnicate", "x.rgn")
    assert done.returncode == 2
    assert done.stderr.decode().splitlines() == [
        "referee check: No such option '--frobnicate' (see referee check --help)"
    ]
    unknown = run("dance")
    assert unknown.returncode == 2 and len(unknown.stderr.decode().splitlines()) == 1


def test_bench_takes_game_names_in_any_case() -> None:
    done = run("bench", "NIKA", "--in-process", "--records", "1")
    assert_clean(done)
    assert done.returncode == 0
    assert done.stdout.decode().splitlines()[1].startswith("nika ")
    wrong = run("bench", "Chess")
    assert wrong.returncode == 2
    assert wrong.stderr.decode().splitlines() == [
        'referee: unknown game "Chess": choose from nika, numica, pikemen, nieuchess'
    ]


def _uninstalled_checkout(tmp_path: Path, with_pyproject: bool) -> tuple[Path, dict[str, str]]:
    """A copy of the sources with no installed distribution of `referee` in sight: the
    site-packages entries of its dependencies only, put on PYTHONPATH for `python -S`."""
    checkout = tmp_path / "checkout"
    for package in ("referee", "notation", "games"):
        shutil.copytree(ROOT / package, checkout / package, ignore=shutil.ignore_patterns("__pycache__"))
    if with_pyproject:
        shutil.copy(ROOT / "pyproject.toml", checkout / "pyproject.toml")
    libraries = tmp_path / "libraries"
    libraries.mkdir()
    for folder in site.getsitepackages():
        for entry in Path(folder).iterdir():
            if "referee" not in entry.name.lower() and not entry.name.endswith(".pth"):
                target = libraries / entry.name
                if not target.exists():
                    target.symlink_to(entry)
    env = {**os.environ, "PYTHONPATH": f"{libraries}{os.pathsep}{checkout}"}
    return checkout, env


@pytest.mark.parametrize("with_pyproject", [True, False])
def test_version_from_a_checkout_that_is_not_installed(tmp_path: Path, with_pyproject: bool) -> None:
    checkout, env = _uninstalled_checkout(tmp_path, with_pyproject)
    done = subprocess.run(
        [sys.executable, "-S", "-m", "referee", "--version"], cwd=checkout, env=env, capture_output=True, check=False
    )
    assert_clean(done)
    assert done.returncode == 0, done.stderr
    expected = "referee 0.1.0 (not installed)" if with_pyproject else "referee (not installed)"
    assert done.stdout.decode() == expected + "\n"


BOOM_ENGINE = """
from referee.games.numica import ENGINE as NUMICA


class Boom:
    info = NUMICA.info

    def dialect(self):
        return NUMICA.dialect()

    def new_state(self, tags):
        if "Boom" in tags:
            raise ZeroDivisionError("division by zero")
        return NUMICA.new_state(tags)


ENGINE = Boom()
"""

BOOM_DRIVER = """
from referee.games import registry

registry.GAMES["boom"] = registry.GAMES["numica"]._replace(name="boom", engine="boom_engine")

from referee.cli import main

main()
"""


def test_a_record_that_makes_the_referee_fail_gets_its_own_verdict_and_exit_3(tmp_path: Path) -> None:
    """A fault planted in a game engine: the record gets the verdict `error`, the next
    record is still judged, and the exit status is 3."""
    (tmp_path / "boom_engine.py").write_text(BOOM_ENGINE)
    (tmp_path / "driver.py").write_text(BOOM_DRIVER)
    crash = '[Game "boom"]\n[Seed "cli"]\n[Boom "yes"]\n\nR: SSOOSOSO\n'
    calm = '[Game "boom"]\n[Seed "cli"]\n\nR: SSOOSOSO\n'
    games = tmp_path / "games.rgn"
    games.write_text(crash + calm)
    illegal = tmp_path / "illegal.rgn"
    illegal.write_text(ILLEGAL)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}

    def referee(*args: str) -> subprocess.CompletedProcess[bytes]:
        done = subprocess.run(
            [sys.executable, str(tmp_path / "driver.py"), *args], env=env, capture_output=True, check=False
        )
        assert_clean(done)
        return done

    done = referee("check", str(games), str(illegal))
    assert done.returncode == 3
    lines = done.stdout.decode().splitlines()
    assert lines[0] == (
        f"{games}:1: boom: error: line 1, col 1: the referee failed on this record (ZeroDivisionError: division by "
        "zero); this is a bug of the referee: please report it with the record"
    )
    assert lines[1] == f"{games}:2: boom: ongoing: Blue to move"
    assert ": illegal: " in lines[2]
    verdict = json.loads(referee("check", "--json", str(games)).stdout.decode().splitlines()[0])
    assert (verdict["status"], verdict["error"]["line"], verdict["turns"]) == ("error", 1, None)
    assert "please report it" in verdict["error"]["message"]
    assert referee("check", str(games), str(tmp_path / "missing.rgn")).returncode == 2
    for command in ("show", "replay", "moves"):
        shown = referee(command, str(games))
        assert shown.returncode == 3 and ": boom: error: " in shown.stdout.decode()
    formatted = referee("format", str(games))
    assert formatted.returncode == 3
    assert formatted.stdout.decode().startswith(crash)  # passed through as read
    assert "error, passed through as read" in formatted.stderr.decode()


def test_unreadable_files_are_reported_where_they_occur(tmp_path: Path, record: str) -> None:
    done = subprocess.run(
        [*REFEREE, "check", record, str(tmp_path / "missing.rgn"), str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        check=False,
    )
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 2
    assert [line.split(": ")[1] if line.startswith("referee") else line.split(": ")[1] for line in lines] == [
        "numica",
        "numica",
        f"cannot read {tmp_path / 'missing.rgn'}",
        f"cannot read {tmp_path}",
    ]


def test_a_summary_goes_to_standard_error_when_it_is_a_terminal(record: str) -> None:
    controller, terminal = pty.openpty()
    done = subprocess.run([*REFEREE, "check", record], stdout=subprocess.PIPE, stderr=terminal, check=False)
    os.close(terminal)
    seen = b""
    while True:
        try:
            chunk = os.read(controller, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(controller)
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 2
    expected = "2 records: 1 finished, 1 ongoing, 0 illegal, 0 malformed; 0 claimed results do not match"
    assert seen.decode().splitlines() == [expected]
    piped = run("check", record)
    assert piped.stderr == b""


def test_format_passes_a_malformed_record_through_byte_for_byte(tmp_path: Path) -> None:
    latin = b'[Game "numica"]\n[Event "caf\xe9"]\n[Seed "cli"]\n\nR: SSOOSOSO\n'
    path = tmp_path / "latin.rgn"
    path.write_bytes(ONGOING.encode() + latin)
    done = run("format", str(path))
    assert_clean(done)
    assert done.returncode == 1
    assert done.stdout.endswith(b"\n" + latin)
    assert done.stderr.decode().splitlines() == [
        f"referee: {path}:2: malformed, passed through as read: line 7, col 12: these bytes are not UTF-8 text"
    ]
