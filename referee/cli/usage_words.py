"""Click's own usage errors in the command line's language (issue 49, docs/languages.md).

Click writes its messages in English through the global gettext domain, which the referee
leaves alone: a usage error is said again here instead, from its type and its parameters
(the option Click did not know and its close matches, the parameter that is missing, the
parameter whose value is invalid), and what Click wrote whole (an option that needs an
argument, an extra argument, a value out of range) is read back by this module's templates
(`speech.rule_text`). The options, commands and values stay as written. English is never
said again: `referee.cli.entry` prints Click's own words then, as before.
"""

from __future__ import annotations

import re

import click

from referee.speech import N_, Speaker, rule_text

CLICK_MESSAGES = (
    N_("Option {name} requires an argument"),
    N_("Option {name} requires {nargs} arguments"),
    N_("Option {name} does not take a value"),
    N_("Argument {name} takes {nargs} values"),
    N_("Got unexpected extra argument ({args})"),
    N_("Got unexpected extra arguments ({args})"),
    N_("Missing command"),
    N_("{value} is not in the range {range}"),
    N_("{value} is not a valid integer"),
    N_("{value} is not a valid integer range"),
    N_("{value} is not a valid float"),
    N_("{value} is not a valid float range"),
)
"""The messages Click writes whole (without their final period), read back by their shape:
those the referee's options can meet."""
_CHOICE = re.compile(r"(?P<value>.+?) is not (?:one of )?(?P<choices>'.*')\.")
"""Click's words for a value that is not one of a Choice's (said by a template of their own:
one as bare as `{value} is not {choice}` would read any English sentence)."""


def line(error: click.ClickException, path: str, say: Speaker) -> str:
    """The whole line of a usage error (`referee check: ... (see referee check --help)`)
    in the speaker's language."""
    return say(N_("{path}: {message} (see {path} --help)"), path=path, message=message(error, say))


def message(error: click.ClickException, say: Speaker) -> str:
    """What a usage error says, in the speaker's language, without its final period."""
    if isinstance(error, click.NoSuchOption):
        said = say(N_("No such option {option}"), option=repr(error.option_name))
        return said + _suggested(error.possibilities, say)
    if isinstance(error, click.exceptions.NoSuchCommand):
        said = say(N_("No such command {command}"), command=repr(error.command_name))
        return said + _suggested(error.possibilities, say)
    if isinstance(error, click.MissingParameter):
        return _missing(error, say)
    if isinstance(error, click.BadParameter):
        hint = _hint(error)
        said = _read(error.message, say)
        chosen = _CHOICE.fullmatch(error.message)
        if chosen is not None and error.param is not None and isinstance(error.param.type, click.Choice):
            said = say(N_("{value}: the choices are {choices}"), value=chosen["value"], choices=chosen["choices"])
        if hint is None:
            return say(N_("Invalid value: {message}"), message=said)
        return say(N_("Invalid value for {hint}: {message}"), hint=hint, message=said)
    return _read(error.format_message(), say)


def _suggested(possibilities: list[str] | None, say: Speaker) -> str:
    """Click's close matches of an unknown option or command, as one phrase after it."""
    if not possibilities:
        return ""
    listed = ", ".join(repr(each) for each in sorted(possibilities))
    if len(possibilities) == 1:
        return ". " + say(N_("Did you mean {possibility}?"), possibility=listed)
    return ". " + say(N_("(Did you mean one of: {possibilities}?)"), possibilities=listed)


def _hint(error: click.BadParameter) -> str | None:
    """The parameter as Click names it in an error (`'--at'`, `'--jobs' / '-j'`)."""
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint(error.ctx)
    if hint is None:
        return None
    return hint if isinstance(hint, str) else " / ".join(repr(each) for each in hint)


def _missing(error: click.MissingParameter, say: Speaker) -> str:
    hint = _hint(error) or ""
    kind = error.param_type or (error.param.param_type_name if error.param is not None else None)
    if kind == "argument":
        said = say(N_("Missing argument {hint}"), hint=hint)
    elif kind == "option":
        said = say(N_("Missing option {hint}"), hint=hint)
    else:
        said = say(N_("Missing parameter {hint}"), hint=hint)
    extra = error.message
    if error.param is not None and isinstance(error.param.type, click.Choice):
        choices = ", ".join(str(choice) for choice in error.param.type.choices)
        extra = f"{extra}. " if extra else ""
        extra += say(N_("Choose from: {choices}"), choices=choices)
    return f"{said}. {extra}" if extra else said


def _read(text: str, say: Speaker) -> str:
    """A message Click wrote whole, read back by its template (the notation as written)."""
    return rule_text(text.rstrip("."), say)
