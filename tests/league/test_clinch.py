"""Placing ranges in a real league folder (standings --json and text, the site, the digest)
and the clinch notices of `tick` (LEAGUE.md §7): told once, logged, never repeated, never
false. A round robin of three players of Numica: r1 Bo-Cy, r2 Ann-Bo, r3 Cy-Ann (Berger,
a bye each round worth nothing)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers.cli import invoke
from tests.helpers.league import address, addressed, make_league, tick_json

START = "2026-12-01T12:00:00Z"


def _standings(folder: Path) -> dict[str, dict[str, Any]]:
    code, out, err = invoke("league", "standings", str(folder), "--json")
    assert code == 0, err
    return {row["player"]: row for row in json.loads(out)["rows"]}


def _ranges(folder: Path) -> dict[str, tuple[int, int, bool]]:
    return {name: (row["best"], row["worst"], row["exact"]) for name, row in _standings(folder).items()}


def _win_first_seat(path: Path, now: str) -> None:
    """Seat 1 moves, then seat 2 resigns."""
    code, out, err = invoke("moves", str(path))
    assert code == 0, err
    code, out, err = invoke("play", str(path), out.splitlines()[1].strip(), "--now", now)
    assert code == 0, out + err
    code, out, err = invoke("play", str(path), "resign", "--now", now)
    assert code == 0, out + err


def _lose_first_seat(path: Path, now: str) -> None:
    code, out, err = invoke("play", str(path), "resign", "--now", now)
    assert code == 0, out + err


def _mails(folder: Path) -> list[tuple[str, str, str]]:
    return addressed(folder, empty=True)


def _clinches(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "league.log").read_text(encoding="utf-8").splitlines()
    return [entry for entry in map(json.loads, lines) if entry["event"] == "clinch"]


def test_ranges_narrow_and_a_clinch_is_told_once_and_never_falsely(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    extra = 'digest = "daily"\npromote = 2\nrelegate = 1\n'
    make_league(folder, "--game", "numica", "--players", "2", names="Ann Bo Cy", extra=extra, pair_at=START)
    _mails(folder)
    assert _ranges(folder) == {"Ann": (1, 3, True), "Bo": (1, 3, True), "Cy": (1, 3, True)}
    _win_first_seat(folder / "r1-t1.rgn", "2026-12-01T13:00:00Z")  # Bo beats Cy
    # Bo 1: Ann can still pass him (two wins); Cy 0 can still share first (Cy beats Ann, Ann beats Bo)
    assert _ranges(folder) == {"Bo": (1, 3, True), "Ann": (1, 3, True), "Cy": (1, 3, True)}
    ticked = tick_json(folder, "2026-12-01T14:00:00Z")
    assert ticked["clinches"] == [] and _clinches(folder) == []  # nothing certain yet: no notice
    code, _, err = invoke("league", "pair", str(folder), "--now", "2026-12-01T15:00:00Z")
    assert code == 0, err
    _lose_first_seat(folder / "r2-t1.rgn", "2026-12-01T16:00:00Z")  # Ann resigns to Bo
    # Bo 2 and out of games; Ann and Cy 0 with r3 (not yet paired) between them: at most 1
    assert _ranges(folder) == {"Bo": (1, 1, True), "Ann": (2, 3, True), "Cy": (2, 3, True)}
    code, out, _ = invoke("league", "standings", str(folder))
    assert out.splitlines()[1].endswith("range") and out.splitlines()[2].startswith("1  Bo")
    assert out.splitlines()[2].endswith("  1") and out.splitlines()[3].endswith("2-3")
    _mails(folder)
    ticked = tick_json(folder, "2026-12-02T00:10:00Z")
    told = [(entry["player"], entry["what"]) for entry in ticked["clinches"]]
    assert told == [(address("Bo"), "first"), (address("Bo"), "promotion")]  # no relegation: r3 decides
    assert [(entry["player"], entry["what"]) for entry in _clinches(folder)] == told
    mails = _mails(folder)
    clinched = [(to, subject) for to, subject, _ in mails if "clinched" in subject]
    assert sorted(clinched) == sorted(
        (address(name), f"T: Bo has clinched {what}")
        for name in ("Ann", "Bo", "Cy")
        for what in ("first place", "promotion")
    )
    digests = {to: body for to, subject, body in mails if "daily digest" in subject}
    assert "Your final place on points is settled: 1." in digests[address("Bo")]
    assert "Your final place on points can still be 2 to 3." in digests[address("Ann")]
    # a second tick, a later one: told once
    assert tick_json(folder, "2026-12-02T00:10:00Z")["clinches"] == []
    assert tick_json(folder, "2026-12-03T00:10:00Z")["clinches"] == [] and len(_clinches(folder)) == 2
    code, _, err = invoke("league", "pair", str(folder), "--now", "2026-12-03T01:00:00Z")
    assert code == 0, err
    _win_first_seat(folder / "r3-t1.rgn", "2026-12-03T02:00:00Z")  # Cy beats Ann: the season is complete
    assert _ranges(folder) == {"Bo": (1, 1, True), "Cy": (2, 2, True), "Ann": (3, 3, True)}
    ticked = tick_json(folder, "2026-12-03T03:00:00Z")
    assert ticked["clinches"] == [] and ticked["season_over"] is not None  # the season-over mail tells the end


def test_the_site_shows_the_ranges(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    make_league(folder, "--game", "numica", "--players", "2", names="Ann Bo Cy", pair_at=START)
    _win_first_seat(folder / "r1-t1.rgn", "2026-12-01T13:00:00Z")
    code, _, err = invoke("league", "site", str(folder), "-o", str(tmp_path / "site"))
    assert code == 0, err
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert ">range</th>" in page and '<td class="n">1-3</td>' in page


def test_swiss_rounds_not_yet_paired_give_safe_bounds(tmp_path: Path) -> None:
    folder = tmp_path / "sw"
    options = ("--game", "numica", "--players", "2", "--pairing", "swiss", "--rounds", "3")
    make_league(folder, *options, names="Ann Bo Cy Di", pair_at=START)
    _lose_first_seat(folder / "r1-t1.rgn", "2026-12-01T13:00:00Z")
    _lose_first_seat(folder / "r1-t2.rgn", "2026-12-01T13:00:00Z")
    found = _ranges(folder)
    assert all(not exact for _, _, exact in found.values())
    assert all(best == 1 and worst == 4 for best, worst, _ in found.values())  # two rounds left: anything
    code, out, _ = invoke("league", "standings", str(folder))
    assert out.splitlines()[2].endswith("~1-4")


def test_a_clinch_comes_from_certain_figures_only_and_is_due_once() -> None:
    from referee.league.clinch import Clinch, Clinched, clinched, due
    from referee.league.league_toml import parse
    from referee.league.ranges import Range

    config = parse('name = "T"\ngame = "numica"\nplayers = 2\npromote = 2\nrelegate = 2\n', need_players=False)
    names = {"a": "A", "b": "B", "c": "C", "d": "D", "e": "E"}
    ranges = {
        "a": Range(1, 1, False),  # safe bounds that pin first place: a clinch all the same
        "b": Range(2, 2, True),
        "c": Range(2, 4, True),  # may end third: no promotion yet
        "d": Range(4, 5, False),  # bottom two in every outcome
        "e": Range(3, 5, True),  # may still end third: not relegated yet
    }
    found = clinched(config, names, ranges)
    assert found == [
        Clinch("a", "A", Clinched.FIRST),
        Clinch("a", "A", Clinched.PROMOTION),
        Clinch("b", "B", Clinched.PROMOTION),
        Clinch("d", "D", Clinched.RELEGATION),
    ]
    log = [
        {"event": "clinch", "player": "a", "what": "first"},
        {"event": "clinch", "player": "d", "what": "relegation"},
    ]
    assert [(item.address, item.what) for item in due(config, names, ranges, log)] == [
        ("a", Clinched.PROMOTION),
        ("b", Clinched.PROMOTION),
    ]
    nothing = parse('name = "T"\ngame = "numica"\nplayers = 2\n', need_players=False)
    assert clinched(nothing, names, ranges) == [Clinch("a", "A", Clinched.FIRST)]  # promote, relegate 0


def test_promote_and_relegate_are_whole_numbers(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    make_league(folder, "--game", "numica", "--players", "2", names="Ann Bo")
    toml = folder / "league.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[[player]]", "relegate = -1\n[[player]]", 1))
    code, _, err = invoke("league", "standings", str(folder))
    assert code == 2 and "relegate" in err, err
