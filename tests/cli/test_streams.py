"""Issue 19, items 5 and 6, as real processes: standard input read once, closed standard
input and arguments that are not UTF-8 (item 5); the words of verdicts and help (item 6)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee_bytes

WON = EXAMPLES / "nika-won.rgn"


def run(*args: str | bytes, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = run_referee_bytes(*args, input=stdin, timeout=60)
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
    script = 'exec "$0" -m referee mail receive "$1" <&-'
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


# -- item 6 -------------------------------------------------------------------------------

NUMICA_WON = (EXAMPLES / "numica-finished.rgn").read_text(encoding="utf-8")  # Blue wins with its last move


def test_one_winner_wins_in_the_board_text_the_replay_and_the_svg(tmp_path: Path) -> None:
    game = tmp_path / "won.rgn"
    game.write_text(NUMICA_WON, encoding="utf-8")
    for args in (("show", str(game)), ("replay", str(game)), ("show", "--svg", str(game)), ("check", str(game))):
        done = run(*args)
        assert done.returncode == 0
        assert "Blue wins (captures)" in done.stdout, args
        assert "Blue win " not in done.stdout, args


def test_several_winners_still_win() -> None:
    done = run("show", "--svg", str(WON))
    assert "Athens+Messene win (victory-area)" in done.stdout


def test_one_winner_wins_in_the_mail_answer(tmp_path: Path) -> None:
    from tests.helpers.mail import message, outbox_messages, run_mail

    text, last = NUMICA_WON.rstrip("\n").rsplit("\n", 1)
    assert last == "B: d2xa2"
    text = text.replace('[Red "Ana"]', '[Red "Ana <ana@example.org>"]').replace(
        '[Blue "Ben"]', '[Blue "Ben <ben@ex.org>"]'
    )
    (tmp_path / "n1.rgn").write_text(text.replace('[Result "Blue"]\n', "") + "\n", encoding="utf-8")
    sent = message("Ben <ben@ex.org>", "[n1] my move", "d2xa2\n")
    done = run_mail(sent.as_bytes(), "receive", str(tmp_path), "--outbox", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    answers = outbox_messages(tmp_path / "out")
    assert answers
    for answer in answers:
        body = answer.get_body(preferencelist=("plain",))
        assert body is not None
        words = body.get_content()
        assert "Blue wins (captures)" in words
        assert "Blue win " not in words
        for part in answer.iter_attachments():
            assert b"Blue win " not in part.get_content()


def test_a_mistyped_command_is_suggested_once() -> None:
    done = run("chek", "x")
    assert done.returncode == 2
    assert done.stderr.count("Did you mean 'check'?") == 1
    assert done.stderr == "referee: No such command 'chek'. Did you mean 'check'? (see referee --help)\n"


def test_help_offers_only_each_command_s_own_options() -> None:
    replay = run("replay", "-h").stdout
    assert "--svg" not in replay and "--html" in replay
    show = run("show", "-h").stdout
    assert "--html" not in show and "--svg" in show


def test_games_help_has_an_example_and_the_top_help_lists_exit_75() -> None:
    assert "Example: referee games" in run("games", "-h").stdout
    top = " ".join(run("--help").stdout.split())
    for status in (
        "0 all legal",
        "1 a record",
        "2 a usage error",
        "3 an error of the referee",
        "75 a game file is busy",
    ):
        assert status in top
