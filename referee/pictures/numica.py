"""Numica: the 8 x 8 board with each square's tile symbol (from the position's `tiles:`),
round and square pieces of Red and Blue, a white dot on pieces that have moved."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from referee.pictures import svg
from referee.pictures.drawing import MARGIN, EightByEight
from referee.pictures.svg import Piece, Swatch
from referee.speech import ENGLISH, N_, Speaker

CELL = EightByEight.cell
FILES = EightByEight.files
SIDES = {"R": "Red", "B": "Blue"}
COLOURS = {"Red": "#c8352b", "Blue": "#2f63c4"}
SHAPES = {"S": "square", "O": "round"}
TILE_FILLS = {
    "1": "#fbf3dc",
    "2": "#f5e7c0",
    "3": "#eedba6",
    "4": "#e6cf8c",
    "5": "#ddc274",
    "K": "#bfe0b8",
    "R": "#f3c39c",
    "B": "#d3c2ea",
    "X": "#c9c9c9",
}
TILE_WORDS = {
    "1": N_("1-5: exactly that many squares"),
    "K": N_("K: a knight's move"),
    "R": N_("R: a rook's move"),
    "B": N_("B: a bishop's move"),
    "X": N_("X: to any empty square"),
}

# Translators: a Numica piece in the legend under the board, "Red square": its side, its shape.
PIECE = N_("{side} {shape}")


def fields(position: str) -> dict[str, str]:
    """The `name:value` fields of a position string."""
    found: dict[str, str] = {}
    for field in position.split():
        name, colon, value = field.partition(":")
        if colon:
            found[name] = value
    return found


class NumicaDrawing(EightByEight):
    title = "Numica"

    def __init__(self, position: str) -> None:
        super().__init__(position)
        self.tiles = fields(position).get("tiles", "")

    def key(self) -> str:
        return self.tiles

    def defs(self, parent: ET.Element) -> None:
        svg.square_mark(parent, CELL)
        for side, colour in COLOURS.items():
            for moved in (False, True):
                suffix = "-moved" if moved else ""
                square = svg.sub(parent, "g", id=f"numica-{side.lower()}-square{suffix}")
                svg.sub(
                    square,
                    "rect",
                    x=-12,
                    y=-12,
                    width=24,
                    height=24,
                    rx=3,
                    fill=colour,
                    stroke="#000000",
                    stroke_width=1.5,
                )
                round_ = svg.sub(parent, "g", id=f"numica-{side.lower()}-round{suffix}")
                svg.sub(round_, "circle", cx=0, cy=0, r=13, fill=colour, stroke="#000000", stroke_width=1.5)
                if moved:
                    for group in (square, round_):
                        svg.sub(group, "circle", cx=0, cy=0, r=3.5, fill="#ffffff")

    def board(self, parent: ET.Element, say: Speaker = ENGLISH) -> None:
        group = svg.sub(parent, "g", id="squares", stroke="#8a7f66", stroke_width=0.6)
        for index in range(64):
            file, rank = index % 8, index // 8 + 1
            x, y = MARGIN + file * CELL, MARGIN + (8 - rank) * CELL
            tile = self.tiles[index] if index < len(self.tiles) else "?"
            cell = svg.sub(group, "rect", x=x, y=y, width=CELL, height=CELL, fill=TILE_FILLS.get(tile, "#ffffff"))
            cell.set(svg.RF_AT, f"{FILES[file]}{rank}")
            cell.set(f"{{{svg.RF_NS}}}tile", tile)
            svg.sub(
                group,
                "text",
                tile,
                x=x + 4,
                y=y + 13,
                font_size=12,
                font_weight="bold",
                fill="#5a4a2a",
                stroke="none",
                class_="tile",
            )
        self.edges(parent)

    def entries(self, position: str) -> list[tuple[str, str]]:
        found = fields(position)
        return [(side, entry) for letter, side in SIDES.items() for entry in _entries(found.get(letter, ""))]

    def piece(self, side: str, entry: str) -> Piece | None:
        at, shape, moved = entry[:2], entry[2:3], entry.endswith("*")
        centre = self.centre(at)
        if centre is None or shape not in SHAPES:
            return None
        symbol = f"numica-{side.lower()}-{SHAPES[shape]}{'-moved' if moved else ''}"
        return Piece(at, side, symbol, *centre, 0, (("shape", SHAPES[shape]), ("moved", "yes" if moved else "no")))

    def details(self, position: str, say: Speaker = ENGLISH) -> list[str]:
        found = fields(position)
        unplaced = [side for letter, side in SIDES.items() if not _entries(found.get(letter, ""))]
        if unplaced:
            if len(unplaced) == 1:
                return [say(N_("not set up yet: {side}"), side=say.word(unplaced[0]))]
            return [
                say(N_("not set up yet: {side} and {other}"), side=say.word(unplaced[0]), other=say.word(unplaced[1]))
            ]
        words = []
        for letter, side in SIDES.items():
            pieces = _entries(found.get("B" if letter == "R" else "R", ""))
            squares = 4 - sum(1 for entry in pieces if entry[2:3] == "S")
            rounds = 4 - sum(1 for entry in pieces if entry[2:3] == "O")
            words.append(
                say(
                    N_("{side} has captured {squares} square and {rounds} round"),
                    side=say.word(side),
                    squares=squares,
                    rounds=rounds,
                )
            )
        return words

    def legend(self, say: Speaker = ENGLISH) -> list[Swatch]:
        entries = [
            Swatch(say(PIECE, side=say.word(side), shape=say.word(shape)), symbol=f"numica-{side.lower()}-{shape}")
            for side in COLOURS
            for shape in ("square", "round")
        ]
        entries.append(Swatch(say(N_("white dot: has moved")), symbol="numica-red-round-moved"))
        entries += [Swatch(say(words), TILE_FILLS[tile], text=tile) for tile, words in TILE_WORDS.items()]
        return entries


def _entries(text: str) -> list[str]:
    return [entry for entry in text.split(",") if entry]


DRAWING = NumicaDrawing
"""The drawing `referee.pictures.drawing_for` finds in the module named after the game."""
