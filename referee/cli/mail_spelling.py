"""The spellings of `referee mail` before its subcommands, kept for one release: cron lines
and .forward files in the wild say `referee mail --games DIR ...`. `new_spelling(args)`
turns such a command line into the subcommand it means, with the one-line notice to print;
a command line already in the new form is returned as it is. Light on purpose: the command
line's entry reads it before any command is imported."""

from __future__ import annotations

from collections.abc import Mapping

SUBCOMMANDS = frozenset({"receive", "imap", "flush", "check", "log", "add-player"})
_VALUED = frozenset(
    {"--games", "--outbox", "--smtp", "--smtp-user", "--keys", "--from", "--wait", "--add-player", "--max-size",
     "--gm", "--check-games", "--now", "--imap", "--imap-password-file", "--poll", "--log-file", "--trust-authserv"}
)  # fmt: skip
_FLAGS = frozenset({"--starttls", "--flush", "--idle"})
_TAKES = {
    "receive": {"--outbox", "--smtp", "--starttls", "--smtp-user", "--keys", "--from", "--wait", "--max-size", "--gm",
                "--now", "--log-file", "--trust-authserv"},
    "flush": {"--outbox", "--smtp", "--starttls", "--smtp-user", "--from", "--now", "--log-file"},
    "check": set(),
    "log": {"--log-file"},
    "add-player": {"--wait"},
}  # fmt: skip
_TAKES["imap"] = _TAKES["receive"] | {"--imap-password-file", "--poll", "--idle"}
_OLD = {
    "receive": "--games GAMES",
    "imap": "--imap URL",
    "flush": "--flush",
    "check": "--check-games GAMES",
    "log": "--log",
    "add-player": "--add-player ADDRESS",
}
"""The option of the old spelling that chose each subcommand, as the notice names it."""


def _options(args: list[str]) -> tuple[dict[str, str | None], list[str]] | None:
    """The old command line's options by name (a flag as None), and what follows `--`; None
    for anything the old command did not take (Click then says what is wrong)."""
    found: dict[str, str | None] = {}
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            return found, args[index + 1 :]
        name, equals, value = arg.partition("=")
        if name == "--log":
            if equals:
                found["--log"] = value
            elif index + 1 < len(args) and args[index + 1].isdigit():
                found["--log"], index = args[index + 1], index + 1
            else:
                found["--log"] = "20"
        elif name in _FLAGS and not equals:
            found[name] = None
        elif name in _VALUED:
            if not equals:
                if index + 1 == len(args):
                    return None
                value, index = args[index + 1], index + 1
            found[name] = value
        else:
            return None
        index += 1
    return found, []


def new_spelling(args: list[str], defaults: Mapping[str, object] | None = None) -> tuple[list[str], str | None]:
    """`args` in the subcommands' form, and the notice saying so (None when `args` needed no
    change). `defaults` is the configuration's default map: an old `mail` with `imap` set in
    the configuration file read that mailbox, as `mail imap` does."""
    if not args or args[0] != "mail" or (len(args) > 1 and (args[1] in SUBCOMMANDS or args[1] in ("-h", "--help"))):
        return args, None
    read = _options(args[1:])
    if read is None:
        return args, None
    options, rest = read
    if len(args) == 1 and not _stdin_is_piped():
        return args, None  # `referee mail` typed at a terminal: the help of the subcommands
    configured = defaults.get("mail", {}) if defaults else {}
    imap_configured = (
        isinstance(configured, Mapping)
        and isinstance(configured.get("imap"), Mapping)
        and bool(configured["imap"].get("url"))
    )
    positional: list[str] = []
    if "--check-games" in options:
        command, folder = "check", options["--check-games"]
    else:
        folder = options.get("--games")
        if "--add-player" in options:
            command, positional = "add-player", [str(options["--add-player"])]
        elif "--log" in options:
            command, positional = "log", [str(options["--log"])]
        elif "--flush" in options:
            command = "flush"
        elif "--imap" in options or imap_configured:
            command = "imap"
            if "--imap" in options:
                positional = [str(options["--imap"])]
        else:
            command = "receive"
    if folder is None and isinstance(configured, Mapping):  # `games` of the configuration file
        given = configured.get(command)
        folder = given.get("games_dir") if isinstance(given, Mapping) else None
        folder = str(folder) if folder is not None else None
    new = ["mail", command]
    if folder is not None:  # without a folder the subcommand says to give one, as the old command did
        new += [folder, *positional]
    for name, value in options.items():
        if name in _TAKES[command]:
            new += [name] if value is None else [name, value]
    new += rest
    old = _OLD[command]
    notice = (
        f"referee: mail: `mail {old}` is the old spelling, kept until the next release: "
        f"say `referee mail {command} GAMES ...` (referee mail --help; docs/mail.md)"
    )
    return new, notice


def _stdin_is_piped() -> bool:
    import sys

    try:
        return sys.stdin is not None and not sys.stdin.isatty()
    except (ValueError, OSError):
        return False
