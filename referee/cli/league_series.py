"""`referee league next`: the next season of closed leagues, or a knockout stage of one
(LEAGUE.md §7), on `referee.cli.league`'s group: `referee.cli.main` imports this module
after it (COMMANDS)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.app import JsonOption, out
from referee.cli.league import NowOption, SenderOption, _boundary, _now, _sender, league_app
from referee.judge.core.verdict_words import json_line


@league_app.command(name="next", short_help="The next season of closed leagues (divisions), or a knockout stage.")
def next_season(
    folders: Annotated[list[str], typer.Argument(help="The closed leagues, top division first.", metavar="DIR...")],
    into: Annotated[str, typer.Option("--into", help="The new season's folder (must not exist).", metavar="NEWDIR")],
    name: Annotated[
        str | None, typer.Option("--name", help="The new season's name (default: NEWDIR's folder name).")
    ] = None,
    add: Annotated[
        list[str] | None,
        typer.Option("--add", help="A newcomer, into the last division (repeatable).", metavar="ADDRESS=NAME"),
    ] = None,
    stage: Annotated[
        str | None, typer.Option("--stage", help="knockout: a knockout of the top N of one DIR.", metavar="STAGE")
    ] = None,
    top: Annotated[
        int | None, typer.Option("--top", help="With --stage knockout: how many go on.", metavar="N")
    ] = None,
    now: NowOption = None,
    json_output: JsonOption = False,
    sender: SenderOption = None,
) -> None:
    """Make the next season under NEWDIR from closed leagues given top division first: one
    folder per division (NEWDIR/<the division's folder name>) with the same settings, the
    top `promote` of each division but the first up one, the bottom `relegate` of each but
    the last down one, withdrawn players left out, newcomers (--add) into the last
    division; each new league.log begins with a `from` line naming the closed seasons'
    standings digests, and every player is mailed their division. With --stage knockout
    --top N: NEWDIR is a knockout league of the top N of one closed league, seeded by their
    final rank. A league not closed is refused (exit 1); nothing is written unless all is.

    Example: referee league next 2026/premier 2026/second --into 2027 --add eve@example.org=Eve
    """
    from referee.league.series import next_season as make

    with _boundary():
        made = make(
            [Path(folder) for folder in folders],
            Path(into),
            _now(now),
            _sender(sender),
            name=name,
            add=add or (),
            stage=stage,
            top=top,
        )
        if json_output:
            out(json_line(made.as_json()))
        else:
            for line in made.lines():
                out(line)
