"""Building blocks for games' action grammars: named pyparsing elements and the regex
fragments they are made of, so a game's fast pattern and its detailed grammar agree.

pyparsing is imported only when an element is built: reading well-formed records never
needs it, and a game should build its elements inside its `action_element()`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from referee.notation.model import phrase

if TYPE_CHECKING:
    import pyparsing as pp


def square_pattern(files: str, max_rank: int | None) -> str:
    """The regex fragment of a square: a file letter in `files`, then the rank's digits
    (as many as `max_rank` has; None: any number, a rank off the board being a rule's
    matter, not the notation's)."""
    if max_rank is None:
        return rf"[{files}][0-9]+"
    return rf"[{files}]" + (r"[0-9]{1,2}" if max_rank > 9 else r"[0-9]")


def choice_pattern(words: list[str]) -> str:
    """The regex fragment of one of a closed set of words, longest first."""
    return "(?:" + "|".join(sorted(words, key=len, reverse=True)) + ")"


def square(files: str, max_rank: int | None, name: str = phrase("a square")) -> tuple[str, pp.ParserElement]:
    """A square such as `e4`: a file letter in `files` (e.g. "a-h") then a rank number.

    Returns the regex fragment and a named element. Ranks are matched by their digits
    only; whether the square is on the board is a rule, checked by the engine.
    """
    import pyparsing as pp

    pattern = square_pattern(files, max_rank)
    element = pp.Regex(pattern, flags=re.IGNORECASE | re.ASCII).set_name(
        phrase("{name} such as {example}", name=name, example=f'"{files[0]}1"')
    )
    return pattern, element


def choice(words: list[str], name: str) -> tuple[str, pp.ParserElement]:
    """One of a closed set of words (facings, results), longest first so `NE` beats `N`."""
    import pyparsing as pp

    pattern = choice_pattern(words)
    element = pp.Regex(pattern, flags=re.IGNORECASE | re.ASCII).set_name(name)
    return pattern, element


def keyword(word: str) -> pp.ParserElement:
    """A word of the notation (`pass`, `resign`), case-insensitive, named by itself."""
    import pyparsing as pp

    return pp.CaselessKeyword(word).set_name(f'"{word}"')
