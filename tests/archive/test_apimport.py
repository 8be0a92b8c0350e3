"""`referee import abstractplay`: AbstractPlay's Pikemen records as RGN, replayed, with a
report of where the engines disagree (docs/archives.md)."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path

from tests.archive.apgames import EVERY_FORM, TO_FIFTEEN, lines, record
from tests.helpers.cli import invoke


def imported(text: str | bytes, *options: str) -> tuple[int, str, list[str]]:
    code, out, err = invoke("import", "abstractplay", "-", *options, stdin=text)
    return code, out, err.splitlines()


def verdicts(rgn: str) -> list[dict[str, object]]:
    code, out, _ = invoke("check", "--json", "-", stdin=rgn)
    return [json.loads(line) for line in out.splitlines()]


def test_every_move_form_is_imported_in_canonical_form_and_agrees() -> None:
    code, out, report = imported(json.dumps(record(EVERY_FORM, event="Spring cup")))
    assert code == 0, report
    assert report == [
        "standard input:1: APGameId 5f1c2b9e-0d3a-4c57-9a1e-2b7d8e6f4a10: agrees: Red wins (score) after 51 turns"
    ]
    assert out.startswith(
        '[Game "pikemen"]\n[Players "2"]\n[Red "Ann"]\n[Blue "Bo"]\n[Event "Spring cup"]\n[Round "1"]\n'
        '[Site "Abstract Play"]\n[APGameId "5f1c2b9e-0d3a-4c57-9a1e-2b7d8e6f4a10"]\n[Date "2024.03.02"]\n'
        '[APStart "2024-03-02T18:04:11.120Z"]\n[APEnd "2024-03-09T07:55:40.002Z"]\n[APRedId "user-1"]\n'
        '[APBlueId "user-2"]\n[Result "Red"]\n\n1. R: f3(NW)\nB: b6(N)\n'
    )
    for form in ("d5-a2\n", "B: a4-b3(W)\n", "R: g2xc6(NE)\n", "B: e2xg2\n"):
        assert form in out
    assert invoke("format", "-", stdin=out).stdout == out  # canonical already
    [verdict] = verdicts(out)
    assert (verdict["status"], verdict["winners"], verdict["result_matches"]) == ("finished", ["Red"], True)


def test_moves_written_as_objects_with_results_and_in_any_case_are_read() -> None:
    value = record(EVERY_FORM)
    value["moves"][5][0] = {"move": "G2XC6(ne)", "result": [{"type": "deltaScore", "delta": 1}]}
    code, out, report = imported(json.dumps(value))
    assert code == 0, report
    assert "R: g2xc6(NE)\n" in out


def test_a_fifteen_point_game_is_the_target_tag() -> None:
    code, out, report = imported(json.dumps(record(TO_FIFTEEN, variants=["15pts"], scores=(16, 3))))
    assert code == 0, report
    assert '[Target "15"]' in out and "agrees: Red wins (score) after 59 turns" in report[0]
    # gameslib's getVariants() writes the variant's English name
    named = record(TO_FIFTEEN, variants=["Longer Game: 15 points"], scores=(16, 3))
    assert imported(json.dumps(named))[0] == 0


def test_the_default_variant_as_gameslib_names_it_is_twelve_points() -> None:
    # genRecord() of a 12-point game writes the default of the variants' group `eog`
    for name in ("Default end condition", "Default eog"):
        code, out, report = imported(json.dumps(record(EVERY_FORM, variants=[name])))
        assert code == 0, report
        assert "[Target" not in out and "agrees: Red wins (score) after 51 turns" in report[0]
    code, _, report = imported(json.dumps(record(EVERY_FORM, variants=["Default board"])))
    assert code == 1 and 'header.game.variants[0] is "Default board": Pikemen has only "15pts"' in report[0]


def test_resignation_and_draw() -> None:
    resigned = record(EVERY_FORM[:10] + ["resign"], results=(0, 1), scores=(0, 0))  # Red resigns
    drawn = record(EVERY_FORM[:9] + ["draw"], results=(1, 1), scores=(0, 0))
    code, out, report = imported(lines(resigned, drawn))
    assert code == 0, report
    assert "agrees: Blue wins (resignation) after 11 turns" in report[0]
    assert "agrees: draw (agreement) after 9 turns" in report[1]
    assert "R: resign\n" in out and "\ndraw\n" in out


def test_a_time_out_is_kept_and_said_to_be_unproven() -> None:
    code, out, report = imported(json.dumps(record(EVERY_FORM[:11] + ["timeout"], scores=(0, 0))))
    assert code == 1
    assert "disagrees" in report[0] and "Blue's time-out, which a record without a clock cannot show" in report[0]
    assert "{ AbstractPlay: Blue lost on time }" in out
    assert verdicts(out)[0]["status"] == "ongoing" and verdicts(out)[0]["to_move"] == "Blue"


def test_an_unreadable_record_among_good_ones_is_one_error_line_and_the_others_are_imported() -> None:
    good = record(EVERY_FORM)
    no_players = record(EVERY_FORM)
    del no_players["header"]["players"]
    chess = record(EVERY_FORM)
    chess["header"]["game"]["name"] = "Chess"
    text = lines(good, '{"header": {"game": ', good, no_players, chess, good)
    code, out, report = imported(text)
    assert code == 1
    assert len(verdicts(out)) == 3
    assert report[1] == "standard input:2: error: record 2: line 2, col 21: not JSON: Expecting value"
    assert report[3] == "standard input:4: error: record 4: header has no 'players'"
    assert (
        report[4]
        == 'standard input:5: error: record 5: header.game.name is "Chess": only Pikemen records can be imported'
    )
    assert [": agrees: " in line for line in report] == [True, False, True, False, False, True]


def test_an_illegal_move_that_abstractplay_accepted_is_reported() -> None:
    moves = list(EVERY_FORM)
    moves[6] = "f3-f5(SW)"  # f3 faces NW: it cannot charge north
    code, out, report = imported(json.dumps(record(moves)), "--json")
    assert code == 1
    [line] = report
    fields = json.loads(line)
    assert fields["status"] == "disagrees" and fields["verdict"]["status"] == "illegal"
    [found] = fields["disagreements"]
    assert found["kind"] == "illegal-move"
    assert found["message"].startswith('turn 4 Red "f3-f5(SW)": ') and found["message"].endswith(
        "(AbstractPlay accepted it)"
    )
    assert "R: f3-f5(SW)" in out  # kept in the record, which checks as illegal there


def test_a_wrong_recorded_winner_and_score_are_reported() -> None:
    code, _, report = imported(json.dumps(record(EVERY_FORM, results=(0, 1), scores=(13, 4))), "--json")
    assert code == 1
    kinds = [found["kind"] for found in json.loads(report[0])["disagreements"]]
    assert kinds == ["result", "score"]
    assert 'AbstractPlay recorded "Blue"; the replay gives Red wins (score)' in json.loads(report[0])["message"]


def test_a_game_that_goes_on_past_its_end_by_these_rules_is_reported() -> None:
    # the 15-point game without its variant: by these rules it ended at 12 points
    code, _, report = imported(json.dumps(record(TO_FIFTEEN, scores=(16, 3))))
    assert code == 1 and "disagrees" in report[0] and "illegal-move" not in report[0]
    assert "the game ended" in report[0]


def test_arrays_and_every_compression(tmp_path: Path) -> None:
    array = json.dumps(
        [record(EVERY_FORM), record(EVERY_FORM[:10] + ["resign"], results=(0, 1), scores=(0, 0))]
    ).encode()
    for suffix, pack in ((".json", bytes), (".json.gz", gzip.compress), (".bz2", bz2.compress), (".xz", lzma.compress)):
        path = tmp_path / f"games{suffix}"
        path.write_bytes(pack(array))
        code, out, err = invoke("import", "abstractplay", str(path))
        assert code == 0, err
        assert len(verdicts(out)) == 2


def test_output_file_and_unreadable_input(tmp_path: Path) -> None:
    source = tmp_path / "games.jsonl"
    source.write_text(lines(record(EVERY_FORM)))
    target = tmp_path / "games.rgn"
    code, out, err = invoke("import", "abstractplay", str(source), "-o", str(target))
    assert code == 0 and out == ""
    assert verdicts(target.read_text())[0]["status"] == "finished"
    code, _, err = invoke("import", "abstractplay", str(tmp_path / "missing.json"))
    assert code == 2 and err.startswith("referee: cannot read")


def test_no_text_from_the_record_can_start_a_record_or_end_a_comment() -> None:
    value = record(EVERY_FORM, names=('Ann"]\n[Game "nika"]', 'Bo\n\n[Game "nika"]'))
    value["moves"][3][1] = 'x }\n[Game "nika"]\n{'
    code, out, report = imported(json.dumps(value))
    assert code == 1 and "is no Pikemen action" in report[0]
    found = verdicts(out)
    assert len(found) == 1 and found[0]["game"] == "pikemen"
    assert "\n[Game" not in out
