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
from dataclasses import dataclass, field
from functools import cached_property

import pyparsing as pp

GLYPH_PATTERN = r"!!|\?\?|!\?|\?!|!|\?"


@dataclass(frozen=True, eq=False)
class Dialect:
    game: str
    labels: Mapping[str, str]
    short_labels: Mapping[str, str]
    action_pattern: str
    parse_action: Callable[[str], object]
    action_element: Callable[[], pp.ParserElement]
    example_action: str
    step_labels: bool = False
    label_examples: tuple[str, ...] = field(default=())

    @cached_property
    def label_pattern(self) -> str:
        """A regex alternation of every label form, longest first."""
        forms = sorted(self.labels, key=len, reverse=True)
        return "|".join(re.escape(form) for form in forms)

    def label_hint(self) -> str:
        """'a side label such as "R:" or "Red:"' for error messages."""
        examples = self.label_examples or tuple(
            f"{self.short_labels[side]}:" for side in list(self.short_labels)[:1]
        )
        quoted = " or ".join(f'"{example}"' for example in examples)
        return f"a side label such as {quoted}"
