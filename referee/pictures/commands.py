"""What `referee show --svg` and `referee replay --html` do, as functions the CLI calls."""

from __future__ import annotations

import sys
from pathlib import Path

from referee.adjudicate import Replay, adjudicate, read_source
from referee.report import line
from referee.session import UsageError, read_bytes


def _one(name: str, index: int, until_round: int | None = None) -> tuple[Replay, str]:
    """One record of a file, replayed with its steps kept, and the file's text."""
    data = read_bytes(name)
    results = read_source(data)
    if not results:
        raise UsageError(f'{name}: no record found (a record starts with [Game "..."])')
    if index > len(results):
        raise UsageError(f"{name} holds {len(results)} record(s), not {index}")
    replay = adjudicate(results[index - 1], name, index, keep_steps=True, until_round=until_round)
    return replay, data.decode("utf-8", "replace")


def write(text: str, output: str | None) -> None:
    """The text to a file, or to standard output when `output` is None or `-`."""
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write {output}: {error.strerror or error}") from None


def show_svg(name: str, index: int, at: int | None, output: str | None) -> int:
    """The board at the end of a record (or after round `at`) as SVG; the exit status.

    The last turn's actions are outlined (a Nieuchess battle marks its attackers and
    defenders); for an illegal record, the illegal action in red with the rule it breaks.
    """
    from referee.pictures import board_svg

    replay, _ = _one(name, index, at)
    if replay.state is None:
        sys.stderr.write(f"referee: no board to draw: {line(replay.verdict)}\n")
        return 1
    error = replay.verdict.error
    if replay.verdict.status == "illegal" and error is not None:
        picture = board_svg(replay.state, error.action, error.message)
    else:
        last = replay.steps[-1].turn if replay.steps else None
        played = " ".join(step.move.text for step in replay.steps if step.turn is last) or None
        picture = board_svg(replay.state, played)
    write(picture, output)
    return 0 if replay.verdict.legal or at is not None else 1


def replay_html(name: str, index: int, output: str | None) -> int:
    """The replay page of one record; the exit status (1 when it is not legal)."""
    from referee.pictures import replay_page

    replay, text = _one(name, index)
    write(replay_page(replay, text), output)
    return 0 if replay.verdict.legal else 1
