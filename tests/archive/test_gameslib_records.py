"""`referee import abstractplay` on records that AbstractPlay's own engine made: 200 random
Pikemen games played by gameslib's `PikemenGame` and written by its `genRecord()`
(tests/data/abstractplay/gameslib/README.md says how). What the two engines disagree on is
in docs/archives.md ("Records made by gameslib itself")."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

from referee.games import registry
from referee.games.api import Resign
from referee.games.pikemen.actions import parse_action
from tests.archive.apgames import validator
from tests.helpers.cli import invoke

DATA = Path(__file__).resolve().parents[1] / "data" / "abstractplay" / "gameslib"
RECORDS = DATA / "records.jsonl"
LEGAL = DATA / "legal.jsonl"
"""Per game, gameslib's `moves()` before each move: `COUNT:DIGEST`, DIGEST the first 8 hex
digits of the SHA-256 of the sorted moves joined by line breaks (its README)."""
NOW = "2026-12-02T12:00:00Z"
SIDES = ("Red", "Blue")


@cache
def records() -> tuple[dict[str, Any], ...]:
    return tuple(json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines())


def entries(value: dict[str, Any]) -> list[str]:
    """The record's moves in order, as gameslib wrote them (a capture is an object)."""
    return [entry if isinstance(entry, str) else entry["move"] for round_ in value["moves"] for entry in round_]


def split(text: str) -> list[str]:
    """The records of an RGN text, each ending with one newline."""
    return [part.rstrip("\n") + "\n" for part in re.split(r"\n(?=\[Game )", text) if part.strip()]


@cache
def imported() -> tuple[int, str, tuple[dict[str, Any], ...]]:
    ran = invoke("import", "abstractplay", str(RECORDS), "--json")
    code, out, err = ran.exit_code, ran.stdout, ran.stderr
    return code, out, tuple(json.loads(line) for line in err.splitlines())


def expected(index: int, value: dict[str, Any]) -> tuple[str, list[str]]:
    """What the report must say of a record, from what gameslib wrote: (status, kinds)."""
    moves = entries(value)
    last = moves[-1]
    if last in ("timeout", "abandoned"):
        return "disagrees", ["unproven-end"]  # a record without a clock cannot show it
    if last == "resign":
        seat = (len(moves) - 1) % 2  # whose entry it is: the side to move
        loser = [player["result"] for player in value["header"]["players"]].index(0)
        if loser != seat:  # resigned out of turn: gameslib writes it in the seat to move
            return "disagrees", ["result"]
    return "agrees", []


def test_the_records_are_gameslibs_and_valid_against_the_schema() -> None:
    values = records()
    assert len(values) == 200
    for value in values:
        validator().validate(value)
    assert Counter(tuple(value["header"]["game"]["variants"]) for value in values) == {
        ("Default end condition",): 145,
        ("Longer Game: 15 points",): 55,
    }
    assert sum(len(entries(value)) for value in values) == 18663
    assert Counter(move for value in values for move in entries(value) if move.isalpha()) == {
        "resign": 32,
        "timeout": 22,
        "draw": 21,
        "abandoned": 18,
    }


def test_every_record_is_imported_and_the_engines_disagree_only_where_documented() -> None:
    code, out, report = imported()
    values = records()
    assert code == 1  # (the disagreements below)
    assert len(report) == len(values) and len(split(out)) == len(values)  # nothing dropped
    assert [line["record"] for line in report] == list(range(1, len(values) + 1))
    for index, (line, value, text) in enumerate(zip(report, values, split(out), strict=True)):
        assert line["gameid"] == value["header"]["site"]["gameid"]
        # every move gameslib played is legal here (a time-out or abandonment leaves it ongoing)
        assert line["verdict"]["error"] is None and line["verdict"]["status"] in ("finished", "ongoing"), line
        assert (line["verdict"]["status"] == "ongoing") == (entries(value)[-1] in ("timeout", "abandoned"))
        assert f'[APGameId "{line["gameid"]}"]' in text
        status, kinds = expected(index, value)
        assert (line["status"], [item["kind"] for item in line["disagreements"]]) == (status, kinds), line
        if status == "agrees" and entries(value)[-1] not in ("resign", "draw"):
            # a game won on points: the same winner and final scores as gameslib's
            winner = SIDES[[player["result"] for player in value["header"]["players"]].index(1)]
            assert (line["verdict"]["winners"], line["verdict"]["reason"]) == ([winner], "score")
    statuses = Counter((line["status"], tuple(item["kind"] for item in line["disagreements"])) for line in report)
    assert statuses == {("agrees", ()): 146, ("disagrees", ("unproven-end",)): 40, ("disagrees", ("result",)): 14}
    # no move that gameslib played is illegal here, no score differs, every 15-point game is one
    assert sum('[Target "15"]' in text for text in split(out)) == 55


def test_the_report_lines_of_each_kind() -> None:
    err = invoke("import", "abstractplay", str(RECORDS)).stderr
    lines = err.splitlines()
    where = f"{RECORDS}:"
    assert lines[0] == f"{where}1: APGameId gameslib-b8c31156-51-1: agrees: Red wins (score) after 127 turns"
    assert lines[3] == (
        f"{where}4: APGameId gameslib-b8c31156-51-4: disagrees: Red to move, round 11; "
        "AbstractPlay recorded the game as abandoned"
    )
    assert lines[13] == (
        f"{where}14: APGameId gameslib-b8c31156-51-14: disagrees: Red to move, round 30; "
        'the claimed result "Blue" does not match; AbstractPlay ended the game by Red\'s time-out, '
        "which a record without a clock cannot show"
    )
    # Red resigned while Blue was to move: gameslib writes "resign" in Blue's seat
    assert lines[14] == (
        f"{where}15: APGameId gameslib-b8c31156-51-15: disagrees: Blue wins (resignation) after 49 turns; "
        'the claimed result "Red" does not match; AbstractPlay recorded "Red"; '
        "the replay gives Blue wins (resignation)"
    )


def test_export_of_the_import_validates_and_imports_to_the_same_records(tmp_path: Path) -> None:
    _, out, report = imported()
    rgn = tmp_path / "gameslib.rgn"
    rgn.write_text(out, encoding="utf-8")
    ran = invoke("export", "abstractplay", str(rgn), "--now", NOW)
    code, back, err = ran.exit_code, ran.stdout, ran.stderr
    assert code == 1  # (the games a time-out or abandonment left unfinished are refused)
    refused = [int(line.split(":")[1]) for line in err.splitlines() if "cannot export" in line]
    relabelled = [int(line.split(":")[1]) for line in err.splitlines() if "exported with the replay's result" in line]
    kinds = [[item["kind"] for item in line["disagreements"]] for line in report]
    assert refused == [number for number, kind in enumerate(kinds, 1) if kind == ["unproven-end"]]
    assert relabelled == [number for number, kind in enumerate(kinds, 1) if kind == ["result"]]
    exported = [json.loads(line) for line in back.splitlines()]
    assert len(exported) == 160
    for value in exported:
        validator().validate(value)
    ran = invoke("import", "abstractplay", "-", stdin=back)
    code, again, report_again = ran.exit_code, ran.stdout, ran.stderr
    assert code == 0, report_again
    kept = [text for number, text in enumerate(split(out), 1) if number not in refused]
    want = []
    for number, text in zip([n for n in range(1, 201) if n not in refused], kept, strict=True):
        if number in relabelled:  # the replay's result goes out, not AbstractPlay's claim
            winner = report[number - 1]["verdict"]["winners"][0]
            text = re.sub(r'\[Result "[^"]*"\]', f'[Result "{winner}"]', text)
        want.append(text)
    assert split(again) == want


def digest(moves: list[str]) -> str:
    ordered = sorted(moves)
    return f"{len(ordered)}:" + hashlib.sha256("\n".join(ordered).encode()).hexdigest()[:8]


def test_our_legal_moves_are_gameslibs_in_every_position() -> None:
    engine = registry.engine("pikemen")
    legal = [json.loads(line) for line in LEGAL.read_text(encoding="utf-8").splitlines()]
    positions = differing = 0
    for value, listed in zip(records(), legal, strict=True):
        assert listed["gameid"] == value["header"]["site"]["gameid"]
        tags = {"Game": "pikemen", "Players": "2"}
        if value["header"]["game"]["variants"] == ["Longer Game: 15 points"]:
            tags["Target"] = "15"
        state = engine.new_state(tags)
        moves = [move for move in entries(value) if not move.isalpha()]
        assert len(moves) == len(listed["legal"])
        for move, theirs in zip(moves, listed["legal"], strict=True):
            label = state.next_turn()
            assert label is not None and state.outcome() is None
            state.begin_turn(label[0], label[1], None)
            ours = digest([str(action) for action in state.legal_actions() if not isinstance(action, Resign)])
            positions += 1
            differing += ours != theirs
            state.apply(parse_action(move))
            state.end_turn()
    assert (positions, differing) == (18570, 0)


def test_the_digest_tells_one_move_apart() -> None:
    start = registry.engine("pikemen").new_state({"Game": "pikemen", "Players": "2"})
    moves = [str(action) for action in start.legal_actions() if not isinstance(action, Resign)]
    first = json.loads(LEGAL.read_text(encoding="utf-8").splitlines()[0])["legal"][0]
    assert digest(moves) == first == "120:e704ab4d"  # gameslib's first position: the setup
    assert digest(moves[1:]) != first and digest([*moves[1:], "h5(U)"]).split(":")[0] == "120"
    assert digest([*moves[1:], "h5(U)"]) != first
