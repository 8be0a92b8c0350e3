"""Standings and ratings (LEAGUE.md §4): placings, points, byes, OpenSkill ratings (checked
against the package called directly), tie-breaks, table order, and the table derived
from the game files alone."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from openskill.models import PlackettLuce

from referee.games import registry, seats
from referee.league.league_toml import parse
from referee.league.points import game_points
from referee.league.results import GameResult, Seat
from referee.league.standings import rating_order, standings
from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke

NOW = "2026-12-01T12:00:00Z"
PLAYED = parse_instant(NOW) + 3600  # the games are timed: moves come after their Start (TIME.md)


# Not tests.helpers.league's make_league: standings read a league.toml written by hand (any
# head, any players), with no command run.
def _league(folder: Path, head: str, players: list[tuple[str, str]]) -> Path:
    folder.mkdir()
    text = head + "".join(f'\n[[player]]\nname = "{n}"\naddress = "{a}"\n' for n, a in players)
    (folder / "league.toml").write_text(text, encoding="utf-8")
    return folder


def _pair(folder: Path) -> dict[str, Any]:
    result = invoke("league", "pair", str(folder), "--now", NOW, "--json")
    assert result.exit_code == 0, result.output + result.stderr
    paired: dict[str, Any] = json.loads(result.stdout)
    return paired


def _play(path: Path, *submissions: str) -> None:
    for moves in submissions:
        done = submit(path, moves, now=PLAYED)
        assert done.exit_code == 0, done.text()


def _standings(folder: Path) -> dict[str, Any]:
    result = invoke("league", "standings", str(folder), "--json")
    assert result.exit_code == 0, result.output + result.stderr
    table: dict[str, Any] = json.loads(result.stdout)
    return table


# -- placings ---------------------------------------------------------------------------------


def test_placings_of_two_player_games_and_nika() -> None:
    numica = registry.GAMES["numica"]
    assert seats.placings(numica, ("Red", "Blue"), ("Blue",), ()) == (("Blue",), ("Red",))
    assert seats.placings(numica, ("Red", "Blue"), (), ()) == (("Red", "Blue"),)
    nika = registry.GAMES["nika"]
    everyone = ("Athens", "Sparta", "Messene", "Thebes")
    assert seats.placings(nika, everyone, ("Sparta", "Thebes"), ()) == (("Sparta", "Thebes"), ("Athens", "Messene"))
    assert seats.placings(nika, everyone, (), ()) == (everyone,)


def test_placings_of_pikemen_with_three_or_four_players() -> None:
    pikemen = registry.GAMES["pikemen"]
    sides = ("Red", "Yellow", "Blue", "Green")
    state = SimpleNamespace(sides=sides, scores=[3, 12, 5, 3])
    # the winner, then those still in by score (equal scores tie), then the leavers, later first
    assert seats.placings(pikemen, sides, ("Yellow",), (), state) == (("Yellow",), ("Blue",), ("Red", "Green"))
    assert seats.placings(pikemen, sides, ("Yellow",), ("Green",), state) == (
        ("Yellow",),
        ("Blue",),
        ("Red",),
        ("Green",),
    )
    last = SimpleNamespace(sides=sides, scores=[0, 0, 0, 0])
    assert seats.placings(pikemen, sides, ("Blue",), ("Red", "Green", "Yellow"), last) == (
        ("Blue",),
        ("Yellow",),
        ("Green",),
        ("Red",),
    )
    # a draw ties the players still in the game, above those who left
    assert seats.placings(pikemen, sides, (), ("Green",), state) == (("Red", "Yellow", "Blue"), ("Green",))


def test_leavers_come_from_the_replays_events_in_the_order_they_left() -> None:
    from referee.games.api import Event, EventKind

    capture = Event(EventKind.CAPTURE, "", {"side": "Green", "by": "Red"})
    gone = Event(EventKind.ELIMINATED, "")
    steps = [
        ("Red", [Event(EventKind.MOVE, "")]),
        ("Yellow", [Event(EventKind.RESIGN, ""), gone]),  # a resignation: the acting side leaves
        ("Red", [capture]),
        ("Red", [capture, gone]),  # a capture that takes Green's last piece
    ]
    assert seats.leavers(steps) == ("Yellow", "Green")


def _result(game: str, teams: list[tuple[str, ...]], places: list[int], **extra: Any) -> GameResult:
    members = [address for team in teams for address in team]
    seated = tuple(Seat((f"S{index}",), address, address.split("@")[0]) for index, address in enumerate(members))
    round_number, table = (int(part[1:]) for part in game.split("-"))
    return GameResult(
        game, round_number, table, "finished", seated, "", teams=tuple(teams), places=tuple(places), **extra
    )


def test_points_shared_firsts_and_teams() -> None:
    assert game_points(_result("r1-t1", [("a",), ("b",)], [1, 2])) == {"a": 1, "b": 0}
    assert game_points(_result("r1-t1", [("a",), ("b",), ("c",)], [1, 1, 3])) == {
        "a": Fraction(1, 2),
        "b": Fraction(1, 2),
        "c": 0,
    }
    assert game_points(_result("r1-t1", [("a", "b"), ("c", "d")], [1, 1])) == {
        "a": Fraction(1, 2),
        "b": Fraction(1, 2),
        "c": Fraction(1, 2),
        "d": Fraction(1, 2),
    }
    assert game_points(_result("r1-t1", [("a", "b"), ("c",)], [2, 1])) == {"a": 0, "b": 0, "c": 1}


def test_ratings_are_applied_in_the_order_games_finished() -> None:
    timed = parse('name = "L"\ngame = "nika"\nplayers = 2\ntime_control = "3d/move"\n', need_players=False)
    untimed = parse('name = "L"\ngame = "nika"\nplayers = 2\n', need_players=False)
    early = _result("r2-t1", [("a",), ("b",)], [1, 2], finished_at=100)
    late = _result("r1-t1", [("a",), ("b",)], [2, 1], finished_at=200)
    assert [g.game for g in rating_order(timed, [late, early])] == ["r2-t1", "r1-t1"], "by the last stamp"
    assert [g.game for g in rating_order(untimed, [early, late])] == ["r1-t1", "r2-t1"], "by game name"
    assert [g.game for g in rating_order(untimed, [late, early], {"r2-t1": 0, "r1-t1": 3})] == ["r2-t1", "r1-t1"]
    ongoing = GameResult("r3-t1", 3, 1, "ongoing", (), "")
    assert rating_order(untimed, [ongoing, early]) == [early]
    # and the order matters: the same two results give other ratings the other way round
    config = parse(
        'name = "L"\ngame = "nika"\nplayers = 2\ntime_control = "3d/move"\n[[player]]\nname = "a"\n'
        'address = "a@x.org"\n[[player]]\nname = "b"\naddress = "b@x.org"\n'
    )
    one = _result("r1-t1", [("a@x.org",), ("b@x.org",)], [1, 2], finished_at=100)
    two = _result("r1-t2", [("a@x.org",), ("b@x.org",)], [1, 1], finished_at=200)
    swapped_one = _result("r1-t1", [("a@x.org",), ("b@x.org",)], [1, 2], finished_at=300)
    assert standings(config, [one, two]).rows[0].mu != standings(config, [swapped_one, two]).rows[0].mu


# -- whole leagues ------------------------------------------------------------------------------


PIKEMEN_PLAYERS = [("Ann", "ann@x.org"), ("Bo", "bo@x.org"), ("Cy", "cy@x.org"), ("Di", "di@x.org"), ("Ed", "ed@x.org")]


def test_a_pikemen_league_of_groups_checked_against_openskill(tmp_path: Path) -> None:
    folder = _league(
        tmp_path / "autumn", 'name = "Autumn"\ngame = "pikemen"\nplayers = 3\nrounds = 3\n', PIKEMEN_PLAYERS
    )
    model = PlackettLuce()
    expected = {address: model.rating() for _, address in PIKEMEN_PLAYERS}
    points = {address: Fraction(0) for _, address in PIKEMEN_PLAYERS}
    byes = {address: 0 for _, address in PIKEMEN_PLAYERS}
    buchholz_met: dict[str, list[str]] = {address: [] for _, address in PIKEMEN_PLAYERS}
    wins = dict.fromkeys(points, 0)
    draws = dict.fromkeys(points, 0)
    # round 1: seat 1 resigns, then seat 2: seat 3 wins, seat 2 second, seat 1 last;
    # round 2: seat 1 resigns and the other two agree a draw; round 3: as round 1.
    for number, ending in ((1, "leave"), (2, "draw"), (3, "leave")):
        paired = _pair(folder)
        assert paired["round"] == number and len(paired["games"]) == 1 and len(paired["byes"]) == 2
        (game,) = paired["games"]
        first, second, third = game["seats"]
        path = folder / f"{game['game']}.rgn"
        text = path.read_text(encoding="utf-8")
        assert f'[Round "{number}"]' in text and '[Table "1"]' in text and '[Players "3"]' in text
        if ending == "leave":
            _play(path, "resign", "resign")
            ranked, ranks = [[first], [second], [third]], [3, 2, 1]
            points[third] += 1
            wins[third] += 1
        else:
            _play(path, "resign", "draw")
            ranked, ranks = [[first], [second], [third]], [3, 1, 1]
            points[second] += Fraction(1, 2)
            points[third] += Fraction(1, 2)
            draws[second] += 1
            draws[third] += 1
        rated = model.rate([[expected[a] for a in team] for team in ranked], ranks=ranks)
        for team, new in zip(ranked, rated, strict=True):
            expected[team[0]] = new[0]
        for bye in paired["byes"]:
            byes[bye] += 1
            points[bye] += 1
        for address in game["seats"]:
            buchholz_met[address] += [other for other in game["seats"] if other != address]
    refused = invoke("league", "pair", str(folder), "--now", NOW)
    assert refused.exit_code == 1 and "the season is over: all 3 rounds are paired" in refused.stderr
    table = _standings(folder)
    assert table["tiebreak"] == "buchholz" and table["finished"] == 3
    rows = {row["address"]: row for row in table["rows"]}
    for _, address in PIKEMEN_PLAYERS:
        row = rows[address]
        assert row["mu"] == pytest.approx(expected[address].mu, abs=1e-4)
        assert row["sigma"] == pytest.approx(expected[address].sigma, abs=1e-4)
        assert row["rating"] == pytest.approx(expected[address].ordinal(), abs=1e-4)
        assert row["points"] == pytest.approx(float(points[address]))
        assert row["byes"] == byes[address]
        assert (row["wins"], row["draws"]) == (wins[address], draws[address])
        assert row["games"] == 3 - byes[address]
        assert row["losses"] == row["games"] - row["wins"] - row["draws"]
        assert row["tiebreak"] == pytest.approx(float(sum(points[o] for o in buchholz_met[address])))
    order = [row["address"] for row in table["rows"]]
    assert order == sorted(
        order, key=lambda a: (-rows[a]["points"], -rows[a]["tiebreak"], -rows[a]["rating"], rows[a]["player"])
    )
    # the same table from the game files alone
    (folder / "league.log").unlink()
    assert _standings(folder) == table


def test_a_two_player_round_robin_with_sonneborn_berger_and_a_bye_worth_nothing(tmp_path: Path) -> None:
    names = [("Ann", "ann@x.org"), ("Bo", "bo@x.org"), ("Cy", "cy@x.org")]
    folder = _league(tmp_path / "club", 'name = "Club"\ngame = "nika"\nplayers = 2\n', names)
    score: dict[tuple[str, str], Fraction] = {}
    for number in range(1, 4):
        paired = _pair(folder)
        assert len(paired["games"]) == 1 and len(paired["byes"]) == 1 and paired["bye_scores"] is False
        (game,) = paired["games"]
        first, second = game["seats"]
        path = folder / f"{game['game']}.rgn"
        text = path.read_text(encoding="utf-8")
        holder = {"ann@x.org": "Ann", "bo@x.org": "Bo", "cy@x.org": "Cy"}
        assert f'[Athens "{holder[first]} <{first}>"]' in text and f'[Messene "{holder[first]} <{first}>"]' in text
        assert f'[Sparta "{holder[second]} <{second}>"]' in text and f'[Thebes "{holder[second]} <{second}>"]' in text
        if number == 2:
            _play(path, "draw")
            score[(first, second)], score[(second, first)] = Fraction(1, 2), Fraction(1, 2)
        else:
            _play(path, "resign")  # Athens resigns: seat 2's alliance wins
            score[(first, second)], score[(second, first)] = Fraction(0), Fraction(1)
    table = _standings(folder)
    assert table["tiebreak"] == "sonneborn-berger"
    points = {a: sum((s for (p, _), s in score.items() if p == a), Fraction(0)) for _, a in names}
    rows = {row["address"]: row for row in table["rows"]}
    for _, address in names:
        assert rows[address]["points"] == pytest.approx(float(points[address])), "a bye scores nothing"
        assert rows[address]["byes"] == 1
        berger = sum((points[o] * s for (p, o), s in score.items() if p == address), Fraction(0))
        assert rows[address]["tiebreak"] == pytest.approx(float(berger))


def test_nika_alliances_are_rated_as_teams(tmp_path: Path) -> None:
    names = [("Ann", "ann@x.org"), ("Bo", "bo@x.org"), ("Cy", "cy@x.org"), ("Di", "di@x.org")]
    folder = _league(tmp_path / "nika", 'name = "Four"\ngame = "nika"\nplayers = 4\nrounds = 1\n', names)
    paired = _pair(folder)
    athens, sparta, messene, thebes = paired["games"][0]["seats"]
    _play(folder / f"{paired['games'][0]['game']}.rgn", "resign")  # Athens resigns for its alliance
    model = PlackettLuce()
    (a, m), (s, t) = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[2, 1])
    rows = {row["address"]: row for row in _standings(folder)["rows"]}
    assert rows[sparta]["points"] == rows[thebes]["points"] == 1 and rows[sparta]["wins"] == 1
    assert rows[athens]["points"] == rows[messene]["points"] == 0 and rows[athens]["losses"] == 1
    for address, rating in ((athens, a), (messene, m), (sparta, s), (thebes, t)):
        assert rows[address]["mu"] == pytest.approx(rating.mu, abs=1e-4)
        assert rows[address]["sigma"] == pytest.approx(rating.sigma, abs=1e-4)


def test_csv_opens_in_a_spreadsheet_and_names_cannot_become_formulas(tmp_path: Path) -> None:
    names = [("=HYPERLINK(1)", "ann@x.org"), ("Bö", "bo@x.org")]
    folder = _league(tmp_path / "csv", 'name = "C"\ngame = "nika"\nplayers = 2\n', names)
    _pair(folder)
    result = invoke("league", "standings", str(folder), "--csv")
    assert result.exit_code == 0
    data = result.stdout_bytes
    assert data.startswith("\ufeff".encode()) and b"\r\n" in data
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [row["player"] for row in rows] == ["'=HYPERLINK(1)", "Bö"]  # all even: by name
    assert set(rows[0]) == {
        "rank", "player", "address", "games", "wins", "draws", "losses", "points", "byes", "mu", "sigma", "rating",
        "timeouts", "tiebreak", "standing",
    }  # fmt: skip
    both = invoke("league", "standings", str(folder), "--csv", "--json")
    assert both.exit_code == 2


@pytest.mark.parametrize("seed", ["s0", "s1", "s7"])
def test_a_pikemen_game_played_out_is_placed_by_score(tmp_path: Path, seed: str) -> None:
    from referee.judge.services.random_playout import play

    names = [("Ann", "ann@x.org"), ("Bo", "bo@x.org"), ("Cy", "cy@x.org")]
    folder = _league(tmp_path / "p", 'name = "P"\ngame = "pikemen"\nplayers = 3\nrounds = 1\n', names)
    paired = _pair(folder)
    path = folder / f"{paired['games'][0]['game']}.rgn"
    played = play("pikemen", 3, seed, max_turns=600)
    outcome = played.state.outcome()
    assert outcome is not None and str(outcome.reason) == "score"
    moves = played.text[played.text.index("\n\n") :]
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + moves, encoding="utf-8")
    by_side = dict(zip(("Red", "Yellow", "Blue"), paired["games"][0]["seats"], strict=True))
    score = dict(zip(("Red", "Yellow", "Blue"), played.state.scores, strict=True))
    # places: 1 for the winner, then by score, equal scores tied
    ranks = [1 + sum(score[other] > score[side] for other in score) for side in ("Red", "Yellow", "Blue")]
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(3)], ranks=ranks)
    rows = {row["address"]: row for row in _standings(folder)["rows"]}
    for side, (rating,) in zip(("Red", "Yellow", "Blue"), rated, strict=True):
        row = rows[by_side[side]]
        assert row["mu"] == pytest.approx(rating.mu, abs=1e-4)
        assert row["wins"] == (1 if side in outcome.winners else 0)
