"""The roster once the season has begun (docs/league.md, "The roster"): withdraw,
substitute, address and unpair, each logged in league.log, told to the players concerned,
with standings still derived from the game files and the log."""

from __future__ import annotations

import json
from pathlib import Path

from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke
from tests.helpers.league import addressed, make_league
from tests.helpers.league import log as _log

START = "2026-12-01T12:00:00Z"


_league = make_league


def _outbox(folder: Path) -> list[tuple[str, str, str]]:
    """(first recipient, subject, text) of every mail in the outbox, which is then emptied."""
    return addressed(folder, empty=True)


def test_unpair_takes_back_the_last_round_only_while_no_move_is_played(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    _outbox(folder)
    code, out, err = invoke("league", "unpair", str(folder), "--now", START)
    assert code == 0, err
    assert out.splitlines() == ["round 1 unpaired: r1-t1, r1-t2 deleted", "mails: 4 into the outbox"]
    assert not list(folder.glob("*.rgn"))
    mails = _outbox(folder)
    assert sorted(to for to, _, _ in mails) == [f"{n}@example.org" for n in ("ann", "bo", "cy", "di")]
    assert all(
        subject == "T: round 1 unpaired" and "[r1-t1], [r1-t2] are deleted" in body for _, subject, body in mails
    )
    assert _log(folder, "unpair") == [{"event": "unpair", "at": START, "round": 1, "games": ["r1-t1", "r1-t2"]}]
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0  # paired again, the same round
    assert submit(folder / "r1-t2.rgn", "d1-W d2-W", now=parse_instant(START) + 60).exit_code == 0
    code, _, err = invoke("league", "unpair", str(folder), "--now", START)
    assert code == 1 and "a move is played in r1-t2" in err and (folder / "r1-t1.rgn").exists()


def test_a_withdrawn_player_forfeits_is_paired_no_more_and_gets_no_more_byes(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(
        folder, "--game", "nika", "--players", "2", "--pairing", "swiss", "--rounds", "3", "--time-control", "3d+0m"
    )
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0  # Ann-Bo, Cy-Di
    _outbox(folder)
    code, out, err = invoke("league", "withdraw", str(folder), "di@example.org", "--now", START)
    assert code == 0, err
    assert "r1-t2: forfeited when di@example.org is to move" in out
    mails = _outbox(folder)
    assert sorted(to for to, _, _ in mails) == ["cy@example.org", "di@example.org"]
    assert all("Di <di@example.org> has withdrawn" in body for _, _, body in mails)
    assert invoke("league", "withdraw", str(folder), "di@example.org")[0] == 1  # once
    assert invoke("league", "withdraw", str(folder), "eve@example.org")[0] == 2  # no player
    # Cy moves; Di's side is then to move: the tick writes the forfeit
    assert submit(folder / "r1-t2.rgn", "d1-W d2-W", as_side="Athens", now=parse_instant(START) + 60).exit_code == 0
    ticked = json.loads(invoke("league", "tick", str(folder), "--now", "2026-12-01T13:00:00Z", "--json")[1])
    assert [entry["event"] for entry in ticked["entries"]] == ["forfeit"]
    assert "Sparta resigned (forfeit)" in _outbox(folder)[0][2]
    check = json.loads(invoke("check", "--json", str(folder / "r1-t2.rgn"))[1])
    assert (
        check["status"] == "finished" and check["reason"] == "resignation" and check["winners"] == ["Athens", "Messene"]
    )
    assert submit(folder / "r1-t1.rgn", "resign", now=parse_instant(START) + 120).exit_code == 0  # Ann resigns
    code, out, _ = invoke("league", "pair", str(folder), "--now", "2026-12-02T12:00:00Z", "--json")
    paired = json.loads(out)
    seated = {address for game in paired["games"] for address in game["seats"]} | set(paired["byes"])
    assert "di@example.org" not in seated and len(seated) == 3
    table = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    di = next(row for row in table["rows"] if row["address"] == "di@example.org")
    assert (di["games"], di["losses"], di["byes"], di["points"]) == (1, 1, 0, 0), "no bye after withdrawing"


def test_a_substitute_takes_the_seat_and_an_address_change_follows_the_player(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2")
    code, _, err = invoke("league", "add", str(folder), "ed@example.org", "--name", "Ed")
    assert code == 0, err
    assert invoke("mail", "add-player", str(folder), "bo@example.org", stdin="bo words\n")[0] == 0
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    _outbox(folder)
    # round 1 of 5 players: a game with Bo is played to its end under Bo's address
    bo_game = next(
        path for path in sorted(folder.glob("r1-*.rgn")) if "bo@example.org" in path.read_text(encoding="utf-8")
    )
    assert submit(bo_game, "resign", now=parse_instant(START) + 60).exit_code == 0
    before = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    bo_row = next(row for row in before["rows"] if row["address"] == "bo@example.org")
    code, out, err = invoke("league", "substitute", str(folder), "bo@example.org", "eve@example.org", "--name", "Eve")
    assert code == 0, err
    toml = (folder / "league.toml").read_text(encoding="utf-8")
    assert 'name = "Eve"\naddress = "eve@example.org"' in toml and "bo@example.org" not in toml
    keys = (folder / "players.toml").read_text(encoding="utf-8")
    assert "eve@example.org" not in keys and "bo@example.org" not in keys, "Bo's passphrase is not Eve's"
    assert "issue eve@example.org one" in out
    mails = _outbox(folder)
    assert {"bo@example.org", "eve@example.org"} <= {to for to, _, _ in mails}
    assert all("Eve <eve@example.org> substitutes for Bo" in subject for _, subject, _ in mails)
    after = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    eve_row = next(row for row in after["rows"] if row["address"] == "eve@example.org")
    assert (eve_row["player"], eve_row["games"], eve_row["points"]) == ("Eve", bo_row["games"], bo_row["points"])
    assert "bo@example.org" in bo_game.read_text(encoding="utf-8"), "a finished game keeps its record"
    assert invoke("mail", "add-player", str(folder), "ann@example.org", stdin="ann words\n")[0] == 0
    code, _, err = invoke("league", "address", str(folder), "ann@example.org", "ann@example.net")
    assert code == 0, err
    keys = (folder / "players.toml").read_text(encoding="utf-8")
    assert "ann@example.net" in keys and "ann@example.org" not in keys, "the same player keeps the passphrase"
    ongoing = [path for path in folder.glob("r1-*.rgn") if "ann@example" in path.read_text(encoding="utf-8")]
    assert all("Ann <ann@example.net>" in path.read_text(encoding="utf-8") for path in ongoing)
    assert _log(folder, "address")[-1] == {
        "event": "address", "at": _log(folder, "address")[-1]["at"], "old": "ann@example.org",
        "new": "ann@example.net", "name": "Ann",
    }  # fmt: skip
    assert invoke("league", "address", str(folder), "cy@example.org", "eve@example.org")[0] == 2  # taken


def test_an_address_change_is_told_old_then_new(tmp_path: Path) -> None:
    """Issue 45.2: "Di <old> is now Di <new>", in the Subject and the first line (it read new then old)."""
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2", pair_at=START, clear_outbox=True)
    code, _, err = invoke("league", "address", str(folder), "di@example.org", "di2@example.org")
    assert code == 0, err
    mails = [mail for mail in _outbox(folder) if "your move: the token is now" not in mail[1]]
    assert mails
    for _, subject, body in mails:
        assert subject == "T: Di <di@example.org> is now Di <di2@example.org>"
        assert body.splitlines()[0].startswith("T: Di <di@example.org> is now Di <di2@example.org>")


def test_a_substitutes_mail_carries_no_game_master_to_do(tmp_path: Path) -> None:
    """Issue 45.5: "issue gus@... one (league passphrases --issue)" is the game master's to-do:
    printed by the command, never mailed to the players."""
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2")
    assert invoke("mail", "add-player", str(folder), "bo@example.org", stdin="bo words\n")[0] == 0
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    _outbox(folder)
    code, out, err = invoke("league", "substitute", str(folder), "bo@example.org", "gus@example.org", "--name", "Gus")
    assert code == 0, err
    assert "bo@example.org's passphrase removed: issue gus@example.org one (league passphrases --issue)" in out
    mails = [mail for mail in _outbox(folder) if "your move: the token is now" not in mail[1]]
    assert mails
    for _, subject, body in mails:
        assert "passphrase" not in body and "--issue" not in body, body
        assert subject == "T: Gus <gus@example.org> substitutes for Bo <bo@example.org>"


def test_unpair_gives_back_the_leave_granted_only_in_the_games_it_deletes(tmp_path: Path) -> None:
    """Issue 45.6: a leave whose every game the unpair deletes is given back, logged and told;
    before, the days stayed spent on games that no longer exist."""
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2", "--time-control", "3d+0m", extra="leave_days = 5\n")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    code, _, err = invoke("league", "leave", str(folder), "ann@example.org", "3d", "--now", "2026-12-01T13:00:00Z")
    assert code == 0, err
    _outbox(folder)
    code, out, err = invoke("league", "unpair", str(folder), "--now", "2026-12-01T14:00:00Z")
    assert code == 0, err
    assert "ann@example.org: 3d of leave given back (granted in r1-t1 only, now deleted); 0m of 5d used" in out
    assert _log(folder, "leave-back") == [
        {"event": "leave-back", "at": "2026-12-01T14:00:00Z", "player": "ann@example.org", "duration": "3d",
         "round": 1, "games": ["r1-t1"]},
    ]  # fmt: skip
    ann = [body for to, _, body in _outbox(folder) if to == "ann@example.org"]
    assert len(ann) == 1 and "The 3d of leave you took in [r1-t1] are given back" in ann[0]
    assert invoke("league", "pair", str(folder), "--now", "2026-12-01T15:00:00Z")[0] == 0
    code, out, err = invoke("league", "leave", str(folder), "ann@example.org", "5d", "--now", "2026-12-01T16:00:00Z")
    assert code == 0, err
    assert "leave used 5d of 5d; 0m left" in out
    # a second unpair gives back only the leave taken since the pairing it takes back
    code, out, err = invoke("league", "unpair", str(folder), "--now", "2026-12-01T17:00:00Z")
    assert code == 0, err
    assert [entry["duration"] for entry in _log(folder, "leave-back")] == ["3d", "5d"]
