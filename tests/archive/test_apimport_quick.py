"""The import's quick way (issue 51): a legal record whose moves are actions written as
their canonical text is played straight from its decoded JSON, and gives exactly what the
detailed way gives (the RGN text, the report line, the report's JSON); every other record
is imported the detailed way."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.archive import apimport
from referee.games.api import RESIGN
from referee.games.pikemen.actions import Charge, Reorient, canonical_action
from tests.archive.apgames import EVERY_FORM, record
from tests.helpers.cli import invoke

RECORDS = Path(__file__).resolve().parents[1] / "data" / "abstractplay" / "gameslib" / "records.jsonl"


def gameslib() -> list[dict[str, Any]]:
    return [json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines()]


def detailed(value: object, monkeypatch: pytest.MonkeyPatch) -> apimport.Imported:
    with monkeypatch.context() as patched:
        patched.setattr(apimport, "_quick", lambda *_: None)
        return apimport.import_value(value, "s", 1)


def same(value: object, monkeypatch: pytest.MonkeyPatch) -> None:
    quick, slow = apimport.import_value(value, "s", 1), detailed(value, monkeypatch)
    assert quick.rgn == slow.rgn
    assert quick.report.line() == slow.report.line()
    assert json.dumps(quick.report.fields()) == json.dumps(slow.report.fields())


def _entry(value: dict[str, Any], at: int) -> tuple[list[Any], int, str]:
    places = [(entries, seat) for entries in value["moves"] for seat in range(len(entries))]
    entries, seat = places[at % len(places)]
    entry = entries[seat]
    return entries, seat, entry["move"] if isinstance(entry, dict) else entry


def _set(text: str) -> Callable[[dict[str, Any], int], None]:
    def change(value: dict[str, Any], at: int) -> None:
        entries, seat, _ = _entry(value, at)
        entries[seat] = text

    return change


def _cut(value: dict[str, Any], at: int) -> None:
    entries, seat, _ = _entry(value, at)
    del entries[seat + 1 :]
    del value["moves"][value["moves"].index(entries) + 1 :]


def _upper(value: dict[str, Any], at: int) -> None:
    entries, seat, text = _entry(value, at)
    entries[seat] = text.upper()


def _spaced(value: dict[str, Any], at: int) -> None:
    entries, seat, text = _entry(value, at)
    entries[seat] = text.replace("(", " (") if "(" in text else text + " "


def _boxed(value: dict[str, Any], at: int) -> None:
    entries, seat, text = _entry(value, at)
    entries[seat] = {"move": text}


def _swapped(value: dict[str, Any], at: int) -> None:
    """Another move of the record in its place: mostly illegal there."""
    entries, seat, _ = _entry(value, at)
    entries[seat] = _entry(value, at * 7 + 3)[2]


def _round(size: int) -> Callable[[dict[str, Any], int], None]:
    def change(value: dict[str, Any], at: int) -> None:
        entries = _entry(value, at)[0]
        entries[:] = (entries * 2)[:size]

    return change


def _header(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any], int], None]:
    return lambda value, _: change(value["header"])


MUTATIONS: dict[str, Callable[[dict[str, Any], int], None]] = {
    "upper case": _upper,
    "white space": _spaced,
    "an object": _boxed,
    "another move": _swapped,
    "not a move": _set("zz-top"),
    "off the board": _set("z9-z7"),
    "null": lambda value, at: _entry(value, at)[0].__setitem__(_entry(value, at)[1], None),
    "a number": lambda value, at: _entry(value, at)[0].__setitem__(_entry(value, at)[1], 17),
    "Resign": _set("Resign"),
    "resign": lambda value, at: (_cut(value, at), _set("resign")(value, at)),
    "draw": lambda value, at: (_cut(value, at), _set("draw")(value, at)),
    "timeout": lambda value, at: (_cut(value, at), _set("timeout")(value, at)),
    "abandoned": lambda value, at: (_cut(value, at), _set("abandoned")(value, at)),
    "unfinished": _cut,
    "an empty round": _round(0),
    "a round of one": _round(1),
    "a round of three": _round(3),
    "a round as a string": lambda value, at: value["moves"].__setitem__(at % len(value["moves"]), "f3(NW)"),
    "moves as an object": lambda value, _: value.__setitem__("moves", {"0": value["moves"]}),
    "no moves": lambda value, _: value.__setitem__("moves", []),
    "the other winner": _header(
        lambda header: [player.update(result=1 - player["result"]) for player in header["players"]]
    ),
    "a score": _header(lambda header: header["players"][0].update(score=99)),
    "fifteen points": _header(lambda header: header["game"].update(variants=["15pts"])),
    "Blue first": _header(lambda header: header.setdefault("rgn-tags", {}).update(First="Blue")),
    "three players": _header(lambda header: header.setdefault("rgn-tags", {}).update(Players="3")),
    "a name to escape": _header(lambda header: header["players"][0].update(name='A "q" \\ b\x07c{d}')),
    "one player": _header(lambda header: header["players"].pop()),
    "a comment": _header(lambda header: header.update({"rgn-notes": [{"after": 1, "comment": " well "}]})),
}


def mutants(values: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    for number, value in enumerate(values):
        for name, change in MUTATIONS.items():
            changed = copy.deepcopy(value)
            change(changed, number * 13 + len(name))
            yield name, changed


def test_canonical_action_reads_a_move_written_as_its_canonical_text_only() -> None:
    assert canonical_action("d4(NE)") == Reorient("d4", "NE")
    assert canonical_action("d4-d7(U)") == Charge("d4", "d7", False, "U")
    assert canonical_action("d4xd7(SW)") == Charge("d4", "d7", True, "SW")
    assert canonical_action("d4-d7") == Charge("d4", "d7")
    assert canonical_action("resign") is RESIGN
    for other in ("D4(NE)", "d4(ne)", "d4X d7", "d4 (NE)", " d4(NE)", "draw", "Resign", "z", "", None, 17, ["d4(NE)"]):
        assert canonical_action(other) is None, other


def test_the_quick_way_takes_plain_records_boxed_captures_and_draws() -> None:
    plain = record(EVERY_FORM)
    assert apimport._quick(plain, "s", 1) is not None
    agreeing = [value for value in gameslib() if apimport.import_value(value, "s", 1).report.status == "agrees"]
    assert any(isinstance(entry, dict) for value in agreeing for entries in value["moves"] for entry in entries)
    assert any('"draw"' in json.dumps(value["moves"][-1]) for value in agreeing)
    assert all(apimport._quick(value, "s", 1) is not None for value in agreeing)


@pytest.mark.parametrize("name", ["upper case", "white space", "timeout", "abandoned", "a comment", "off the board"])
def test_the_detailed_way_takes_the_rest(name: str) -> None:
    value = copy.deepcopy(record(EVERY_FORM))
    MUTATIONS[name](value, 20)
    assert apimport._quick(value, "s", 1) is None


def test_the_quick_way_gives_what_the_detailed_way_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    values = gameslib()[:40] + [record(EVERY_FORM)]
    quick = 0
    for value in values:
        same(value, monkeypatch)
    for name, value in mutants(values):
        quick += apimport._quick(value, "s", 1) is not None
        try:
            same(value, monkeypatch)
        except AssertionError:
            pytest.fail(f"{name}: the two ways differ")
    assert quick > len(values) * 5  # (many mutants are still legal records)


def test_a_file_is_written_some_hundred_kilobytes_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.cli import archive

    pieces = [bytes([65 + index % 26]) * 1000 for index in range(600)]
    batches = list(archive._batched(iter(pieces)))
    assert b"".join(batches) == b"".join(pieces) and len(batches) == 3
    assert all(len(batch) >= archive.BATCH_BYTES for batch in batches[:-1])
    monkeypatch.setattr(archive, "BATCH_BYTES", 1)  # (a piece a time: the same file)
    lines = "\n".join(json.dumps(value) for value in gameslib()[:30])
    one, many = tmp_path / "one.rgn", tmp_path / "many.rgn"
    first = invoke("import", "abstractplay", "-", "-o", str(one), stdin=lines)
    monkeypatch.undo()
    again = invoke("import", "abstractplay", "-", "-o", str(many), stdin=lines)
    assert (first.exit_code, first.stderr) == (again.exit_code, again.stderr)
    assert one.read_bytes() == many.read_bytes() and one.read_bytes().count(b'[Game "pikemen"]') == 30


def test_the_tags_are_what_the_quick_reader_reads_from_their_text() -> None:
    from referee.archive.aprecord import read_record
    from referee.notation.reader import tag_section

    values = gameslib()[:20] + [value for name, value in mutants(gameslib()[:20]) if "name" in name or "Blue" in name]
    odd = record(EVERY_FORM, names=('A "q" \\ b\x07c{d}\u2028', "\\"), event='[Game "nika"]\n')
    for value in [*values, odd]:
        game = read_record(value, moves=False)
        text = apimport._tag_text(game)
        section = tag_section(text)
        assert section is not None and section[1] == len(text)
        assert apimport._read_tags(game) == {name: tag for name, tag, _ in section[0]}
