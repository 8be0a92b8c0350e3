"""A series (LEAGUE.md §7): `league next` over two seasons of two divisions (promotion,
relegation, a newcomer, a withdrawal), a knockout stage of the top 4 with best-of-3
matches and a tied match, `league verify` on every season and its chain, every player's
mail, and the refusals; all or nothing when a run fails half-way."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.league import address
from tests.helpers.series import AT, by_order, mails_to, new_league, play_season, run

PIKEMEN = ("--game", "pikemen", "--players", "2")
MOVES = "promote = 2\nrelegate = 2\n"


def _players(folder: Path) -> list[str]:
    import tomllib

    data = tomllib.loads((folder / "league.toml").read_text(encoding="utf-8"))
    return [player["name"] for player in data["player"]]


def _verified(folder: Path, *chain: Path) -> str:
    extra = [item for path in chain for item in ("--chain", str(path))]
    code, out, err = run("league", "verify", str(folder), *extra)
    assert code == 0, out + err
    return out


def _first_season(root: Path) -> tuple[Path, Path]:
    premier, second = root / "2026" / "premier", root / "2026" / "second"
    new_league(premier, "Ann Bo Cy Di", *PIKEMEN, extra=MOVES)
    new_league(second, "Ed Flo Gus Hal", *PIKEMEN, extra=MOVES)
    play_season(premier, by_order("Ann Bo Cy Di"))
    code, _, err = run("league", "pair", str(second), "--now", AT)
    assert code == 0, err
    code, _, err = run("league", "withdraw", str(second), address("Hal"), "--now", AT)
    assert code == 0, err
    play_season(second, by_order("Ed Flo Gus Hal"))
    return premier, second


def _next_season(root: Path) -> tuple[Path, Path]:
    """`_first_season`, then `league next` from it: the first season's premier division and
    the new season's second division."""
    premier, second = _first_season(root)
    into = root / "2027"
    assert run("league", "next", str(premier), str(second), "--into", str(into), "--now", AT)[0] == 0
    return premier, into / "second"


def test_two_seasons_of_two_divisions_then_a_knockout_cup(tmp_path: Path) -> None:
    premier, second = _first_season(tmp_path)
    code, out, err = run(
        "league", "next", str(premier), str(second), "--into", str(tmp_path / "2027"),
        "--add", "ivy@example.org=Ivy", "--now", AT,
    )  # fmt: skip
    assert code == 0, err
    assert out.splitlines()[-1] == "mails: 8 into the outboxes"
    top, low = tmp_path / "2027" / "premier", tmp_path / "2027" / "second"
    assert _players(top) == ["Ann", "Bo", "Ed", "Flo"]  # Ed and Flo promoted
    assert _players(low) == ["Cy", "Di", "Gus", "Ivy"]  # Cy and Di relegated, Hal withdrawn, Ivy new
    assert "ends" not in (top / "league.toml").read_text(encoding="utf-8")
    origin = json.loads((low / "league.log").read_text(encoding="utf-8").splitlines()[0])
    closed = [json.loads(line) for line in (premier / "league.log").read_text(encoding="utf-8").splitlines()]
    assert origin["event"] == "from" and origin["seasons"][0]["standings"] == closed[-1]["standings"]
    assert [season["folder"] for season in origin["seasons"]] == ["../../2026/premier", "../../2026/second"]
    assert "from 2 of 2 seasons checked" in _verified(low)
    # every player's mail says their division and how they came there
    assert mails_to(top, "Ed")[0][0] == "2027: premier: your division for the next season"
    assert "You are promoted." in mails_to(top, "Ed")[0][1]
    assert "You stay in this division." in mails_to(top, "Ann")[0][1]
    assert "You are relegated." in mails_to(low, "Cy")[0][1]
    assert "Welcome: you are new to the series." in mails_to(low, "Ivy")[0][1]
    assert mails_to(low, "Hal") == [] and mails_to(top, "Hal") == []
    for folder, names in ((top, "Ann Bo Ed Flo"), (low, "Cy Di Gus Ivy")):
        for player in names.split():  # one mail each: the division, its players
            [(subject, body)] = mails_to(folder, player)
            assert subject == f"2027: {folder.name}: your division for the next season"
            assert body.startswith(f"2027: {folder.name} (pikemen) is the next season: you play in it.")
            assert "Its players:\n" + "".join(f"  {name}\n" for name in names.split()) in body
    # the second season, and the third made from it: the chain goes on
    play_season(top, by_order("Flo Ed Bo Ann"))
    play_season(low, by_order("Ivy Gus Di Cy"))
    code, _, err = run("league", "next", str(top), str(low), "--into", str(tmp_path / "2028"), "--now", AT)
    assert code == 0, err
    assert _players(tmp_path / "2028" / "premier") == ["Flo", "Ed", "Ivy", "Gus"]
    assert _players(tmp_path / "2028" / "second") == ["Bo", "Ann", "Di", "Cy"]
    for folder in (premier, second, top, low, tmp_path / "2028" / "premier"):
        assert _verified(folder).startswith("verified: ")
    # the cup: a knockout of the top 4 of the 2027 premier, best of 3, one match drawn throughout
    cup = tmp_path / "cup"
    code, _, err = run("league", "next", str(top), "--into", str(cup), "--stage", "knockout", "--top", "4", "--now", AT)
    assert code == 0, err
    assert _players(cup) == ["Flo", "Ed", "Bo", "Ann"]
    assert "You qualified by your final rank." in mails_to(cup, "Ann")[0][1]
    toml = cup / "league.toml"
    text = toml.read_text(encoding="utf-8").replace('seeding = "order"\n', 'seeding = "order"\nmatch_games = 3\n')
    toml.write_text(text, encoding="utf-8")

    def decide(game: str, seated: list[str]) -> str | None:
        return None if set(seated) == {"Ed", "Bo"} else min(seated, key=["Flo", "Ed", "Bo", "Ann"].index)

    play_season(cup, decide)
    code, out, err = run("league", "standings", str(cup))
    assert code == 0, err
    bracket = out.split("Bracket:\n")[1].splitlines()
    assert bracket == [
        "round 1 (semi-final): Flo - Ann 3-0 -> Flo",
        "round 1 (semi-final): Ed - Bo 2.5-2.5 -> Ed",  # tied after 5 games (3 + 2 more): the higher seed
        "round 2 (final): Flo - Ed 3-0 -> Flo",
        "champion: Flo",
    ]
    shown = json.loads(run("league", "standings", str(cup), "--json")[1])
    assert shown["bracket"]["champion"] == "Flo" and shown["bracket"]["reached"] == {
        "Flo": 2,
        "Ed": 2,
        "Bo": 1,
        "Ann": 1,
    }
    assert [row["player"] for row in shown["rows"] if row["rank"] == 1] == ["Flo"]
    games = shown["bracket"]["rounds"][0]["matches"][1]["games"]
    assert games == ["r1-t4", "r1-t5", "r1-t6", "r2-t1", "r3-t1"]  # the tie-break games one at a time
    csv = run("league", "standings", str(cup), "--csv")[1].splitlines()
    assert csv[0].endswith(",standing,reached") and csv[1].endswith(",final,2")
    log = [json.loads(line) for line in (cup / "league.log").read_text(encoding="utf-8").splitlines()]
    assert log[-1]["event"] == "close" and log[-1]["champions"] == ["Flo"]
    assert "from 1 of 1 seasons checked" in _verified(cup)


def test_verify_finds_a_tampered_chain(tmp_path: Path) -> None:
    premier, low = _next_season(tmp_path)
    log = low / "league.log"
    text = log.read_text(encoding="utf-8")
    origin = json.loads(text.splitlines()[0])
    digest = origin["seasons"][0]["standings"]
    log.write_text(text.replace(digest, "sha256:" + "0" * 64, 1), encoding="utf-8")
    code, out, _ = run("league", "verify", str(low))
    assert code == 1 and f"from: T: league.log names standings sha256:{'0' * 64}; " in out
    log.write_text(text, encoding="utf-8")
    assert "from 2 of 2 seasons checked" in _verified(low)
    closed = premier / "league.log"
    lines = closed.read_text(encoding="utf-8")
    last = json.loads(lines.splitlines()[-1])
    last["table"][0]["points"] = 2.5
    closed.write_text(lines.replace(lines.splitlines()[-1], json.dumps(last)), encoding="utf-8")
    code, out, _ = run("league", "verify", str(low))
    assert code == 1 and "does not verify: 1 difference(s)" in out


def test_a_from_line_naming_its_own_season_is_a_cycle_not_followed(tmp_path: Path) -> None:
    """A hostile or broken league.log whose `from` line names the season itself (or one on
    the chain): verify says so in one line and ends, instead of following it for ever."""
    _, low = _next_season(tmp_path)
    log = low / "league.log"
    lines = log.read_text(encoding="utf-8").splitlines()
    origin = json.loads(lines[0])
    origin["seasons"][0]["folder"] = "."
    log.write_text("\n".join([json.dumps(origin), *lines[1:]]) + "\n", encoding="utf-8")
    code, out, err = run("league", "verify", str(low))
    assert code == 1 and "is a season of this chain already: a cycle, not followed" in out, out + err
    assert "Traceback" not in err


def test_next_refusals(tmp_path: Path) -> None:
    premier, second = _first_season(tmp_path)
    open_league = tmp_path / "open"
    new_league(open_league, "Jo Ky", *PIKEMEN)
    into = str(tmp_path / "new")
    code, _, err = run("league", "next", str(premier), str(open_league), "--into", into, "--now", AT)
    assert code == 1 and "is not closed: league close it first" in err and len(err.splitlines()) == 1
    code, _, err = run("league", "next", str(tmp_path / "nowhere"), "--into", into, "--now", AT)
    assert code == 2 and "no such file" in err and len(err.splitlines()) == 1
    for top in ("1", "5"):
        code, _, err = run("league", "next", str(premier), "--into", into, "--stage", "knockout", "--top", top)
        assert code == 2 and "--top: between 2 and the 4 players" in err, err
    for bad in ("ivy@example.org", "not-an-address=Ivy", "ivy@example.org=Iv<y", "ann@example.org=Ann"):
        code, _, err = run("league", "next", str(premier), str(second), "--into", into, "--add", bad)
        assert code == 2 and "--add" in err and len(err.splitlines()) == 1, (bad, err)
    (tmp_path / "new").mkdir()
    code, _, err = run("league", "next", str(premier), str(second), "--into", into)
    assert code == 2 and "already exists" in err
    assert not any(path.name.startswith(".new.next-") for path in tmp_path.iterdir())


def test_a_run_failing_half_way_leaves_no_newdir_and_a_rerun_makes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.league import series

    premier, second = _first_season(tmp_path)
    into = tmp_path / "2027"
    real = series.write
    calls = []

    def full_disk(folder: Path, messages: object, now: object = None) -> object:
        calls.append(folder)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(folder, messages, now)  # type: ignore[arg-type]

    monkeypatch.setattr(series, "write", full_disk)
    code, _, err = run("league", "next", str(premier), str(second), "--into", str(into), "--now", AT)
    assert code == 2 and "No space left on device" in err
    assert not into.exists() and sorted(path.name for path in tmp_path.iterdir()) == ["2026"]
    monkeypatch.setattr(series, "write", real)
    stale = tmp_path / ".2027.next-deadbeef"  # what a killed run leaves
    (stale / "premier").mkdir(parents=True)
    code, _, err = run("league", "next", str(premier), str(second), "--into", str(into), "--now", AT)
    assert code == 0, err
    assert not stale.exists() and sorted(p.name for p in into.iterdir()) == ["premier", "second"]


def test_groups_then_a_play_off_of_the_top_three_at_one_table(tmp_path: Path) -> None:
    groups = tmp_path / "groups"
    new_league(groups, "Ann Bo Cy Di Ed Flo", "--game", "pikemen", "--players", "3", "--rounds", "2")
    play_season(groups, by_order("Flo Ed Di Cy Bo Ann"))
    code, out, _ = run("league", "standings", str(groups), "--json")
    ranked = [row["player"] for row in json.loads(out)["rows"]]
    playoff = tmp_path / "playoff"
    code, _, err = run("league", "next", str(groups), "--into", str(playoff), "--stage", "knockout", "--top", "3")
    assert code == 0, err
    assert _players(playoff) == ranked[:3]
    play_season(playoff, by_order(" ".join(reversed(ranked[:3]))))  # the third seed wins the final
    shown = json.loads(run("league", "standings", str(playoff), "--json")[1])
    assert shown["bracket"]["champion"] == ranked[2] and len(shown["bracket"]["rounds"]) == 1
    assert "from 1 of 1 seasons checked" in _verified(playoff)
    code, _, err = run(
        "league", "next", str(groups), "--into", str(tmp_path / "x"), "--stage", "knockout", "--top", "2"
    )
    assert code == 2 and "--top: between 3 and the 6 players" in err
