"""The `referee` command: the app of `referee.cli.app` with every command registered."""

from __future__ import annotations

import sys
from typing import NoReturn

from referee.cli import environment, league, live, records
from referee.cli.app import app as app

COMMANDS = (records, live, league, environment)
"""The modules whose commands `app` holds (importing them registers the commands; the
environment's, completion and config, come last in --help)."""
environment.register()


def main() -> NoReturn:
    """Entry point of the installed `referee` command (and of `python -m referee`)."""
    from referee.cli.entry import run

    sys.exit(run(app, sys.argv[1:]))
