"""The `referee` command: the app of `referee.cli.app` with every command registered."""

from __future__ import annotations

import sys
from typing import NoReturn

from referee.cli import league, live, records
from referee.cli.app import app as app

COMMANDS = (records, live, league)
"""The modules whose commands `app` holds (importing them registers the commands)."""


def main() -> NoReturn:
    """Entry point of the installed `referee` command (and of `python -m referee`)."""
    from referee.cli.entry import run

    sys.exit(run(app, sys.argv[1:]))
