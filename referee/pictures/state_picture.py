"""One state's board as an SVG document (`referee show --svg`, the mail gateway, the
league's game pages), its words in a reader's language."""

from __future__ import annotations

from typing import Any

from referee.games.api import GameState
from referee.pictures import drawing_for, page_words, svg
from referee.pictures.drawing import compose, heading, wrap
from referee.speech import ENGLISH, N_, Speaker, rule_text


def state_svg(
    state: GameState[Any], action: str | None = None, message: str | None = None, say: Speaker = ENGLISH
) -> str:
    position = state.position()
    drawing = drawing_for(state.info.name, position)
    width = int(drawing.width / 6.4)
    lines = [page_words.heading(heading(state, drawing.title), say)]
    lines += [part for line in drawing.details(position, say) for part in wrap(line, width)]
    marks: list[svg.Mark] = []
    if message is not None:
        rule = rule_text(message, say)
        if action:
            said = say(N_('illegal action "{action}": {rule}'), action=action, rule=rule)
        else:
            said = say(N_("illegal: {rule}"), rule=rule)
        lines += wrap(said, width)
        marks = drawing.marks(action or message, "illegal")
    elif action:
        lines += wrap(say(N_("last played: {action}"), action=action), width)
        marks = drawing.marks(action, "last")
    if state.pending() == "battle":
        marks += drawing.contacts(position)
    return svg.serialize(compose(drawing, position, lines, marks, title=lines[0], say=say))
