"""Issue 45.1 outside a league: `play --grant` on a game of a mail gateway's folder mails the
player to move the new token (into the folder's outbox); on a game nobody plays by mail it
writes no mail; either way a move written for the old token is refused saying what changed."""

from __future__ import annotations

import json
from pathlib import Path

from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke
from tests.helpers.mail import NIKA_PLAYERS, outbox_messages

START = "2026-12-01T12:00:00Z"


def _new_game(folder: Path) -> Path:
    folder.mkdir()
    tags = [f"--tag={side}={player}" for side, player in NIKA_PLAYERS.items()]
    made = invoke("new", "nika", "--players", "4", "--id", "g1", "--time-control", "3d+0m", "--start", START, *tags)
    assert made.exit_code == 0, made.stderr
    path = folder / "g1.rgn"
    path.write_text(made.stdout, encoding="utf-8")
    return path


def test_a_grant_on_a_gateway_game_mails_the_new_token_to_the_player_to_move(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    game = _new_game(folder)
    (folder / "mail.log").write_text("", encoding="utf-8")  # the gateway has run here
    old = json.loads(invoke("check", "--json", str(game))[1])["token"]
    ran = invoke("play", str(game), "--grant", "Sparta=1d", "--now", "2026-12-01T13:00:00Z")
    assert ran.exit_code == 0, ran.stderr
    assert "the new token is mailed to the player to move" in ran.stderr
    new = json.loads(invoke("check", "--json", str(game))[1])["token"]
    (mail,) = outbox_messages(folder / "outbox")
    assert [address.addr_spec for address in mail["To"].addresses] == ["ann@example.org"]  # Athens moves first
    assert str(mail["Subject"]) == f"[g1] your move: the token is now {new}"
    body = mail.get_body(("plain",))
    assert body is not None and f"  Token: {new}\n" in body.get_content()
    assert "Key:" not in body.get_content()  # no players.toml: no passphrase to write
    refused = submit(game, "d1-W d2-W", as_side="Athens", expect=old, now=parse_instant("2026-12-01T14:00:00Z"))
    assert refused.error is not None
    assert "the board is as it was, but the game master granted Sparta 1d at 2026-12-01 13:00 UTC" in refused.error


def test_a_grant_on_a_game_nobody_plays_by_mail_writes_no_mail(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    game = _new_game(folder)
    ran = invoke("play", str(game), "--grant", "Sparta=1d", "--now", "2026-12-01T13:00:00Z")
    assert ran.exit_code == 0 and "mailed" not in ran.stderr
    assert not (folder / "outbox").exists()
    assert "granted Sparta 1d" in (folder / "tokens.log").read_text(encoding="utf-8")
