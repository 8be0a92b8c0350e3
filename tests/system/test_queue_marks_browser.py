"""The replay page of a game with conditional moves in a real browser (PLAY.md §9): the
replies its queues played are marked "(queued)" in the move list, and after the reveal each
side's queue is listed with its untriggered lines told apart (the post-game review)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.live.play import queue_submit
from tests.helpers.cli import invoke
from tests.helpers.play import play

pytestmark = pytest.mark.browser

LINES = "if B: a4(N) then R: f3(NE) if B: a4(E) then R: resign\nif B: a4(NE) then R: f3(E)"


def _page(folder: Path, reveal: bool) -> Path:
    """A Pikemen game where Red's queue answers twice (its last reply resigns when `reveal`)."""
    path = folder / "g.rgn"
    path.write_text('[Game "pikemen"]\n[GameId "pq"]\n\n')
    assert play(path, "f3(N)").exit_code == 0
    lines = LINES if reveal else LINES.replace("then R: resign", "then R: f3(N)")
    assert queue_submit.set_queue(path, "Red", lines, wait=5).exit_code == 0
    assert play(path, "a4(N)").exit_code == 0
    assert play(path, "a4(E)").exit_code == 0
    out = folder / "g.html"
    code, _, err = invoke("replay", "--html", "-o", str(out), str(path))
    assert code == 0, err
    return out


def _texts(browser: Any, selector: str) -> list[str]:
    return [element.text for element in browser.find_elements("css selector", selector)]


def test_queued_replies_are_marked_and_the_revealed_queue_lists_its_untriggered_line(
    tmp_path: Path, browser: Any
) -> None:
    browser.get(_page(tmp_path, reveal=True).as_uri())
    labels = _texts(browser, "#moves .label")
    queued = _texts(browser, "#moves .label.queued")
    assert len(queued) == 2 and all(label.endswith("(queued)") for label in queued), labels
    assert labels == [
        "start",
        "round 1, Red",
        "round 1, Blue",
        "round 2, Red (queued)",
        "round 2, Blue",
        "round 3, Red (queued)",
    ]
    assert _texts(browser, "#queues li.triggered") == ["if B: a4(N) then R: f3(NE) if B: a4(E) then R: resign"]
    assert _texts(browser, "#queues li.untriggered") == ["(untriggered) if B: a4(NE) then R: f3(E)"]
    assert browser.find_element("id", "queues").get_attribute("aria-label") == "revealed queues"
    # Stepping onto a queued reply shows it as any other move.
    browser.find_elements("css selector", "#moves li")[3].find_element("css selector", "button").click()
    assert "f3(NE)" in browser.find_element("id", "move").text


def test_before_the_reveal_the_replies_are_marked_and_no_queue_is_shown(tmp_path: Path, browser: Any) -> None:
    browser.get(_page(tmp_path, reveal=False).as_uri())
    assert len(_texts(browser, "#moves .label.queued")) == 2
    assert browser.find_elements("id", "queues") == []
    assert "if B:" not in browser.find_element("tag name", "body").text  # nothing of the queue before the reveal
