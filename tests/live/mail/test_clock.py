"""The mail gateway in a timed game (TIME.md §5): it stamps what it plays, as `play` does,
and tells every player the deadline in its answer."""

from __future__ import annotations

import re
import time
from pathlib import Path

from referee.notation.timing import format_instant, parse_instant, spoken_instant
from tests.helpers.mail import GM, message, outbox_messages, run_mail, write_game

ANN = "Ann <ann@example.org>"
BO = "Bo <bo@example.org>"


def test_the_gateway_stamps_what_it_plays_and_tells_every_player_the_deadline(tmp_path: Path) -> None:
    start = int(time.time()) // 60 * 60 - 3600  # an hour ago; the gateway reads the system clock
    path = write_game(
        tmp_path,
        "t1",
        "numica",
        {"Red": ANN, "Blue": BO},
        '[Seed "42"]',
        '[TimeControl "30d+1d"]',
        f'[Start "{format_instant(start)}"]',
    )
    before = int(time.time())
    done = run_mail(message(ANN, "[t1] setup", "SSSSOOOO\n").as_bytes(), "receive", str(tmp_path), "--from", GM)
    after = int(time.time())
    assert done.returncode == 0 and "Traceback" not in done.stderr
    stamp = re.search(r"R: SSSSOOOO \{\[%at (\S+) Red\]\}", path.read_text())
    assert stamp is not None and before - 1 <= parse_instant(stamp.group(1)) <= after + 1
    answers = outbox_messages(tmp_path / "outbox")  # one to the player to move, one to the others
    told = {address.strip() for answer in answers for address in answer["To"].split(",")}
    assert told >= {"Ann <ann@example.org>", "Bo <bo@example.org>"}
    deadline = spoken_instant(parse_instant(stamp.group(1)) + 30 * 86400)
    for answer in answers:
        text = answer.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        assert f"deadline {deadline}" in text
        assert re.search(r"next: .*Blue.* to move .*; deadline " + re.escape(deadline), text) is not None


def test_a_player_claims_a_time_out_by_mail(tmp_path: Path) -> None:
    start = int(time.time()) // 60 * 60 - 40 * 86400  # Red's 30 days ran out ten days ago
    path = write_game(
        tmp_path,
        "t2",
        "numica",
        {"Red": ANN, "Blue": BO},
        '[Seed "42"]',
        '[TimeControl "30d+1d"]',
        f'[Start "{format_instant(start)}"]',
    )
    late = run_mail(message(ANN, "[t2] setup", "SSSSOOOO\n").as_bytes(), "receive", str(tmp_path), "--from", GM)
    assert late.returncode == 0 and "%at" not in path.read_text()
    claimed = run_mail(
        message(BO, "[t2] your time is up", "timeout\n").as_bytes(), "receive", str(tmp_path), "--from", GM
    )
    assert claimed.returncode == 0 and "Traceback" not in claimed.stderr
    assert re.search(r"\ntimeout\n\{\[%at \S+ Red\]\}\n$", path.read_text()) is not None
    answers = [answer.get_body(("plain",)).get_content() for answer in outbox_messages(tmp_path / "outbox")]  # type: ignore[union-attr]
    assert any("a timeout is due" in text for text in answers)  # Ann's late move, refused
    assert any("Blue wins (time)" in text for text in answers)
