"""Nieuchess: the 25 x 36 odd-r hex map of `games/nieuchess/data/board.txt` (gray, red
invasion, hot-line and purple hexes, the stars, the centre line between ranks 18 and 19),
both sides' pawns, and the hexes of battles: attackers ringed orange, defenders purple."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

from referee.games.nieuchess import board
from referee.pictures import svg
from referee.pictures.drawing import MARGIN, Drawing
from referee.pictures.numica import fields
from referee.pictures.svg import Mark, Piece, Swatch
from referee.speech import ENGLISH, N_, Speaker

RADIUS = 10.0
WIDE = math.sqrt(3) * RADIUS
FILES = board.FILES
RANKS = board.HEIGHT
SIDES = {"R": "Red", "B": "Blue"}
COLOURS = {"Red": "#c8352b", "Blue": "#2f63c4"}
PAWNS = 20
FILLS = {".": "#f4efe1", "#": "#8a8a8a", "R": "#e0574b", "=": "#f7cdc8", "p": "#c7a4e4", "*": "#9b66c9"}
KINDS = {".": "plain", "#": "gray", "R": "red", "=": "hot-line", "p": "purple", "*": "star"}
HEX = re.compile(r"\b[a-y](?:3[0-6]|[12][0-9]|[1-9])\b")


def read_board() -> dict[str, str]:
    """Hex name to its map character (`.`, `#`, `R`, `=`, `p`, `*`), as the game reads its map."""
    top_down = sorted(range(board.SIZE), key=lambda at: (-(at // board.WIDTH), at % board.WIDTH))
    return {board.NAMES[at]: board.BOARD.terrain[at] for at in top_down}  # the map's order: the top rank first


def neighbours(at: str) -> list[str]:
    """The neighbours of a hex, as the game finds them (the odd-r rule of nieuchess.md)."""
    return [board.NAMES[near] for near in board.BOARD.neighbours[board.INDEX[at]]]


def _points(x: float, y: float, radius: float) -> str:
    corners = []
    for index in range(6):
        angle = math.radians(60 * index - 90)
        corners.append(f"{svg.num(x + radius * math.cos(angle))},{svg.num(y + radius * math.sin(angle))}")
    return " ".join(corners)


def _star(radius: float) -> str:
    corners = []
    for index in range(10):
        angle = math.radians(36 * index - 90)
        length = radius if index % 2 == 0 else radius * 0.45
        corners.append(f"{svg.num(length * math.cos(angle))},{svg.num(length * math.sin(angle))}")
    return " ".join(corners)


class NieuchessDrawing(Drawing):
    title = "Nieuchess"
    width = 2 * MARGIN + (len(FILES) + 0.5) * WIDE
    height = 2 * MARGIN + (RANKS - 1) * 1.5 * RADIUS + 2 * RADIUS
    legend_columns = 3
    square_pattern = HEX

    def __init__(self, position: str) -> None:
        super().__init__(position)
        self.cells = read_board()
        self.centres: dict[str, tuple[float, float]] = {}
        for at in self.cells:
            file, rank = FILES.index(at[0]), int(at[1:])
            x = MARGIN + WIDE / 2 + file * WIDE + (WIDE / 2 if rank % 2 == 0 else 0)
            self.centres[at] = (x, MARGIN + RADIUS + (RANKS - rank) * 1.5 * RADIUS)

    def centre(self, at: str) -> tuple[float, float] | None:
        return self.centres.get(at)

    def defs(self, parent: ET.Element) -> None:
        svg.sub(
            svg.sub(parent, "symbol", id="cell-mark", overflow="visible"), "polygon", points=_points(0, 0, RADIUS - 1.2)
        )
        svg.sub(parent, "polygon", id="hex", points=_points(0, 0, RADIUS))
        for side, colour in COLOURS.items():
            group = svg.sub(parent, "g", id=f"pawn-{side.lower()}")
            svg.sub(group, "circle", cx=0, cy=0, r=6.2, fill=colour, stroke="#000000", stroke_width=1.1)
        svg.sub(parent, "polygon", id="star", points=_star(6.5), fill="#ffe066", stroke="#5a3a7a", stroke_width=0.6)

    def board(self, parent: ET.Element, say: Speaker = ENGLISH) -> None:
        group = svg.sub(parent, "g", id="hexes", stroke="#b7ae98", stroke_width=0.5)
        line: list[tuple[float, float]] = []
        for at, mark in self.cells.items():
            x, y = self.centre(at) or (0.0, 0.0)
            cell = ET.SubElement(group, svg.q("use"))
            cell.set(f"{{{svg.XLINK_NS}}}href", "#hex")
            cell.set("x", svg.num(x))
            cell.set("y", svg.num(y))
            cell.set("fill", FILLS.get(mark, "#ffffff"))
            cell.set(svg.RF_AT, at)
            cell.set(f"{{{svg.RF_NS}}}kind", KINDS.get(mark, "plain"))
            if mark == "=":
                line.append((x, y))
        stars = svg.sub(parent, "g", id="stars")
        for at, mark in self.cells.items():
            if mark == "*":
                x, y = self.centre(at) or (0.0, 0.0)
                use = ET.SubElement(stars, svg.q("use"))
                use.set(f"{{{svg.XLINK_NS}}}href", "#star")
                use.set("transform", f"translate({svg.num(x)} {svg.num(y)})")
        hot = svg.sub(parent, "g", id="hot-line", stroke="#c0140a", stroke_width=2.4, stroke_linecap="round")
        for index, (x, y) in enumerate(line):
            for x2, y2 in line[index + 1 :]:
                if abs(x2 - x) < WIDE * 1.01 and abs(y2 - y) < RADIUS * 1.6:
                    svg.sub(hot, "line", x1=x, y1=y, x2=x2, y2=y2)
        zigzag = []
        for file in FILES:
            x, y = self.centre(f"{file}18") or (0.0, 0.0)
            zigzag += [(x - WIDE / 2, y - RADIUS / 2), (x, y - RADIUS), (x + WIDE / 2, y - RADIUS / 2)]
        points = " ".join(f"{svg.num(x)},{svg.num(y)}" for x, y in zigzag)
        svg.sub(parent, "polyline", id="centre-line", points=points, fill="none", stroke="#111111", stroke_width=2.6)
        left, top = MARGIN, MARGIN
        right, bottom = self.width - MARGIN, self.height - MARGIN
        svg.coordinates(
            parent,
            [(file, MARGIN + WIDE * (index + 0.75)) for index, file in enumerate(FILES)],
            [(str(rank), (self.centre(f"a{rank}") or (0.0, 0.0))[1]) for rank in range(1, RANKS + 1)],
            (left, top, right, bottom),
        )

    def entries(self, position: str) -> list[tuple[str, str]]:
        found = fields(position)
        return [(side, at) for letter, side in SIDES.items() for at in found.get(letter, "").split(",") if at]

    def piece(self, side: str, entry: str) -> Piece | None:
        centre = self.centre(entry)
        return None if centre is None else Piece(entry, side, f"pawn-{side.lower()}", *centre)

    def details(self, position: str, say: Speaker = ENGLISH) -> list[str]:
        found = fields(position)
        counts = {side: len([at for at in found.get(letter, "").split(",") if at]) for letter, side in SIDES.items()}
        pools = ", ".join(f"{say.word(side)} {PAWNS - count}" for side, count in counts.items())
        left = dict(item.partition("=")[::2] for item in found.get("inv", "").split(",") if item)
        invasions = ", ".join(f"{say.word(side)} {left.get(letter, '2')}" for letter, side in SIDES.items())
        return [say(N_("pool: {pools}; invasions left: {invasions}"), pools=pools, invasions=invasions)]

    def marks(self, action: str, kind: str) -> list[Mark]:
        """Battles (`g6+h6xh7#4=DB2(...)`) mark attackers and defenders; other hexes `kind`."""
        if kind != "last":
            return super().marks(action, kind)
        found: dict[str, str] = {}
        tokens = action.split()
        for token in tokens:
            if "x" in token:
                attackers, _, rest = token.partition("x")
                defenders = re.split(r"[#=(]", rest, maxsplit=1)[0]
                for at in HEX.findall(attackers):
                    found[at] = "attack"
                for at in HEX.findall(defenders):
                    found[at] = "defend"
        for token in tokens:
            for at in HEX.findall(token):
                found.setdefault(at, "last")
        return [Mark(at, mark) for at, mark in found.items() if at in self.cells]

    def contacts(self, position: str) -> list[Mark]:
        """Pawns next to an enemy pawn (a battle is due): Red's ringed orange, Blue's purple."""
        found = fields(position)
        red = {at for at in found.get("R", "").split(",") if at in self.cells}
        blue = {at for at in found.get("B", "").split(",") if at in self.cells}
        marks = [Mark(at, "attack") for at in sorted(red) if blue.intersection(neighbours(at))]
        return marks + [Mark(at, "defend") for at in sorted(blue) if red.intersection(neighbours(at))]

    def legend(self, say: Speaker = ENGLISH) -> list[Swatch]:
        return [
            Swatch(say(N_("Red pawn")), symbol="pawn-red"),
            Swatch(say(N_("Blue pawn")), symbol="pawn-blue"),
            Swatch(say(N_("gray: impassable")), FILLS["#"]),
            Swatch(say(N_("red: invasion hex")), FILLS["R"]),
            Swatch(say(N_("hot line")), FILLS["="], stroke="#c0140a"),
            Swatch(say(N_("purple: replacement")), FILLS["p"]),
            Swatch(say(N_("star: replacements land")), FILLS["*"], symbol=None, text="*"),
            Swatch(say(N_("centre line (18 | 19)")), "none", stroke="#111111"),
            Swatch(say(N_("battle: attackers")), "none", stroke=svg.MARK_COLOURS["attack"]),
            Swatch(say(N_("battle: defenders")), "none", stroke=svg.MARK_COLOURS["defend"]),
            Swatch(say(N_("last action")), "none", stroke=svg.MARK_LAST),
            Swatch(say(N_("illegal action")), "none", stroke=svg.MARK_ILLEGAL),
        ]


DRAWING = NieuchessDrawing
"""The drawing `referee.pictures.drawing_for` finds in the module named after the game."""
