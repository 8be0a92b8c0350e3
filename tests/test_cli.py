"""The command line contract of NOTATION.md §8: outputs, exit codes, stdin, JSON fields."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app

runner = CliRunner()

FINISHED = '[Game "numica"]\n[Seed "cli"]\n[Result "Red"]\n\nR: SSOOSOSO\nB: resign\n'
ONGOING = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n'
ILLEGAL = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n1. R: a1-h8\n'
MALFORMED = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nQ: OSOSOSOS\n'
WRONG_CLAIM = '[Game "numica"]\n[Seed "cli"]\n[Result "Blue"]\n\nR: SSOOSOSO\nB: resign\n'


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in dict(
        finished=FINISHED, ongoing=ONGOING, illegal=ILLEGAL, malformed=MALFORMED, claim=WRONG_CLAIM
    ).items():
        path = tmp_path / f"{name}.rgn"
        path.write_text(text)
        paths[name] = str(path)
    return paths


def test_check_prints_one_verdict_per_record_and_exits_0_when_all_legal(files: dict[str, str]) -> None:
    result = runner.invoke(app, ["check", files["finished"], files["ongoing"]])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("finished.rgn:1: numica: finished: Red wins (resignation) after 2 turns")
    assert lines[1].endswith("ongoing.rgn:1: numica: ongoing: Red to move, round 1")


@pytest.mark.parametrize("name", ["illegal", "malformed", "claim"])
def test_check_exits_1_for_illegal_malformed_or_a_wrong_claim(files: dict[str, str], name: str) -> None:
    assert runner.invoke(app, ["check", files["finished"], files[name]]).exit_code == 1


def test_illegal_verdict_names_turn_action_and_rule(files: dict[str, str]) -> None:
    output = runner.invoke(app, ["check", files["illegal"]]).output
    assert ': numica: illegal: line 6, col 7: turn 1 Red, action 1 "a1-h8": a1 is on a' in output


def test_json_verdict_fields(files: dict[str, str]) -> None:
    result = runner.invoke(app, ["check", "--json", files["illegal"], files["malformed"], files["ongoing"]])
    illegal, malformed, ongoing = (json.loads(line) for line in result.output.splitlines())
    for verdict in (illegal, malformed, ongoing):
        assert {
            "source",
            "record",
            "game",
            "status",
            "winners",
            "draw",
            "reason",
            "turns",
            "to_move",
            "claimed",
            "result_matches",
            "error",
        } <= set(verdict)
    assert illegal["error"] | {"message": None} == {
        "line": 6,
        "column": 7,
        "round": 1,
        "side": "Red",
        "action": "a1-h8",
        "message": None,
    }
    assert (illegal["turns"], illegal["to_move"], illegal["result_matches"]) == (None, None, None)
    assert malformed["status"] == "malformed"
    assert (malformed["error"]["line"], malformed["error"]["column"], malformed["error"]["round"]) == (5, 1, None)
    assert (ongoing["to_move"], ongoing["turns"], ongoing["error"]) == ("Red", 2, None)


def test_quiet_lists_only_records_that_are_not_legal_then_a_summary(files: dict[str, str]) -> None:
    result = runner.invoke(app, ["check", "--quiet", files["finished"], files["illegal"]])
    lines = result.output.splitlines()
    assert len(lines) == 2 and ": illegal:" in lines[0]
    assert lines[1].startswith("2 records: 1 finished, 0 ongoing, 1 illegal, 0 malformed")


def test_stdin_is_read_for_dash() -> None:
    result = runner.invoke(app, ["check", "-"], input="Hello GM,\n" + ONGOING + ILLEGAL)
    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.output.splitlines()] == ["-:1", "-:2"]


def test_no_record_and_unreadable_files(tmp_path: Path, files: dict[str, str]) -> None:
    empty = tmp_path / "empty.rgn"
    empty.write_text("no game here\n")
    result = runner.invoke(app, ["check", str(empty)])
    assert result.exit_code == 1 and "no record found" in result.output
    result = runner.invoke(app, ["check", str(tmp_path / "missing.rgn"), files["finished"]])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_usage_errors_exit_2() -> None:
    assert runner.invoke(app, ["check", "--frobnicate", "x"]).exit_code == 2
    assert runner.invoke(app, ["dance"]).exit_code == 2
    result = runner.invoke(app, ["new", "chess"])
    assert result.exit_code == 2 and 'unknown game "chess"' in result.output


def test_format_writes_canonical_form_that_reads_back(tmp_path: Path) -> None:
    messy = (
        'Seed "cli", Game "numica"\n[Event "x"]\n'
        '[Game "numica"] [Result "*"] [Seed "cli"]  [Red "Ann"]\n r:  ssoosoSO {hi}\nblue: osososos  !  R: a1-a3\n'
    )
    source = tmp_path / "messy.rgn"
    source.write_text(messy)
    result = runner.invoke(app, ["format", str(source)])
    assert result.output == (
        '[Game "numica"]\n[Red "Ann"]\n[Seed "cli"]\n[Result "*"]\n\nR: SSOOSOSO {hi}\nB: OSOSOSOS!\n1. R: a1-a3\n'
    )
    again = tmp_path / "again.rgn"
    again.write_text(result.output)
    assert runner.invoke(app, ["format", str(again)]).output == result.output


def test_new_writes_tags_with_a_fresh_seed_and_checks_as_ongoing(tmp_path: Path) -> None:
    result = runner.invoke(app, ["new", "numica", "--tag", "Event=Club night"])
    assert result.exit_code == 0
    assert result.output.startswith('[Game "numica"]\n[Seed "') and '[Event "Club night"]' in result.output
    path = tmp_path / "new.rgn"
    path.write_text(result.output)
    assert runner.invoke(app, ["check", str(path)]).output.endswith("ongoing: Red to move\n")
    assert runner.invoke(app, ["new", "numica", "--seed", "s"]).output == '[Game "numica"]\n[Seed "s"]\n'


def test_games_lists_every_game() -> None:
    result = runner.invoke(app, ["games", "--json"])
    names = [json.loads(line)["name"] for line in result.output.splitlines()]
    assert sorted(names) == ["nieuchess", "nika", "numica", "pikemen"]


def test_show_moves_and_replay(files: dict[str, str]) -> None:
    shown = runner.invoke(app, ["show", "--json", files["ongoing"]])
    assert json.loads(shown.output)["position"].endswith("to:R")
    listed = runner.invoke(app, ["moves", "--json", files["ongoing"]])
    actions = json.loads(listed.output)["actions"]
    assert actions and all("-" in action or "x" in action for action in actions)
    replayed = runner.invoke(app, ["replay", files["finished"]])
    assert "Blue resigns" in replayed.output and replayed.exit_code == 0
    assert runner.invoke(app, ["replay", "--record", "3", files["finished"]]).exit_code == 2


def test_version_and_module_entry_point() -> None:
    assert runner.invoke(app, ["--version"]).output.startswith("referee ")
    done = subprocess.run(
        [sys.executable, "-m", "referee", "check", "-"], input=ONGOING, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and "ongoing" in done.stdout


def test_garbage_never_gives_a_traceback() -> None:
    garbage = (
        b'\x00\xff[Game "numica"]\n[Seed "\\q"]\n{\n[Game "nika"]\x80\n[Game "numica"]\n[Position "tiles:"]\nR: a1'
    )
    done = subprocess.run(
        [sys.executable, "-m", "referee", "check", "-"], input=garbage, capture_output=True, check=False
    )
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr + done.stdout


def test_show_at_a_round_shows_the_board_after_it(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    path.write_text(ONGOING + "1. R: a1-a6\n")  # a1 holds a 5 tile with this seed
    early = runner.invoke(app, ["show", "--json", "--at", "0", str(path)])
    late = runner.invoke(app, ["show", "--json", str(path)])
    assert json.loads(early.output)["position"] != json.loads(late.output)["position"]
    assert json.loads(early.output)["to_move"] == "Red"
