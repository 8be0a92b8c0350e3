"""The replay page of a game with conditional moves (PLAY.md §9): queued replies marked,
and after the reveal each queue's lines with the untriggered ones told apart (the
post-game review), the same from the page made as a stream and from the whole replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

from referee.judge import session
from referee.live.play import queue_submit
from referee.pictures import page
from tests.helpers.cli import invoke
from tests.helpers.play import play


def _data(html: str) -> dict[str, object]:
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S)
    assert match is not None
    return json.loads(match.group(1))  # type: ignore[no-any-return]


def test_queued_replies_are_marked_and_untriggered_lines_shown_after_the_reveal(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text('[Game "pikemen"]\n[GameId "pq"]\n\n')
    play(path, "f3(N)")
    lines = "if B: a4(N) then R: f3(NE) if B: a4(E) then R: resign\nif B: a4(NE) then R: f3(E)"
    assert queue_submit.set_queue(path, "Red", lines, wait=5).exit_code == 0
    play(path, "a4(N)")
    play(path, "a4(E)")  # Red resigns from its queue: the game ends, the queue is revealed
    expected = {
        "replies": [2, 4],
        "revealed": [
            {
                "side": "Red",
                "lines": [
                    {"line": "if B: a4(N) then R: f3(NE) if B: a4(E) then R: resign", "triggered": True},
                    {"line": "if B: a4(NE) then R: f3(E)", "triggered": False},
                ],
            }
        ],
    }
    out = tmp_path / "g.html"
    code, _, err = invoke("replay", "--html", "-o", str(out), str(path))
    assert code == 0, err
    streamed = _data(out.read_text())
    assert streamed["queues"] == expected
    whole = session.replay(str(path), 1)
    assert not isinstance(whole, session.Problem)
    assert _data(page.page(whole))["queues"] == expected
    assert "untriggered" in out.read_text()  # the script that shows them


def test_a_page_without_queues_holds_no_queue_data(tmp_path: Path) -> None:
    path = tmp_path / "g.rgn"
    path.write_text('[Game "pikemen"]\n[GameId "pq"]\n\n')
    play(path, "f3(N)")
    out = tmp_path / "g.html"
    assert invoke("replay", "--html", "-o", str(out), str(path)).exit_code == 0
    assert "queues" not in _data(out.read_text())
