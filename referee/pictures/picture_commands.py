"""What `referee show --svg` and `referee replay --html` draw, for the CLI to print."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.judge.core.adjudicate import Replay
from referee.judge.core.verdicts import Problem, Status
from referee.notation.record_splitter import MAX_RECORD

if TYPE_CHECKING:
    from referee.pictures.streamed_page import Page
    from referee.speech import Speaker


def board_picture(replay: Replay, say: Speaker | None = None) -> str | None:
    """The board a replay ends on as SVG, or None when there is no board (malformed).

    The last turn's actions are outlined (a Nieuchess battle marks its attackers and
    defenders); for an illegal record, the illegal action in red with the rule it breaks.
    Its words are `say`'s language (None: English).
    """
    from referee.pictures import board_svg

    if replay.state is None:
        return None
    error = replay.verdict.error
    if replay.verdict.status == Status.ILLEGAL and error is not None:
        return board_svg(replay.state, error.action, error.message, say)
    last = replay.steps[-1].turn if replay.steps else None
    played = " ".join(step.move.text for step in replay.steps if step.turn is last) or None
    return board_svg(replay.state, played, say=say)


def record_page(name: str, index: int, max_record: int = MAX_RECORD, say: Speaker | None = None) -> Page | Problem:
    """The replay page of the `index`-th record of `name`, its pieces to write one after
    another (`referee.pictures.streamed_page.streamed_page`), in `say`'s language (None:
    English)."""
    from referee.pictures.streamed_page import streamed_page

    if say is None:
        return streamed_page(name, index, max_record)
    return streamed_page(name, index, max_record, say)
