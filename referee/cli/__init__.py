"""The command line: `referee.cli.main` is the `referee` command (options in, words out)."""

from referee.cli.main import app, main

__all__ = ["app", "main"]
