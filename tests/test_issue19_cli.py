"""Issue 19, items 5 and 6, as real processes: standard input read once, closed standard
input and arguments that are not UTF-8 (item 5); the words of verdicts and help (item 6)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES

REFEREE = [sys.executable, "-m", "referee"]
WON = EXAMPLES / "nika-won.rgn"


def run(*args: str | bytes, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*REFEREE, *args], input=stdin, capture_output=True, check=False, timeout=60)
    assert b"Traceback" not in done.stderr + done.stdout
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    )


# -- item 5 -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("show", "--svg", "--at", "1", "-"),
        ("show", "--svg", "-"),
        ("replay", "--html", "-"),
        ("show", "--at", "1", "-"),
    ],
)
def test_standard_input_is_read_once(args: tuple[str, ...]) -> None:
    done = run(*args, stdin=WON.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.startswith(("<?xml", "<!DOCTYPE html>", "after round 1:"))


def test_the_board_after_round_1_from_standard_input_is_the_one_from_the_file() -> None:
    piped = run("show", "--svg", "--at", "1", "-", stdin=WON.read_bytes())
    named = run("show", "--svg", "--at", "1", str(WON))
    assert piped.stdout == named.stdout and piped.returncode == named.returncode == 0


def test_mail_with_standard_input_closed_is_a_usage_error(tmp_path: Path) -> None:
    script = 'exec "$0" -m referee mail --games "$1" <&-'
    done = subprocess.run(
        ["sh", "-c", script, sys.executable, str(tmp_path)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "referee: mail: cannot read standard input: it is closed"


@pytest.mark.parametrize(
    ("args", "position"),
    [
        (("play", "{game}", b"d1-W \xff"), 3),
        (("new", "nika", "--tag", b"Event=\xff"), 4),
        (("play", "{game}", "--as", b"\xff"), 4),
        (("check", b"\xffmissing.rgn"), 2),
    ],
)
def test_arguments_that_are_not_utf8_are_a_usage_error(
    tmp_path: Path, args: tuple[str | bytes, ...], position: int
) -> None:
    game = tmp_path / "game.rgn"
    game.write_text('[Game "nika"]\n', encoding="utf-8")
    done = run(*(str(game) if arg == "{game}" else arg for arg in args))
    assert done.returncode == 2
    assert done.stderr.startswith(f"referee: argument {position} is not UTF-8 text: ")
    assert "\\xff" in done.stderr and len(done.stderr.splitlines()) == 1
    assert game.read_text(encoding="utf-8") == '[Game "nika"]\n'


def test_a_file_name_that_is_not_utf8_is_still_read(tmp_path: Path) -> None:
    name = os.fsencode(tmp_path) + b"/\xff.rgn"
    Path(os.fsdecode(name)).write_bytes(WON.read_bytes())
    done = run("check", name)
    assert done.returncode == 0
    assert "finished" in done.stdout
