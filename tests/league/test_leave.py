"""`referee league leave` (LEAGUE.md §3): a grant with its stamp to each of the player's
sides in every ongoing game, within `leave_days` counted once per call, never trimmed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import invoke
from tests.helpers.league import first, make_league, season

START = "2026-12-01T12:00:00Z"


def _league(folder: Path, game: str, count: int, control: str, leave_days: int) -> None:
    extra = f"leave_days = {leave_days}\n"
    make_league(folder, *season(game, 2, control), name=None, names=first(count), extra=extra, pair_at=START)


def _clock(path: Path) -> dict[str, object]:
    code, out, _ = invoke("check", str(path), "--json")
    assert code == 0, out
    clock: dict[str, object] = json.loads(out)["clock"]
    return clock


def test_leave_grants_every_side_of_the_player_and_is_counted_once_per_call(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "nika", 2, "3d+0m", 5)  # with 2 players each holds two cities of one game
    game = folder / "r1-t1.rgn"
    sides = [s for s in ("Athens", "Sparta", "Messene", "Thebes") if "ann@example.org" in _tag(game, s)]
    assert len(sides) == 2
    code, out, err = invoke("league", "leave", str(folder), "ann@example.org", "3d", "--now", "2026-12-02T12:00:00Z")
    assert code == 0, err
    assert "leave used 3d of 5d; 2d left" in out
    text = game.read_text(encoding="utf-8")
    for side in sides:
        assert f"[%grant {side} 3d]" in text
    assert "[%at 2026-12-02T12:00:00Z" in text  # the grant's stamp, as play --grant writes it
    clock = _clock(game)
    remaining = clock["remaining"]
    assert isinstance(remaining, dict)
    for side in sides:  # 3d + 3d granted, less the day the running city's clock ran
        assert remaining[side] == 6 * 86_400 - (86_400 if side == clock["running"] else 0)
    log = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert [(e["player"], e["duration"]) for e in log if e["event"] == "leave"] == [("ann@example.org", "3d")]


def test_leave_beyond_the_allowance_is_refused_never_trimmed(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, "3d+0m", 4)
    game = folder / "r1-t1.rgn"
    code, _, err = invoke("league", "leave", str(folder), "bo@example.org", "3d", "--now", "2026-12-02T12:00:00Z")
    assert code == 0, err
    before = game.read_bytes(), (folder / "league.log").read_bytes()
    code, out, err = invoke("league", "leave", str(folder), "bo@example.org", "2d", "--now", "2026-12-02T13:00:00Z")
    assert code == 1 and "would exceed" in err and out == ""
    assert (game.read_bytes(), (folder / "league.log").read_bytes()) == before  # nothing written
    code, _, err = invoke("league", "leave", str(folder), "bo@example.org", "1d", "--now", "2026-12-02T14:00:00Z")
    assert code == 0, err  # exactly the allowance is within it
    code, _, err = invoke("league", "leave", str(folder), "bo@example.org", "1m", "--now", "2026-12-02T15:00:00Z")
    assert code == 1


def test_leave_under_d_per_move_is_kept_for_the_sides_next_turn(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, "1d/move", 3)
    game = folder / "r1-t1.rgn"
    status = json.loads(invoke("league", "status", str(folder), "--json")[1])["games"][0]
    seat = next(seat for seat in status["seats"] if seat["address"] != status["to_move_player"])
    waiting, address = seat["sides"][0], seat["address"]
    code, _, err = invoke("league", "leave", str(folder), address, "2d", "--now", "2026-12-01T18:00:00Z")
    assert code == 0, err
    remaining = _clock(game)["remaining"]
    assert isinstance(remaining, dict) and remaining[waiting] == 3 * 86_400  # D plus the grant (TIME.md §3)


def test_leave_usage_errors(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, "3d+0m", 4)
    code, _, err = invoke("league", "leave", str(folder), "zed@example.org", "1d")
    assert code == 2 and "ADDRESS" in err
    code, _, err = invoke("league", "leave", str(folder), "ann@example.org", "forever")
    assert code == 2 and "DURATION" in err
    code, _, err = invoke("league", "leave", str(folder), "ann@example.org", "1d", "--now", "soon")
    assert code == 2 and "--now" in err


def _tag(path: Path, name: str) -> str:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(f'[{name} "'):
            return line.split('"')[1]
    return ""
