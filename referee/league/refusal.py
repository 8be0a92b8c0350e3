"""A league's refusal as a template (issue 49, docs/languages.md): what the game master reads
on the command line (and a player by mail, for a leave) in the reader's language.

A refusal is raised with an English message id and its named parameters, `Refused(N_("{league}:
no round is paired"), league=config.name)`; its text (`str`) is the template filled in, in
English, as before. `said` gives it in another language: the template translated, each
parameter that is a side said as the game says it, one that is a phrase of the referee's (a
game's verdict, a judge's error, why a bracket is stuck) read by its own template, the rest
(names, games, paths, numbers) as written.
"""

from __future__ import annotations

from referee.speech import DEFAULT, Speaker


class Refused(ValueError):
    """A refusal whose message is a template of the catalogue with named parameters."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template.format(**params) if params else template)
        self.template = template
        self.params = params

    def said(self, say: Speaker) -> str:
        """The refusal in the speaker's language (English: its text as it is)."""
        if say.lang == DEFAULT:
            return str(self)
        from referee import spoken_lines

        if not self.params:  # a refusal written whole (a leave's): read by its template
            return spoken_lines.error(self.template, say)
        values = {name: _said(value, say) for name, value in self.params.items()}
        try:
            return say(self.template, **values)
        except (KeyError, IndexError, ValueError):  # a translation whose placeholders differ
            return str(self)


def _said(value: object, say: Speaker) -> object:
    if not isinstance(value, str) or isinstance(value, Command):
        return value  # a path, a number, a log's row, a command's word: as written
    from referee import spoken_lines

    word = say.word(value)
    return word if word != value else spoken_lines.error(value, say)


class Command(str):
    """A word of the command line or of league.toml in a refusal (`close`, `gm`): kept as
    written in every language, as the game master types it."""

    __slots__ = ()
