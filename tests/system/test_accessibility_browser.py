"""Pages everyone can use, checked in headless Chromium (as tests/system/test_replay_browser.py):
axe-core finds no violation of WCAG 2.1 A and AA on the replay page (every game, an illegal
and a malformed record, at its first and last step) nor on any page of a league's site;
each step of the replay says its action and what it caused in an aria-live region; the
board's `<desc>` follows the steps, naming every piece shown.

axe-core is Deque's, MPL-2.0, shipped unmodified as test data in tests/data/axe/ with its
licence (axe.min.js of the npm package axe-core; its version is in the file's first line).
Run apart with `pytest -m browser`; under CI a skip fails."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.league.site import build
from referee.notation.model import Record
from referee.pictures import replay_page
from referee.speech import speaker
from tests.helpers.site_season import spanish_season
from tests.pictures.test_accessible import described_pieces
from tests.pictures.test_pictures import EXAMPLES, expected_pieces
from tests.system.test_replay_browser import positions
from tests.system.test_site_browser import site as site  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "data" / "axe" / "axe.min.js"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN_AXE = """
var done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']}).then(
  function (results) {
    done(results.violations.map(function (violation) {
      return violation.id + ' (' + violation.impact + '): ' + violation.help + ' at ' +
        violation.nodes.slice(0, 3).map(function (node) { return node.target.join(' '); }).join(', ');
    }));
  },
  function (error) { done(['axe failed: ' + error]); });
"""


def violations(browser: Any) -> list[str]:
    """axe-core's WCAG 2.1 A and AA violations on the page the browser shows."""
    if not browser.execute_script("return typeof axe !== 'undefined'"):
        browser.execute_script(AXE.read_text(encoding="utf-8"))
    browser.set_script_timeout(60)
    found = browser.execute_async_script(RUN_AXE, WCAG_21_AA)
    assert isinstance(found, list)
    return found


ILLEGAL = '[Game "numica"]\n[Seed "a11y"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n1. R: a1-h8\n'
MALFORMED = '[Game "numica"]\n[Seed "a11y"]\n\nR: SSOOSOSO\nQ: OSOSOSOS\n'


def _page(tmp_path: Path, name: str, text: str) -> Path:
    result = read_source(text.encode())[0]
    page = tmp_path / f"{name}.html"
    page.write_text(replay_page(adjudicate(result, f"{name}.rgn", 1, keep_steps=True), text), encoding="utf-8")
    return page


def test_axe_finds_no_violation_on_replay_pages(browser: Any, tmp_path: Path) -> None:
    browser.set_window_size(1280, 1000)
    pages = [_page(tmp_path, path.stem, path.read_text(encoding="utf-8")) for path in sorted(EXAMPLES.glob("*.rgn"))]
    pages += [_page(tmp_path, "illegal", ILLEGAL), _page(tmp_path, "malformed", MALFORMED)]
    found = {}
    for page in pages:
        browser.get(page.as_uri())
        found[f"{page.stem} (last step)"] = violations(browser)
        browser.find_element("id", "first").click()
        found[f"{page.stem} (first step)"] = violations(browser)
    assert found == {name: [] for name in found}


def test_axe_finds_no_violation_on_any_page_of_a_league_site(browser: Any, site: tuple[Path, Path]) -> None:
    _, out = site
    browser.set_window_size(1280, 1000)
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 10
    found = {}
    for page in pages:
        browser.get(page.resolve().as_uri())
        found[str(page.relative_to(out))] = violations(browser)
    assert found == {name: [] for name in found}


def test_a_spanish_leagues_site_is_spanish_and_axe_finds_no_violation(browser: Any, tmp_path: Path) -> None:
    """A league with `lang = "es"` (issue 49): every page says `<html lang="es">`, the
    replay pages too, and axe-core finds no violation on any page (a wrong or missing
    `lang` is one, `html-has-lang`, `valid-lang`)."""
    folder = spanish_season(tmp_path / "liga", "Liga de otoño", "Ana Bruno Carla")
    out = tmp_path / "www"
    build(folder, out)
    browser.set_window_size(1280, 1000)
    pages = sorted(out.glob("*.html"))
    assert len(pages) > 8
    found = {}
    assert any(page.name.endswith("-replay.html") for page in pages)
    for page in pages:
        assert '<html lang="es">' in page.read_text(encoding="utf-8"), page.name
        browser.get(page.resolve().as_uri())
        found[page.name] = violations(browser)
    assert found == {name: [] for name in found}


def test_each_step_announces_its_action_and_what_it_caused(browser: Any, tmp_path: Path) -> None:
    path = EXAMPLES / "numica-finished.rgn"
    browser.get(_page(tmp_path, "numica", path.read_text(encoding="utf-8")).as_uri())
    region = browser.find_element("id", "announce")
    assert region.get_attribute("aria-live") == "polite" and region.get_attribute("aria-atomic") == "true"
    steps = browser.execute_script("return JSON.parse(document.getElementById('data').textContent).steps;")
    caused = next(index for index, step in enumerate(steps) if step.get("e"))
    browser.find_element("id", "first").click()
    for _ in range(caused):
        browser.find_element("id", "next").click()
    said = region.get_attribute("textContent")
    step = steps[caused]
    assert said.startswith(f"step {caused} of {len(steps) - 1}. ")
    assert step["m"] in said
    for _, event in step["e"]:
        assert event in said
    assert browser.find_element("id", "move").text == step["m"]
    browser.find_element("id", "prev").click()
    assert region.get_attribute("textContent").startswith(f"step {caused - 1} of ")


def test_a_spanish_replay_page_announces_its_steps_in_spanish(browser: Any, tmp_path: Path) -> None:
    """The replay page in Spanish (issue 49 item 2): the counter, the aria-live
    announcement, the move list and the buttons' names are Spanish, the moves as written,
    and axe-core finds no violation at the first and at the last step."""
    text = (EXAMPLES / "numica-finished.rgn").read_text(encoding="utf-8")
    page = tmp_path / "numica-es.html"
    replay = adjudicate(read_source(text.encode())[0], "numica-es.rgn", 1, keep_steps=True)
    page.write_text(replay_page(replay, text, say=speaker("es")), encoding="utf-8")
    browser.set_window_size(1280, 1000)
    browser.get(page.as_uri())
    assert browser.find_element("tag name", "html").get_attribute("lang") == "es"
    assert violations(browser) == []
    steps = browser.execute_script("return JSON.parse(document.getElementById('data').textContent).steps;")
    caused = next(index for index, step in enumerate(steps) if step.get("e"))
    browser.find_element("id", "first").click()
    assert browser.find_element("id", "move").text == "posición inicial"
    assert browser.find_element("id", "counter").text == f"paso 0 de {len(steps) - 1}"
    assert browser.find_element("id", "next").get_attribute("aria-label") == "una acción adelante"
    assert violations(browser) == []
    for _ in range(caused):
        browser.find_element("id", "next").click()
    said = browser.find_element("id", "announce").get_attribute("textContent")
    assert said.startswith(f"paso {caused} de {len(steps) - 1}. "), said
    assert steps[caused]["m"] in said and "mueve" in said and ("ronda" in said or "despliegue" in said)
    for _, event in steps[caused]["e"]:
        assert event in said
    assert not {"step", "round", "move", "start", "illegal"} & set(said.split()), said
    labels = [element.text for element in browser.find_elements("css selector", "#moves .label")]
    assert labels[:4] == ["inicio", "despliegue, Rojo", "despliegue, Azul", "ronda 1, Rojo"], labels
    browser.find_element("id", "prev").click()
    assert browser.find_element("id", "announce").get_attribute("textContent").startswith(f"paso {caused - 1} de ")


def test_the_boards_description_follows_the_steps(browser: Any, tmp_path: Path) -> None:
    path = EXAMPLES / "nika-won.rgn"
    text = path.read_text(encoding="utf-8")
    record = read_source(text.encode())[0]
    assert isinstance(record, Record)
    browser.get(_page(tmp_path, "nika", text).as_uri())
    sides = set(registry.GAMES[record.game].sides)
    expected = positions(record, 12)
    browser.find_element("id", "first").click()
    for number, position in enumerate(expected):
        if number:
            browser.find_element("id", "next").click()
        description = browser.execute_script("return document.querySelector('#board svg > desc').textContent;")
        assert described_pieces(description, sides) == expected_pieces(record.game, position), number
    assert browser.find_element("css selector", "#board svg").get_attribute("role") == "img"


def test_a_spanish_boards_description_follows_the_steps_in_spanish(browser: Any, tmp_path: Path) -> None:
    """page.js writes the board's `<desc>` again at each step in the page's language: the
    caption said, each side's name and each piece's words (`Atenas: d1 orientación W`)."""
    text = (EXAMPLES / "nika-won.rgn").read_text(encoding="utf-8")
    record = read_source(text.encode())[0]
    assert isinstance(record, Record)
    say = speaker("es")
    sides = {say.word(side): side for side in registry.GAMES[record.game].sides}
    page = tmp_path / "nika-es.html"
    page.write_text(replay_page(adjudicate(record, "nika-es.rgn", 1, keep_steps=True), text, say=say), "utf-8")
    browser.get(page.as_uri())
    browser.find_element("id", "first").click()
    for number, position in enumerate(positions(record, 12)):
        if number:
            browser.find_element("id", "next").click()
        description = browser.execute_script("return document.querySelector('#board svg > desc').textContent;")
        assert description.startswith("Nika · mueve ") and "facing" not in description, description
        said = {
            (at, sides[side], frozenset(("facing" if key == "orientación" else key, value) for key, value in words))
            for at, side, words in described_pieces(description, set(sides))
        }
        assert said == expected_pieces(record.game, position), number
