"""Pikemen: the 8 x 8 board with Icehouse pyramids in each player's colour, drawn by size
(1-3 pips): seen from above when upright, lying down and pointing in their facing when
in attack position."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from referee.pictures import svg
from referee.pictures.drawing import MARGIN, EightByEight
from referee.pictures.numica import fields
from referee.pictures.svg import Piece, Swatch
from referee.speech import ENGLISH, N_, Speaker

CELL = EightByEight.cell
FILES = EightByEight.files
SIDES = ("Red", "Yellow", "Blue", "Green")
COLOURS = {"Red": "#d23a2f", "Yellow": "#efc81c", "Blue": "#2f63c4", "Green": "#2e9a45"}
PIPS = {"Red": "#ffffff", "Yellow": "#222222", "Blue": "#ffffff", "Green": "#ffffff"}
LETTERS = {"Red": "R", "Yellow": "Y", "Blue": "B", "Green": "G"}
"""Each side's letter (as the notation writes it), drawn on its pieces beside the colour."""
SIZES = {"S": 1, "M": 2, "L": 3}
PIP_WORDS = {"S": N_("small: 1 pip"), "M": N_("medium: 2 pip"), "L": N_("large: 3 pip")}
"""The pieces' sizes in the legend, by their letter."""
FACINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
ENTRY = re.compile(r"^([a-h][1-8])([SML])(NE|NW|SE|SW|N|E|S|W|U)$")


def _pips(parent: ET.Element, count: int, y: float, colour: str) -> None:
    for index in range(count):
        svg.sub(parent, "circle", cx=(index - (count - 1) / 2) * 4.6, cy=y, r=1.7, fill=colour)


class PikemenDrawing(EightByEight):
    title = "Pikemen"

    def __init__(self, position: str) -> None:
        super().__init__(position)
        present = fields(position)
        self.sides = tuple(side for side in SIDES if side in present) or SIDES[:2]

    def key(self) -> str:
        return " ".join(self.sides)

    def defs(self, parent: ET.Element) -> None:
        svg.square_mark(parent, CELL)
        for side in self.sides:
            colour, pip = COLOURS[side], PIPS[side]
            for letter, size in SIZES.items():
                length = 9 + 4.5 * size
                lying = svg.sub(parent, "g", id=f"pike-{side.lower()}-{letter}-attack")
                svg.sub(
                    lying,
                    "path",
                    d=f"M 0 {-length} L {0.72 * length} {0.62 * length} L {-0.72 * length} {0.62 * length} Z",
                    fill=colour,
                    stroke="#000000",
                    stroke_width=1.3,
                    stroke_linejoin="round",
                )
                _pips(lying, size, 0.3 * length, pip)
                svg.side_letter(lying, LETTERS[side], 0.06 * length, 5 + size, pip)
                side_half = 6 + 3.6 * size
                upright = svg.sub(parent, "g", id=f"pike-{side.lower()}-{letter}-upright")
                svg.sub(
                    upright,
                    "rect",
                    x=-side_half,
                    y=-side_half,
                    width=2 * side_half,
                    height=2 * side_half,
                    fill=colour,
                    stroke="#000000",
                    stroke_width=1.3,
                )
                svg.sub(
                    upright,
                    "path",
                    d=f"M {-side_half} {-side_half} L {side_half} {side_half} "
                    f"M {side_half} {-side_half} L {-side_half} {side_half}",
                    stroke="#000000",
                    stroke_width=0.8,
                    stroke_opacity=0.6,
                )
                _pips(upright, size, side_half * 0.55, pip)
                svg.side_letter(upright, LETTERS[side], side_half * 0.2, 5 + 1.5 * size, pip)

    def board(self, parent: ET.Element, say: Speaker = ENGLISH) -> None:
        group = svg.sub(parent, "g", id="squares", stroke="#9a9a9a", stroke_width=0.6)
        for index in range(64):
            file, rank = index % 8, index // 8 + 1
            fill = "#f1efe8" if (file + rank) % 2 else "#d9d5c7"
            cell = svg.sub(
                group, "rect", x=MARGIN + file * CELL, y=MARGIN + (8 - rank) * CELL, width=CELL, height=CELL, fill=fill
            )
            cell.set(svg.RF_AT, f"{FILES[file]}{rank}")
        self.edges(parent)

    def entries(self, position: str) -> list[tuple[str, str]]:
        found = fields(position)
        return [(side, entry) for side in self.sides for entry in found.get(side, "").split(",") if entry]

    def piece(self, side: str, entry: str) -> Piece | None:
        match = ENTRY.match(entry)
        centre = self.centre(entry[:2])
        if match is None or centre is None:
            return None
        at, size, facing = match.groups()
        upright = facing == "U"
        symbol = f"pike-{side.lower()}-{size}-{'upright' if upright else 'attack'}"
        rotate = 0 if upright else 45 * FACINGS.index(facing)
        return Piece(at, side, symbol, *centre, rotate, (("size", size), ("facing", facing)))

    def details(self, position: str, say: Speaker = ENGLISH) -> list[str]:
        scores = dict(item.partition("=")[::2] for item in fields(position).get("score", "").split(",") if item)
        counts = ", ".join(f"{say.word(side)} {scores.get(side, '0')}" for side in self.sides)
        return [say(N_("score: {counts}"), counts=counts)]

    def legend(self, say: Speaker = ENGLISH) -> list[Swatch]:
        entries = [Swatch(say.word(side), symbol=f"pike-{side.lower()}-M-attack") for side in self.sides]
        first = self.sides[0].lower()
        entries += [Swatch(say(PIP_WORDS[letter]), symbol=f"pike-{first}-{letter}-upright") for letter in SIZES]
        entries += [
            Swatch(say(N_("square: upright (defence)")), symbol=f"pike-{first}-L-upright"),
            Swatch(say(N_("triangle: points its facing")), symbol=f"pike-{first}-L-attack"),
        ]
        return entries


DRAWING = PikemenDrawing
"""The drawing `referee.pictures.drawing_for` finds in the module named after the game."""
