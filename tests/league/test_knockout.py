"""Knockout leagues (LEAGUE.md §7): the standard bracket and its byes, snake tables,
who goes on (points, tie-break games, the higher seed, placings then seed), settings,
`league init --from CLOSED`, and a 9-player knockout of 3-player Pikemen tables."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from referee.judge.core.verdicts import Status
from referee.league import knockout, standings
from referee.league.league_toml import LeagueConfigError, parse
from referee.league.results import GameResult, Seat
from tests.helpers.series import AT, by_order, new_league, play_season, run


@pytest.mark.parametrize("count", range(2, 34))
def test_the_bracket_of_every_size_from_2_to_33(count: int) -> None:
    matches = knockout.first_round(count)
    size = knockout.next_power(count)
    assert len(matches) == size // 2
    seeds = sorted(seed for match in matches for seed in match)
    assert seeds == list(range(1, count + 1))  # everyone once
    byes = [match[0] for match in matches if len(match) == 1]
    assert sorted(byes) == list(range(1, size - count + 1))  # the byes go to the top seeds
    for match in matches:
        if len(match) == 2:
            assert sum(match) == size + 1  # 1 v last, 2 v second last ...
    order = knockout.bracket_order(size)
    half = size // 2
    assert (1 in order[:half]) != (2 in order[:half])  # seeds 1 and 2 meet only in the final


def test_the_standard_bracket_of_eight() -> None:
    assert knockout.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout.first_round(5) == [(1,), (4, 5), (2,), (3,)]


def test_snake_tables() -> None:
    tables, byes = knockout.snake_tables(list(range(1, 10)), 3)
    assert tables == [(1, 6, 7), (2, 5, 8), (3, 4, 9)] and byes == []
    tables, byes = knockout.snake_tables(list(range(1, 17)), 4)
    assert tables[0] == (1, 8, 9, 16) and tables[3] == (4, 5, 12, 13)
    tables, byes = knockout.snake_tables(list(range(1, 11)), 3)
    assert byes == [1] and tables[0] == (2, 7, 8)


def _config(players: int, per_game: int = 2, extra: str = "") -> object:
    lines = [f'name = "K"\ngame = "pikemen"\nplayers = {per_game}\npairing = "knockout"\n{extra}']
    lines += [f'[[player]]\nname = "P{n}"\naddress = "p{n}@example.org"\n' for n in range(1, players + 1)]
    return parse("\n".join(lines))


def _game(step: int, table: int, seeds: tuple[int, ...], places: tuple[int, ...]) -> GameResult:
    sides = ("Red", "Blue", "Yellow", "Green")
    seats = tuple(Seat((sides[i],), f"p{s}@example.org", f"P{s}") for i, s in enumerate(seeds))
    teams = tuple((f"p{s}@example.org",) for s in seeds)
    return GameResult(f"r{step}-t{table}", step, table, Status.FINISHED, seats, "", teams=teams, places=places)


def test_a_tied_match_goes_on_one_game_at_a_time_then_the_higher_seed() -> None:
    config = _config(2, extra="match_games = 2\nmatch_games_max = 3\n")
    first = knockout.schedule(config, 1, [])  # type: ignore[arg-type]
    assert [table.seats for table in first.tables] == [(1, 2), (2, 1)]  # seats alternate
    played = [_game(1, 1, (1, 2), (2, 1)), _game(1, 2, (2, 1), (2, 1))]  # one win each
    second = knockout.schedule(config, 2, played)  # type: ignore[arg-type]
    assert [table.seats for table in second.tables] == [(1, 2)]
    played.append(_game(2, 1, (1, 2), (1, 1)))  # a draw: the match is tied at its most games
    found = knockout.bracket(config, played)  # type: ignore[arg-type]
    assert found.champion == 1 and found.stages[0][0].points == (Fraction(3, 2), Fraction(3, 2))
    low_wins = [_game(1, 1, (1, 2), (2, 1)), _game(1, 2, (2, 1), (1, 2))]
    assert knockout.bracket(config, low_wins).champion == 2  # type: ignore[arg-type]


def test_a_table_ties_by_seed() -> None:
    config = _config(4, per_game=4, extra="advance = 2\n")
    found = knockout.bracket(config, [_game(1, 1, (1, 2, 3, 4), (2, 1, 2, 2))])  # type: ignore[arg-type]
    assert found.champion == 2  # one table: the final, one winner
    config = _config(8, per_game=4, extra="advance = 2\n")
    games = [_game(1, 1, (1, 4, 5, 8), (2, 2, 1, 3)), _game(1, 2, (2, 3, 6, 7), (1, 2, 2, 2))]
    found = knockout.bracket(config, games)  # type: ignore[arg-type]
    assert found.stages[0][0].winners == (5, 1) and found.stages[0][1].winners == (2, 3)
    assert [table.seats for table in knockout.schedule(config, 2, games).tables] == [(1, 2, 3, 5)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ("rounds = 3\n", "rounds"),
        ("advance = 0\n", "advance"),
        ('seeding = "luck"\n', "seeding"),
        ("match_games = 0\n", "match_games"),
        ("match_games = 3\nmatch_games_max = 2\n", "match_games_max"),
    ],
)
def test_bad_knockout_settings_are_refused_naming_the_key(extra: str, key: str) -> None:
    with pytest.raises(LeagueConfigError) as refused:
        _config(4, extra=extra)
    assert refused.value.key == key


def test_knockout_keys_are_checked_with_any_pairing_and_promote_is_a_whole_number() -> None:
    with pytest.raises(LeagueConfigError) as refused:
        parse('name = "L"\ngame = "pikemen"\nplayers = 2\nmatch_games = "3"\n', need_players=False)
    assert refused.value.key == "match_games"
    with pytest.raises(LeagueConfigError) as refused:
        parse('name = "L"\ngame = "pikemen"\nplayers = 2\npromote = -1\n', need_players=False)
    assert refused.value.key == "promote"
    with pytest.raises(LeagueConfigError) as refused:
        _config(3, per_game=3, extra="advance = 3\n")
    assert refused.value.key == "advance"


def test_nine_players_at_three_player_pikemen_tables(tmp_path: Path) -> None:
    folder = tmp_path / "k9"
    new_league(
        folder, "Ann Bo Cy Di Ed Flo Gus Hal Ivy", "--game", "pikemen", "--players", "3", "--pairing", "knockout"
    )
    play_season(folder, by_order("Ivy Hal Gus Flo Ed Di Cy Bo Ann"))
    code, out, err = run("league", "standings", str(folder))
    assert code == 0, err
    assert out.split("Bracket:\n")[1].splitlines() == [
        "round 1: Ann - Flo - Gus 0-0-1 -> Gus",
        "round 1: Bo - Ed - Hal 0-0-1 -> Hal",
        "round 1: Cy - Di - Ivy 0-0-1 -> Ivy",
        "round 2 (final): Gus - Hal - Ivy 0-0-1 -> Ivy",
        "champion: Ivy",
    ]
    code, _, err = run("league", "pair", str(tmp_path / "k9"), "--now", AT)
    code, out, err = run("league", "verify", str(folder))
    assert code == 0 and out.startswith("verified: 4 games, 2 rounds, standings sha256:"), out + err
    log = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert log[-1]["event"] == "close" and log[-1]["champions"] == ["Ivy"]


def _init_from(folder: Path, source: Path, *pairing: str) -> tuple[int, str, str]:
    """`league init FOLDER` of two-player Pikemen, its players taken `--from` the league `source`."""
    return run("league", "init", str(folder), "--game", "pikemen", "--players", "2", *pairing, "--from", str(source))


def test_init_from_a_closed_league_seeds_by_its_ratings(tmp_path: Path) -> None:
    closed = tmp_path / "closed"
    new_league(closed, "Ann Bo Cy Di", "--game", "pikemen", "--players", "2")
    play_season(closed, by_order("Di Cy Bo Ann"))
    cup = tmp_path / "cup"
    code, out, err = _init_from(cup, closed, "--pairing", "knockout")
    assert code == 0, err
    text = (cup / "league.toml").read_text(encoding="utf-8")
    assert 'seeding = "rating"' in text
    assert [line.split('"')[1] for line in text.splitlines() if line.startswith("name = ")][1:] == [
        "Di",
        "Cy",
        "Bo",
        "Ann",
    ]
    code, _, err = _init_from(tmp_path / "x", closed)
    assert code == 2 and "--pairing knockout" in err
    open_league = tmp_path / "open"
    new_league(open_league, "Jo Ky", "--game", "pikemen", "--players", "2")
    code, _, err = _init_from(tmp_path / "y", open_league, "--pairing", "knockout")
    assert code == 1 and "is not closed" in err and not (tmp_path / "y").exists()


def test_a_withdrawn_player_loses_a_match_not_yet_played_by_walkover() -> None:
    config = _config(4)
    found = knockout.bracket(config, [], frozenset({4}))  # type: ignore[arg-type]
    assert found.stages[0][0].winners == (1,) and found.stages[0][0].walkover
    first = knockout.schedule(config, 1, [], frozenset({4}))  # type: ignore[arg-type]
    assert [table.seats for table in first.tables] == [(2, 3)] and first.byes == (1,)
    tables = _config(9, per_game=3)
    seated = knockout.schedule(tables, 1, [], frozenset({9}))  # type: ignore[arg-type]
    assert [table.seats for table in seated.tables] == [(3, 6, 7), (4, 5, 8)] and seated.byes == (1, 2)


def test_verify_names_a_pairing_after_the_champion(tmp_path: Path) -> None:
    folder = tmp_path / "k"
    new_league(folder, "Ann Bo", "--game", "pikemen", "--players", "2", "--pairing", "knockout")
    play_season(folder, by_order("Ann Bo"), close=False)
    log = folder / "league.log"
    lines = log.read_text(encoding="utf-8").splitlines()
    pairing = json.loads(lines[0])
    pairing["round"] = 2
    log.write_text("\n".join([*lines, json.dumps(pairing)]) + "\n", encoding="utf-8")
    code, out, _ = run("league", "verify", str(folder))
    assert code == 1 and "round 2: league.log pairs a round the rule does not make: T: the knockout is over" in out


def test_the_byes_of_a_bracket_round_are_its_first_pairings() -> None:
    config = _config(5)
    played = [_game(1, 1, (4, 5), (1, 2))]
    table = standings.knockout_table(config, played, None, None)  # type: ignore[arg-type]
    assert table.byes == {1: ("p1@example.org", "p2@example.org", "p3@example.org")}
    assert [row.byes for row in sorted(table.rows, key=lambda row: row.address)] == [1, 1, 1, 0, 0]
    assert knockout.schedule(config, 2, played).byes == ()  # type: ignore[arg-type]


def test_tick_tells_everyone_the_champion_once_the_final_is_played(tmp_path: Path) -> None:
    from tests.helpers.series import mails_to

    folder = tmp_path / "k"
    new_league(folder, "Ann Bo Cy", "--game", "pikemen", "--players", "2", "--pairing", "knockout")
    run("league", "pair", str(folder), "--now", AT)
    code, out, err = run("league", "tick", str(folder), "--now", AT)
    assert code == 0 and "season" not in out, err  # round 1 (Bo - Cy) is being played: not over
    play_season(folder, by_order("Cy Bo Ann"), close=False)
    code, out, err = run("league", "tick", str(folder), "--now", AT)
    assert code == 0, err
    for name in ("Ann", "Bo", "Cy"):
        subjects = [subject for subject, _ in mails_to(folder, name) if "the season is over" in subject]
        assert subjects == ["T: the season is over, champion Cy"], (name, out)
