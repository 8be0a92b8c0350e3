"""The drawn boards in their reader's language (issue 49, docs/languages.md): the SVG of
`show --svg`, of a league's game page and of the replay page says its caption, its legend
(`Red pawn`, `gray: impassable`), the labels on its squares and its `<desc>` (`Red: a1
size L facing N`) in the language, the sides and colours as the text boards of a mail say
them; the notation (squares, moves, the facings' and sizes' letters) as written. Under the
pseudo-language `qps` (each message of the template between ⟦ and ⟧) a board shows no
English outside the brackets."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.pictures import picture_commands, replay_page, svg
from referee.speech import ENGLISH, speaker
from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee_bytes
from tests.helpers.site_season import outside_brackets

RECORDS = sorted(EXAMPLES.glob("*.rgn"))
ILLEGAL = '[Game "nika"]\n\n1. W: d1-N d2-W\n'
TITLES = {"Nika", "Numica", "Pikemen", "Nieuchess"}
NOTATION = {"NE", "NW", "SE", "SW", "DB", "DE", "AE", "AR", "DR", "EX"}
"""Words of the notation a board quotes: facings, a battle's result codes."""


def _replay(text: str) -> Replay:
    return adjudicate(read_source(text.encode())[0], "g.rgn", 1, keep_steps=True)


def _texts(document: str) -> list[str]:
    """Everything an SVG document says: its title, description and every text element."""
    root = ET.fromstring(document.encode())
    return [element.text or "" for element in root.iter() if element.tag.split("}")[1] in ("title", "desc", "text")]


def _sources() -> dict[str, str]:
    found = {path.name: path.read_text(encoding="utf-8") for path in RECORDS}
    found["illegal"] = ILLEGAL
    return found


@pytest.mark.parametrize("name", list(_sources()))
def test_every_word_of_a_drawn_board_goes_through_the_catalogue(name: str) -> None:
    replay = _replay(_sources()[name])
    drawn = picture_commands.board_picture(replay, speaker("qps"))
    assert drawn is not None
    said = " ".join(_texts(drawn))  # a caption's line wrapped: a message's brackets on two lines
    assert sorted(set(outside_brackets(said)) - TITLES - NOTATION) == [], name


@pytest.mark.parametrize("name", list(_sources()))
def test_a_spanish_board_leaves_no_english_label(name: str) -> None:
    replay = _replay(_sources()[name])
    english, spanish = picture_commands.board_picture(replay), picture_commands.board_picture(replay, speaker("es"))
    assert english is not None and spanish is not None
    assert picture_commands.board_picture(replay, ENGLISH) == english
    root = ET.fromstring(english.encode())
    labels = [element.text or "" for element in root.find("svg:g[@id='legend']", {"svg": svg.SVG_NS}) or []]
    words = [label for label in labels if re.search(r"[a-z]{2,}", label)]  # not a tile's or an area's letter
    said = _texts(spanish)
    assert words and not set(words) & set(said), set(words) & set(said)
    english_words = {"pawn", "victory", "rally", "impassable", "facing", "size", "shape", "moved", "pip", "played"}
    english_words |= {"Athens", "Sparta", "Messene", "Thebes", "Red", "Blue", "Yellow", "Green", "to", "move"}
    assert not english_words & {word for text in said for word in re.findall(r"\w+", text)}, name


def test_a_spanish_boards_description_names_each_piece_in_spanish() -> None:
    pikemen = picture_commands.board_picture(_replay((EXAMPLES / "pikemen-2p-ongoing.rgn").read_text()), speaker("es"))
    assert pikemen is not None
    description = _texts(pikemen)[1]
    assert re.search(r"\. Rojo: [a-h][1-8] tamaño [SML] orientación (N|NE|E|SE|S|SW|W|NW|U)[,.]", description)
    numica = picture_commands.board_picture(_replay((EXAMPLES / "numica-finished.rgn").read_text()), speaker("es"))
    assert numica is not None
    assert re.search(r"\. Azul: [a-h][1-8] forma (cuadrada|redonda) (ya movida|sin mover)[,.]", _texts(numica)[1])
    illegal = picture_commands.board_picture(_replay(ILLEGAL), speaker("es"))
    assert illegal is not None
    assert '; acción ilegal "d1-N": d2 está ocupado por una pieza propia de Atenas. Atenas: d1 ' in _texts(illegal)[1]


def _data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.DOTALL)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("name", ["nika-won.rgn", "numica-finished.rgn", "pikemen-4p-ongoing.rgn", "illegal"])
def test_the_replay_pages_board_and_its_pieces_are_said_in_the_pages_language(name: str) -> None:
    replay = _replay(_sources()[name])
    pseudo = replay_page(replay, say=speaker("qps"))
    board = re.search(r"<svg.*?</svg>", pseudo, re.DOTALL)
    assert board is not None
    assert sorted(set(outside_brackets(" ".join(_texts(board.group(0))))) - TITLES) == [], name
    spanish = replay_page(replay, say=speaker("es"))
    assert "<desc>El tablero de " in spanish
    pieces = _data(spanish)["pieces"]
    assert isinstance(pieces, list) and pieces
    for symbol, _, fields, said in pieces:  # [side, piece] as page.js's description says them
        assert said[0] == speaker("es").word(fields["side"]) != fields["side"], symbol
        assert said[1].startswith(fields["at"]) and not {"facing", "size", "shape", "moved"} & set(said[1].split())
    english = _data(replay_page(replay))["pieces"]
    assert isinstance(english, list) and all(len(entry) == 3 for entry in english)  # English: as before


def test_show_svg_follows_the_locale_and_english_is_the_default() -> None:
    record = str(EXAMPLES / "nieuchess-finished.rgn")
    spanish = run_referee_bytes("show", "--svg", record, env={"LANGUAGE": "es"}, timeout=60)
    english = run_referee_bytes("show", "--svg", record, env={"LANGUAGE": "", "LC_ALL": "C.UTF-8"}, timeout=60)
    assert spanish.returncode == english.returncode
    said, plain = spanish.stdout.decode(), english.stdout.decode()
    assert ">peón de Rojo</text>" in said and ">gris: infranqueable</text>" in said
    assert ">Red pawn</text>" in plain and ">gray: impassable</text>" in plain


def test_a_spanish_leagues_game_page_draws_its_board_in_spanish(tmp_path: Path) -> None:
    from tests.helpers.cli import invoke
    from tests.helpers.site_season import spanish_season

    folder = spanish_season(tmp_path / "liga", "Otoño", "Ann Bo Cy")
    out = tmp_path / "site"
    assert invoke("league", "site", str(folder), "-o", str(out))[0] == 0
    game = (out / "r1-t1.html").read_text(encoding="utf-8")
    assert "<svg" in game and ">puntuación: Rojo " in game.replace("<text", "\n<text")
    assert "square: upright" not in game and ">cuadrado: erguida (defensa)</text>" in game
