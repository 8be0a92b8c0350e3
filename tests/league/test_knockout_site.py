"""The site of a knockout league (LEAGUE.md §7): a bracket page with every round, match,
points and the champion, names escaped, linked
from the index; in headless Chromium, axe-core finds no WCAG 2.1 A/AA violation on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.league.site import build
from tests.helpers.series import new_league, play_season

AMPERSAND = "Ann & (the) 'great'"
COLON = "Bo: [the] one"


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = tmp_path_factory.mktemp("cup")
    folder = root / "cup"
    new_league(folder, "Ann Bo Cy Di Ed", "--game", "pikemen", "--players", "2", "--pairing", "knockout")
    toml = folder / "league.toml"
    text = toml.read_text(encoding="utf-8").replace('name = "Ann"', f'name = "{AMPERSAND}"')
    toml.write_text(text.replace('name = "Bo"', f'name = "{COLON}"'), encoding="utf-8")
    play_season(folder, lambda game, seated: min(seated, key=len))
    out = root / "www"
    build(folder, out)
    yield out


def test_the_bracket_page_shows_every_round_escaped(cup: Path) -> None:
    page = (cup / "bracket.html").read_text(encoding="utf-8")
    assert "<bdi>Ann &amp; (the) &#x27;great&#x27;</bdi>" in page and AMPERSAND not in page
    assert f"<bdi>{COLON}</bdi>" in page
    assert page.count("<section") == 3  # 5 players: round 1 with 3 byes, semi-finals, final
    assert "Round 3 (final)" in page and "The champion: <bdi>" in page
    assert page.count("(goes on)") == 1 + 2 + 1 and page.count(">bye</div>") == 3
    assert '<a href="bracket.html">' in (cup / "index.html").read_text(encoding="utf-8")
    byes = (cup / "round-1.html").read_text(encoding="utf-8").split('<p class="byes">Bye: ')[1].split("</p>")[0]
    assert byes.count('class="player"') == 3  # seeds 1-3 (4 v 5 plays)


@pytest.mark.browser
def test_axe_finds_no_violation_on_the_bracket_page(browser: Any, cup: Path) -> None:
    from tests.system.test_accessibility_browser import violations

    browser.set_window_size(1280, 1000)
    browser.get((cup / "bracket.html").resolve().as_uri())
    assert browser.find_element("css selector", "p.champion").text.startswith("The champion:")
    assert violations(browser) == []
    browser.set_window_size(420, 900)
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
