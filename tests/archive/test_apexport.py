"""`referee export abstractplay`: finished two-player Pikemen records as APGameRecord JSON
that validates against AbstractPlay's schema, and back again by `import abstractplay`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.archive.apgames import EVERY_FORM, TO_FIFTEEN, record, validator
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.cli import invoke

NOW = "2026-12-01T12:00:00Z"
PIKEMEN_2P = sorted((CONFORMANCE / "pikemen").glob("p2-legal-*.rgn"))


def split(text: str) -> list[str]:
    """The records of a text, each ending with one newline."""
    return [part.rstrip("\n") + "\n" for part in re.split(r"\n(?=\[Game )", text) if part.strip()]


def exported(*files: str) -> tuple[int, list[dict[str, object]], str]:
    code, out, err = invoke("export", "abstractplay", *files, "--now", NOW)
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.mark.parametrize("source", PIKEMEN_2P, ids=lambda path: path.name)
def test_conformance_records_go_out_and_come_back_the_same(source: Path) -> None:
    checked = [json.loads(line) for line in invoke("check", "--json", str(source)).stdout.splitlines()]
    formatted = split(invoke("format", str(source)).stdout)
    code, records, err = exported(str(source))
    refused = {int(line.split(":")[1]) for line in err.splitlines() if "cannot export" in line}
    expected = []
    for verdict, text in zip(checked, formatted, strict=True):
        if verdict["status"] != "finished":
            assert verdict["record"] in refused
            continue
        if verdict["record"] in refused:  # (only for what AbstractPlay cannot play: a Position, Blue first)
            assert re.search(r'\[(Position|First) "', text), text
            continue
        if verdict["result_matches"] is False:  # the replay's result goes out, not the claim
            text = re.sub(r'\[Result "[^"]*"\]', f'[Result "{"+".join(verdict["winners"])}"]', text)
        expected.append(text)
    assert expected and code == 1  # (each file holds a record that is not finished)
    for value in records:
        validator().validate(value)
    lines = "".join(json.dumps(value) + "\n" for value in records)
    code, back, report = invoke("import", "abstractplay", "-", stdin=lines)
    assert code == 0, report
    assert split(back) == expected
    # and once more: the import of an export of an import is the same text again
    again = invoke("export", "abstractplay", "-", "--now", NOW, stdin=back).stdout
    assert invoke("import", "abstractplay", "-", stdin=again).stdout == back


def test_an_abstractplay_record_goes_back_as_it_came() -> None:
    value = record(EVERY_FORM, event="Spring cup")
    rgn = invoke("import", "abstractplay", "-", stdin=json.dumps(value)).stdout
    code, out_text, err = invoke("export", "abstractplay", "-", "--now", NOW, stdin=rgn)
    assert code == 0, err
    [back] = [json.loads(line) for line in out_text.splitlines()]
    validator().validate(back)
    header = back["header"]
    assert header["site"] == value["header"]["site"]
    assert (header["date-start"], header["date-end"]) == (value["header"]["date-start"], value["header"]["date-end"])
    assert header["date-generated"] == NOW
    assert [(player["name"], player["userid"], player["score"], player["result"]) for player in header["players"]] == [
        ("Ann", "user-1", 13, 1),
        ("Bo", "user-2", 3, 0),
    ]
    assert [move for round_ in back["moves"] for move in round_] == EVERY_FORM
    assert invoke("import", "abstractplay", "-", stdin=out_text).stdout == rgn


def test_a_fifteen_point_game_is_the_variant(tmp_path: Path) -> None:
    source = tmp_path / "long.rgn"
    moves = "\n".join(f"{'RB'[index % 2]}: {move}" for index, move in enumerate(TO_FIFTEEN))
    source.write_text(f'[Game "pikemen"]\n[Target "15"]\n\n{moves}\n')
    code, [value], err = exported(str(source))
    assert code == 0, err
    validator().validate(value)
    assert value["header"]["game"]["variants"] == ["15pts"]
    assert [player["score"] for player in value["header"]["players"]] == [16, 3]
    assert value["moves"][-1] == ["g1xa7(S)"]  # (Red's 30th move ends the game: Blue has no entry)


def test_other_games_and_more_players_are_refused_one_line_each() -> None:
    files = [
        EXAMPLES / name
        for name in (
            "nika-won.rgn",
            "pikemen-3p-finished.rgn",
            "pikemen-4p-finished.rgn",
            "pikemen-2p-ongoing.rgn",
            "pikemen-2p-finished.rgn",
        )
    ]
    code, records, err = exported(*map(str, files))
    assert code == 1
    lines = err.splitlines()
    assert lines[0].endswith(
        "nika-won.rgn:1: nika: cannot export: AbstractPlay's records are exported for Pikemen only"
    )
    assert any("pikemen-3p-finished.rgn:1: pikemen: cannot export: a 3-player game" in line for line in lines)
    assert any("pikemen-4p-finished.rgn:1: pikemen: cannot export: a 4-player game" in line for line in lines)
    assert any("pikemen-2p-ongoing.rgn:1: pikemen: cannot export: the game is ongoing" in line for line in lines)
    assert len(records) >= 1  # the finished two-player example is still written
    for value in records:
        validator().validate(value)
