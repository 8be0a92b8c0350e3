"""Pictures of the games: each board as an SVG document, and a replay page.

    board_svg(state)                 a complete SVG 1.1 document of that state's board
    replay_page(replay, text=...)    one self-contained HTML page that steps through a record

Only the spec-defined interface of a state is read (`position()`, `to_move()`,
`round_number()`, `pending()`, `outcome()` and the game's metadata), with the board data
files, so the pictures stay right whatever the engines keep inside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.pictures.board import Drawing

if TYPE_CHECKING:
    from games.api import GameState
    from referee.adjudicate import Replay


def drawing_for(game: str, position: str) -> Drawing:
    """The drawing of a game (by its registry name) whose first position is `position`."""
    if game == "nika":
        from referee.pictures.nika import NikaDrawing

        return NikaDrawing(position)
    if game == "numica":
        from referee.pictures.numica import NumicaDrawing

        return NumicaDrawing(position)
    if game == "pikemen":
        from referee.pictures.pikemen import PikemenDrawing

        return PikemenDrawing(position)
    if game == "nieuchess":
        from referee.pictures.nieuchess import NieuchessDrawing

        return NieuchessDrawing(position)
    raise ValueError(f'no picture for the game "{game}"')


def board_svg(state: GameState, action: str | None = None, message: str | None = None) -> str:
    """The board of `state` as a complete SVG document.

    `action`, when given, is the text of the last action played (its squares are outlined;
    a Nieuchess battle marks its attackers and defenders); with `message` it is instead an
    illegal action, outlined in red, and the message (the rule it breaks) is captioned.
    """
    from referee.pictures.render import state_svg

    return state_svg(state, action, message)


def replay_page(replay: Replay, text: str | None = None) -> str:
    """The replay page of an adjudicated record (`adjudicate(..., keep_steps=True)`);
    `text` is the record's source text, shown where a malformed record stops being RGN."""
    from referee.pictures.page import page

    return page(replay, text)


__all__ = ["board_svg", "drawing_for", "replay_page"]
