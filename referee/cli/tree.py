"""The `referee` command tree as plain data, read from the Click commands that Typer builds:
the one source of the shell completion scripts (`referee.cli.completion`) and the man page
(`referee.cli.manual`), so that neither can drift from the command line itself.

Each option and argument also gets a *kind*: what its value is, so that a completion script
can offer values (files, folders, game names, a record's sides) without running `referee`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    import typer

OPTION_KINDS = {
    "--games": "dir",
    "--outbox": "dir",
    "--keys": "dir",
    "--check-games": "dir",
    "--seed-file": "file",
    "--imap-password-file": "file",
    "--log-file": "file",
    "--parquet": "file",
    "--output": "file",
    "--game": "game",
    "--as": "side",
    "--first": "side",
    "--grant": "side=",
    "--salt": "side=",
    "--pairing": "choice",
}
"""What the value of an option is, by its name: a folder, a file, a game's name, a side of
the record (or game) named on the line, a side as the start of SIDE=TEXT, or one of fixed words."""

ARGUMENT_KINDS = {"FILE": "rgn", "DIR": "league", "GAMES": "dir", "GAME": "game"}
"""What a positional argument is, by its metavar (without a trailing "..."): an RGN file, a
league folder (one holding league.toml), a games folder (any folder: `mail`), a game's name."""

PAIRINGS = ("round-robin", "double-round-robin", "swiss")
"""The words of `league init --pairing` (LEAGUE.md; `referee.league.league_toml.Pairing`)."""


@dataclass(frozen=True, kw_only=True)
class _Value:
    """What an option or an argument shows (its metavar and help) and takes (its kind)."""

    metavar: str
    help: str
    kind: str
    words: tuple[str, ...] = ()
    """For the kind "choice": the values it takes."""


@dataclass(frozen=True, kw_only=True)
class Option(_Value):
    names: tuple[str, ...]
    takes_value: bool


@dataclass(frozen=True, kw_only=True)
class Argument(_Value):
    variadic: bool
    required: bool


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]
    """("referee",), ("referee", "check"), ("referee", "league", "tick")."""
    short_help: str
    help: str
    usage: str
    options: tuple[Option, ...]
    arguments: tuple[Argument, ...]
    subcommands: tuple[Command, ...]

    @property
    def name(self) -> str:
        return " ".join(self.path)

    def walk(self) -> list[Command]:
        """This command and every command under it, depth first, in the order --help lists them."""
        found = [self]
        for sub in self.subcommands:
            found.extend(sub.walk())
        return found


def _choices(param: click.Parameter) -> tuple[str, ...]:
    if isinstance(param.type, click.Choice):
        return tuple(str(choice) for choice in param.type.choices)
    return ()


def _option(param: click.Option, ctx: click.Context) -> Option:
    names = tuple(param.opts) + tuple(param.secondary_opts)
    takes_value = not param.is_flag and not param.count
    words = _choices(param)
    kind = "choice" if words else OPTION_KINDS.get(param.opts[0] if param.opts[0].startswith("--") else names[-1], "")
    if kind == "choice" and not words and "--pairing" in names:
        words = PAIRINGS
    record = param.get_help_record(ctx)
    metavar = param.make_metavar(ctx) if takes_value else ""
    return Option(
        names=names,
        takes_value=takes_value,
        metavar=metavar,
        help=record[1] if record else "",
        kind=kind if takes_value else "",
        words=words,
    )


def _argument(param: click.Argument, ctx: click.Context) -> Argument:
    metavar = param.make_metavar(ctx)
    bare = metavar.removesuffix("...").strip("[]")
    words = _choices(param)
    kind = "choice" if words else ARGUMENT_KINDS.get(bare, "")
    return Argument(
        metavar=metavar,
        variadic=param.nargs == -1,
        required=param.required,
        kind=kind,
        help=getattr(param, "help", None) or "",
        words=words,
    )


def _help_option(ctx: click.Context) -> Option:
    names = tuple(ctx.help_option_names)
    return Option(names=names, takes_value=False, metavar="", help="Show this message and exit.", kind="")


def _command(command: click.Command, path: tuple[str, ...], parent: click.Context | None) -> Command:
    ctx = click.Context(command, info_name=path[-1], parent=parent, **command.context_settings)
    options: list[Option] = []
    arguments: list[Argument] = []
    for param in command.params:
        if isinstance(param, click.Option):
            if not param.hidden:
                options.append(_option(param, ctx))
        elif isinstance(param, click.Argument):
            arguments.append(_argument(param, ctx))
    options.append(_help_option(ctx))
    subcommands: list[Command] = []
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                subcommands.append(_command(sub, (*path, name), ctx))
    usage = " ".join(command.collect_usage_pieces(ctx))
    return Command(
        path=path,
        short_help=command.get_short_help_str(limit=200),
        help=command.help or "",
        usage=f"{' '.join(path)} {usage}".strip(),
        options=tuple(options),
        arguments=tuple(arguments),
        subcommands=tuple(subcommands),
    )


def command_tree(app: typer.Typer) -> Command:
    """The command line of `app`: for the whole `referee` command, the app of
    `referee.cli.app` once `referee.cli.main` has registered every command on it (the
    caller hands it in, so that this module, below the commands, imports none of them)."""
    import typer

    group = typer.main.get_command(app)
    return _command(group, ("referee",), None)


def game_sides() -> dict[str, tuple[str, ...]]:
    """Each game's name and the names of its sides, as `referee games` lists them."""
    from referee.games import registry

    return {name: tuple(info.sides) for name, info in registry.GAMES.items()}
