"""What a game supplies to the reader and writer: its side labels and its action syntax.

The reader knows nothing of any game: it asks the record's dialect which labels exist,
which text is an action (`action_pattern`, a regular expression read case-insensitively;
it may span several words, like Nieuchess's `setup a1 b2 ...`) and how to build the typed
action from it (`parse_action`). `action_element` is the detailed pyparsing grammar of one
action, used to say precisely what was expected when a token fits no form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from referee.notation.model import phrase

if TYPE_CHECKING:
    import pyparsing as pp

GLYPH_PATTERN = r"!!|\?\?|!\?|\?!|!|\?"


class Dialect:
    """A game's notation. Compared by identity: each game has exactly one."""

    def __init__(
        self,
        game: str,
        labels: Mapping[str, str],
        short_labels: Mapping[str, str],
        action_pattern: str,
        parse_action: Callable[[str], object],
        action_element: Callable[[], pp.ParserElement],
        example_action: str,
        step_labels: bool = False,
        label_examples: tuple[str, ...] = (),
        spanning_words: tuple[str, ...] = (),
    ) -> None:
        self.game = game
        self.labels = labels
        self.short_labels = short_labels
        self.action_pattern = action_pattern
        self.parse_action = parse_action
        self.action_element = action_element
        self.example_action = example_action
        self.step_labels = step_labels
        self.label_examples = label_examples
        self.spanning_words = frozenset(word.lower() for word in spanning_words)
        """The words (lower case) after which an action may go on past white space, its
        pattern spanning several words (Nieuchess's `setup`): a reader that splits the move
        text at white space must read the text around them with `action_pattern`."""
        forms = sorted(labels, key=len, reverse=True)
        self.label_pattern = "|".join(re.escape(form) for form in forms)
        """A regex alternation of every label form, longest first."""

    def __repr__(self) -> str:
        return f"Dialect({self.game!r})"

    def label_hint(self) -> str:
        """'a side label such as "R:" or "Red:"' for error messages."""
        examples = self.label_examples or tuple(f"{self.short_labels[side]}:" for side in list(self.short_labels)[:1])
        quoted = [f'"{example}"' for example in examples]
        if len(quoted) == 2:
            return phrase("a side label such as {first} or {second}", first=quoted[0], second=quoted[1])
        return phrase("a side label such as {examples}", examples=" or ".join(quoted))
