"""The league's site in headless Chromium (Selenium, /usr/bin/chromium and chromedriver, as
tests/system/test_replay_browser.py): over a generated season, the index lists every player in
table order, every link resolves, every game's replay steps to its end and shows the board
of `referee show`, each player's chart has a point per finished game; the pages fit a
420 px screen without scrolling themselves; and a league full of hostile texts runs none
of their scripts. Run apart with `pytest -m browser`."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest

from referee.judge.core.adjudicate import adjudicate, read_source
from referee.league.site import build
from referee.pictures import replay_page
from tests.helpers.cli import invoke
from tests.helpers.site_season import season, write_league
from tests.league.test_site import BIDI, HOSTILE, PLAYERS, hostile_league
from tests.pictures.test_pictures import EXAMPLES
from tests.system.test_replay_browser import COLLECT, _signature

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    root = tmp_path_factory.mktemp("site")
    folder = write_league(root / "autumn", PLAYERS)
    season(folder, 5)
    out = root / "www"
    build(folder, out)
    yield folder, out
    shutil.rmtree(root, ignore_errors=True)


def _json(*args: str) -> Any:
    result = invoke(*args)
    return json.loads(result.stdout)


def _open(browser: Any, path: Path) -> None:
    browser.get(path.resolve().as_uri())
    browser.execute_script("return 1")


def test_the_index_lists_every_player_in_table_order(browser: Any, site: tuple[Path, Path]) -> None:
    folder, out = site
    browser.set_window_size(1280, 1000)
    _open(browser, out / "index.html")
    shown = [cell.text for cell in browser.find_elements("css selector", "table.standings tr.standing td:nth-child(2)")]
    table = _json("league", "standings", str(folder), "--json")
    assert shown == [row["player"] for row in table["rows"]] and len(shown) == len(PLAYERS)


def test_every_link_resolves(browser: Any, site: tuple[Path, Path]) -> None:
    _, out = site
    browser.set_window_size(1280, 1000)
    seen: set[Path] = set()
    queue = [(out / "index.html").resolve()]
    while queue:
        page = queue.pop()
        if page in seen:
            continue
        seen.add(page)
        if page.suffix != ".html":
            continue  # the feed: tests/league/test_site.py reads it as Atom
        _open(browser, page)
        assert browser.title, page.name
        for href in browser.execute_script("return Array.from(document.links, function (a) { return a.href; });"):
            url = urlparse(href)
            assert url.scheme == "file", f"{page.name}: {href} leaves the site"
            target = Path(unquote(url.path))
            assert target.is_file() and target.parent == out.resolve(), f"{page.name}: {href} does not resolve"
            queue.append(target)
    assert {path.name for path in seen} >= {path.name for path in out.glob("*.html")}, "every page is reachable"
    assert (out / "feed.xml").resolve() in seen


def test_every_replay_steps_to_the_end_and_shows_the_board_of_referee_show(
    browser: Any, site: tuple[Path, Path]
) -> None:
    folder, out = site
    browser.set_window_size(1280, 1000)
    for path in sorted(folder.glob("r*-t*.rgn")):
        replay = adjudicate(read_source(path.read_bytes())[0], path.name, keep_steps=True)
        _open(browser, out / f"{path.stem}.html")
        browser.find_element("css selector", "a.replay").click()
        assert browser.current_url.endswith(f"{path.stem}-replay.html")
        shown = browser.execute_script(COLLECT, len(replay.steps))
        assert [row[0] for row in shown] == [str(n) for n in range(len(replay.steps) + 1)], path.name
        position = _json("show", str(path), "--json")["position"]
        assert shown[-1][2] == _signature("pikemen", position), f"{path.name}: the final board of referee show"
        assert browser.find_element("id", "counter").text == f"step {len(replay.steps)} of {len(replay.steps)}"
        browser.find_element("css selector", "header nav a").click()  # back to the game's page
        assert browser.current_url.endswith(f"/{path.stem}.html")


def test_each_players_chart_has_a_point_per_finished_game(browser: Any, site: tuple[Path, Path]) -> None:
    folder, out = site
    browser.set_window_size(1280, 1000)
    rows = {row["address"]: row for row in _json("league", "standings", str(folder), "--json")["rows"]}
    for number, (_, address) in enumerate(PLAYERS, start=1):
        _open(browser, out / f"player-{number}.html")
        points = browser.find_elements("css selector", "svg.chart circle.point")
        assert len(points) == rows[address]["games"] > 0
        assert points[0].is_displayed()


PHONE_CHECK = """
return [window.scrollY, document.documentElement.scrollWidth, window.innerWidth];
"""


def _after_a_frame(browser: Any) -> list[int]:
    return list(
        browser.execute_async_script(
            "var done = arguments[0]; requestAnimationFrame(function () { requestAnimationFrame(function () {"
            " done([window.scrollY, document.documentElement.scrollWidth, window.innerWidth]); }); });"
        )
    )


def test_the_pages_fit_a_phone_and_stay_at_their_top(browser: Any, site: tuple[Path, Path]) -> None:
    _, out = site
    browser.set_window_size(420, 860)
    try:
        for name in ("index", "round-3", "r4-t1", "r4-t1-replay", "player-1"):
            _open(browser, out / f"{name}.html")
            scroll_y, scroll_width, width = _after_a_frame(browser)
            assert width <= 420
            assert scroll_y == 0, f"{name}: the page scrolled itself"
            assert scroll_width <= width, f"{name}: {scroll_width} px wide on a {width} px screen"
    finally:
        browser.set_window_size(1280, 1000)


def test_the_replay_page_opens_at_its_top_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """The page opens at the last step; before the fix it scrolled the window (383 px at
    420 px wide) to show the last move in the list, hiding the header and the board."""
    path = EXAMPLES / "nika-won.rgn"
    replay = adjudicate(read_source(path.read_bytes())[0], path.name, 1, keep_steps=True)
    page = tmp_path / "page.html"
    page.write_text(replay_page(replay), encoding="utf-8")
    browser.set_window_size(420, 860)
    try:
        _open(browser, page)
        scroll_y, scroll_width, width = _after_a_frame(browser)
        assert scroll_y == 0 and scroll_width <= width
        visible = browser.execute_script(
            "var list = document.getElementById('moves'); var b = list.querySelector('button.current');"
            "return [list.scrollTop, b.offsetTop >= list.scrollTop,"
            " b.offsetTop + b.offsetHeight <= list.scrollTop + list.clientHeight];"
        )
        assert visible[0] > 0 and visible[1] and visible[2], "the current move is scrolled into the list's view"
    finally:
        browser.set_window_size(1280, 1000)


def test_a_hostile_league_runs_none_of_its_scripts(browser: Any, tmp_path: Path) -> None:
    folder = hostile_league(tmp_path / "evil")
    out = tmp_path / "www"
    build(folder, out)
    browser.set_window_size(1280, 1000)
    for page in sorted(out.glob("*.html")):
        _open(browser, page)
        assert browser.execute_script("return window.pwned === undefined;"), f"{page.name}: a hostile script ran"
        assert not browser.find_elements("css selector", "img"), page.name
        if page.name.endswith("-replay.html"):
            body = browser.find_element("tag name", "body")
            assert body.get_attribute("data-step") is not None or browser.find_element("id", "source").is_displayed()
            assert browser.find_element("id", "verdict").text, page.name
        else:
            assert browser.find_element("tag name", "h1").text, page.name
            assert browser.find_element("css selector", "footer a").get_attribute("href").endswith("index.html")
    _open(browser, out / "r1-t1-replay.html")
    tags = browser.execute_script(
        "return Array.from(document.querySelectorAll('#tags tr'), function (r) { return r.cells[1].textContent; });"
    )
    assert any(tag.startswith("<script>window.pwned=1</script>") for tag in tags), "shown as text"
    browser.find_element("id", "first").click()
    browser.find_element("id", "next").click()
    notes = [item.get_attribute("textContent") for item in browser.find_elements("css selector", "#notes li")]
    assert notes == [f"{HOSTILE} {BIDI}"], "the comment after the first action is shown at its step, as text"
    assert browser.execute_script("return window.pwned === undefined;")


LONG = "W" * 60  # the longest name league.toml allows, with no place to break
LONGER = "M" * 150  # a comment, a tag: longer still, unbroken


def long_league(folder: Path) -> Path:
    """A league whose every text shown is long and unbroken: the league's name, players'
    names of 60 letters, a tag, a comment in a record, and a malformed game's text."""
    head = f'name = "{LONGER}"\ngame = "pikemen"\nplayers = 2\n[tags]\nSite = "{LONGER}"\n'
    names = [(LONG, "ann@x.org"), ("B" * 59 + "x", "bo@x.org"), ("Cy", "cy@x.org"), ("D" * 60, "d" * 50 + "@x.org")]
    write_league(folder, names, head)
    season(folder, 2, turns=3)
    path = folder / "r1-t1.rgn"
    text = path.read_text(encoding="utf-8")
    text = text.replace('[Round "1"]', f'[Round "1"]\n[Annotator "{LONGER}"]', 1)
    text = re.sub(r"(\n1\. R: \S+)", lambda m: m.group(1) + " {" + LONGER + "}", text, count=1)
    path.write_text(text, encoding="utf-8")
    broken = folder / "r1-t2.rgn"
    broken.write_text(broken.read_text(encoding="utf-8") + f"\n{LONGER}\n", encoding="utf-8")
    return folder


def test_long_unbroken_texts_never_widen_a_page_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """The site promises no overflow: at 420 px, every page of a league of 60-letter names
    and longer comments and tags is no wider than the screen (before: 1,334 px)."""
    folder = long_league(tmp_path / "long")
    out = tmp_path / "www"
    build(folder, out)
    record = tmp_path / "alone.html"
    replayed = adjudicate(read_source((folder / "r1-t1.rgn").read_bytes())[0], "r1-t1.rgn", keep_steps=True)
    record.write_text(replay_page(replayed), encoding="utf-8")
    browser.set_window_size(420, 860)
    wide = []
    try:
        for page in [*sorted(out.glob("*.html")), record]:
            _open(browser, page)
            _, scroll_width, width = _after_a_frame(browser)
            if scroll_width > width:
                wide.append(f"{page.name}: {scroll_width} px")
    finally:
        browser.set_window_size(1280, 1000)
    assert not wide, f"wider than the {width} px screen: {', '.join(wide)}"


# For each cell of the standings: the words (of fewer than 12 characters) that the browser
# broke over more than one line, as "row/column: word"; and whether the table's box scrolls.
BROKEN_WORDS = """
var out = [];
var rows = document.querySelectorAll('table.standings tr');
for (var r = 0; r < rows.length; r++) {
  var cells = rows[r].children;
  for (var c = 0; c < cells.length; c++) {
    var walker = document.createTreeWalker(cells[c], NodeFilter.SHOW_TEXT);
    for (var node = walker.nextNode(); node; node = walker.nextNode()) {
      var found, words = /\\S+/g;
      while ((found = words.exec(node.data)) !== null) {
        if (found[0].length >= 12) continue;
        var range = document.createRange();
        range.setStart(node, found.index);
        range.setEnd(node, found.index + found[0].length);
        var tops = {};
        Array.prototype.forEach.call(range.getClientRects(), function (rect) {
          if (rect.width > 0) tops[Math.round(rect.top)] = true;
        });
        if (Object.keys(tops).length > 1) out.push(r + '/' + c + ': ' + found[0]);
      }
    }
  }
}
var box = document.querySelector('table.standings').parentElement;
return [out, box.scrollWidth, box.clientWidth, getComputedStyle(box).overflowX,
        document.documentElement.scrollWidth, window.innerWidth];
"""


def test_the_standings_on_a_phone_break_no_number_or_short_name_and_scroll_sideways(
    browser: Any, site: tuple[Path, Path], tmp_path: Path
) -> None:
    """At 420 px the standings are wider than the screen: their box scrolls sideways, and no
    number (27.64) or name (Gus) is broken inside itself (before: "27 / .6 / 4", "Gu / s").
    A 60-letter name may make the table wider still, never the page."""
    _, out = site
    folder = long_league(tmp_path / "long")
    long_out = tmp_path / "www"
    build(folder, long_out)
    browser.set_window_size(420, 860)
    try:
        for page in (out / "index.html", long_out / "index.html"):
            _open(browser, page)
            _after_a_frame(browser)
            broken, scroll_width, client_width, overflow, page_width, width = browser.execute_script(BROKEN_WORDS)
            assert broken == [], f"{page}: words broken inside: {broken}"
            assert overflow == "auto" and scroll_width > client_width, f"{page}: the standings do not scroll"
            assert page_width <= width, f"{page}: {page_width} px wide on a {width} px screen"
    finally:
        browser.set_window_size(1280, 1000)
