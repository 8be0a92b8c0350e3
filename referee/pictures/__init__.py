"""Pictures of the games: each board as an SVG document, and a replay page.

    board_svg(state)                 a complete SVG 1.1 document of that state's board
    replay_page(replay, text=...)    one self-contained HTML page that steps through a record

Only the spec-defined interface of a state is read (`position()`, `to_move()`,
`round_number()`, `pending()`, `outcome()` and the game's metadata), with the board data
files, so the pictures stay right whatever the engines keep inside.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from referee.pictures.drawing import Drawing

if TYPE_CHECKING:
    from referee.games.api import GameState
    from referee.judge.core.adjudicate import Replay
    from referee.speech import Speaker


def drawing_for(game: str, position: str) -> Drawing:
    """The drawing of a game (by its registry name) whose first position is `position`:
    the `DRAWING` class of this package's module named after the game (`nika.py` draws Nika)."""
    from referee.games import registry

    info = registry.info(game)
    if info is None:
        raise ValueError(f'no picture for the game "{game}"')
    try:
        module = importlib.import_module(f"{__name__}.{info.name}")
    except ModuleNotFoundError as missing:
        raise ValueError(f'no picture for the game "{game}"') from missing
    drawing: type[Drawing] = module.DRAWING
    return drawing(position)


def board_svg(
    state: GameState[Any], action: str | None = None, message: str | None = None, say: Speaker | None = None
) -> str:
    """The board of `state` as a complete SVG document.

    `action`, when given, is the text of the last action played (its squares are outlined;
    a Nieuchess battle marks its attackers and defenders); with `message` it is instead an
    illegal action, outlined in red, and the message (the rule it breaks) is captioned.
    `say` speaks its words: the caption, the legend, the description (None: English).
    """
    from referee.pictures.state_picture import state_svg

    if say is None:
        return state_svg(state, action, message)
    return state_svg(state, action, message, say)


def replay_page(
    replay: Replay,
    text: str | None = None,
    first_line: int = 1,
    private: bool = False,
    back: tuple[str, str] | None = None,
    say: Speaker | None = None,
) -> str:
    """The replay page of an adjudicated record (`adjudicate(..., keep_steps=True)`);
    `text` is the record's source text (its first line is line `first_line` of the file),
    shown where a malformed record stops being RGN; `private` leaves e-mail addresses out
    and `back` is a link (address, words) above the verdict (the league's site); `say`
    speaks the page's words and steps (None: English; docs/languages.md)."""
    from referee.pictures.page import page

    if say is None:
        return page(replay, text, first_line, private, back)
    return page(replay, text, first_line, private, back, say)


__all__ = ["board_svg", "drawing_for", "replay_page"]
