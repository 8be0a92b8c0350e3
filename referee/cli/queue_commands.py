"""`referee queue FILE --as SIDE [LINES]` (PLAY.md §9): conditional moves, queued ahead,
committed in the record, played by the referee; and the `--queues` half of `reveal`.
Like every command it parses options, calls the library (`referee.live.play.queue_submit`),
prints, and exits through the one exit rule."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli.app import WAIT_DEFAULT, GameFile, JsonOption, app, err, fail_usage, finish, out, stdin_text
from referee.cli.exits import Tally
from referee.errors import BusyError, UsageError
from referee.judge.core.verdict_words import json_line

if TYPE_CHECKING:
    from referee.live.play.queue_submit import QueueResult


@app.command(short_help="Queue replies ahead: if the others play this, play that (conditional moves).")
def queue(
    file: GameFile,
    lines: Annotated[
        str | None,
        typer.Argument(help="The queue: one `if CONDITION then REPLY` line per line; - or absent: standard input."),
    ] = None,
    as_side: Annotated[str, typer.Option("--as", help="The side whose queue this is.")] = "",
    clear: Annotated[bool, typer.Option("--clear", help="Remove the side's queue.")] = False,
    show: Annotated[bool, typer.Option("--show", help="Print the side's queue (its side's eyes only).")] = False,
    expect: Annotated[
        str | None, typer.Option("--expect", help="Refuse unless the game is at this turn token.")
    ] = None,
    json_output: JsonOption = False,
    wait: Annotated[
        float, typer.Option("--wait", help="Seconds to wait for a busy game (then exit 75).")
    ] = WAIT_DEFAULT,
) -> None:
    """Set SIDE's queue of conditional moves, replacing any (PLAY.md §9).

    Each line continues the game from its current end: `if CONDITION then REPLY`, repeated.
    A CONDITION is whole turns of other sides (labels required); a REPLY is one turn of SIDE's.
    The queue is checked whole (every line replayed), stored beside the game (FILE.queue/SIDE,
    mode 0600) with a fresh nonce, and its commitment enters the record before the next turn.

    Exit status: 0 stored, cleared or shown; 1 refused (nothing stored); 2 usage; 75 busy.

    Example: referee queue game.rgn --as Red "if B: e8-e3(E) then R: d1-d2(SE)"

    Example: referee queue game.rgn --as Red --show
    """
    from referee.live.play import queue_submit
    from referee.store import WriteFailed

    if not as_side:
        fail_usage(UsageError("queue needs --as SIDE: a queue is one side's"))
    if clear and show:
        fail_usage(UsageError("--clear and --show exclude each other"))
    if (clear or show) and lines is not None:
        fail_usage(UsageError("--clear and --show take no LINES"))
    try:
        if show:
            result = queue_submit.show_queue(Path(file), as_side)
        else:
            text = None if clear else _lines_text(lines)
            result = queue_submit.set_queue(Path(file), as_side, text, expect=expect, wait=wait)
    except UsageError as error:
        fail_usage(error)
    except BusyError as error:
        _busy(error)
    except WriteFailed as error:  # a full disk: nothing stored (PLAY.md §4)
        fail_usage(UsageError(str(error)))
    _ended(result, json_output)


def revealed_queues(path: Path, wait: float, json_output: bool, last: bool) -> None:
    """`reveal --queues`: every committed queue revealed; the end of the command when
    `last` (no seed to reveal after it)."""
    from referee.live.play import queue_submit
    from referee.store import WriteFailed

    try:
        result = queue_submit.reveal_queues(path, wait=wait)
    except UsageError as error:
        fail_usage(error)
    except BusyError as error:
        _busy(error)
    except WriteFailed as error:
        fail_usage(UsageError(str(error)))
    if last or result.exit_code:
        _ended(result, json_output)
    out(json_line(result.as_json()) if json_output else result.text())


def _lines_text(lines: str | None) -> str:
    if lines is not None and lines != "-":
        return lines
    from referee.judge.core.queue_check import MAX_BYTES

    return stdin_text(MAX_BYTES, "the queue")


def _busy(error: Exception) -> None:
    err(f"referee: {error}")
    finish(Tally(busy=True))


def _ended(result: QueueResult, json_output: bool) -> None:
    out(json_line(result.as_json()) if json_output else result.text())
    finish(Tally(refused=result.exit_code != 0))
