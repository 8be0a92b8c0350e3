"""`referee completion` and `referee config`: the command line's place in the user's shell
and the settings it runs with (`referee.cli.completion`, `referee.cli.config_file`)."""

from __future__ import annotations

import inspect
from typing import Annotated

import click
import typer

from referee.cli.app import JsonOption, app, fail_usage, finish, out
from referee.cli.exits import Tally
from referee.errors import UsageError

SHELLS = ("bash", "zsh", "fish")


def completion(
    shell: Annotated[str, typer.Argument(help="bash, zsh or fish.", metavar="SHELL", click_type=click.Choice(SHELLS))],
) -> None:
    """Print the completion script of SHELL. Commands and options are in the script; folders,
    *.rgn files, league folders and the sides of a record's game are found by the shell.

    Example (bash, in ~/.bashrc): source <(referee completion bash)

    Example (zsh, in ~/.zshrc after compinit): source <(referee completion zsh)

    Example (fish): referee completion fish > ~/.config/fish/completions/referee.fish
    """
    from referee.cli import completion as scripts
    from referee.cli.tree import command_tree

    # `app` is the whole app (`referee.cli.main` registered every command on it before
    # running this one), whatever copy of it runs this command.
    out(scripts.script(shell, command_tree(app)).rstrip("\n"))
    finish(Tally())


def show_config(json_output: JsonOption = False) -> None:
    """Show each setting in force and where it comes from: the file, an environment variable
    (REFEREE_GAMES ...) or the command's default. The file is ~/.config/referee/config.toml,
    or the one REFEREE_CONFIG names; the command line overrides both. A setting left unset
    shows the value the command takes without it (wait 10, from referee@HOSTNAME).

    The settings (each also REFEREE_ and its key in capitals, - as _; see docs/config.md):

    {settings}

    Example (cron, once the file says the rest): */5 * * * * $HOME/.local/bin/referee mail
    """
    from referee.cli import config_file
    from referee.judge.core.verdict_words import json_line

    try:
        loaded = config_file.load()
    except UsageError as error:
        fail_usage(error)
    if json_output:
        out(json_line(config_file.as_json(loaded)))
    else:
        for line in config_file.lines(loaded):
            out(line)
    finish(Tally())


class _SettingsHelp(typer.core.TyperCommand):
    """`referee config`'s command, whose help lists the settings from the table of
    `referee.cli.config_file` (`{settings}`), filled when the help is read: the module is loaded
    only then, never by `check` and the other commands that read no configuration."""

    @property
    def help(self) -> str | None:
        if self._help is None or "{settings}" not in self._help:
            return self._help
        from referee.cli.config_file import help_text

        return self._help.replace("{settings}", help_text())

    @help.setter
    def help(self, value: str | None) -> None:
        self._help = value


def register() -> None:
    """Add `completion` and `config` to the app, after the commands that --help lists first."""
    app.command(short_help="A completion script for bash, zsh or fish (static: a Tab never runs referee).")(completion)
    app.command(
        "config",
        cls=_SettingsHelp,
        help=inspect.cleandoc(show_config.__doc__ or ""),
        short_help="The settings in force (config.toml, REFEREE_* variables) and their sources.",
    )(show_config)
