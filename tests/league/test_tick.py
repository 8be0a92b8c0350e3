"""`referee league tick` (LEAGUE.md §3): time-outs, reminders, reveals and daily digests,
each logged in league.log once done, so a second tick at the same --now does nothing."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import invoke
from tests.helpers.league import addressed, first, make_league, season, tick_json
from tests.helpers.league import log as _log
from tests.helpers.mail import SmtpServer, free_port
from tests.helpers.process import run_referee

START = "2026-12-01T12:00:00Z"


def _league(
    folder: Path, game: str, per_game: int, count: int, control: str, extra: str = "", *, keep: bool = False
) -> None:
    options = season(game, per_game, control)
    make_league(folder, *options, names=first(count), extra=extra, pair_at=START, clear_outbox=not keep)


def mail_of_token(subject: str) -> bool:
    """The new-token mail of a grant, a new address (issue 45.1)."""
    return "your move: the token is now" in subject


def _mails(folder: Path) -> list[tuple[str, str, str]]:
    """(To address, Subject, body) of every mail in the outbox."""
    return addressed(folder)


def _first_move(path: Path) -> str:
    code, out, err = invoke("moves", str(path))
    assert code == 0, err
    return out.splitlines()[1].strip()


def _play(path: Path, now: str) -> None:
    code, out, err = invoke("play", str(path), _first_move(path), "--now", now)
    assert code == 0, out + err


def test_a_three_player_pikemen_timeout_goes_on_and_a_second_tick_does_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "3d+0m")
    game = folder / "r1-t1.rgn"
    assert tick_json(folder, "2026-12-04T11:59:00Z")["entries"] == []  # a minute before the flag
    result = tick_json(folder, "2026-12-04T13:00:00Z")
    assert [entry["event"] for entry in result["entries"]] == ["timeout"]
    text = game.read_text(encoding="utf-8")
    assert "timeout\n{[%at 2026-12-04T13:00:00Z Red]}" in text
    code, out, _ = invoke("check", str(game))
    assert code == 0 and ": ongoing: Yellow to move" in out, out  # Red left; play goes on
    mails = _mails(folder)
    assert sorted(to for to, _, _ in mails) == ["ann@example.org", "bo@example.org", "cy@example.org"]
    assert all(subject == "[r1-t1] timeout: Red" for _, subject, _ in mails)
    log_before = (folder / "league.log").read_bytes()
    again = tick_json(folder, "2026-12-04T13:00:00Z")
    assert again["entries"] == [] and again["queued"] == 0
    assert (folder / "league.log").read_bytes() == log_before and game.read_text(encoding="utf-8") == text
    assert len(_mails(folder)) == 3


def test_a_two_player_timeout_ends_the_game_and_its_seed_is_revealed_once(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "numica", 2, 2, "1d+0m")  # numica deals tiles: dice = "secret"
    game = folder / "r1-t1.rgn"
    key = (folder / "keys" / "r1-t1.key").read_text(encoding="utf-8").strip()
    assert "Seed " not in game.read_text(encoding="utf-8").replace("SeedHash", "")
    result = tick_json(folder, "2026-12-03T00:00:00Z")
    assert [entry["event"] for entry in result["entries"]] == ["timeout", "reveal"]
    code, out, _ = invoke("check", str(game))
    assert code == 0 and "finished" in out and "time" in out, out
    assert f'[Seed "{key}"]' in game.read_text(encoding="utf-8")
    reveals = [(to, body) for to, subject, body in _mails(folder) if subject == "[r1-t1] seed revealed"]
    assert sorted(to for to, _ in reveals) == ["ann@example.org", "bo@example.org"]
    assert all(key in body and "referee check r1-t1.rgn" in body for _, body in reveals)
    assert tick_json(folder, "2026-12-03T00:00:00Z")["entries"] == []
    assert tick_json(folder, "2026-12-05T00:00:00Z")["entries"] == []  # never revealed twice
    assert len(_log(folder, "reveal")) == 1


def test_reminders_once_per_deadline_and_threshold_and_again_when_the_deadline_moves(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, "3d+0m", 'reminders = ["48h", "12h"]\n')
    game = folder / "r1-t1.rgn"
    assert tick_json(folder, "2026-12-02T11:00:00Z")["entries"] == []  # 2d 1h left: nothing due
    first = tick_json(folder, "2026-12-02T13:00:00Z")["entries"]
    assert [(e["threshold"], e["deadline"]) for e in first] == [("2d", "2026-12-04T12:00:00Z")]
    assert tick_json(folder, "2026-12-02T18:00:00Z")["entries"] == []  # the 48h one is not sent twice
    code, out, err = invoke("play", str(game), "--grant", "Red=1d", "--now", "2026-12-02T19:00:00Z")
    assert code == 0, out + err
    assert tick_json(folder, "2026-12-02T20:00:00Z")["entries"] == []  # 2d 16h left again
    moved = tick_json(folder, "2026-12-03T13:00:00Z")["entries"]
    assert [(e["threshold"], e["deadline"]) for e in moved] == [("2d", "2026-12-05T12:00:00Z")]
    every = _mails(folder)
    mails = [mail for mail in every if "reminder" in mail[1]]
    assert [to for to, _, _ in mails] == ["ann@example.org", "ann@example.org"]  # only the side to move
    assert "2026-12-05 12:00 UTC" in mails[1][2] and "Token: " in mails[1][2]
    # between them, the grant's new token to the side to move (issue 45.1)
    assert [(to, subject.split(":")[0]) for to, subject, _ in every if mail_of_token(subject)] == [
        ("ann@example.org", "[r1-t1] your move")
    ]
    # the outbox's files are named by the league's clock (--now), in the order written
    names = sorted(path.name for path in (folder / "outbox").glob("*.eml"))
    assert [name[:15] for name in names] == ["20261202T130000", "20261202T190000", "20261203T130000"]


def test_a_late_tick_sends_only_the_most_urgent_reminder(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, "3d+0m", 'reminders = ["48h", "12h"]\n')
    late = tick_json(folder, "2026-12-04T06:00:00Z")["entries"]  # 6h left: both thresholds passed
    assert [e["threshold"] for e in late] == ["12h"]
    assert tick_json(folder, "2026-12-04T07:00:00Z")["entries"] == []
    assert len(_mails(folder)) == 1


def test_the_digest_goes_once_a_day_only_to_players_with_news(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 4, "7d+0m", 'digest = "daily"\n')
    status = json.loads(invoke("league", "status", str(folder), "--json")[1])
    seats = {game["game"]: [seat["address"] for seat in game["seats"]] for game in status["games"]}
    _play(folder / "r1-t1.rgn", "2026-12-01T13:00:00Z")
    first = tick_json(folder, "2026-12-01T20:00:00Z")["entries"]
    assert sorted(e["to"] for e in first) == sorted(seats["r1-t1"])
    bodies = {to: body for to, _, body in _mails(folder)}
    mover = seats["r1-t1"][1]  # the second seat is now to move
    assert "Your move:" in bodies[mover] and "token " in bodies[mover] and "deadline 2026-12-08" in bodies[mover]
    assert "Moves played:" in bodies[seats["r1-t1"][0]]
    _play(folder / "r1-t1.rgn", "2026-12-01T21:00:00Z")
    assert tick_json(folder, "2026-12-01T23:59:00Z")["entries"] == []  # the same UTC day: no second digest
    nextday = tick_json(folder, "2026-12-02T00:01:00Z")["entries"]
    assert sorted(e["to"] for e in nextday) == sorted(seats["r1-t1"])
    assert tick_json(folder, "2026-12-03T00:01:00Z")["entries"] == []  # nothing new since


def test_tick_with_real_processes_and_its_exit_statuses(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, "1d+0m")
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = run_referee("league", "tick", str(folder), "--now", "2026-12-03T00:00:00Z", env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "timeout: r1-t1 Red"
    code, out, _ = invoke("check", str(folder / "r1-t1.rgn"), "--json")
    verdict = json.loads(out)
    assert verdict["status"] == "finished" and verdict["reason"] == "time" and "Red" not in verdict["winners"]
    table = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    assert sorted(row["timeouts"] for row in table["rows"]) == [0, 1]
    tick = ["league", "tick", str(folder), "--now", "2026-12-03T00:00:00Z"]
    again = run_referee(*tick, env=env)
    assert again.returncode == 0 and again.stdout == "tick: 0 done; mails: 0 sent, 0 into the outbox\n"
    bad = run_referee(*tick[:-1], "yesterday", env=env, timeout=60)
    assert bad.returncode == 2 and "--now" in bad.stderr
    gone = run_referee("league", "tick", str(tmp_path / "nowhere"), env=env, timeout=60)
    assert gone.returncode == 2 and "Traceback" not in gone.stderr


def test_tick_flushes_the_outbox_first_then_sends_by_smtp(tmp_path: Path, smtp: SmtpServer) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, "1d+0m", keep=True)  # the pairing mails wait in the outbox
    assert len(_mails(folder)) == 2
    down = f"127.0.0.1:{free_port()}"
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-03T00:00:00Z", "--smtp", down)
    assert code == 0, err
    # the server is down: the time-out's answers wait too, and so does the season-over notice
    # (the one round's one game is over)
    assert len(_mails(folder)) == 6
    assert out.splitlines()[-2:] == ["season over: bo@example.org", "tick: 1 done; mails: 0 sent, 4 into the outbox"]
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-03T00:00:00Z", "--smtp", smtp.address)
    assert code == 0, err
    assert out == "tick: 0 done; mails: 0 sent, 0 into the outbox, 6 flushed from the outbox\n" and _mails(folder) == []
    subjects = [str(received.message["Subject"]) for received in smtp.received]
    assert subjects[:2] == ["[r1-t1] T", "[r1-t1] T"] and subjects[2:4] == ["[r1-t1] timeout: Red"] * 2
    assert subjects[4:] == ["T: the season is over, champion Bo"] * 2


def test_a_reminder_that_cannot_be_written_is_not_logged_and_comes_next_time(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 2, 2, "3d+0m", 'reminders = ["48h"]\n')
    (folder / "outbox").rmdir()
    (folder / "outbox").write_text("not a folder", encoding="utf-8")
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-03T00:00:00Z")
    # An error, never a silent 0 (docs/files.md): the reminder, its mail and its log line
    # are written together or not at all.
    assert code == 2 and f"cannot write {folder / 'outbox'}" in err and "Traceback" not in err, (code, err)
    assert "the next command on" in err and out == ""  # recorded, and completed once it can be
    (folder / "outbox").unlink()
    assert tick_json(folder, "2026-12-03T00:00:00Z")["entries"] == []
    assert len(_log(folder, "reminder")) == 1
    assert len(list((folder / "outbox").glob("*.eml"))) == 1
