"""The replay page in a real browser: headless Chromium from the system packages, driven by
Selenium through /usr/bin/chromedriver (no download). Run apart with `pytest -m browser`.

The page is opened from a file:// URL, stepped with the arrow keys, the buttons and the
move list, and the board it shows after each step is compared with the position the
library computes for that step.
"""

from __future__ import annotations

import functools
import struct
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import Replay, adjudicate, open_ended, read_source
from referee.judge.core.verdict_words import verdict_line as line
from referee.notation.model import Record
from referee.pictures import replay_page
from tests.helpers.sweep import spread
from tests.pictures.test_pictures import EXAMPLES, ROOT, expected_pieces

pytestmark = pytest.mark.browser


def _conformance_files() -> list[Path]:
    """The conformance records: the repository's copy when there is one, else the shared ones."""
    for folder in (ROOT / "tests" / "data" / "conformance", ROOT.parent.parent / "shared" / "conformance"):
        files = sorted(folder.glob("*/*.rgn"))
        if files:
            return files
    files = sorted(Path("/work/shared/conformance").glob("*/*.rgn"))
    return files


# Reads every step's board in one call: from the start, click "next" to the end and note,
# after each step, the pieces shown (sorted), the move shown and the step counter.
COLLECT = """
var out = [];
document.getElementById('first').click();
for (var n = 0; ; n++) {
  var pieces = Array.prototype.map.call(document.querySelectorAll('#pieces use.piece'), function (use) {
    var names = Object.keys(use.dataset).sort();
    return names.map(function (name) { return name + '=' + use.dataset[name]; }).join(';');
  }).sort().join(' ');
  out.push([document.body.getAttribute('data-step'), document.getElementById('move').textContent, pieces,
            document.getElementById('error').hidden ? '' : document.getElementById('error').textContent]);
  if (n >= arguments[0]) { break; }
  document.getElementById('next').click();
}
return out;
"""


def _signature(game: str, position: str) -> str:
    """The pieces of a position as the page's script lists them (see COLLECT)."""
    return " ".join(sorted(map(_piece_text, expected_pieces(game, position))))


@functools.cache
def _piece_text(piece: tuple[str, str, frozenset[tuple[str, str]]]) -> str:
    at, side, attributes = piece
    fields = {"at": at, "side": side, **dict(attributes)}
    return ";".join(f"{name}={fields[name]}" for name in sorted(fields))


def positions(record: Record, actions: int) -> list[str]:
    """The position at the start and after each of the first `actions` actions, by the game API."""
    state = registry.engine(record.game).new_state(record.tag_map)
    found = [state.position()]
    open_ended_moves = open_ended(record)
    for number, turn in enumerate(record.turns):
        if len(found) > actions:
            break
        if number:
            state.end_turn()
        state.begin_turn(turn.side, turn.step, turn.number)
        for move in turn.moves[: actions + 1 - len(found)]:
            state.apply(move.action, move in open_ended_moves)
            found.append(state.position())
    return found


def _open(browser: Any, folder: Path, replay: Replay, text: str | None = None) -> None:
    page = folder / "page.html"
    page.write_text(replay_page(replay, text), encoding="utf-8")
    browser.get(page.as_uri())


def test_every_conformance_record_steps_through_in_the_browser(browser: Any, tmp_path: Path) -> None:
    files = _conformance_files()
    assert len(files) >= 60, "the conformance records were not found"
    chosen = spread(files, 24)
    checked = steps_checked = 0
    for path in chosen:
        data = path.read_bytes()
        for index, result in enumerate(read_source(data), start=1):
            replay = adjudicate(result, path.name, index, keep_steps=True)
            _open(browser, tmp_path, replay, data.decode("utf-8", "replace"))
            where = f"{path.parent.name}/{path.name} record {index}"
            assert browser.find_element("id", "verdict").text == line(replay.verdict), where
            if replay.record is None or replay.state is None:
                source = browser.find_element("id", "source")
                assert source.is_displayed(), where
                assert replay.verdict.error is not None and replay.verdict.error.message in source.text, where
                checked += 1
                continue
            illegal = replay.verdict.status == "illegal"
            count = len(replay.steps) + (1 if illegal else 0)
            shown = browser.execute_script(COLLECT, count)
            expected = positions(replay.record, len(replay.steps))
            assert len(shown) == count + 1, where
            assert expected[-1] == replay.state.position(), where
            for number, (step, move, pieces, error) in enumerate(shown):
                assert step == str(number), where
                assert error == "" or number == count, f"{where}, step {number}: {error}"
                position = expected[min(number, len(expected) - 1)]
                assert pieces == _signature(replay.record.game, position), f"{where}, step {number}"
                if 1 <= number <= len(replay.steps):
                    assert move == replay.steps[number - 1].move.text, f"{where}, step {number}"
            if illegal:
                assert replay.verdict.error is not None
                assert shown[-1][3] == f"illegal: {replay.verdict.error.message}", where
                if replay.verdict.error.action:
                    assert shown[-1][1] == replay.verdict.error.action, where
            checked += 1
            steps_checked += len(shown)
    assert checked >= len(chosen) and steps_checked > 40 * checked, (checked, steps_checked)


def test_arrow_keys_buttons_and_move_list(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    path = EXAMPLES / "nika-won.rgn"
    replay = adjudicate(read_source(path.read_bytes())[0], path.name, 1, keep_steps=True)
    assert replay.record is not None
    _open(browser, tmp_path, replay)
    body = browser.find_element("tag name", "body")
    expected = positions(replay.record, len(replay.steps))

    def shown() -> tuple[str, str, str]:
        return (
            body.get_attribute("data-step"),
            browser.find_element("id", "move").text,
            browser.execute_script(
                "return Array.prototype.map.call(document.querySelectorAll('#pieces use.piece'), function (u) {"
                "var n = Object.keys(u.dataset).sort(); return n.map(function (k) { return k + '=' + u.dataset[k]; })"
                ".join(';'); }).sort().join(' ');"
            ),
        )

    assert shown()[0] == str(len(replay.steps)), "the page opens at the end of the record"
    body.send_keys(Keys.HOME)
    assert shown() == ("0", "start position", _signature("nika", expected[0]))
    for number in range(1, 6):
        body.send_keys(Keys.ARROW_RIGHT)
        assert shown() == (str(number), replay.steps[number - 1].move.text, _signature("nika", expected[number]))
    body.send_keys(Keys.ARROW_LEFT)
    assert shown()[0] == "4"
    browser.find_element("id", "next").click()
    browser.find_element("id", "next").click()
    assert shown() == ("6", replay.steps[5].move.text, _signature("nika", expected[6]))
    browser.find_element("id", "prev").click()
    assert shown()[0] == "5"
    # A step with events: the pushes and routs are listed beside the board.
    number = next(i for i, played in enumerate(replay.steps, start=1) if played.events)
    browser.find_element("css selector", f'#moves button[data-step="{number}"]').click()
    assert shown() == (str(number), replay.steps[number - 1].move.text, _signature("nika", expected[number]))
    events = [item.text for item in browser.find_elements("css selector", "#events li")]
    assert events == [event.text for event in replay.steps[number - 1].events]
    body.send_keys(Keys.END)
    assert shown()[0] == str(len(replay.steps))
    browser.find_element("id", "first").click()
    assert shown()[0] == "0"
    browser.find_element("id", "last").click()
    assert "game over" in browser.find_element("id", "caption").text


def test_the_board_after_each_round_is_what_show_at_gives(browser: Any, tmp_path: Path) -> None:
    """After the last action of round N the page shows `referee show --at N`'s position."""
    for name in ("pikemen-3p-ongoing.rgn", "nieuchess-finished.rgn"):
        path = EXAMPLES / name
        result = read_source(path.read_bytes())[0]
        replay = adjudicate(result, name, 1, keep_steps=True)
        assert replay.record is not None
        _open(browser, tmp_path, replay)
        shown = browser.execute_script(COLLECT, len(replay.steps))
        rounds = sorted({played.round for played in replay.steps if played.round is not None})
        for number in rounds[:-1]:
            at = adjudicate(result, name, 1, keep_steps=True, cut_at=number).cut
            assert at is not None
            assert at.state is not None
            step = len(at.steps)
            assert shown[step][2] == _signature(replay.record.game, at.state.position()), f"{name} round {number}"


def _png_colours(png: bytes) -> int:
    """The number of distinct pixel colours of an 8-bit RGB or RGBA PNG (no filtering shortcuts)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks, header = 8, b"", b""
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, body = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        offset += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    size = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(chunks), width * size
    previous, colours = bytearray(stride), set[bytes]()
    for row in range(height):
        kind, line = raw[row * (stride + 1)], bytearray(raw[row * (stride + 1) + 1 : (row + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - size] if i >= size else 0
            up, corner = previous[i], previous[i - size] if i >= size else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        if row % 4 == 0:
            colours.update(bytes(line[i : i + 3]) for i in range(0, stride, size * 4))
        previous = line
    return len(colours)


def test_screenshot_is_not_blank_and_a_long_game_steps_fast(browser: Any, tmp_path: Path) -> None:
    path = EXAMPLES / "nieuchess-finished.rgn"
    replay = adjudicate(read_source(path.read_bytes())[0], path.name, 1, keep_steps=True)
    _open(browser, tmp_path, replay)
    png = browser.find_element("id", "board").screenshot_as_png
    (tmp_path / "page.png").write_bytes(png)
    assert _png_colours(png) > 20, "the screenshot is blank"
    start = time.perf_counter()
    shown = browser.execute_script(COLLECT, len(replay.steps))
    elapsed = time.perf_counter() - start
    assert len(shown) == len(replay.steps) + 1
    assert elapsed < 10
