"""The `referee` command: the app of `referee.cli.app` with every command registered.

Start-up (issue 34): a command line that names one command (`referee check ...`) is run
by a copy of the app that holds that command alone, so that the option parser builds
nothing for the other commands (building them all cost more than the rest of start-up);
any other command line (`--help`, `--version`, a mistyped command) gets the whole app."""

from __future__ import annotations

import copy
import sys
from typing import TYPE_CHECKING, NoReturn

# isort: off
# Registration order is --help's order: the commands over records, then live games, then the rest.
from referee.cli import record_commands, bench_command, play_commands, queue_commands, mail_commands, league
from referee.cli import league_season, league_series, archive, environment

# isort: on
from referee.cli.app import app as app
from referee.cli.app import own_process

if TYPE_CHECKING:
    import typer

COMMANDS = (
    record_commands,
    bench_command,
    play_commands,
    queue_commands,
    mail_commands,
    league,
    league_season,
    league_series,
    archive,
    environment,
)
"""The modules whose commands `app` holds (importing them registers the commands; the
environment's, completion and config, come last in --help)."""
environment.register()


def command_name(info: typer.models.CommandInfo) -> str:
    """The name a registered command is called by (Typer's rule: its function's name, in
    lower case with `-` for `_`, unless named)."""
    assert info.callback is not None
    return info.name or info.callback.__name__.lower().replace("_", "-")


def app_for(args: list[str]) -> typer.Typer:
    """The app to run `args` with: a copy holding only the command (or command group)
    that they name first, when they name one; else the whole app."""
    name = args[0] if args else None
    commands = [info for info in app.registered_commands if command_name(info) == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if not commands and not groups:
        return app
    only = copy.copy(app)
    only.registered_commands, only.registered_groups = commands, groups
    return only


def main() -> NoReturn:
    """Entry point of the installed `referee` command (and of `python -m referee`)."""
    from referee.cli.entry import run

    own_process()
    args = sys.argv[1:]
    sys.exit(run(app_for(args), args))
