"""Shared SVG helpers: the document, deterministic numbers and serialisation, the piece
model every game's drawing produces, the caption, the legend and the action marks.

Every picture is built with `xml.etree.ElementTree` (as python-chess draws its boards) and
uses only SVG 1.1 features with generic font families, so it needs no font or image.
A piece is one `<use>` element; what it stands for is written in attributes of the
`urn:referee:pictures` namespace (`rf:at`, `rf:side`, ...), which SVG 1.1 allows, so that
tests and scripts can read the board back from the picture.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from referee.speech import DEFAULT, ENGLISH, N_, Speaker

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
RF_NS = "urn:referee:pictures"
ET.register_namespace("", SVG_NS)
ET.register_namespace("xlink", XLINK_NS)
ET.register_namespace("rf", RF_NS)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK = "#222222"
PAPER = "#ffffff"
MARK_LAST = "#0f9d9d"
MARK_ILLEGAL = "#e01010"
CAPTION_HEIGHT = 44


def num(value: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros (deterministic)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


RF_AT = f"{{{RF_NS}}}at"


def q(name: str) -> str:
    """An SVG element or attribute name in the SVG namespace."""
    return f"{{{SVG_NS}}}{name}"


def sub(parent: ET.Element, tag: str, text: str | None = None, **attributes: str | float) -> ET.Element:
    """A child element; attribute names use `_` for `-` (`stroke_width`), numbers are formatted."""
    element = ET.SubElement(parent, q(tag))
    for key, value in attributes.items():
        name = key.rstrip("_").replace("_", "-")
        element.set(name, num(value) if isinstance(value, int | float) else value)
    if text is not None:
        element.text = text
    return element


class Piece(NamedTuple):
    """One piece as drawn: where (`at`, the square's name, and its centre), whose, which
    symbol of the drawing's `<defs>`, turned by `rotate` degrees, and what the attributes
    say of it (size, shape, facing...)."""

    at: str
    side: str
    symbol: str
    x: float
    y: float
    rotate: int = 0
    attributes: tuple[tuple[str, str], ...] = ()

    def transform(self) -> str:
        moved = f"translate({num(self.x)} {num(self.y)})"
        return f"{moved} rotate({self.rotate})" if self.rotate else moved

    def fields(self) -> dict[str, str]:
        """What the piece stands for, as the attributes name it."""
        return {"at": self.at, "side": self.side, **dict(self.attributes)}


def use_piece(parent: ET.Element, piece: Piece) -> ET.Element:
    element = ET.SubElement(parent, q("use"))
    element.set(f"{{{XLINK_NS}}}href", f"#{piece.symbol}")
    element.set("class", "piece")
    element.set("transform", piece.transform())
    for key, value in piece.fields().items():
        element.set(f"{{{RF_NS}}}{key}", value)
    return element


class Swatch(NamedTuple):
    """A legend entry: a small square filled `fill` (or showing symbol `symbol`) and a label."""

    label: str
    fill: str = "none"
    stroke: str = INK
    symbol: str | None = None
    text: str | None = None


def document(width: float, height: float, title: str, description: str = "") -> ET.Element:
    """The `<svg>` root: an image (`role="img"`) whose `<title>` names it and whose `<desc>`
    says what it shows, for whoever cannot see it (screen readers read both)."""
    root = ET.Element(q("svg"))
    root.set("version", "1.1")
    root.set("role", "img")
    root.set("width", num(width))
    root.set("height", num(height))
    root.set("viewBox", f"0 0 {num(width)} {num(height)}")
    root.set("font-family", FONT)
    sub(root, "title", title)
    sub(root, "desc", description or title)
    sub(root, "rect", x=0, y=0, width=width, height=height, fill=PAPER)
    return root


def describe(lines: Sequence[str], pieces: Sequence[Piece], say: Speaker = ENGLISH) -> str:
    """A board in words: the caption's lines, then each side's pieces by square with what
    they are (`Red: d1 size L facing N, ...`), in the speaker's language (the caption's
    lines said already). page.js writes the same for each step."""
    parts = ["; ".join(line for line in lines if line)] if any(lines) else []
    by_side: dict[str, list[str]] = {}
    for piece in pieces:
        by_side.setdefault(say.word(piece.side), []).append(piece_words(piece, say))
    parts += [f"{side}: {', '.join(said)}" for side, said in by_side.items()]
    return ". ".join(parts) + "." if parts else ""


ATTRIBUTE_WORDS = {
    "facing": N_("facing {value}"),
    "size": N_("size {value}"),
    "shape": N_("shape {value}"),
}
"""What a piece's attribute says (`facing N`), its value the notation's letters or a game word."""
MOVED_WORDS = {"yes": N_("moved yes"), "no": N_("moved no")}
"""Whether a Numica piece has moved, as the board's description says it."""


def piece_words(piece: Piece, say: Speaker = ENGLISH) -> str:
    """One piece in words without its side: its square, then what it is (`d1 size L
    facing N`), in the speaker's language (the square and the notation's letters as written)."""
    if say.lang == DEFAULT:
        return " ".join([piece.at, *(f"{key} {value}" for key, value in piece.attributes)])
    said = [piece.at]
    for key, value in piece.attributes:
        if key == "moved" and value in MOVED_WORDS:
            said.append(say(MOVED_WORDS[value]))
        elif key in ATTRIBUTE_WORDS:
            said.append(say(ATTRIBUTE_WORDS[key], value=say.word(value)))
        else:
            said.append(f"{key} {value}")
    return " ".join(said)


def side_letter(parent: ET.Element, letter: str, y: float, size: float, colour: str) -> None:
    """A side's letter on its pieces, so that sides are told apart by more than colour."""
    sub(
        parent,
        "text",
        letter,
        x=0,
        y=y,
        font_size=size,
        font_weight="bold",
        text_anchor="middle",
        fill=colour,
        stroke="none",
    )


def serialize(root: ET.Element) -> str:
    """The document as text; ElementTree keeps insertion order, so the bytes are stable."""
    ET.indent(root, space="")
    body = ET.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + body + "\n"


def caption(parent: ET.Element, x: float, y: float, lines: Sequence[str]) -> None:
    """The caption: a bold first line (game, side to move, round), then smaller lines."""
    group = sub(parent, "g", id="caption")
    for index, line in enumerate(lines):
        size = 15 if index == 0 else 11
        sub(
            group,
            "text",
            line,
            x=x,
            y=y + 16 + index * 15,
            font_size=size,
            font_weight="bold" if index == 0 else "normal",
            fill=INK,
        )


LEGEND_ROW = 18


def legend_height(entries: Sequence[Swatch], columns: int) -> float:
    rows = -(-len(entries) // columns)
    return 10 + rows * LEGEND_ROW


def legend(parent: ET.Element, x: float, y: float, width: float, entries: Sequence[Swatch], columns: int) -> None:
    """Legend entries in rows of `columns`, below the board."""
    group = sub(parent, "g", id="legend")
    column_width = width / columns
    for index, entry in enumerate(entries):
        left = x + (index % columns) * column_width
        top = y + 6 + (index // columns) * LEGEND_ROW
        if entry.symbol is not None:
            use = ET.SubElement(group, q("use"))
            use.set(f"{{{XLINK_NS}}}href", f"#{entry.symbol}")
            use.set("transform", f"translate({num(left + 7)} {num(top + 7)}) scale(0.5)")
        else:
            sub(group, "rect", x=left, y=top, width=14, height=14, fill=entry.fill, stroke=entry.stroke)
        if entry.text is not None:
            sub(group, "text", entry.text, x=left + 7, y=top + 11, font_size=10, text_anchor="middle", fill=INK)
        sub(group, "text", entry.label, x=left + 19, y=top + 11, font_size=11, fill=INK)


def coordinates(
    parent: ET.Element, files: Iterable[tuple[str, float]], ranks: Iterable[tuple[str, float]], box: Sequence[float]
) -> None:
    """File letters above and below the board, rank numbers left and right of it.
    `box` is (left, top, right, bottom) of the board."""
    left, top, right, bottom = box
    group = sub(parent, "g", id="coordinates", font_size=10, fill="#555555", text_anchor="middle")
    for name, x in files:
        sub(group, "text", name, x=x, y=top - 5)
        sub(group, "text", name, x=x, y=bottom + 13)
    for name, y in ranks:
        sub(group, "text", name, x=left - 11, y=y + 3.5)
        sub(group, "text", name, x=right + 11, y=y + 3.5)


def squares_in(text: str, pattern: re.Pattern[str]) -> list[str]:
    """The square names an action or message mentions, in order, each once."""
    seen: list[str] = []
    for match in pattern.finditer(text):
        if match.group(0) not in seen:
            seen.append(match.group(0))
    return seen


class Mark(NamedTuple):
    """Squares to outline: the last action's (`last`), the illegal action's (`illegal`),
    or the attackers (`attack`) and defenders (`defend`) of a battle."""

    at: str
    kind: str


MARK_COLOURS = {"last": MARK_LAST, "illegal": MARK_ILLEGAL, "attack": "#ff7a00", "defend": "#7a00ff"}


def square_mark(parent: ET.Element, cell: float) -> None:
    """The `cell-mark` symbol of a square board: the outline of one square of side `cell`,
    centred on the origin, that marks an action's squares."""
    half = cell / 2
    sub(
        sub(parent, "symbol", id="cell-mark", overflow="visible"),
        "rect",
        x=2 - half,
        y=2 - half,
        width=cell - 4,
        height=cell - 4,
    )
