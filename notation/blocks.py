"""Building blocks for games' action grammars: named pyparsing elements and the regex
fragments they are made of, so a game's fast pattern and its detailed grammar agree."""

from __future__ import annotations

import re

import pyparsing as pp


def square(files: str, max_rank: int, name: str = "a square") -> tuple[str, pp.ParserElement]:
    """A square such as `e4`: a file letter in `files` (e.g. "a-h") then a rank number.

    Returns the regex fragment and a named element. Ranks are matched by their digits
    only; whether the square is on the board is a rule, checked by the engine.
    """
    digits = r"\d{1,2}" if max_rank > 9 else r"\d"
    pattern = rf"[{files}]{digits}"
    element = pp.Regex(pattern, flags=re.IGNORECASE).set_name(f'{name} such as "{files[0]}1"')
    return pattern, element


def choice(words: list[str], name: str) -> tuple[str, pp.ParserElement]:
    """One of a closed set of words (facings, results), longest first so `NE` beats `N`."""
    ordered = sorted(words, key=len, reverse=True)
    pattern = "(?:" + "|".join(ordered) + ")"
    element = pp.Regex(pattern, flags=re.IGNORECASE).set_name(name)
    return pattern, element


def keyword(word: str) -> pp.ParserElement:
    """A word of the notation (`pass`, `resign`), case-insensitive, named by itself."""
    return pp.CaselessKeyword(word).set_name(f'"{word}"')

