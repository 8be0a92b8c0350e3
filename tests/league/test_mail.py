"""The mail gateway on a league's folder (LEAGUE.md §1, §3; PLAY.md §5.1): `referee mail
receive DIR` where DIR holds `league.toml` plays with the league's keys, answers moves as
the league's `digest` says, and reads the requests `leave DURATION` and `status`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import invoke
from tests.helpers.league import first, make_league, outbox, season
from tests.helpers.mail import GM, message

START = "2026-12-01T12:00:00Z"
ADDRESSES = {"Ann": "ann@example.org", "Bo": "bo@example.org", "Cy": "cy@example.org"}


def _league(folder: Path, game: str, per_game: int, count: int, extra: str = "") -> None:
    options = season(game, per_game, "3d+0m")
    make_league(folder, *options, name="Autumn", names=first(count), extra=extra, pair_at=START, clear_outbox=True)


# Not tests.helpers.mail's mail_gm: a league's mail runs in-process at a set instant (--now),
# with no SMTP server (answers go to the league's outbox), on a message this helper writes.
def _mail(folder: Path, sender: str, subject: str, body: str, now: str, *extra: str, **headers: str) -> str:
    data = message(sender, subject, body, **headers).as_bytes()
    code, out, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", now, *extra, stdin=data)
    assert code == 0, out + err
    assert "Traceback" not in err
    return err


def _answers(folder: Path) -> list[tuple[set[str], str]]:
    """(recipients, text) of every answer in the outbox, then the outbox emptied."""
    return [(set(mail.to), mail.text) for mail in outbox(folder, empty=True)]


def _told(answers: list[tuple[set[str], str]]) -> list[str]:
    """Every recipient of every answer, once per answer they got."""
    return sorted(address for recipients, _ in answers for address in recipients)


def _seats(path: Path) -> dict[str, str]:
    """Side -> address, from the game's side tags."""
    seats = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        for side in ("Red", "Yellow", "Blue", "Green"):
            if line.startswith(f'[{side} "'):
                seats[side] = line.split("<")[1].split(">")[0]
    return seats


def _first_move(path: Path) -> str:
    code, out, err = invoke("moves", str(path))
    assert code == 0, err
    return out.splitlines()[1].strip()


def _mail_log(folder: Path) -> list[str]:
    return [line.split()[-1] for line in (folder / "mail.log").read_text(encoding="utf-8").splitlines()]


def _red_moved(folder: Path, extra: str = "") -> tuple[Path, dict[str, str]]:
    """Ann, Bo and Cy's three-player Pikemen league (`extra` in its league.toml), in which
    Red mails the first legal move of r1-t1 at 13:00: that game and its seats."""
    _league(folder, "pikemen", 3, 3, extra)
    game = folder / "r1-t1.rgn"
    seats = _seats(game)
    _mail(folder, seats["Red"], "[r1-t1] my move", _first_move(game), "2026-12-01T13:00:00Z")
    return game, seats


# -- digest = "daily" (LEAGUE.md §3 "Digest mode") --------------------------------------------


def test_daily_digest_answers_a_move_only_to_its_sender_and_the_player_now_to_move(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    game, seats = _red_moved(folder, 'digest = "daily"\n')
    answers = _answers(folder)
    assert _told(answers) == sorted([seats["Red"], seats["Yellow"]])  # Blue reads it in the digest
    assert all("played in game r1-t1" in text for _, text in answers)
    # what the gateway plays is stamped at --now, as play stamps it
    assert "{[%at 2026-12-01T13:00:00Z Red]}" in game.read_text(encoding="utf-8")
    # and the next daily digest tells Blue (the move) as well
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-02T00:05:00Z", "--json")
    assert code == 0, err
    digests = {entry["to"] for entry in json.loads(out)["entries"] if entry["event"] == "digest"}
    assert seats["Blue"] in digests


def test_every_move_league_answers_every_player_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _red_moved(folder)  # digest defaults to every-move: PLAY.md §5 as it stands
    assert _told(_answers(folder)) == sorted(ADDRESSES.values())


def test_daily_digest_still_sends_offers_and_a_game_s_end_to_everyone(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, 'digest = "daily"\n')
    seats = _seats(folder / "r1-t1.rgn")
    everyone = sorted(ADDRESSES.values())
    _mail(folder, seats["Blue"], "[r1-t1] draw?", "draw", "2026-12-01T13:00:00Z")  # an offer: everyone
    offered = _answers(folder)
    assert _told(offered) == everyone and all("draw" in text for _, text in offered)
    _mail(folder, seats["Red"], "[r1-t1] bye", "resign", "2026-12-01T14:00:00Z")  # a move: Red and Yellow
    assert _told(_answers(folder)) == sorted([seats["Red"], seats["Yellow"]])
    _mail(folder, seats["Yellow"], "[r1-t1] bye", "resign", "2026-12-01T15:00:00Z")  # the end: everyone
    ended = _answers(folder)
    assert _told(ended) == everyone
    assert all("Blue wins" in text for _, text in ended)


def test_daily_digest_sends_an_undo_agreed_to_everyone(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    game, seats = _red_moved(folder, 'digest = "daily"\n')
    _answers(folder)
    for number, side in enumerate(("Yellow", "Blue", "Red")):
        _mail(folder, seats[side], "[r1-t1] take it back", "undo", f"2026-12-01T14:0{number}:00Z")
        answers = _answers(folder)
        assert _told(answers) == sorted(ADDRESSES.values()), side
    assert "{undone by agreement" in game.read_text(encoding="utf-8")


def test_a_refusal_goes_to_its_sender_alone_in_daily_mode(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, 'digest = "daily"\n')
    seats = _seats(folder / "r1-t1.rgn")
    _mail(folder, seats["Red"], "[r1-t1] my move", "z9(N)", "2026-12-01T13:00:00Z")
    answers = _answers(folder)
    assert _told(answers) == [seats["Red"]] and "not played" in answers[0][1]


# -- the league's keys --------------------------------------------------------------------------


def test_the_gateway_uses_the_league_s_keys_and_reveals_the_seed_when_a_game_ends(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "nieuchess", 2, 2)
    game = folder / "r1-t1.rgn"
    seed = (folder / "keys" / "r1-t1.key").read_text(encoding="utf-8").strip()
    _mail(folder, _seats(game)["Red"], "[r1-t1] I give up", "resign", "2026-12-01T13:00:00Z")
    answers = _answers(folder)
    revealed = [text for _, text in answers if "seed of its dice is revealed" in text]
    assert len(revealed) == 1 and seed in revealed[0]
    assert f'[Seed "{seed}"]' in game.read_text(encoding="utf-8")


def test_an_explicit_keys_folder_wins_over_the_league_s(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "nieuchess", 2, 2)
    other = tmp_path / "other-keys"
    other.mkdir()
    game = folder / "r1-t1.rgn"
    _mail(folder, _seats(game)["Red"], "[r1-t1] I give up", "resign", "2026-12-01T13:00:00Z", "--keys", str(other))
    assert not any("seed of its dice is revealed" in text for _, text in _answers(folder))
    assert "[Seed " not in game.read_text(encoding="utf-8")  # left for tick to reveal


def test_a_broken_league_toml_is_a_usage_error_naming_the_key(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3)
    toml = folder / "league.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + 'digest = "weekly"\n', encoding="utf-8")
    data = message(ADDRESSES["Ann"], "[r1-t1] move", "status").as_bytes()
    code, _, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", START, stdin=data)
    assert code == 2 and "digest" in err and "Traceback" not in err


# -- leave and status by mail -----------------------------------------------------------------


def test_leave_by_mail_grants_as_league_leave_does_and_is_refused_beyond_the_allowance(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "leave_days = 3\n")
    game = folder / "r1-t1.rgn"
    bo = ADDRESSES["Bo"]
    side = next(side for side, address in _seats(game).items() if address == bo)
    _mail(folder, bo, "[r1-t1] away", "leave 2d", "2026-12-01T13:00:00Z", message_id="<leave-1@example.org>")
    answers = _answers(folder)
    tokens = [answer for answer in answers if "has a new token" in answer[1]]  # to the player to move
    answers = [answer for answer in answers if answer not in tokens]
    assert _told(answers) == [bo] and "2d of leave granted" in answers[0][1] and "1d left" in answers[0][1]
    mover = _seats(game)[json.loads(invoke("check", "--json", str(game))[1])["to_move"]]
    assert _told(tokens) == [mover]
    assert f"[%grant {side} 2d]" in game.read_text(encoding="utf-8")
    leaves = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert [entry["duration"] for entry in leaves if entry["event"] == "leave"] == ["2d"]
    # the same message delivered again grants nothing more
    _mail(folder, bo, "[r1-t1] away", "leave 2d", "2026-12-01T13:05:00Z", message_id="<leave-1@example.org>")
    repeated = _answers(folder)
    assert _told(repeated) == [bo] and "before and was played" in repeated[0][1]
    # 2d more would exceed leave_days = 3: refused, never trimmed, nothing written
    before = game.read_text(encoding="utf-8")
    _mail(folder, bo, "[r1-t1] away", "leave 2d", "2026-12-01T14:00:00Z")
    refused = _answers(folder)
    assert _told(refused) == [bo] and "not granted" in refused[0][1] and "exceed" in refused[0][1]
    assert game.read_text(encoding="utf-8") == before
    assert _mail_log(folder) == ["played", "duplicate", "refused"]
    leaves = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert [entry["duration"] for entry in leaves if entry["event"] == "leave"] == ["2d"]


def test_leave_by_mail_without_a_duration_is_answered_with_its_form(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "leave_days = 3\n")
    for body in ("leave", "leave soon", "leave " + "9" * 60 + "d"):
        _mail(folder, ADDRESSES["Ann"], "[r1-t1] away", body, "2026-12-01T13:00:00Z")
        answers = _answers(folder)
        assert _told(answers) == [ADDRESSES["Ann"]] and "leave DURATION" in answers[0][1]
    assert _mail_log(folder) == ["refused", "refused", "refused"]
    assert not (folder / "league.log").read_text(encoding="utf-8").count('"leave"')


def _with_keys(folder: Path) -> None:
    for address in ADDRESSES.values():
        passphrase = f"secret of {address}\n".encode()
        code, _, err = invoke("mail", "add-player", str(folder), address, stdin=passphrase)
        assert code == 0, err


def _token(path: Path) -> str:
    code, out, err = invoke("check", str(path), "--json")
    assert code == 0, err
    token: str = json.loads(out)["token"]
    return token


def test_leave_by_mail_needs_the_current_token_where_players_have_keys(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "leave_days = 5\n")
    _with_keys(folder)
    game = folder / "r1-t1.rgn"
    cy = ADDRESSES["Cy"]
    key = f"Key: secret of {cy}\n"
    _mail(folder, cy, "[r1-t1] away", f"{key}leave 1d", "2026-12-01T13:00:00Z")
    assert "carries no Token" in _answers(folder)[0][1]
    stale = _token(game)
    _mail(folder, ADDRESSES["Ann"], "[r1-t1] away", f"Key: secret of ann@example.org\nToken: {stale}\nleave 1d", START)
    _answers(folder)
    _mail(folder, cy, "[r1-t1] away", f"{key}Token: {stale}\nleave 1d", "2026-12-01T13:00:00Z")
    refused = _answers(folder)[0][1]
    assert "not the current one" in refused and _token(game) in refused
    _mail(folder, cy, "[r1-t1] away", f"{key}Token: {_token(game)}\nleave 1d", "2026-12-01T13:00:00Z")
    assert any("1d of leave granted" in text for _, text in _answers(folder))
    assert _mail_log(folder) == ["refused", "played", "refused", "played"]


def test_status_by_mail_lists_the_sender_s_games_and_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, 'digest = "daily"\n')
    _with_keys(folder)
    game = folder / "r1-t1.rgn"
    seats = _seats(game)
    ann = ADDRESSES["Ann"]
    before = {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}
    # no Token: needed, the Key: still is
    _mail(folder, ann, "[r1-t1] where am I", f"Key: secret of {ann}\nstatus", "2026-12-01T14:00:00Z")
    answers = _answers(folder)
    assert _told(answers) == [ann]
    text = answers[0][1]
    seat = list(seats).index(next(side for side, address in seats.items() if address == ann)) + 1
    assert f"[r1-t1] round 1, seat {seat}" in text
    assert "Red (" in text and "to move" in text
    assert "deadline 2026-12-04 12:00 UTC (2d22h left)" in text and text.count("deadline") == 1
    assert f"token {_token(game)}" in text
    after = {path.name: path.read_bytes() for path in folder.iterdir() if path.is_file()}
    changed = {name for name in after if before.get(name) != after[name]}
    assert changed == {"mail.log"}  # no game, no league.log, no ledger line
    assert _mail_log(folder) == ["shown"]
    # a wrong key is still not accepted
    _mail(folder, ann, "[r1-t1] where am I", "Key: guess\nstatus", "2026-12-01T14:00:00Z")
    assert _mail_log(folder)[-1] == "not-accepted"


def test_status_and_leave_are_moves_outside_a_league_folder(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "pikemen", 3, 3, "leave_days = 5\n")
    (folder / "league.toml").unlink()
    _mail(folder, ADDRESSES["Ann"], "[r1-t1] status", "status", START)
    assert "not played" in _answers(folder)[0][1]
    assert _mail_log(folder) == ["refused"]


def test_a_player_who_forgets_the_id_is_told_their_open_games_and_a_stranger_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "nika", 2, 2)
    token = json.loads(invoke("check", "--json", str(folder / "r1-t1.rgn"))[1])["token"]
    err = _mail(folder, "Ann <ann@example.org>", "my move", "d1-W d2-W", "2026-12-01T13:00:00Z")
    assert "answered with the player's open games" in err
    [(to, text)] = _answers(folder)
    assert to == {"ann@example.org"}
    assert "names no game of the league in its Subject, so nothing was played" in text
    assert f"  [r1-t1] round 1: your move; deadline 2026-12-04 12:00 UTC (2d23h left); token {token}" in text
    _mail(folder, "Bo <bo@example.org>", "[r9-t9] hello", "show", "2026-12-01T13:00:00Z")  # no such game
    [(_, bo)] = _answers(folder)
    assert f"  [r1-t1] round 1: Ann (Athens) to move; deadline 2026-12-04 12:00 UTC (2d23h left); token {token}" in bo
    err = _mail(folder, "Eve <eve@example.org>", "my move", "d1-W d2-W", "2026-12-01T13:00:00Z")
    assert "no answer" in err and _answers(folder) == []
    log = (folder / "mail.log").read_text(encoding="utf-8")
    assert log.count("no-game") == 3
