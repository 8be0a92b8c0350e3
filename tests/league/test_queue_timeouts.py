"""`league tick`'s time-outs and conditional moves (PLAY.md §9): a time-out is a write like
any other, so the queues are settled in it: a game that ends on time reveals every queue
(a commitment still waiting is written with the reveal), and `check` verifies it."""

from __future__ import annotations

import json
from email import policy
from email.parser import BytesParser
from pathlib import Path

from referee.live.play import queue_submit
from tests.helpers.cli import invoke
from tests.helpers.league import first, make_league, season

START = "2026-12-01T12:00:00Z"


def test_a_game_ended_by_a_tick_s_time_out_reveals_the_queues_and_check_verifies_them(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    make_league(folder, *season("pikemen", 2, "3d+0m"), names=first(2), pair_at=START, clear_outbox=True)
    game = next(iter(sorted(folder.glob("r1-*.rgn"))))
    verdict = json.loads(invoke("check", "--json", str(game)).stdout)
    waiting = "Blue" if verdict["to_move"] == "Red" else "Red"
    mover = verdict["to_move"]
    code, out, _ = invoke("moves", str(game))
    action = out.splitlines()[1].strip()
    label = mover[0]
    reply = "a4(N)" if waiting == "Blue" else "f3(N)"
    result = queue_submit.set_queue(game, waiting, f"if {label}: {action} then {waiting[0]}: {reply}", wait=5)
    assert result.exit_code == 0, result.message
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-04T13:00:00Z", "--json")
    assert code == 0, err
    assert [entry["event"] for entry in json.loads(out)["entries"]] == ["timeout"]
    text = game.read_text(encoding="utf-8")
    assert f"{{[%queued {waiting} {result.commitment}]}}" in text
    assert f"{{[%revealed {waiting} " in text
    checked = json.loads(invoke("check", "--json", str(game)).stdout)
    assert checked["status"] == "finished" and checked["reason"] == "time"
    assert checked["queues"] == {waiting: {"queued": 1, "revealed": 1, "verified": True}}


def _bodies(folder: Path) -> dict[str, str]:
    found = {}
    for path in sorted((folder / "outbox").glob("*.eml")):
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        body = message.get_body(("plain",))
        assert body is not None
        found[message["To"].addresses[0].addr_spec] = body.get_content()
    return found


def test_the_pairing_mail_and_the_daily_digest_say_how_to_queue_replies(tmp_path: Path) -> None:
    """Issue 46 item 4: the "your move" texts and the digest mention how to queue."""
    folder = tmp_path / "lg"
    make_league(folder, *season("pikemen", 2, "7d+0m"), names=first(2), extra='digest = "daily"\n', pair_at=START)
    hint = "you may queue replies ahead: a message of lines\n  if THEIR TURNS then YOUR REPLY\n"
    paired = _bodies(folder)
    assert len(paired) == 2 and all(hint in body for body in paired.values())
    for mail in (folder / "outbox").glob("*.eml"):
        mail.unlink()
    game = next(iter(sorted(folder.glob("r1-*.rgn"))))
    code, out, _ = invoke("moves", str(game))
    assert invoke("play", str(game), out.splitlines()[1].strip(), "--now", "2026-12-01T13:00:00Z").exit_code == 0
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-01T20:00:00Z", "--json")
    assert code == 0, err
    digests = _bodies(folder)
    movers = [body for body in digests.values() if "Your move:" in body]
    assert len(movers) == 1 and hint in movers[0], digests
