"""Nika: the ring board of `games/nika/data/nika.txt` with the cities' victory areas
(capital letters), rally areas (small letters) and the central area, and each city's
pieces in its colour, a nose showing their facing."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from referee.games.nika.board import BOARD, CENTRAL, LETTERS, PLAYABLE
from referee.pictures import svg
from referee.pictures.drawing import MARGIN, Drawing
from referee.pictures.svg import Mark, Piece, Swatch
from referee.speech import ENGLISH, N_, Speaker

CELL = 40
FILES = BOARD.files
RANKS = BOARD.height
CITIES = {"W": "Athens", "R": "Sparta", "B": "Messene", "K": "Thebes"}
LETTER_OF = {city: letter for letter, city in CITIES.items()}
"""Each city's letter (as the notation writes it), drawn on its pieces beside the colour."""
COLOURS = {"Athens": "#f7f4ea", "Sparta": "#c8352b", "Messene": "#2f63c4", "Thebes": "#262626"}
MARKS = {"Athens": "#262626", "Sparta": "#ffffff", "Messene": "#ffffff", "Thebes": "#f7f4ea"}
AREAS = {"Athens": "#cfc6a4", "Sparta": "#eaa49c", "Messene": "#a9c0ea", "Thebes": "#a3a3a3"}
FACINGS = {"n": 0, "e": 90, "s": 180, "w": 270}
FACING_WORDS = {"n": "N", "e": "E", "s": "S", "w": "W"}
PIECES_PER_CITY = 6
STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}


def read_board() -> dict[str, str]:
    """Square name to its map letter: `.` plain, `#` central area, `WRBK` victory, `wrbk` rally,
    from the board the game reads."""
    board = BOARD
    cells: dict[str, str] = {}
    top_down = sorted(range(len(board.names)), key=lambda at: (-(at // board.width), at % board.width))
    for at in top_down:  # the map's order: the top rank first
        name = board.names[at]
        victory, rally = board.victory_owner[at], board.rally_owner[at]
        mark = LETTERS[victory] if victory >= 0 else LETTERS.lower()[rally] if rally >= 0 else PLAYABLE
        cells[name] = mark if board.playable[at] else CENTRAL
    return cells


class NikaDrawing(Drawing):
    title = "Nika"
    width = 2 * MARGIN + len(FILES) * CELL
    height = 2 * MARGIN + RANKS * CELL
    square_pattern = re.compile(r"\b[a-l](?:10|[1-9])\b")

    def __init__(self, position: str) -> None:
        super().__init__(position)
        self.cells = read_board()

    def centre(self, at: str) -> tuple[float, float] | None:
        if at not in self.cells or self.cells[at] == "#":
            return None
        file, rank = FILES.index(at[0]), int(at[1:])
        return MARGIN + (file + 0.5) * CELL, MARGIN + (RANKS - rank + 0.5) * CELL

    def defs(self, parent: ET.Element) -> None:
        svg.square_mark(parent, CELL)
        for city, colour in COLOURS.items():
            group = svg.sub(parent, "g", id=f"nika-{city.lower()}")
            svg.sub(
                group, "path", d="M -7 -11.5 L 0 -18.5 L 7 -11.5 Z", fill=colour, stroke="#000000", stroke_width=1.2
            )
            svg.sub(group, "circle", cx=0, cy=0, r=13.5, fill=colour, stroke="#000000", stroke_width=1.5)
            svg.sub(group, "path", d="M 0 -9 L 6 3 L 0 0 L -6 3 Z", fill=MARKS[city])
            svg.side_letter(group, LETTER_OF[city], 11.5, 8, MARKS[city])

    def board(self, parent: ET.Element, say: Speaker = ENGLISH) -> None:
        group = svg.sub(parent, "g", id="squares", stroke="#8a7f66", stroke_width=0.6)
        central: list[tuple[float, float]] = []
        for at, mark in self.cells.items():
            file, rank = FILES.index(at[0]), int(at[1:])
            x, y = MARGIN + file * CELL, MARGIN + (RANKS - rank) * CELL
            if mark == "#":
                central.append((x, y))
                continue
            fill = "#f3ead5" if (file + rank) % 2 else "#e6d8b8"
            city = CITIES.get(mark.upper())
            if city is not None:
                fill = AREAS[city] if mark.isupper() else _lighter(AREAS[city])
            svg.sub(group, "rect", x=x, y=y, width=CELL, height=CELL, fill=fill).set(svg.RF_AT, at)
            if city is not None:
                label = say(N_("victory {letter}") if mark.isupper() else N_("rally {letter}"), letter=mark)
                svg.sub(
                    group,
                    "text",
                    label,
                    x=x + CELL / 2,
                    y=y + CELL - 3,
                    font_size=7,
                    text_anchor="middle",
                    fill="#4a4436",
                    stroke="none",
                )
        if central:
            left = min(x for x, _ in central)
            top = min(y for _, y in central)
            width = max(x for x, _ in central) + CELL - left
            height = max(y for _, y in central) + CELL - top
            svg.sub(
                parent,
                "rect",
                id="central-area",
                x=left,
                y=top,
                width=width,
                height=height,
                fill="#7d7768",
                stroke="#4a4436",
                stroke_width=1.5,
            )
            svg.sub(
                parent,
                "text",
                say(N_("central area (not part of the board)")),
                x=left + width / 2,
                y=top + height / 2 + 4,
                font_size=11,
                text_anchor="middle",
                fill="#f3ead5",
            )
        svg.coordinates(
            parent,
            [(file, MARGIN + (index + 0.5) * CELL) for index, file in enumerate(FILES)],
            [(str(rank), MARGIN + (RANKS - rank + 0.5) * CELL) for rank in range(1, RANKS + 1)],
            (MARGIN, MARGIN, MARGIN + len(FILES) * CELL, MARGIN + RANKS * CELL),
        )

    def entries(self, position: str) -> list[tuple[str, str]]:
        return [(city, entry) for _, city, entries in _cities(position) for entry in entries]

    def piece(self, side: str, entry: str) -> Piece | None:
        at, facing = entry[:-1], entry[-1].lower()
        centre = self.centre(at)
        if centre is None or facing not in FACINGS:
            return None
        return Piece(at, side, f"nika-{side.lower()}", *centre, FACINGS[facing], (("facing", FACING_WORDS[facing]),))

    def marks(self, action: str, kind: str) -> list[Mark]:
        """The squares an action names, and for moves (`d2-N`, `d1+d2-W`) the squares they move to."""
        found = super().marks(action, kind)
        for token in action.split():
            group, dash, direction = token.partition("-")
            step = STEPS.get(direction)
            if not dash or step is None:
                continue
            for at in self.square_pattern.findall(group):
                file, rank = FILES.index(at[0]) + step[0], int(at[1:]) + step[1]
                target = f"{FILES[file]}{rank}" if 0 <= file < len(FILES) else ""
                if self.centre(target) is not None and all(mark.at != target for mark in found):
                    found.append(Mark(target, kind))
        return found

    def details(self, position: str, say: Speaker = ENGLISH) -> list[str]:
        routed = [f"{say.word(city)} {PIECES_PER_CITY - len(entries)}" for _, city, entries in _cities(position)]
        return [say(N_("routed pieces: {counts}"), counts=", ".join(routed))] if routed else []

    def legend(self, say: Speaker = ENGLISH) -> list[Swatch]:
        entries = [
            Swatch(f"{say.word(city)} ({letter})", symbol=f"nika-{city.lower()}") for letter, city in CITIES.items()
        ]
        entries += [
            Swatch(say(N_("{city} victory"), city=say.word(city)), AREAS[city], text=letter)
            for letter, city in CITIES.items()
        ]
        entries += [
            Swatch(say(N_("{city} rally"), city=say.word(city)), _lighter(AREAS[city]), text=letter.lower())
            for letter, city in CITIES.items()
        ]
        entries += [
            Swatch(say(N_("central area")), "#7d7768"),
            Swatch(say(N_("the nose is the facing")), symbol="nika-athens"),
        ]
        return entries


def _cities(position: str) -> list[tuple[str, str, list[str]]]:
    """Each city field of a Nika position string: its letter, city and piece entries."""
    found = []
    for field in position.split():
        letter, colon, rest = field.partition(":")
        if colon and letter in CITIES:
            found.append((letter, CITIES[letter], [entry for entry in rest.split(",") if entry]))
    return found


def _lighter(colour: str) -> str:
    """The colour half way to white."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{(value + 255) // 2:02x}" for value in channels)


DRAWING = NikaDrawing
"""The drawing `referee.pictures.drawing_for` finds in the module named after the game."""
