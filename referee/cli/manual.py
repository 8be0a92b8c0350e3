"""The man page `referee.1`, written from the command line's own help (`referee.cli.tree`):
one page with every command, its options and arguments, then the configuration file, the
environment and the exit status.

`python -m referee.cli.manual man/referee.1` rewrites the page kept in the repository, which
the wheel installs as share/man/man1/referee.1; a test fails while it differs from what this
module writes, so it cannot fall behind the command line.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from referee.cli.main import app
from referee.cli.tree import Command, Option, command_tree

PAGE = Path("man") / "referee.1"
"""Where the page is kept, from the repository's root."""


def _escape(text: str) -> str:
    """Text as roff prints it: backslashes and hyphens escaped, no line read as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.MULTILINE)


def _bold(text: str) -> str:
    return f"\\fB{_escape(text)}\\fR"


def _paragraphs(text: str) -> list[str]:
    """The help's paragraphs as roff: each paragraph refilled, each `Example` line kept on its
    own line; a paragraph Click keeps as it is (its first line `\\b`: a table) kept unfilled."""
    blocks: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        if block.lstrip(" ").startswith("\b\n"):
            kept = [line.strip() for line in block.lstrip(" ").splitlines()[1:] if line.strip()]
            blocks.append(".nf\n" + "\n".join(_escape(line) for line in kept) + "\n.fi")
            continue
        lines: list[str] = []
        for line in block.replace("\b", "").splitlines():
            line = line.strip()
            if not line:
                continue
            if lines and not line.startswith("Example"):
                lines[-1] += " " + line
            else:
                lines.append(line)
        if lines:
            blocks.append("\n.br\n".join(_escape(line) for line in lines))
    return blocks


def _option(option: Option) -> list[str]:
    names = ", ".join(_bold(name) for name in option.names)
    if option.takes_value and option.metavar:
        names += f" \\fI{_escape(option.metavar)}\\fR"
    return [".TP", names, _escape(" ".join(option.help.split())) or "."]


def _command(command: Command) -> list[str]:
    lines = [f'.SS "{_escape(command.usage)}"']
    paragraphs = _paragraphs(command.help or command.short_help)
    for number, paragraph in enumerate(paragraphs):
        if number:
            lines.append(".PP")
        lines.append(paragraph)
    for argument in command.arguments:
        if argument.help:
            lines += [".TP", f"\\fI{_escape(argument.metavar)}\\fR", _escape(" ".join(argument.help.split()))]
    for option in command.options:
        lines += _option(option)
    return lines


FILES = """\
.SH FILES
.TP
.I ~/.config/referee/config.toml
Settings that the options of \\fBmail\\fR, \\fBplay\\fR, \\fBreveal\\fR and \\fBleague\\fR
would otherwise repeat, as TOML keys: games, outbox, keys, smtp, starttls, smtp\\-user,
smtp\\-password (read only from a file of mode 0600), from, gm, wait and league (the
folder of league pair, status, standings, site and tick).
The configuration folder is the platform's (platformdirs); \\fBreferee config\\fR shows
the settings in force and where each comes from.
.SH ENVIRONMENT
.TP
.B REFEREE_CONFIG
The configuration file to read instead; empty: none.
.TP
.B REFEREE_GAMES, REFEREE_SMTP, REFEREE_FROM, ...
Each setting of the file as REFEREE_ and its key in capitals (\\- as _); a variable
overrides the file, an option on the command line overrides both.
.TP
.B REFEREE_SMTP_PASSWORD
The password of \\-\\-smtp\\-user.
.TP
.B REFEREE_IMAP_PASSWORD
The password of the mailbox that \\-\\-imap reads (REFEREE_IMAP_OAUTH2_TOKEN: an OAuth2 token instead).
.SH EXIT STATUS
.TP
0
Every record legal and every claimed Result matching; the command done.
.TP
1
A record illegal or malformed, a claim that does not match, no record found, or a
request refused.
.TP
2
A usage error, an unreadable input or output that cannot be written.
.TP
3
An error of the referee itself (please report it).
.TP
75
A game file is busy: try again later.
.SH SEE ALSO
The README and docs/ of the referee's repository; the RGN notation and the rules of the
four games are in its spec.
"""


def page() -> str:
    """The whole man page, in roff."""
    root = command_tree(app)
    name = root.short_help.rstrip(".")
    lines = [
        ".\\\" Written by `python -m referee.cli.manual` from the command line's help: do not edit.",
        '.TH REFEREE 1 "" "referee" "User Commands"',
        ".SH NAME",
        f"referee \\- {_escape(name[:1].lower() + name[1:])}",
        ".SH SYNOPSIS",
        ".B referee",
        "[\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]...",
        ".SH DESCRIPTION",
    ]
    for number, paragraph in enumerate(_paragraphs(root.help)):
        if number:
            lines.append(".PP")
        lines.append(paragraph)
    for option in root.options:
        lines += _option(option)
    lines.append(".SH COMMANDS")
    for command in root.walk()[1:]:
        lines += _command(command)
    return "\n".join(lines) + "\n" + FILES


def main(argv: list[str]) -> int:
    """`python -m referee.cli.manual [PATH]`: write the page to PATH (default: standard output)."""
    text = page()
    if argv:
        from referee.store import WriteFailed, write_output

        try:
            write_output(Path(argv[0]), text)  # (a link replaced, a FIFO refused: docs/files.md)
        except WriteFailed as error:
            sys.stderr.write(f"{error}\n")
            return 2
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
