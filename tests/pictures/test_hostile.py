"""No text from a record can change the replay page's structure (issue 19 item 8): tag
values, player names, comments, move text and file names holding markup, script ends,
comment openers, CDATA ends and bidi controls, opened in real headless Chromium. None of
their scripts runs, every text shows as written, and the page still steps to the end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli.text_output import verdict_line as line
from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.pictures import replay_page
from tests.system.test_replay_browser import COLLECT

PWN = "window.__pwned=(window.__pwned||0)+1"
HOSTILE = (
    "<!--<script>",
    "<!--",
    "-->",
    f"</script><script>{PWN}</script>",
    f'"><img src=x onerror="{PWN}">',
    f"]]><script>{PWN}</script>",
    f"<![CDATA[<script>{PWN}</script>]]>",
    f"</title><script>{PWN}</script>",
    f"</style><script>{PWN}</script>",
    f'<svg onload="{PWN}">',
    f"'; {PWN}; '",
    "{{SCRIPT}} {{DATA}} {{TITLE}}",
    "\u202eevil\u202c \u2066isolate\u2069 \u200fmark",
    "line\u2028separator\u2029paragraph",
    "&lt;b&gt; &amp; &#60;",
    "\\u003c/script\\u003e and \\",
    "<p>para</p><b>bold</b>",
)


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _replay(text: str, name: str = "game.rgn") -> Replay:
    (result,) = read_source(text.encode("utf-8"))
    return adjudicate(result, name, 1, keep_steps=True)


def _open(browser: Any, folder: Path, replay: Replay, text: str) -> None:
    page = folder / "page.html"
    page.write_text(replay_page(replay, text), encoding="utf-8")
    browser.get(page.as_uri())


def _structure(browser: Any) -> dict[str, Any]:
    result: dict[str, Any] = browser.execute_script(
        "return {pwned: window.__pwned || 0, scripts: document.scripts.length,"
        " images: document.images.length, title: document.title,"
        " heads: document.querySelectorAll('h1').length, boards: document.querySelectorAll('#board > svg').length,"
        " tags: Array.prototype.map.call(document.querySelectorAll('#tags tr'), function (row) {"
        "   return Array.prototype.map.call(row.cells, function (cell) { return cell.textContent; }); }),"
        " source: document.getElementById('source').textContent};"
    )
    return result


def test_script_json_escapes_what_could_end_a_script_and_stays_json() -> None:
    from referee.pictures.page import script_json

    data = {"texts": list(HOSTILE)}
    text = script_json(data)
    assert json.loads(text) == data
    for forbidden in ("<", ">", "&", "\u2028", "\u2029"):
        assert forbidden not in text


@pytest.mark.browser
@pytest.mark.parametrize("values", [(value,) for value in HOSTILE] + [HOSTILE], ids=[*HOSTILE, "all"])
def test_hostile_tag_values_and_player_names_leave_the_page_whole(
    browser: Any, tmp_path: Path, values: tuple[str, ...]
) -> None:
    tags = [("Game", "nika"), ("Athens", values[0]), ("Sparta", values[-1])]
    tags += [(f"Note{number}", value) for number, value in enumerate(values)]
    comment = " ".join(value.replace("}", ")") for value in values)
    text = "".join(f"[{name} {_quoted(value)}]\n" for name, value in tags)
    text += f"\n{{ {comment} }}\n1. W: d1-W d2-W\nR: a4-S b4-S\n"
    name = f"</title><script>{PWN}</script>.rgn"
    replay = _replay(text, name)
    assert replay.verdict.status == "ongoing", line(replay.verdict)
    _open(browser, tmp_path, replay, text)
    shown = _structure(browser)
    assert shown["pwned"] == 0, "a script from the record ran"
    assert (shown["scripts"], shown["images"], shown["heads"], shown["boards"]) == (2, 0, 1, 1)
    assert shown["title"] == line(replay.verdict)
    assert browser.find_element("id", "verdict").text == line(replay.verdict)
    assert [row[-1] for row in shown["tags"]] == [value for _, value in tags]
    steps = browser.execute_script(COLLECT, len(replay.steps))
    assert [step[0] for step in steps] == [str(number) for number in range(len(replay.steps) + 1)]
    assert steps[-1][1] == replay.steps[-1].move.text == "b4-S"
    assert browser.execute_script("return window.__pwned || 0") == 0


@pytest.mark.browser
@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_text_in_a_malformed_record_shows_as_written(browser: Any, tmp_path: Path, hostile: str) -> None:
    """A malformed record's page quotes its source lines and message: as text only."""
    text = f'[Game "nika"]\n[Event {_quoted(hostile)}]\n\n1. W: d1-W {hostile.replace("{", "(")} d2-W\n'
    replay = _replay(text)
    assert replay.verdict.status == "malformed", line(replay.verdict)
    _open(browser, tmp_path, replay, text)
    shown = _structure(browser)
    assert shown["pwned"] == 0, "a script from the record ran"
    assert (shown["scripts"], shown["images"], shown["heads"]) == (2, 0, 1)
    assert shown["title"] == line(replay.verdict)
    assert browser.find_element("id", "verdict").text == line(replay.verdict)
    assert browser.find_element("id", "source").is_displayed()
    assert hostile.replace("{", "(") in shown["source"]
    assert f"[Event {_quoted(hostile)}]" in shown["source"]
