"""`referee replay --json`: one JSON object per action, events with their typed fields (docs/replay-json.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from referee.judge import session
from referee.judge.core.adjudicate import Replay
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.cli import invoke

RECORDS = sorted(EXAMPLES.glob("*.rgn")) + sorted(CONFORMANCE.glob("*/*.rgn"))
FIELDS = {
    "odds": {"attackers", "defenders", "odds"},
    "roll": {"die", "as_written"},
    "result": {"result", "exchange"},
    "retreat": {"side", "from", "to", "path"},
    "elimination": {"side", "hex"},
    "push": {"from", "to", "city"},
    "rout": {"square", "city", "pushed"},
}


def _lines(path: Path, *args: str) -> tuple[int, list[dict[str, Any]], str]:
    result = invoke("replay", "--json", *args, str(path))
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()], result.stderr


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_one_object_per_action_saying_what_the_text_replay_says(path: Path) -> None:
    played = session.replay(str(path), 1)
    assert isinstance(played, Replay)
    code, lines, stderr = _lines(path)
    assert code == (0 if played.verdict.legal else 1)
    assert len(lines) == len(played.steps)
    text = invoke("replay", str(path)).stdout
    # Every action's events, in order, are the lines the text replay prints under it.
    actions = text.split("\n\n")[0] if played.steps else ""
    written = [line[4:] for line in actions.splitlines() if line.startswith("    ")]
    assert [event["text"] for line in lines for event in line["events"]] == written
    for line, step in zip(lines, played.steps, strict=True):
        assert line["source"] == str(path) and line["record"] == 1 and line["offset"] == 0
        assert (line["round"], line["side"], line["number"]) == (step.round, step.turn.side, step.number)
        assert line["action"] == str(step.move.action) and line["written"] == step.move.text
        for event in line["events"]:
            assert FIELDS.get(event["kind"], set()) <= set(event), event
    if not played.verdict.legal:
        assert stderr.startswith(f"{path}:1: ")


def _events(path: Path, kind: str) -> list[dict[str, Any]]:
    return [event for line in _lines(path)[1] for event in line["events"] if event["kind"] == kind]


def test_nieuchess_battles_give_odds_roll_result_and_fates() -> None:
    path = EXAMPLES / "nieuchess-finished.rgn"
    rolls = _events(path, "roll")
    assert rolls and all(f"die {roll['die']}" == roll["text"] and roll["as_written"] is False for roll in rolls)
    assert {roll["die"] for roll in rolls} <= set(range(1, 7))
    odds = _events(path, "odds")[0]
    assert odds["text"] == f"{'+'.join(odds['attackers'])} against {'+'.join(odds['defenders'])}: odds {odds['odds']}"
    results = _events(path, "result")
    assert all(result["text"].startswith(result["result"] + ":") for result in results)
    retreat = _events(path, "retreat")[0]
    assert retreat["path"][0] == retreat["from"] and retreat["path"][-1] == retreat["to"] and len(retreat["path"]) == 3
    for gone in _events(path, "elimination"):
        assert gone["text"] == f"{gone['side']}'s pawn on {gone['hex']} is eliminated"


def test_nika_pushes_and_routs_name_squares_and_cities() -> None:
    path = CONFORMANCE / "nika" / "directed-01.rgn"
    pushes = _events(path, "push")
    assert pushes
    for push in pushes:
        assert push["text"] == f"{push['from']} pushed to {push['to']} ({push['city']})"
    for rout in _events(EXAMPLES / "nika-won.rgn", "rout"):
        assert rout["text"].startswith(rout["square"] + " ") and f"({rout['city']})" in rout["text"]


def test_captures_name_the_square_and_the_side_that_lost_the_piece() -> None:
    for capture in _events(EXAMPLES / "numica-finished.rgn", "capture"):
        assert capture["text"] == f"{capture['square']}: {capture['side']}'s {capture['shape']} piece captured"
    captures = _events(EXAMPLES / "pikemen-3p-finished.rgn", "capture")
    assert captures
    for capture in captures:
        assert capture["text"].startswith(f"{capture['from']} captures ")
        assert f"on {capture['square']}" in capture["text"] and capture["side"] in capture["text"]
        assert re.search(
            rf"{capture['by']} scores {capture['size']} \({capture['score']} of {capture['target']}\)$", capture["text"]
        )


def test_replay_json_of_a_later_record_gives_its_offset(tmp_path: Path) -> None:
    first = (EXAMPLES / "numica-ongoing.rgn").read_bytes()
    path = tmp_path / "two.rgn"
    path.write_bytes(first + b"\n" + (EXAMPLES / "numica-finished.rgn").read_bytes())
    code, lines, _ = _lines(path, "--record", "2")
    assert code == 0 and lines
    assert {(line["record"], line["offset"]) for line in lines} == {(2, len(first) + 1)}


@pytest.mark.parametrize(
    "path", [EXAMPLES / "nieuchess-finished.rgn", EXAMPLES / "pikemen-2p-finished.rgn"], ids=lambda p: p.name
)
def test_the_library_gives_the_lines_of_replay_json(path: Path) -> None:
    """docs/replay-json.md: `text_output.replay_json` of `session.replay(name, record)` is the
    command's output, line for line (the verdict line after them is standard error's)."""
    from referee.cli import text_output

    replayed = session.replay(str(path), 1)
    assert isinstance(replayed, Replay) and replayed.steps
    printed = invoke("replay", "--json", str(path)).stdout.splitlines()
    assert text_output.replay_json(replayed) == printed
