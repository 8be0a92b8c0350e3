"""Notices beyond e-mail (docs/league.md, "Notices"): Apprise targets of the league, a game
and a player get one notice per event, deduplicated through league.log; a failed target is
logged and tried again by the next tick. A real HTTP receiver on 127.0.0.1 takes Apprise's
`json://` posts, and the payloads are checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke
from tests.helpers.league import tick_json
from tests.helpers.mail import free_port
from tests.helpers.notices import Receiver

pytest.importorskip("apprise", reason="the optional extra `notify` (Apprise) is not installed")
START = "2026-12-01T12:00:00Z"


def test_notices_go_once_per_event_and_target_and_a_failed_target_is_tried_again(
    tmp_path: Path, receiver: Receiver
) -> None:
    folder = tmp_path / "lg"
    assert invoke("league", "init", str(folder), "--game", "nika", "--players", "2", "--name", "T")[0] == 0
    down = free_port()  # nothing listens there yet
    league = f"json://127.0.0.1:{receiver.port}/league"
    ann = f"json://127.0.0.1:{receiver.port}/ann"
    text = (folder / "league.toml").read_text(encoding="utf-8")
    text = text.replace('pairing = "round-robin"\n', f'pairing = "round-robin"\nnotify = ["{league}"]\n')
    text += f'\n[notify_games]\n"r1-t1" = ["json://127.0.0.1:{down}/game"]\n'
    text += f'\n[[player]]\nname = "Ann"\naddress = "ann@example.org"\nnotify = ["{ann}"]\n'
    text += '\n[[player]]\nname = "Bo"\naddress = "bo@example.org"\n'
    (folder / "league.toml").write_text(text, encoding="utf-8")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    ticked = tick_json(folder, "2026-12-01T12:05:00Z")
    posts = receiver.take()
    # the league's target: the pairing and Ann's turn; Ann's own: the same two; the game's target is down
    assert sorted((path, payload["title"]) for path, payload in posts) == [
        ("/ann", "T: [r1-t1] paired"),
        ("/ann", "T: your move in [r1-t1]"),
        ("/league", "T: [r1-t1] paired"),
        ("/league", "T: your move in [r1-t1]"),
    ]
    pairing = next(payload for path, payload in posts if path == "/league" and "paired" in str(payload["title"]))
    assert pairing["message"] == "Round 1: [r1-t1] Ann, Bo." and pairing["type"] == "info"
    turn = next(payload for path, payload in posts if path == "/ann" and "move" in str(payload["title"]))
    token = json.loads(invoke("check", "--json", str(folder / "r1-t1.rgn"))[1])["token"]
    assert turn["message"] == f"[r1-t1] Ann (Athens) to move; token {token}."
    assert ticked["notices"] == 4 and len([n for n in ticked["notes"] if "failed" in str(n)]) == 2
    log = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert [entry["event"] for entry in log].count("notice-failed") == 2
    assert all(league not in json.dumps(entry) for entry in log), "a target is logged as a hash, never its URL"
    assert tick_json(folder, "2026-12-01T12:06:00Z")["notices"] == 0 and receiver.take() == [], "once per event"
    # the game's target comes up: the next tick sends it what it missed, and nothing twice
    late = Receiver(down)
    try:
        assert tick_json(folder, "2026-12-01T12:07:00Z")["notices"] == 2
        assert sorted(path for path, _ in late.take()) == ["/game", "/game"]
    finally:
        late.server.shutdown()
        late.server.server_close()
    # a move: a new turn notice; the end: a result notice, with the players named
    assert submit(folder / "r1-t1.rgn", "resign", now=parse_instant(START) + 600).exit_code == 0
    tick_json(folder, "2026-12-01T12:20:00Z")
    posts = receiver.take()
    over = [payload for path, payload in posts if path == "/league" and payload["title"] == "T: [r1-t1] over"]
    assert len(over) == 1 and str(over[0]["message"]).startswith("Bo (Sparta, Thebes) win (resignation)")
