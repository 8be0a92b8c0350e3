"""docs/commands.md, the page the README's walk sends a reader to for "every command and
option", holds every command of the command line: each command and league subcommand has
its row in the table, and each of its options is named in that row (`referee --version`
on the page), so that a command added to the app without its row fails here."""

from __future__ import annotations

import re

from referee.cli.main import app
from referee.cli.tree import Command, command_tree
from tests.conftest import ROOT

PAGE = ROOT / "docs" / "commands.md"


def _rows() -> dict[str, str]:
    """The table's rows by the command their first cell names (`referee league tick`)."""
    rows: dict[str, str] = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        cell = re.match(r"\| `(referee(?: [a-z][a-z-]*)+)", line)
        if cell:
            named = cell.group(1)
            rows[named] = rows.get(named, "") + line
    return rows


def _row(rows: dict[str, str], command: Command) -> str | None:
    """The row of `command`: the one naming it, or naming it with fixed words after it
    (`referee completion bash|zsh|fish`)."""
    found = [row for named, row in rows.items() if named == command.name or named.startswith(command.name + " ")]
    return "".join(found) if found else None


def _commands() -> list[Command]:
    return [command for command in command_tree(app).walk() if not command.subcommands]


def test_every_command_and_league_subcommand_has_its_row() -> None:
    rows = _rows()
    missing = [command.name for command in _commands() if _row(rows, command) is None]
    assert missing == [], f"docs/commands.md has no row for {missing}"
    assert len(_commands()) > 25  # the tree is the whole app: league's subcommands included


def test_every_option_of_a_command_is_named_in_its_row() -> None:
    rows = _rows()
    missing = []
    for command in _commands():
        row = _row(rows, command) or ""
        for option in command.options:
            name = next((name for name in option.names if name.startswith("--")), option.names[0])
            if name != "--help" and not re.search(rf"{re.escape(name)}(?![a-z-])", row):
                missing.append(f"{command.name} {name}")
    assert missing == [], f"options not named in their row of docs/commands.md: {missing}"
    page = PAGE.read_text(encoding="utf-8")
    assert all(option.names[0] in page for option in command_tree(app).options if option.names[0] != "--help")
