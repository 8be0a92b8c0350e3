"""Statements of LEAGUE.md §1-4 that no other test asserted (docs/league-tests.md maps
every statement to its tests): `league.toml` errors through every command, busy files held
by a real second process, illegal games named by every command that reads them, `add
--key`, `Variant` and fixed tags, Berger rounds and double round robins through `pair`,
Pikemen draws and Nika teams of one in the table, Swiss tie-breaks, and CSV quoting."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke, invoker
from tests.helpers.process import REFEREE

NOW = "2026-12-01T12:00:00Z"
PLAYED = parse_instant(NOW) + 3600
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
NAMES = "Ann Bo Cy Di Ed Flo Gus Hal".split()


_run = invoker("league")


def _write(folder: Path, head: str, count: int) -> Path:
    folder.mkdir()
    players = "".join(f'\n[[player]]\nname = "{n}"\naddress = "{n.lower()}@x.org"\n' for n in NAMES[:count])
    (folder / "league.toml").write_text(head + players, encoding="utf-8")
    return folder


def _pair(folder: Path, now: str = NOW) -> dict[str, Any]:
    code, out, err = _run("pair", str(folder), "--now", now, "--json")
    assert code == 0, err
    paired: dict[str, Any] = json.loads(out)
    return paired


def _table(folder: Path) -> dict[str, Any]:
    code, out, err = _run("standings", str(folder), "--json")
    assert code == 0, err
    table: dict[str, Any] = json.loads(out)
    return table


# -- §1: league.toml read strictly, by every command ------------------------------------------

GOOD = 'name = "L"\ngame = "pikemen"\nplayers = 2\ntime_control = "3d+1d"\nleave_days = 3\n'
PLAYERS = "".join(f'\n[[player]]\nname = "{n}"\naddress = "{n.lower()}@x.org"\n' for n in NAMES[:4])
BAD_LEAGUES = {
    "unknown game": ('name = "L"\ngame = "go"\nplayers = 2\n' + PLAYERS, "game: unknown game 'go'"),
    "player count": ('name = "L"\ngame = "numica"\nplayers = 3\n' + PLAYERS, "players: numica is played by 2"),
    "duplicate address": (
        GOOD + PLAYERS.replace("bo@x.org", "ANN@x.org"),
        "player[2].address: ann@x.org is already player 1's address",
    ),
    "too few players": (
        'name = "L"\ngame = "nika"\nplayers = 4\nrounds = 2\n' + PLAYERS.split('[[player]]\nname = "Di"')[0],
        "player: 3 players, fewer than the 4 a game of nika needs",
    ),
    "unknown key": (GOOD + "colour = 'red'\n" + PLAYERS, "colour: unknown key"),
    "unknown player key": (GOOD + PLAYERS + "elo = 1500\n", "player[4].elo: unknown key"),
    "wrong type": (GOOD.replace("leave_days = 3", 'leave_days = "3"') + PLAYERS, "leave_days: must be a whole number"),
    "wrong type of a list": (GOOD + "reminders = [12]\n" + PLAYERS, "reminders:"),
    "not toml": ("name = [\n", "not TOML"),
}
COMMANDS = {
    "status": ["status", "{d}"],
    "standings": ["standings", "{d}"],
    "pair": ["pair", "{d}", "--now", NOW],
    "tick": ["tick", "{d}", "--now", NOW],
    "leave": ["leave", "{d}", "ann@x.org", "1d", "--now", NOW],
    "site": ["site", "{d}", "-o", "{d}/site"],
    "add": ["add", "{d}", "new@x.org", "--name", "New"],
}


# `add` is how a league gets its players: too few is no error for it (the test below)
BAD_CASES = [
    (case, command)
    for case in sorted(BAD_LEAGUES)
    for command in sorted(COMMANDS)
    if (case, command) != ("too few players", "add")
]


def test_add_to_a_league_with_too_few_players_adds_one(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    folder.mkdir()
    (folder / "league.toml").write_text(BAD_LEAGUES["too few players"][0], encoding="utf-8")
    code, out, err = _run("add", str(folder), "new@x.org", "--name", "New")
    assert code == 0, out + err
    assert "new@x.org" in (folder / "league.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("case", "command"), BAD_CASES)
def test_every_command_on_a_bad_league_toml_exits_2_naming_the_key(tmp_path: Path, case: str, command: str) -> None:
    text, message = BAD_LEAGUES[case]
    folder = tmp_path / "lg"
    folder.mkdir()
    (folder / "league.toml").write_text(text, encoding="utf-8")
    code, out, err = _run(*(part.replace("{d}", str(folder)) for part in COMMANDS[command]))
    assert code == 2, out + err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{folder / 'league.toml'}: " in err and message in err, err
    assert (folder / "league.toml").read_text(encoding="utf-8") == text
    assert sorted(path.name for path in folder.iterdir()) in (["league.toml"], ["league.lock", "league.toml"])


def test_add_key_reads_standard_input_into_players_toml_and_adds_nobody_without_one(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    code, _, err = _run("init", str(folder), "--game", "numica", "--players", "2")
    assert code == 0, err
    before = (folder / "league.toml").read_text(encoding="utf-8")
    for stdin, message in (("", "no passphrase on standard input"), (b"\xff\xfe\n", "not UTF-8")):
        code, out, err = _run("add", str(folder), "ann@x.org", "--name", "Ann", "--key", stdin=stdin)
        assert code == 2 and message in err and out == "", err
        assert (folder / "league.toml").read_text(encoding="utf-8") == before, "nobody added"
        assert not (folder / "players.toml").exists()
    code, out, err = _run("add", str(folder), "ann@x.org", "--name", "Ann", "--key", stdin="  open sesame  \nx\n")
    assert code == 0 and out == "added player 1: Ann <ann@x.org>\n", err
    from referee.live.mail.players import load_keys, verify

    keys = load_keys(folder / "players.toml")
    assert keys is not None and list(keys) == ["ann@x.org"] and verify(keys["ann@x.org"], "open sesame")


# -- §1-2: busy files, held by a real second process ------------------------------------------

HOLD = (
    "import sys\nfrom pathlib import Path\nfrom referee.store import locked\n"
    "with locked(Path(sys.argv[1]), wait=30):\n    print('held', flush=True)\n    sys.stdin.read()\n"
)


class _Holder:
    """Another process holding a lock (`referee.store.locked`) until released."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=ENV
        )
        assert self.process.stdout is not None and self.process.stdout.readline() == b"held\n"

    def release(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(timeout=30) == 0


def _timed_league(folder: Path) -> None:
    _write(folder, GOOD, 2)
    _pair(folder)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.name.endswith(".lock")
    }


def test_commands_that_write_exit_75_while_another_process_holds_the_league_lock(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _timed_league(folder)
    assert submit(folder / "r1-t1.rgn", "resign", now=PLAYED).exit_code == 0
    before = _snapshot(folder)
    holder = _Holder(folder / "league")  # DIR/league.lock, as a league command holds it
    try:
        commands = [
            ["add", str(folder), "late@x.org", "--name", "Late"],
            ["pair", str(folder), "--now", "2026-12-08T12:00:00Z"],
            ["tick", str(folder), "--now", "2026-12-20T12:00:00Z"],
            ["leave", str(folder), "ann@x.org", "1d", "--now", "2026-12-01T14:00:00Z"],
        ]
        running = [
            subprocess.Popen([*REFEREE, "league", *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
            for c in commands
        ]
        done = [(p.wait(timeout=120), p.communicate()) for p in running]
        # reading needs no lock: standings and site answer while the league is busy
        reading = subprocess.run([*REFEREE, "league", "standings", str(folder)], capture_output=True, env=ENV)
        site = tmp_path / "site"
        built = subprocess.run([*REFEREE, "league", "site", str(folder), "-o", str(site)], capture_output=True, env=ENV)
    finally:
        holder.release()
    for command, (code, (out, err)) in zip(commands, done, strict=True):
        assert code == 75, (command, out, err)
        assert err.decode().count("\n") == 1 and "busy" in err.decode() and "league.lock" in err.decode()
    assert reading.returncode == 0 and b"Ann" in reading.stdout
    assert built.returncode == 0 and (site / "index.html").is_file(), built.stderr
    assert _snapshot(folder) == before, "nothing written"


def test_a_game_file_held_by_another_process_makes_tick_and_leave_exit_75(tmp_path: Path) -> None:
    late, away = tmp_path / "late", tmp_path / "away"
    _timed_league(late)  # Red's 3d run out: tick has a timeout to write
    _timed_league(away)
    before = {late: _snapshot(late), away: _snapshot(away)}
    holders = [_Holder(late / "r1-t1.rgn"), _Holder(away / "r1-t1.rgn")]
    try:
        commands = [
            ["tick", str(late), "--now", "2026-12-05T12:00:00Z"],
            ["leave", str(away), "ann@x.org", "1d", "--now", "2026-12-01T14:00:00Z"],
        ]
        running = [
            subprocess.Popen([*REFEREE, "league", *c], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
            for c in commands
        ]
        done = [(p.wait(timeout=120), p.communicate()[1].decode()) for p in running]
    finally:
        for holder in holders:
            holder.release()
    for code, err in done:
        assert code == 75 and "r1-t1.rgn is busy" in err and "Traceback" not in err, err
    assert _snapshot(late) == before[late] and _snapshot(away) == before[away], "nothing written, nothing logged"
    # once the game is free, the next run does it
    code, out, err = _run("tick", str(late), "--now", "2026-12-05T12:00:00Z")
    assert code == 0 and out.startswith("timeout: r1-t1 Red"), err
    code, out, err = _run("leave", str(away), "ann@x.org", "1d", "--now", "2026-12-01T14:00:00Z")
    assert code == 0 and "r1-t1: Red +1d" in out, err


# -- §2: exit 1 when a game is illegal or malformed, named -----------------------------------


def test_tick_and_leave_name_an_illegal_game_and_exit_1_after_their_work(tmp_path: Path) -> None:
    folder = _write(tmp_path / "lg", GOOD, 4)
    paired = _pair(folder)
    assert paired["games"][0]["seats"][0] == "ann@x.org"
    with (folder / "r1-t2.rgn").open("a", encoding="utf-8") as record:
        record.write("\n1. R: e1xe5\n")
    code, out, err = _run("leave", str(folder), "ann@x.org", "1d", "--now", "2026-12-01T13:00:00Z")
    assert code == 1 and err.startswith("referee league: r1-t2: illegal: "), out + err
    assert "r1-t1: Red +1d" in out, "the legal game was still granted"
    code, out, err = _run("tick", str(folder), "--now", "2026-12-05T13:00:00Z")
    assert code == 1 and err.startswith("referee league: r1-t2: illegal: "), out + err
    assert out.startswith("timeout: r1-t1 Red"), "the legal game was still ticked"


def test_a_game_file_must_hold_one_record(tmp_path: Path) -> None:
    folder = _write(tmp_path / "lg", GOOD, 2)
    _pair(folder)
    path = folder / "r1-t1.rgn"
    path.write_text(path.read_text(encoding="utf-8") * 2, encoding="utf-8")
    for command in ("status", "standings"):
        code, out, err = _run(command, str(folder))
        assert code == 1 and "r1-t1: malformed: holds 2 records, not one" in err, err
        if command == "status":
            assert out.splitlines()[1] == "r1-t1: malformed: holds 2 records, not one"


# -- §1, §3: what a game carries ---------------------------------------------------------------


def test_variant_and_fixed_tags_go_into_every_game(tmp_path: Path) -> None:
    head = 'name = "Tagged"\ngame = "pikemen"\nplayers = 2\nvariant = "standard"\n'
    head += '[tags]\nTarget = "15"\nSite = "Club"\n'
    folder = _write(tmp_path / "lg", head, 4)
    paired = _pair(folder)
    for game in paired["games"]:
        text = (folder / f"{game['game']}.rgn").read_text(encoding="utf-8")
        for tag in ('[Variant "standard"]', '[Target "15"]', '[Site "Club"]', '[Event "Tagged"]', '[Round "1"]'):
            assert tag in text, (tag, text)
        assert "TimeControl" not in text and "Start" not in text, "an untimed league"
    code, out, _ = _run("status", str(folder))
    assert code == 0 and "ongoing" not in out.split("\n")[0]


# The FIDE Handbook C.05 Annex 1, the table for 5 or 6 players, copied here as printed
# (round by round, board 1 first, white first), not computed.
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]


@pytest.mark.parametrize("count", [5, 6])
def test_pair_plays_the_fide_berger_table_in_league_toml_order(tmp_path: Path, count: int) -> None:
    folder = _write(tmp_path / "rr", 'name = "RR"\ngame = "pikemen"\nplayers = 2\n', count)
    number = {f"{n.lower()}@x.org": index for index, n in enumerate(NAMES[:count], start=1)}
    for round_number, published in enumerate(FIDE_6, start=1):
        paired = _pair(folder)
        assert paired["round"] == round_number
        tables = [tuple(number[a] for a in game["seats"]) for game in paired["games"]]
        assert tables == [pair for pair in published if 6 not in pair or count == 6]
        dummy = [a if b == 6 else b for a, b in published if 6 in (a, b)]
        assert [number[a] for a in paired["byes"]] == (dummy if count == 5 else [])
        assert paired["bye_scores"] is False
        for game in paired["games"]:
            assert submit(folder / f"{game['game']}.rgn", "resign", now=PLAYED).exit_code == 0
    code, _, err = _run("pair", str(folder), "--now", NOW)
    assert code == 1 and "the season is over" in err
    rows = _table(folder)["rows"]
    assert sum(row["byes"] for row in rows) == (5 if count == 5 else 0)
    assert all(row["byes"] == 1 for row in rows) or count == 6, "every player has as many byes"


def test_double_round_robin_plays_the_cycle_twice_with_seats_swapped(tmp_path: Path) -> None:
    folder = _write(tmp_path / "drr", 'name = "D"\ngame = "pikemen"\nplayers = 2\npairing = "double-round-robin"\n', 3)
    seen: list[tuple[str, ...]] = []
    for _ in range(6):
        paired = _pair(folder)
        (game,) = paired["games"]
        seen.append(tuple(game["seats"]))
        assert len(paired["byes"]) == 1
        assert submit(folder / f"{game['game']}.rgn", "resign", now=PLAYED).exit_code == 0
    assert seen[3:] == [(b, a) for a, b in seen[:3]]
    assert sorted(tuple(sorted(pair)) for pair in seen[:3]) == [
        ("ann@x.org", "bo@x.org"),
        ("ann@x.org", "cy@x.org"),
        ("bo@x.org", "cy@x.org"),
    ]
    code, _, err = _run("pair", str(folder), "--now", NOW)
    assert code == 1 and "the season is over: all 6 rounds are paired" in err
    rows = _table(folder)["rows"]
    assert [row["byes"] for row in rows] == [2, 2, 2] and _table(folder)["tiebreak"] == "sonneborn-berger"


def test_nika_with_two_players_holds_an_alliance_and_is_rated_as_a_team_of_one(tmp_path: Path) -> None:
    folder = _write(tmp_path / "n2", 'name = "N"\ngame = "nika"\nplayers = 2\n', 2)
    paired = _pair(folder)
    first, second = paired["games"][0]["seats"]
    text = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    assert f'[Athens "Ann <{first}>"]' in text and f'[Messene "Ann <{first}>"]' in text
    assert f'[Sparta "Bo <{second}>"]' in text and f'[Thebes "Bo <{second}>"]' in text
    assert submit(folder / "r1-t1.rgn", "resign", now=PLAYED).exit_code == 0  # Athens resigns for Ann
    model = PlackettLuce()
    (ann,), (bo,) = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    rows = {row["address"]: row for row in _table(folder)["rows"]}
    assert rows[first]["mu"] == pytest.approx(ann.mu, abs=1e-4)
    assert rows[second]["mu"] == pytest.approx(bo.mu, abs=1e-4)
    assert rows[second]["sigma"] == pytest.approx(bo.sigma, abs=1e-4)


# -- §4: placings, points, tie-breaks, the CSV ------------------------------------------------


def test_a_pikemen_draw_ties_those_still_in_above_those_who_left(tmp_path: Path) -> None:
    folder = _write(tmp_path / "p4", 'name = "P"\ngame = "pikemen"\nplayers = 4\nrounds = 1\n', 4)
    paired = _pair(folder)
    red, yellow, blue, green = paired["games"][0]["seats"]
    done = submit(folder / "r1-t1.rgn", "resign", now=PLAYED)  # Red leaves
    assert done.exit_code == 0
    assert submit(folder / "r1-t1.rgn", "draw", now=PLAYED).exit_code == 0
    table = _table(folder)
    rows = {row["address"]: row for row in table["rows"]}
    for address in (yellow, blue, green):
        assert rows[address]["points"] == pytest.approx(1 / 3, abs=1e-4) and rows[address]["draws"] == 1
    assert rows[red]["points"] == 0 and rows[red]["losses"] == 1
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(4)], ranks=[4, 1, 1, 1])
    for address, (rating,) in zip((red, yellow, blue, green), rated, strict=True):
        assert rows[address]["mu"] == pytest.approx(rating.mu, abs=1e-4)
    assert [row["address"] for row in table["rows"]][-1] == red


def test_a_two_player_swiss_breaks_ties_by_buchholz(tmp_path: Path) -> None:
    head = 'name = "S"\ngame = "pikemen"\nplayers = 2\npairing = "swiss"\nrounds = 2\n'
    folder = _write(tmp_path / "sw", head, 4)
    points: dict[str, Fraction] = {f"{n.lower()}@x.org": Fraction(0) for n in NAMES[:4]}
    met: dict[str, list[str]] = {address: [] for address in points}
    for _ in range(2):
        paired = _pair(folder)
        for game in paired["games"]:
            first, second = game["seats"]
            assert submit(folder / f"{game['game']}.rgn", "resign", now=PLAYED).exit_code == 0  # seat 1 resigns
            points[second] += 1
            met[first].append(second)
            met[second].append(first)
    table = _table(folder)
    assert table["tiebreak"] == "buchholz"
    for row in table["rows"]:
        assert row["tiebreak"] == pytest.approx(float(sum(points[o] for o in met[row["address"]])))
    keys = [(-r["points"], -r["tiebreak"], -r["rating"], r["player"]) for r in table["rows"]]
    assert keys == sorted(keys)


def test_a_swiss_bye_is_worth_a_point_and_changes_no_rating(tmp_path: Path) -> None:
    head = 'name = "S"\ngame = "pikemen"\nplayers = 2\npairing = "swiss"\nrounds = 1\n'
    folder = _write(tmp_path / "sw", head, 3)
    paired = _pair(folder)
    assert paired["byes"] == ["cy@x.org"] and paired["bye_scores"] is True  # the last in order is left over
    assert submit(folder / "r1-t1.rgn", "resign", now=PLAYED).exit_code == 0  # Ann resigns: Bo wins
    rows = {row["address"]: row for row in _table(folder)["rows"]}
    assert (rows["cy@x.org"]["points"], rows["cy@x.org"]["byes"], rows["cy@x.org"]["games"]) == (1, 1, 0)
    assert (rows["cy@x.org"]["mu"], rows["cy@x.org"]["sigma"]) == (25.0, pytest.approx(25 / 3, abs=1e-4))
    assert rows["bo@x.org"]["points"] == 1 and rows["ann@x.org"]["points"] == 0


def test_the_csv_quotes_a_name_with_a_comma_or_a_quote(tmp_path: Path) -> None:
    folder = _write(tmp_path / "csv", 'name = "C"\ngame = "pikemen"\nplayers = 2\n', 2)
    _pair(folder)
    path = folder / "r1-t1.rgn"
    # league.toml refuses such names; a record edited by hand can still seat one
    odd = 'Doe, Jo "JJ"'
    tag = '[Red "\\"Doe, Jo \\\\\\"JJ\\\\\\"\\" <jo@x.org>"]'  # the value "Doe, Jo \"JJ\"" <jo@x.org>, escaped
    text = path.read_text(encoding="utf-8").replace('[Red "Ann <ann@x.org>"]', tag)
    path.write_text(text, encoding="utf-8")
    code, out, err = _run("status", str(folder), "--json")
    assert code == 0, err
    seated = json.loads(out)["games"][0]["seats"][0]
    result = invoke("league", "standings", str(folder), "--csv")
    assert result.exit_code == 0, result.stderr
    data = result.stdout_bytes.decode("utf-8-sig")
    assert data.startswith("rank,player,address,games,wins,draws,losses,points,byes,mu,sigma,rating,timeouts,")
    rows = list(csv.DictReader(io.StringIO(data, newline="")))
    assert seated["name"] == odd
    assert {row["player"] for row in rows} == {odd, "Ann", "Bo"}  # Ann is in no game now, still a player
    assert all(len(row) == 15 for row in rows)  # with `standing` (LEAGUE.md §6)
    assert {row["standing"] for row in rows} == {"provisional"}
    assert '"Doe, Jo ""JJ"""' in data, "quoted, with its quotes doubled"


def test_leave_and_site_report_in_json(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _timed_league(folder)
    code, out, err = _run("leave", str(folder), "ann@x.org", "1d", "--now", "2026-12-01T13:00:00Z", "--json")
    assert code == 0, err
    assert json.loads(out) == {
        "player": "ann@x.org",
        "duration": "1d",
        "games": [{"game": "r1-t1", "sides": ["Red"]}],
        "used": "1d",
        "allowance": "3d",
    }
    code, out, err = _run("site", str(folder), "-o", str(tmp_path / "site"), "--json")
    assert code == 0, err
    built = json.loads(out)
    assert "index.html" in built["written"] and "r1-t1.html" in built["written"] and built["removed"] == []
    code, out, err = _run("site", str(folder), "-o", str(tmp_path / "site"), "--json")
    assert code == 0 and json.loads(out)["written"] == [], "nothing changed, nothing written"
