"""Boards for everyone: every SVG board is an image with a `<title>` and a `<desc>` that
says, in words, the caption and every piece (checked against the position string read by
the spec); the sides of Pikemen and Nika differ by more than colour (a letter on each
piece). The browser side (axe-core, the aria-live steps) is in
tests/system/test_accessibility_browser.py."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.pictures import drawing_for, svg
from referee.pictures.state_picture import state_svg
from tests.pictures.test_pictures import EXAMPLES, expected_pieces

NS = {"svg": svg.SVG_NS}
RECORDS = sorted(EXAMPLES.glob("*.rgn"))


def described_pieces(description: str, sides: set[str]) -> set[tuple[str, str, frozenset[tuple[str, str]]]]:
    """The pieces a `<desc>` lists: `Side: at key value ..., ...` segments."""
    found = set()
    for segment in description.rstrip(".").split(". "):
        side, colon, items = segment.partition(": ")
        if not colon or side not in sides:
            continue
        for item in items.split(", "):
            at, *words = item.split(" ")
            found.add((at, side, frozenset(zip(words[::2], words[1::2], strict=True))))
    return found


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.name)
def test_every_board_is_an_image_with_a_title_and_a_description_of_its_pieces(path: Path) -> None:
    replay = adjudicate(read_source(path.read_bytes())[0])
    assert replay.state is not None
    picture = ET.fromstring(state_svg(replay.state).encode())
    assert picture.get("role") == "img"
    title, desc = picture.find("svg:title", NS), picture.find("svg:desc", NS)
    assert list(picture)[:2] == [title, desc]  # first, so that they name and describe the image
    assert title is not None and title.text and desc is not None and desc.text
    game = replay.state.info.name
    position = replay.state.position()
    heading = title.text
    assert desc.text.startswith(heading)
    sides = set(registry.GAMES[game].sides)
    assert described_pieces(desc.text, sides) == expected_pieces(game, position)


def _without_colour(element: ET.Element) -> str:
    """The symbol's drawing with every colour left out: what a reader who cannot tell the
    colours apart still sees."""
    copy = ET.fromstring(ET.tostring(element))
    for node in copy.iter():
        for name in ("fill", "stroke", "id"):
            node.attrib.pop(name, None)
    return ET.tostring(copy, encoding="unicode")


@pytest.mark.parametrize(
    ("game", "players", "prefix"), [("pikemen", 4, "pike-"), ("nika", 4, "nika-")], ids=["pikemen", "nika"]
)
def test_the_sides_differ_by_more_than_colour(game: str, players: int, prefix: str) -> None:
    state = registry.engine(game).new_state({"Players": str(players)})
    drawing = drawing_for(game, state.position())
    defs = ET.Element(svg.q("defs"))
    drawing.defs(defs)
    by_side: dict[str, set[str]] = {}
    for symbol in defs:
        name = symbol.get("id", "")
        if not name.startswith(prefix):
            continue
        side = name.removeprefix(prefix).split("-")[0]
        by_side.setdefault(side, set()).add(_without_colour(symbol))
    assert len(by_side) == 4, sorted(by_side)
    shapes = list(by_side.values())
    for index, one in enumerate(shapes):
        for other in shapes[index + 1 :]:
            assert not one & other, "two sides' pieces differ only by colour"
    letters = {
        side: {
            text.text
            for symbol in defs
            if symbol.get("id", "").startswith(f"{prefix}{side}")
            for text in symbol.iter(svg.q("text"))
        }
        for side in by_side
    }
    assert all(len(found) == 1 for found in letters.values()), letters
    assert len({next(iter(found)) for found in letters.values()}) == 4


def test_a_description_names_the_caption_then_each_side() -> None:
    pieces = [
        svg.Piece("d1", "Red", "x", 0, 0, 0, (("size", "L"), ("facing", "N"))),
        svg.Piece("e2", "Blue", "x", 0, 0),
        svg.Piece("d2", "Red", "x", 0, 0, 0, (("size", "S"), ("facing", "U"))),
    ]
    said = svg.describe(["Pikemen · Red to move · round 2", "score: Red 1, Blue 0"], pieces)
    assert said == (
        "Pikemen · Red to move · round 2; score: Red 1, Blue 0. Red: d1 size L facing N, d2 size S facing U. Blue: e2."
    )
    assert re.fullmatch(r"", svg.describe([], []))
