"""Running the command line as a process: whatever happens, one line on standard error
and a documented exit status, never a traceback.

- standard output closed (`>&-`): exit 2 before doing anything, since every verdict
  would be lost;
- a write to standard output that fails (`> /dev/full`): one line, exit 2;
- a broken pipe (`| head -1`): quiet, exit 2 (whoever read the output has gone);
- a usage error found by the option parser: one line naming the command, exit 2;
- an argument holding bytes that are not UTF-8 (other than an existing file's name): one
  line, exit 2;
- an exception nobody foresaw: one line asking for a report, exit 3.
"""

from __future__ import annotations

import errno
import os
import re
import sys

import click
import typer

from referee.errors import ExitStatus


def _say(text: str, prefix: str = "referee: ") -> None:
    if sys.stderr is not None:
        try:
            sys.stderr.write(f"{prefix}{text}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _silence_stdout() -> None:
    """Point standard output at the null device, so that what is still buffered cannot
    fail again when the interpreter exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
    except OSError:
        pass


def _usage_line(error: click.ClickException) -> str:
    context = getattr(error, "ctx", None)
    path = context.command_path if isinstance(context, click.Context) else "referee"
    from referee.cli.text_output import locale_speaker

    say = locale_speaker()
    if say is not None:  # Click's words said again in the locale's language (docs/languages.md)
        from referee.cli import usage_words

        return usage_words.line(error, path, say)
    # Typer adds its "Did you mean ...?" each time the command is resolved: say it once.
    message = re.sub(r"( Did you mean [^?]*\?)(?:\1)+", r"\1", error.format_message()).rstrip(".")
    return f"{path}: {message} (see {path} --help)"


def not_utf8(args: list[str]) -> str | None:
    """Why an argument cannot be used, when one holds bytes that are not UTF-8 (Python
    hands them over as lone surrogates) and is not the name of an existing file: such a
    file name is the system's, and is used as it is."""
    for position, arg in enumerate(args, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            if os.path.exists(arg):
                continue
            shown = os.fsencode(arg).decode("utf-8", "backslashreplace")
            return f'argument {position} is not UTF-8 text: "{shown}" (moves, tags and options are UTF-8)'
    return None


def run(app: typer.Typer, args: list[str]) -> int:
    """Run the command line on `args` and return its exit status."""
    if sys.stdout is None:
        _say("standard output is closed: the output would be lost")
        return ExitStatus.USAGE
    refused = not_utf8(args)
    if refused is not None:
        _say(refused)
        return ExitStatus.USAGE
    try:
        default_map = _settings(args)
        if default_map is None:
            return ExitStatus.USAGE
        from referee.cli.mail_spelling import new_spelling

        args, notice = new_spelling(args, default_map)  # `mail --games DIR ...`, kept for one release
        if notice is not None:
            _say(notice, prefix="")
        code = _dispatch(app, args, default_map)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _silence_stdout()
        return ExitStatus.USAGE
    except OSError as error:
        from referee.errors import WriteFailed  # (loaded already: the store's own, not by its name)

        if isinstance(error, WriteFailed):  # a file the referee could not write: named
            _say(str(error))
            return ExitStatus.USAGE
        if error.filename is not None:  # not the output: a file the referee itself needed
            return _internal(error)
        _silence_stdout()
        _say(f"cannot write the output: {error.strerror or error}")
        return ExitStatus.USAGE
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        return _internal(error)


def _internal(error: Exception) -> int:
    text = " ".join(str(error).split())
    _say(f"internal error ({type(error).__name__}: {text}); this is a bug of the referee: please report it")
    return ExitStatus.ERROR


CONFIGURED = frozenset({"mail", "play", "reveal", "league"})
"""The commands that take a setting of the configuration file (`referee.cli.config_file`): only
these look for it, so that `check` and the other record commands never pay for it."""


def wants_config(args: list[str]) -> bool:
    """True when the command line's first word that is not an option is one of CONFIGURED."""
    for arg in args:
        if arg == "--":
            return False
        if not arg.startswith("-"):
            return arg in CONFIGURED
    return False


def _settings(args: list[str]) -> dict[str, object] | None:
    """The defaults of the configuration file and the REFEREE_* variables for this command
    line (`referee.cli.config_file`), or None after saying in one line why they cannot be used."""
    if not wants_config(args):
        return {}
    from referee.cli import config_file
    from referee.errors import UsageError

    try:
        return config_file.apply()
    except UsageError as error:
        _say(str(error))
        return None


def _dispatch(app: typer.Typer, args: list[str], default_map: dict[str, object]) -> int:
    try:
        code = app(args=args, prog_name="referee", standalone_mode=False, default_map=default_map or None)
    except click.exceptions.NoArgsIsHelpError as error:
        error.show()
        return ExitStatus.USAGE
    except click.ClickException as error:
        _say(_usage_line(error), prefix="")
        return error.exit_code
    except click.Abort:
        return ExitStatus.REJECTED
    except SystemExit as stop:
        # Click answers a broken pipe by wrapping the streams and exiting 1 itself.
        if isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
            raise BrokenPipeError(errno.EPIPE, "broken pipe") from None
        return stop.code if isinstance(stop.code, int) else ExitStatus.USAGE
    return code if isinstance(code, int) else ExitStatus.OK
