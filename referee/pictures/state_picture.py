"""One state's board as an SVG document (`referee show --svg`, the mail gateway)."""

from __future__ import annotations

from typing import Any

from referee.games.api import GameState
from referee.pictures import drawing_for, svg
from referee.pictures.drawing import compose, heading, wrap


def state_svg(state: GameState[Any], action: str | None = None, message: str | None = None) -> str:
    position = state.position()
    drawing = drawing_for(state.info.name, position)
    width = int(drawing.width / 6.4)
    lines = [heading(state, drawing.title)]
    lines += [part for line in drawing.details(position) for part in wrap(line, width)]
    marks: list[svg.Mark] = []
    if message is not None:
        where = f'illegal action "{action}": ' if action else "illegal: "
        lines += wrap(where + message, width)
        marks = drawing.marks(action or message, "illegal")
    elif action:
        lines += wrap(f"last played: {action}", width)
        marks = drawing.marks(action, "last")
    if state.pending() == "battle":
        marks += drawing.contacts(position)
    return svg.serialize(compose(drawing, position, lines, marks, title=lines[0]))
