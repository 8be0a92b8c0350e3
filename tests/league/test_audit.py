"""Three gaps of `referee league` found by the audit of LEAGUE.md (docs/league-tests.md):
`status` shows each game's deadline (TIME.md §3); a Pikemen player timed out of a 3-4
player game has left it (TIME.md §4), for placings and the `time-outs` column; and a
reader of standard output that goes away (`| head -1`) ends every command quietly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from referee.league.results import read_game
from tests.helpers.cli import invoke
from tests.helpers.league import first, make_league, season
from tests.helpers.process import REFEREE

START = "2026-12-01T12:00:00Z"
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def _league(folder: Path, game: str, per_game: int, count: int, control: str | None) -> None:
    make_league(folder, *season(game, per_game, control), name="Gaps", names=first(count), pair_at=START)


def _status(folder: Path) -> dict[str, object]:
    code, out, err = invoke("league", "status", str(folder), "--json")
    assert code == 0, err
    game: dict[str, object] = json.loads(out)["games"][0]
    return game


def _first_move(path: Path) -> str:
    code, out, err = invoke("moves", str(path))
    assert code == 0, err
    return out.splitlines()[1].strip()


def _sides(folder: Path) -> dict[str, str]:
    """The address of each side of the league's game r1-t1."""
    seats = _status(folder)["seats"]
    assert isinstance(seats, list)
    return {side: seat["address"] for seat in seats for side in seat["sides"]}


# -- status: the deadline ----------------------------------------------------------------


def test_status_shows_the_deadline_of_the_side_to_move(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, "3d+1d")
    game = folder / "r1-t1.rgn"
    assert _status(folder)["deadline"] == "2026-12-04T12:00:00Z"  # Start + 3d: Red's bank
    code, out, _ = invoke("league", "status", str(folder))
    assert code == 0 and "Red (" in out and "to move, deadline 2026-12-04T12:00:00Z" in out, out
    code, out, err = invoke("play", str(game), _first_move(game), "--now", "2026-12-02T12:00:00Z")
    assert code == 0, out + err
    # Blue's clock runs from Red's stamp with its whole bank of 3d
    status = _status(folder)
    assert status["to_move"] == "Blue" and status["deadline"] == "2026-12-05T12:00:00Z"
    assert status["last_submission"] == "2026-12-02T12:00:00Z" and status["to_move_player"] == "bo@example.org"
    assert [seat["sides"] for seat in status["seats"]] == [["Red"], ["Blue"]]  # type: ignore[index]
    code, out, err = invoke("play", str(game), "--grant", "Blue=1d", "--now", "2026-12-02T13:00:00Z")
    assert code == 0, out + err
    assert _status(folder)["deadline"] == "2026-12-06T12:00:00Z"  # a grant moves it
    code, out, err = invoke("play", str(game), "resign", "--now", "2026-12-02T14:00:00Z")
    assert code == 0, out + err
    finished = _status(folder)
    assert finished["status"] == "finished" and finished["deadline"] is None
    assert "deadline" not in invoke("league", "status", str(folder))[1]


def test_an_untimed_leagues_games_have_no_deadline(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, None)
    assert _status(folder)["deadline"] is None
    code, out, _ = invoke("league", "status", str(folder))
    assert code == 0 and "to move" in out and "deadline" not in out


# -- a Pikemen time-out is a leaving ----------------------------------------------------


def test_a_pikemen_player_timed_out_has_left_the_game_for_placings_and_time_outs(tmp_path: Path) -> None:
    """Red resigns, Yellow is timed out by `tick`, Blue resigns: Green wins, then Blue
    (the last to leave), Yellow, Red; Yellow has one time-out, counted at once."""
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 4, 4, "3d+0m")
    game = folder / "r1-t1.rgn"
    address = _sides(folder)
    code, out, err = invoke("play", str(game), "resign", "--now", "2026-12-01T13:00:00Z")
    assert code == 0, out + err
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-04T14:00:00Z", "--json")
    assert code == 0, err
    assert [(e["event"], e["side"]) for e in json.loads(out)["entries"]] == [("timeout", "Yellow")]
    ongoing = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    timeouts = {row["address"]: row["timeouts"] for row in ongoing["rows"]}
    assert timeouts == {a: int(side == "Yellow") for side, a in address.items()}  # the game goes on
    assert _status(folder)["to_move"] == "Blue"
    code, out, err = invoke("play", str(game), "resign", "--now", "2026-12-04T15:00:00Z")
    assert code == 0, out + err

    result = read_game(game, 1, 1)
    assert result.finished and result.winners == ("Green",) and result.reason == "last-player"
    order = ["Green", "Blue", "Yellow", "Red"]
    assert dict(zip(result.teams, result.places, strict=True)) == {(address[s],): n for n, s in enumerate(order, 1)}
    assert result.timeouts == (address["Yellow"],)

    model = PlackettLuce()
    ratings = [[model.rating()] for _ in order]
    expected = {address[s]: team[0] for s, team in zip(order, model.rate(ratings, ranks=[1, 2, 3, 4]), strict=True)}
    table = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    rows = {row["address"]: row for row in table["rows"]}
    for who, rating in expected.items():
        assert rows[who]["mu"] == pytest.approx(rating.mu, abs=1e-4)
        assert rows[who]["sigma"] == pytest.approx(rating.sigma, abs=1e-4)
        assert rows[who]["timeouts"] == (1 if who == address["Yellow"] else 0)
    assert [row["address"] for row in table["rows"]][0] == address["Green"]
    assert rows[address["Yellow"]]["rating"] > rows[address["Red"]]["rating"]  # left later: placed higher


def test_a_three_player_timeout_that_leaves_one_side_ends_the_game_on_last_player(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "1d+0m")
    address = _sides(folder)
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-02T13:00:00Z")  # Red times out
    assert code == 0, err
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-03T14:00:00Z")  # then Yellow
    assert code == 0, err
    result = read_game(folder / "r1-t1.rgn", 1, 1)
    assert result.finished and result.winners == ("Blue",) and result.reason == "last-player"
    places = dict(zip(result.teams, result.places, strict=True))
    assert places == {(address["Blue"],): 1, (address["Yellow"],): 2, (address["Red"],): 3}
    assert sorted(result.timeouts) == sorted([address["Red"], address["Yellow"]])


# -- a reader that goes away ---------------------------------------------------------------


def _big_league(folder: Path) -> None:
    """A league of 400 players: its table is far more than a pipe holds."""
    code, _, err = invoke("league", "init", str(folder), "--game", "numica", "--players", "2", "--name", "Big")
    assert code == 0, err
    path = folder / "league.toml"
    players = "".join(f'\n[[player]]\nname = "P{n}"\naddress = "p{n}@example.org"\n' for n in range(400))
    path.write_text(path.read_text(encoding="utf-8") + players, encoding="utf-8")


@pytest.mark.parametrize("options", [[], ["--json"], ["--csv"]], ids=["text", "json", "csv"])
def test_standings_piped_into_head_is_quiet(tmp_path: Path, options: list[str]) -> None:
    folder = tmp_path / "big"
    _big_league(folder)
    command = [*REFEREE, "league", "standings", str(folder), *options]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert process.stdout is not None and process.stderr is not None
    head = subprocess.run(["head", "-c", "20"], stdin=process.stdout, capture_output=True, check=False, timeout=60)
    process.stdout.close()  # only `head` reads it now: `standings | head -c 20`
    errors = process.stderr.read()
    # 2 when a write met the closed pipe (quiet, as referee.cli.entry says of every
    # command), 0 when the whole output fitted in the pipe before `head` left
    assert process.wait(timeout=120) in (0, 2)
    assert errors == b"", errors
    assert len(head.stdout) == 20


LEAGUE_COMMANDS = [
    ["status", "{d}"],
    ["status", "{d}", "--json"],
    ["standings", "{d}"],
    ["standings", "{d}", "--json"],
    ["standings", "{d}", "--csv"],
    ["tick", "{d}", "--now", "2026-12-20T12:00:00Z"],
    ["tick", "{d}", "--now", "2026-12-20T12:00:00Z", "--json"],
    ["leave", "{d}", "ann@example.org", "1d", "--now", "2026-12-01T13:00:00Z"],
    ["leave", "{d}", "ann@example.org", "1d", "--now", "2026-12-01T13:00:00Z", "--json"],
    ["site", "{d}", "-o", "{t}/site"],
    ["init", "{t}/other", "--game", "numica", "--players", "2"],
    ["add", "{t}/fresh", "ed@example.org", "--name", "Ed"],
    ["pair", "{t}/fresh", "--now", START],
    ["pair", "{t}/fresh", "--now", START, "--json"],
]


@pytest.fixture(scope="module")
def quiet_leagues(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once for the module, copied for each command: `lg`, a paired timed Pikemen league
    with leave days, and `fresh`, a Numica league of two players not yet paired (neither
    names a path of its own)."""
    made = tmp_path_factory.mktemp("quiet")
    folder = made / "lg"
    _league(folder, "pikemen", 2, 2, "7d+1d")
    text = (folder / "league.toml").read_text(encoding="utf-8")
    (folder / "league.toml").write_text(text.replace("[[player]]", "leave_days = 3\n\n[[player]]", 1), encoding="utf-8")
    fresh = made / "fresh"
    code, _, err = invoke("league", "init", str(fresh), "--game", "numica", "--players", "2")
    assert code == 0, err
    for name in ("Ann", "Bo"):
        assert invoke("league", "add", str(fresh), f"{name.lower()}@example.org", "--name", name)[0] == 0
    return made


@pytest.mark.parametrize("command", LEAGUE_COMMANDS, ids=" ".join)
def test_every_league_command_is_quiet_when_nobody_reads_its_output(
    tmp_path: Path, quiet_leagues: Path, command: list[str]
) -> None:
    """The read end of the pipe is closed before the command starts, so its first write
    fails (EPIPE) whatever its length: the deterministic form of `| head -0`."""
    folder = tmp_path / "lg"
    for name in ("lg", "fresh"):
        shutil.copytree(quiet_leagues / name, tmp_path / name, symlinks=True)
    args = [part.replace("{d}", str(folder)).replace("{t}", str(tmp_path)) for part in command]
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [*REFEREE, "league", *args], stdout=write, stderr=subprocess.PIPE, env=ENV, check=False, timeout=120
        )
    finally:
        os.close(write)
    assert done.stderr == b"", done.stderr
    assert done.returncode == 2


def test_leave_grants_nothing_to_a_side_that_has_left_the_game(tmp_path: Path) -> None:
    """Red timed out of a 3-player Pikemen game that goes on: its clock runs no more, so its
    player's leave has nothing to grant there (and is not counted); Yellow's is granted."""
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "3d+0m")
    text = (folder / "league.toml").read_text(encoding="utf-8")
    (folder / "league.toml").write_text(text.replace("[[player]]", "leave_days = 5\n\n[[player]]", 1), encoding="utf-8")
    address = _sides(folder)
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-04T13:00:00Z")
    assert code == 0, err
    game = folder / "r1-t1.rgn"
    before = game.read_bytes()
    code, out, err = invoke("league", "leave", str(folder), address["Red"], "1d", "--now", "2026-12-04T14:00:00Z")
    assert code == 1 and "no ongoing game" in err and out == "", out + err
    assert game.read_bytes() == before and '"leave"' not in (folder / "league.log").read_text(encoding="utf-8")
    code, out, err = invoke("league", "leave", str(folder), address["Yellow"], "1d", "--now", "2026-12-04T14:00:00Z")
    assert code == 0 and "r1-t1: Yellow +1d" in out, out + err
    assert _status(folder)["deadline"] == "2026-12-08T13:00:00Z"  # Yellow's 3d from Red's time-out, and 1d


OTHER_COMMANDS = [
    ["check", "{g}"],
    ["check", "--json", "{g}"],
    ["replay", "{g}"],
    ["replay", "--json", "{g}"],
    ["show", "{g}"],
    ["show", "--svg", "{g}"],
    ["moves", "{g}"],
    ["format", "{g}"],
    ["stats", "{g}"],
    ["play", "{g}", "--dry-run"],
    ["new", "numica"],
    ["games"],
    ["games", "--json"],
    ["--help"],
    ["league", "--help"],
    ["--version"],
]


@pytest.mark.parametrize("command", OTHER_COMMANDS, ids=" ".join)
def test_every_other_command_is_quiet_when_nobody_reads_its_output(tmp_path: Path, command: list[str]) -> None:
    game = tmp_path / "g.rgn"
    game.write_text('[Game "numica"]\n[Seed "pipe"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n', encoding="utf-8")
    args = [part.replace("{g}", str(game)) for part in command]
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run(
            [*REFEREE, *args], stdout=write, stderr=subprocess.PIPE, env=ENV, check=False, timeout=120
        )
    finally:
        os.close(write)
    assert done.stderr == b"" and done.returncode == 2, done.stderr
