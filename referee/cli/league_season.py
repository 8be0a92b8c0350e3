"""`referee league close`, `adjudicate` and `verify`: a season's end and its proof
(LEAGUE.md §6), on `referee.cli.league`'s group: `referee.cli.main` imports this module after it (COMMANDS)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.app import JsonOption, out
from referee.cli.league import (
    Folder,
    NowOption,
    SenderOption,
    _boundary,
    _now,
    _refused,
    _sender,
    _show,
    _speaker,
    league_app,
)
from referee.judge.core.verdict_words import json_line

ForceOption = Annotated[bool, typer.Option("--force", help="Before the season's `ends`: do it all the same.")]


@league_app.command(short_help="End the season: decide unfinished games by the rule, final standings.")
def close(
    folder: Folder,
    now: NowOption = None,
    force: ForceOption = False,
    json_output: JsonOption = False,
    sender: SenderOption = None,
) -> None:
    """Close the season (LEAGUE.md §6): refused before `ends` unless --force; every
    unfinished game decided by `adjudication` (none: refused while any is unfinished;
    draw; score; gm: each decided first with league adjudicate), written into its record;
    then the final standings' digest in league.log and every player mailed the final table
    and the champion. Afterwards every league command that writes refuses.

    Example: referee league close autumn --now 2027-03-01T00:00:00Z
    """
    from referee.league.close import close as close_season

    with _boundary():
        closed = close_season(Path(folder), _now(now), _sender(sender), force)
        _show(closed, json_output, closed.notes)


@league_app.command(short_help="The game master's decision of an unfinished game (adjudication = gm).")
def adjudicate(
    folder: Folder,
    game: Annotated[str, typer.Argument(help="The game: r3-t1.", metavar="GAME")],
    result: Annotated[str, typer.Argument(help="A Result value: draw, Red, Athens+Messene.", metavar="RESULT")],
    now: NowOption = None,
    force: ForceOption = False,
    sender: SenderOption = None,
) -> None:
    """Decide GAME as RESULT (with adjudication = "gm"), written into its record as
    `adjudicated {[%adjudicated gm RESULT]}` with its stamp, logged and told to its
    players. Refused before `ends` unless --force.

    Example: referee league adjudicate autumn r5-t2 Red --now 2027-03-01T00:00:00Z
    """
    from referee.league.close import adjudicate as decide

    with _boundary():
        decided = decide(Path(folder), game, result, _now(now), _sender(sender), force)
        out(decided.line())


@league_app.command(short_help="Check a season from its records and league.log alone (or its archive).")
def verify(
    path: Annotated[str, typer.Argument(help="The league folder, or its league-archive.zip.", metavar="PATH")],
    json_output: JsonOption = False,
    chain: Annotated[
        list[str] | None,
        typer.Option(
            "--chain", help="A closed season its `from` line names (folder or archive; repeatable).", metavar="PATH"
        ),
    ] = None,
) -> None:
    """Recompute the season from its records and league.log alone: every game legal with
    the Round, Table and seats of its pairing line; each round's pairing as the rule gives
    it; every adjudication; the standings and ratings; the close's digest; a season made
    by league next: the closed seasons its `from` line names, where given (--chain) or
    found at the folder the line records, each verified and with the digest named. Prints
    `verified: ...` (exit 0), else one line per difference (exit 1).

    Example: referee league verify league-archive.zip
    """
    from referee.league.verify import verify as check_season

    with _boundary():
        found = check_season(Path(path), [Path(item) for item in chain or ()])
        if json_output:
            out(json_line(found.as_json()))
        elif found.ok:
            out(found.summary())
        else:
            for line in found.differences:
                out(line)
        if not found.ok:
            count = len(found.differences)
            _refused(_speaker().plural("{count} difference(s) found", "{count} difference(s) found", count))
