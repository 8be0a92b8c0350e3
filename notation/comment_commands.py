"""Comment commands (NOTATION.md §9, TIME.md §2, PLAY.md §6): `{[%at ...] [%grant ...]}`.

A braced comment whose text, after any white space, starts with `[%` holds commands, one or
more separated by white space, each `[%NAME ARG ...]`. This module only reads and writes
that shape; what a command means (a stamp, a grant, an offer) is for its reader to say, and
a command of another name is an ordinary comment to everyone. `;` comments never hold
commands: callers pass only braced comments' text.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_COMMAND = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_-]*)((?:[ \t\r\n]+[^\s\[\]]+)*)[ \t\r\n]*\]")
_SPACE = re.compile(r"[ \t\r\n]*")


class Command(NamedTuple):
    """One command: its name (`at`, `grant`, `offer`, or any other) and its arguments."""

    name: str
    args: tuple[str, ...]

    def __str__(self) -> str:
        return "[%" + " ".join((self.name, *self.args)) + "]"


class CommandSyntaxError(ValueError):
    """A comment that starts like commands (`[%`) but is not a sequence of them.

    `offset` is where, within the comment's text, reading stopped."""

    def __init__(self, text: str, offset: int) -> None:
        super().__init__(f"not a comment command at character {offset + 1}: {text[offset : offset + 20]!r}")
        self.text = text
        self.offset = offset


def holds_commands(text: str) -> bool:
    """Whether a braced comment's text holds commands: after white space, it starts `[%`."""
    return text.lstrip(" \t\r\n").startswith("[%")


def read_commands(text: str) -> tuple[Command, ...]:
    """The commands a braced comment's text holds, in order; () when it holds none.

    Raises `CommandSyntaxError` when the text starts with `[%` but is not wholly commands
    separated by white space (`{[%at 2026-12-01T12:00:00Z Red] nice}`). Whether that makes
    a record malformed is the caller's to decide."""
    if not holds_commands(text):
        return ()
    found: list[Command] = []
    pos = _SPACE.match(text, 0).end()  # type: ignore[union-attr]  # matches the empty string
    while pos < len(text):
        match = _COMMAND.match(text, pos)
        if match is None:
            raise CommandSyntaxError(text, pos)
        found.append(Command(match.group(1), tuple(match.group(2).split())))
        pos = match.end()
        after = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if after == pos and after < len(text):
            raise CommandSyntaxError(text, pos)  # two commands must be apart
        pos = after
    return tuple(found)


def write_commands(commands: tuple[Command, ...] | list[Command]) -> str:
    """The text of a braced comment holding these commands (without the braces)."""
    return " ".join(str(command) for command in commands)
