"""What every game's drawing provides, and the picture composed from it.

A drawing is made once per game (from its first position: Numica's tiles, Pikemen's sides)
and then turns any position string of that game into pieces. Everything drawn comes from
the spec-defined interface: the position string, the side to move, the round, the pending
item and the outcome, plus the board data files in `games/*/data`.
"""

from __future__ import annotations

import abc
import re
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any

from referee.games.api import GameState
from referee.pictures import svg
from referee.pictures.svg import Mark, Piece, Swatch
from referee.speech import ENGLISH, N_, Speaker

MARGIN = 26
"""Room for the coordinates around the board."""


class Drawing(abc.ABC):
    """One game's board. `width` and `height` are the board's, coordinates included."""

    title: str
    width: float
    height: float
    legend_columns = 4
    square_pattern: re.Pattern[str]

    def __init__(self, position: str) -> None:
        self.first = position
        self._pieces: dict[tuple[str, str], Piece | None] = {}

    def key(self) -> str:
        """What of the first position the board depends on (Numica's tiles, Pikemen's sides)."""
        return ""

    @abc.abstractmethod
    def defs(self, parent: ET.Element) -> None:
        """Symbols: one per kind of piece, and `cell-mark`, the outline of one square or hex."""

    @abc.abstractmethod
    def board(self, parent: ET.Element, say: Speaker = ENGLISH) -> None:
        """The board without its pieces, coordinates included (its words in the speaker's language)."""

    @abc.abstractmethod
    def entries(self, position: str) -> list[tuple[str, str]]:
        """Each piece entry of a position string, with its side: ("Athens", "d1w")."""

    @abc.abstractmethod
    def piece(self, side: str, entry: str) -> Piece | None:
        """The piece one entry of the position string places (None for one off the board)."""

    def pieces(self, position: str) -> list[Piece]:
        """The pieces a position string of this game places, in a stable order. Entries
        repeat from one position to the next, so each is read once per drawing."""
        placed = []
        for key in self.entries(position):
            if key not in self._pieces:
                self._pieces[key] = self.piece(*key)
            found = self._pieces[key]
            if found is not None:
                placed.append(found)
        return placed

    @abc.abstractmethod
    def centre(self, at: str) -> tuple[float, float] | None:
        """The centre of a square or hex by its name, or None when it is not on the board."""

    @abc.abstractmethod
    def legend(self, say: Speaker = ENGLISH) -> list[Swatch]:
        """The legend's entries: the sides' colours and the board's areas, labelled in the
        speaker's language (the sides and colours as the text boards of a mail say them)."""

    def details(self, position: str, say: Speaker = ENGLISH) -> list[str]:
        """Caption lines beyond the first: routed pieces, captures, score, pools (in the
        speaker's language)."""
        return []

    def contacts(self, position: str) -> list[Mark]:
        """Pieces that must still fight, when a battle is pending (Nieuchess)."""
        return []

    def marks(self, action: str, kind: str) -> list[Mark]:
        """The squares an action names, outlined as `kind` (`last` or `illegal`)."""
        return [Mark(at, kind) for at in svg.squares_in(action, self.square_pattern) if self.centre(at) is not None]


def heading(state: GameState[Any], title: str) -> str:
    """The caption's first line: the game, then the side to move and the round, or the outcome."""
    outcome = state.outcome()
    if outcome is not None:
        return f"{title} · game over: {outcome}"
    side = state.to_move()
    text = f"{title} · {side} to move" if side else title
    round_number = state.round_number()
    text += " · setup" if round_number is None else f" · round {round_number}"
    pending = state.pending()
    if pending:
        text += f" · awaiting a {pending}"
    return text


def wrap(text: str, width: int = 92) -> list[str]:
    return textwrap.wrap(text, width) or [""]


def compose(
    drawing: Drawing,
    position: str | None,
    lines: Sequence[str],
    marks: Sequence[Mark] = (),
    title: str | None = None,
    say: Speaker = ENGLISH,
) -> ET.Element:
    """The picture: caption lines, the board, marks, pieces of `position` (none when None),
    legend; its words (the lines said already) in the speaker's language."""
    entries = drawing.legend(say)
    top = svg.CAPTION_HEIGHT + 15 * max(0, len(lines) - 2) if lines else 0
    legend_top = top + drawing.height
    height = legend_top + svg.legend_height(entries, drawing.legend_columns) + 4
    placed = drawing.pieces(position) if position is not None else []
    description = svg.describe(lines, placed, say) or say(N_("The {title} board."), title=drawing.title)
    root = svg.document(drawing.width, height, title or drawing.title, description)
    defs = svg.sub(root, "defs")
    drawing.defs(defs)
    if lines:
        svg.caption(root, MARGIN, 2, lines)
    frame = svg.sub(root, "g", id="board", transform=f"translate(0 {svg.num(top)})")
    drawing.board(frame, say)
    marked = svg.sub(frame, "g", id="marks", fill="none", stroke_width=3)
    for mark in marks:
        centre = drawing.centre(mark.at)
        if centre is not None:
            use = ET.SubElement(marked, svg.q("use"))
            use.set(f"{{{svg.XLINK_NS}}}href", "#cell-mark")
            use.set("transform", f"translate({svg.num(centre[0])} {svg.num(centre[1])})")
            use.set("stroke", svg.MARK_COLOURS[mark.kind])
            use.set(f"{{{svg.RF_NS}}}at", mark.at)
            use.set(f"{{{svg.RF_NS}}}kind", mark.kind)
    group = svg.sub(frame, "g", id="pieces")
    for piece in placed:
        svg.use_piece(group, piece)
    svg.legend(root, 8, legend_top, drawing.width - 16, entries, drawing.legend_columns)
    return root


class EightByEight(Drawing):
    """The square 8 x 8 board that Numica and Pikemen share: its size, how a square is
    named and where its centre is."""

    cell = 48
    files = "abcdefgh"
    width = 2 * MARGIN + 8 * cell
    height = 2 * MARGIN + 8 * cell
    legend_columns = 2
    square_pattern = re.compile(r"\b[a-h][1-8]\b")

    def centre(self, at: str) -> tuple[float, float] | None:
        if len(at) != 2 or at[0] not in self.files or at[1] not in "12345678":
            return None
        return MARGIN + (self.files.index(at[0]) + 0.5) * self.cell, MARGIN + (8 - int(at[1]) + 0.5) * self.cell

    def edges(self, parent: ET.Element) -> None:
        """Files a-h and ranks 1-8 on the board's edges."""
        cell, files = self.cell, self.files
        svg.coordinates(
            parent,
            [(file, MARGIN + (index + 0.5) * cell) for index, file in enumerate(files)],
            [(str(rank), MARGIN + (8 - rank + 0.5) * cell) for rank in range(1, 9)],
            (MARGIN, MARGIN, MARGIN + 8 * cell, MARGIN + 8 * cell),
        )
