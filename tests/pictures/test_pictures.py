"""Structural tests of the board pictures (`referee show --svg`) and the replay page's data.

The expected pieces are read here from each position string by the spec's own words, and
compared with what the picture says; the picture is also checked geometrically (each piece
inside the square or hex it names), by colour, size and facing.
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.games import registry
from referee.games.api import GameState
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.pictures import board_svg, replay_page
from tests.helpers.process import run_referee

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
RF = "{urn:referee:pictures}"

NIKA_CITIES = {"W": "Athens", "R": "Sparta", "B": "Messene", "K": "Thebes"}
NIKA_DEGREES = {"N": 0, "E": 90, "S": 180, "W": 270}
PIKEMEN_DEGREES = {name: 45 * index for index, name in enumerate(("N", "NE", "E", "SE", "S", "SW", "W", "NW"))}
PIKEMEN_POINTS = {"S": 1, "M": 2, "L": 3}
HUES = {
    "Athens": "white",
    "Sparta": "red",
    "Messene": "blue",
    "Thebes": "black",
    "Red": "red",
    "Blue": "blue",
    "Yellow": "yellow",
    "Green": "green",
}

Expected = set[tuple[str, str, frozenset[tuple[str, str]]]]


def _fields(position: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for field in position.split():
        name, _, value = field.partition(":")
        found[name] = [entry for entry in value.split(",") if entry]
    return found


def expected_pieces(game: str, position: str) -> Expected:
    """Every piece a position string places, as (square, side, attributes), read by the spec."""
    fields = _fields(position)
    return {_entry(game, name, entry) for name in FIELDS[game] for entry in fields.get(name, [])}


FIELDS = {
    "nika": tuple(NIKA_CITIES),
    "numica": ("R", "B"),
    "pikemen": ("Red", "Yellow", "Blue", "Green"),
    "nieuchess": ("R", "B"),
}


@functools.cache
def _entry(game: str, field: str, entry: str) -> tuple[str, str, frozenset[tuple[str, str]]]:
    """One piece entry of a position string's field, as the spec words it."""
    if game == "nika":
        return entry[:-1], NIKA_CITIES[field], frozenset({("facing", entry[-1].upper())})
    side = {"R": "Red", "B": "Blue"}.get(field, field)
    if game == "numica":
        shape = {"S": "square", "O": "round"}[entry[2]]
        return entry[:2], side, frozenset({("shape", shape), ("moved", "yes" if entry.endswith("*") else "no")})
    if game == "pikemen":
        return entry[:2], side, frozenset({("size", entry[2]), ("facing", entry[3:])})
    return entry, side, frozenset()


def drawn_pieces(root: ET.Element) -> Expected:
    found: Expected = set()
    for use in root.iter(f"{SVG}use"):
        if use.get("class") == "piece":
            attributes = {key[len(RF) :]: value for key, value in use.attrib.items() if key.startswith(RF)}
            at, side = attributes.pop("at"), attributes.pop("side")
            found.add((at, side, frozenset(attributes.items())))
    return found


def _translate(transform: str) -> tuple[float, float, float]:
    move = re.search(r"translate\(([-\d.]+) ([-\d.]+)\)", transform)
    turn = re.search(r"rotate\(([-\d.]+)\)", transform)
    assert move is not None, transform
    return float(move.group(1)), float(move.group(2)), float(turn.group(1)) if turn else 0.0


def _inside(cell: ET.Element, x: float, y: float) -> bool:
    if cell.tag == f"{SVG}rect":
        left, top = float(cell.get("x", "0")), float(cell.get("y", "0"))
        return left < x < left + float(cell.get("width", "0")) and top < y < top + float(cell.get("height", "0"))
    # A hex: a <use> of the hex shape, placed at its centre.
    return abs(float(cell.get("x", "0")) - x) < 0.01 and abs(float(cell.get("y", "0")) - y) < 0.01


def _hue(colour: str) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    if min(red, green, blue) > 200:
        return "white"
    if max(red, green, blue) < 80:
        return "black"
    if red > 150 and green > 150 and blue < 100:
        return "yellow"
    if red > 1.5 * max(green, blue):
        return "red"
    if blue > 1.3 * max(red, green):
        return "blue"
    if green > 1.3 * max(red, blue):
        return "green"
    return colour


def check_picture(game: str, state: GameState, text: str) -> ET.Element:
    """The picture parses, shows exactly the position's pieces, each in its square, in its
    side's colour, turned to its facing and drawn by its size."""
    root = ET.fromstring(text)
    assert root.tag == f"{SVG}svg" and root.get("version") == "1.1"
    position = state.position()
    assert drawn_pieces(root) == expected_pieces(game, position)
    layers = [layer for layer in root.iter(f"{SVG}g") if layer.get("id") in ("squares", "hexes")]
    cells = {cell.get(f"{RF}at"): cell for layer in layers for cell in layer if cell.get(f"{RF}at")}
    symbols = {element.get("id"): element for element in root.iter() if element.get("id")}
    for use in (use for use in root.iter(f"{SVG}use") if use.get("class") == "piece"):
        at, side = use.get(f"{RF}at", ""), use.get(f"{RF}side", "")
        x, y, rotate = _translate(use.get("transform", ""))
        assert _inside(cells[at], x, y), f"{side} piece on {at} is drawn at {x},{y}"
        symbol = symbols[use.get(XLINK, "")[1:]]
        fills = [shape.get("fill", "") for shape in symbol if shape.tag in (f"{SVG}circle", f"{SVG}rect", f"{SVG}path")]
        assert _hue(fills[0]) == HUES[side], (side, fills)
        facing = use.get(f"{RF}facing")
        if game == "nika":
            assert rotate == NIKA_DEGREES[facing or ""]
        if game == "pikemen":
            size = use.get(f"{RF}size", "")
            pips = [c for c in symbol if c.tag == f"{SVG}circle"]
            assert len(pips) == PIKEMEN_POINTS[size]
            body = symbol[0].tag
            if facing == "U":
                assert rotate == 0 and body == f"{SVG}rect"
            else:
                assert rotate == PIKEMEN_DEGREES[facing or ""] and body == f"{SVG}path"
    caption = "".join(root.find(f"{SVG}g[@id='caption']").itertext())  # type: ignore[union-attr]
    mover = state.to_move()
    if state.outcome() is None and mover is not None:
        assert f"{mover} to move" in caption
        if state.round_number() is not None:
            assert f"round {state.round_number()}" in caption
    else:
        assert "game over" in caption
    return root


def replayed(path: Path, index: int = 1, cut_at: int | None = None):  # type: ignore[no-untyped-def]
    results = read_source(path.read_bytes())
    whole = adjudicate(results[index - 1], str(path), index, keep_steps=True, cut_at=cut_at)
    return whole if cut_at is None else whole.cut


def start_state(game: str, players: int | None = None) -> GameState:
    engine = registry.engine(game)
    return engine.new_state({"Game": game, **engine.new_tags(players, "pictures", None)})


@pytest.mark.parametrize(
    ("game", "players"),
    [("nika", 2), ("nika", 3), ("nika", 4), ("numica", 2), ("pikemen", 2), ("pikemen", 3), ("pikemen", 4)]
    + [("nieuchess", 2)],
)
def test_every_game_and_player_count_draws_its_start(game: str, players: int) -> None:
    state = start_state(game, players)
    check_picture(game, state, board_svg(state))


EXAMPLE_RECORDS = sorted(EXAMPLES.glob("*.rgn"))


@pytest.mark.parametrize("path", EXAMPLE_RECORDS, ids=[path.name for path in EXAMPLE_RECORDS])
def test_every_example_record_is_drawn_faithfully(path: Path) -> None:
    for index in range(1, len(read_source(path.read_bytes())) + 1):
        replay = replayed(path, index)
        assert replay.state is not None and replay.record is not None
        check_picture(replay.record.game, replay.state, board_svg(replay.state, "x"))


def test_the_same_record_gives_the_same_bytes() -> None:
    path = EXAMPLES / "nieuchess-pending-retreat.rgn"
    first, second = replayed(path), replayed(path)
    assert first.state is not None and second.state is not None
    assert board_svg(first.state, "j18+k18xk17#2=DB2") == board_svg(second.state, "j18+k18xk17#2=DB2")


def _board_data(name: str) -> dict[str, str]:
    cells: dict[str, str] = {}
    files = "abcdefghijklmnopqrstuvwxy"
    for line in (ROOT / "games" / name.split("/")[0] / "data" / name.split("/")[1]).read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            rank, *marks = line.split()
            cells.update((f"{files[i]}{int(rank)}", mark) for i, mark in enumerate(marks))
    return cells


def test_nieuchess_map_has_every_hex_of_the_data_file_in_its_kind() -> None:
    root = ET.fromstring(board_svg(start_state("nieuchess")))
    kinds = {".": "plain", "#": "gray", "R": "red", "=": "hot-line", "p": "purple", "*": "star"}
    hexes = root.findall(f".//{SVG}g[@id='hexes']/{SVG}use")
    drawn = {hex_.get(f"{RF}at"): hex_.get(f"{RF}kind") for hex_ in hexes}
    data = _board_data("nieuchess/board.txt")
    assert len(data) == 25 * 36
    assert drawn == {at: kinds[mark] for at, mark in data.items()}
    assert root.find(f".//{SVG}polyline[@id='centre-line']") is not None
    assert len(root.findall(f".//{SVG}g[@id='stars']/{SVG}use")) == 4
    assert len(root.findall(f".//{SVG}g[@id='hot-line']/{SVG}line")) >= 20


def test_nika_areas_follow_the_data_file() -> None:
    root = ET.fromstring(board_svg(start_state("nika")))
    squares = {rect.get(f"{RF}at"): rect.get("fill") for rect in root.iter(f"{SVG}rect") if rect.get(f"{RF}at")}
    data = _board_data("nika/nika.txt")
    assert set(squares) == {at for at, mark in data.items() if mark != "#"}
    central = root.find(f".//{SVG}rect[@id='central-area']")
    assert central is not None
    for letter in "WRBK":
        victory = {squares[at] for at, mark in data.items() if mark == letter}
        rally = {squares[at] for at, mark in data.items() if mark == letter.lower()}
        assert len(victory) == 1 and len(rally) == 1 and victory != rally


def test_numica_squares_show_the_position_tiles() -> None:
    replay = replayed(EXAMPLES / "numica-ongoing.rgn")
    assert replay.state is not None
    root = ET.fromstring(board_svg(replay.state))
    tiles = _fields(replay.state.position())["tiles"][0]
    drawn = {rect.get(f"{RF}at"): rect.get(f"{RF}tile") for rect in root.iter(f"{SVG}rect") if rect.get(f"{RF}tile")}
    assert drawn == {f"{'abcdefgh'[i % 8]}{i // 8 + 1}": tiles[i] for i in range(64)}


def test_a_record_ending_in_combat_marks_attackers_and_defenders() -> None:
    replay = replayed(EXAMPLES / "nieuchess-pending-retreat.rgn")
    assert replay.state is not None and replay.steps
    root = ET.fromstring(board_svg(replay.state, replay.steps[-1].move.text))
    marks = {use.get(f"{RF}at"): use.get(f"{RF}kind") for use in root.findall(f".//{SVG}g[@id='marks']/{SVG}use")}
    assert replay.steps[-1].move.text == "j18+k18xk17#2=DB2"
    assert marks == {"j18": "attack", "k18": "attack", "k17": "defend"}
    # As `show --svg` draws it: the whole last turn, a pawn that moved and then attacked marked as attacker.
    result = _run("show", "--svg", "examples/nieuchess-pending-retreat.rgn")
    root = ET.fromstring(result.stdout)
    marks = {use.get(f"{RF}at"): use.get(f"{RF}kind") for use in root.findall(f".//{SVG}g[@id='marks']/{SVG}use")}
    assert marks == {"j18": "attack", "k18": "attack", "k17": "defend", "i20": "last", "p17": "last", "m16": "last"}


def test_an_illegal_record_shows_the_action_in_red_with_the_rule(tmp_path: Path) -> None:
    source = EXAMPLES / "numica-ongoing.rgn"
    text = source.read_text().rstrip("\n") + "\nB: a1-a1\n"
    (tmp_path / "bad.rgn").write_text(text)
    result = _run("show", "--svg", str(tmp_path / "bad.rgn"))
    assert result.returncode == 1
    root = ET.fromstring(result.stdout)
    marks = [(use.get(f"{RF}at"), use.get(f"{RF}kind")) for use in root.findall(f".//{SVG}g[@id='marks']/{SVG}use")]
    assert marks == [("a1", "illegal")]
    check = _run("check", str(tmp_path / "bad.rgn"))
    message = check.stdout.split(": ")[-1].strip()
    assert message and message[:40] in " ".join("".join(root.find(f"{SVG}g[@id='caption']").itertext()).split())  # type: ignore[union-attr]


def _run(*arguments: str) -> subprocess.CompletedProcess[str]:
    return run_referee(*arguments, cwd=ROOT)


def test_show_svg_writes_a_file_and_at_picks_the_round(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = _run("show", "--svg", "--at", "3", "-o", str(out), "examples/nika-won.rgn")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    replay = replayed(EXAMPLES / "nika-won.rgn", cut_at=3)
    assert replay.state is not None
    root = check_picture("nika", replay.state, out.read_text(encoding="utf-8"))
    assert "round 4" in "".join(root.find(f"{SVG}g[@id='caption']").itertext())  # type: ignore[union-attr]


def test_show_svg_errors_are_one_clean_line(tmp_path: Path) -> None:
    for command in (("show", "--svg"), ("replay", "--html")):
        missing = tmp_path / "missing" / "x.svg"
        result = _run(*command, "-o", str(missing), "examples/nika-won.rgn")
        assert result.returncode == 2
        assert result.stderr == f"referee: cannot write {missing}: No such file or directory\n"  # (said once)
    malformed = tmp_path / "bad.rgn"
    malformed.write_text('[Game "nika"]\n\nW: d1-W ((\n')
    result = _run("show", "--svg", str(malformed))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("referee: no board to draw:") and "malformed" in result.stderr


def _page_data(page: str) -> dict:  # type: ignore[type-arg]
    match = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert match is not None
    return json.loads(match.group(1).replace("<\\/", "</"))  # type: ignore[no-any-return]


def test_replay_page_is_self_contained_and_has_a_step_per_action(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = _run("replay", "--html", "-o", str(out), "examples/nieuchess-finished.rgn")
    assert result.returncode == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["'](?!#)""", page), "the page must not load anything"
    assert "http://" not in page.replace("http://www.w3.org/", "") and "https://" not in page
    data = _page_data(page)
    replay = replayed(EXAMPLES / "nieuchess-finished.rgn")
    assert len(data["steps"]) == len(replay.steps) + 1
    assert [step["m"] for step in data["steps"][1:]] == [played.move.text for played in replay.steps]
    assert data["verdict"].endswith("finished: Red wins (army-destroyed) after 20 turns")
    assert ["Game", "nieuchess"] in data["tags"]
    again = replay_page(replayed(EXAMPLES / "nieuchess-finished.rgn"))
    assert _page_data(again)["steps"] == data["steps"]
    assert again == replay_page(replayed(EXAMPLES / "nieuchess-finished.rgn")), "the page must be deterministic"


def test_replay_page_of_a_malformed_record_shows_where_the_text_stops(tmp_path: Path) -> None:
    malformed = tmp_path / "bad.rgn"
    malformed.write_text('[Game "nika"]\n\nW: d1-W d2-W\nR: a4-S ((\n')
    result = _run("replay", "--html", "-o", str(tmp_path / "bad.html"), str(malformed))
    assert result.returncode == 1
    data = _page_data((tmp_path / "bad.html").read_text(encoding="utf-8"))
    assert data["status"] == "malformed" and data["steps"] == []
    assert data["source"]["line"] == 4 and "R: a4-S ((" in data["source"]["lines"]


def test_golden_pictures() -> None:
    """One position of each game, reviewed by eye (rendered to PNG); set REFEREE_UPDATE_GOLDEN=1 to rewrite."""
    for name, path, action in GOLDEN_CASES:
        replay = replayed(EXAMPLES / path)
        assert replay.state is not None
        picture = board_svg(replay.state, action)
        golden = GOLDEN / f"{name}.svg"
        if os.environ.get("REFEREE_UPDATE_GOLDEN"):
            golden.write_text(picture, encoding="utf-8")
        assert picture == golden.read_text(encoding="utf-8"), f"{golden} differs; review and rewrite it"


GOLDEN_CASES = [
    ("nika", "nika-won.rgn", "k3>N e10-E"),
    ("numica", "numica-ongoing.rgn", None),
    ("pikemen", "pikemen-3p-ongoing.rgn", None),
    ("nieuchess", "nieuchess-pending-retreat.rgn", "j18+k18xk17#2=DB2"),
]


def test_docs_pictures_are_up_to_date() -> None:
    """docs/pictures/*.svg are what the README's command makes from the examples."""
    for name, path in DOC_PICTURES.items():
        result = _run("show", "--svg", f"examples/{path}")
        assert result.returncode == 0, result.stderr
        assert (ROOT / "docs" / "pictures" / f"{name}.svg").read_text(encoding="utf-8") == result.stdout, name


DOC_PICTURES = {
    "nika": "nika-won.rgn",
    "numica": "numica-ongoing.rgn",
    "pikemen": "pikemen-4p-ongoing.rgn",
    "nieuchess": "nieuchess-pending-retreat.rgn",
}
