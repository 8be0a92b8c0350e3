"""Did you mean: up to three legal actions closest to what was written.

Legal actions of the same piece (the same first square or hex) come first, then the rest;
within each group the smallest edit distance between canonical texts wins, ties in the
engine's order."""

from __future__ import annotations

import re
from typing import Any

from referee.games.api import GameState, Resign
from referee.games.registry import engine

LIMIT = 3
_ORIGIN = re.compile(r"[a-z]+\d+", re.IGNORECASE)


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions of one character."""
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]


def origin(text: str) -> str | None:
    """The square or hex an action starts from (`d1` of `d1-W`, `g6` of `g6+h6xh7`)."""
    match = _ORIGIN.match(text)
    return match.group(0).lower() if match else None


def canonical(game: str, text: str) -> str:
    """The canonical text of a written action, or the text itself if it does not parse."""
    dialect = engine(game).dialect()
    if re.fullmatch(dialect.action_pattern, text, re.IGNORECASE | re.ASCII):
        return str(dialect.parse_action(text))
    return text


def suggestions(state: GameState[Any], written_text: str, *, limit: int = LIMIT, hide_rolls: bool = False) -> list[str]:
    """Up to `limit` legal actions of `state` (the state right before the refused
    action) closest to `written_text`. `hide_rolls` drops what a battle's die would
    bring (`#4=DB2(...)`), for states that hold a secret seed."""
    try:
        legal = [action for action in state.legal_actions() if not isinstance(action, Resign)]
    except ValueError:
        return []
    texts: list[str] = []
    seen: set[str] = set()
    syntax = engine(state.info.name).chance_syntax() if hide_rolls else None
    for action in legal:
        text = str(action)
        if syntax is not None:
            text = syntax.bare(text)
        if text not in seen:
            seen.add(text)
            texts.append(text)
    return closest(texts, canonical(state.info.name, written_text), limit=limit)


def closest(texts: list[str], written: str, *, limit: int = LIMIT) -> list[str]:
    """Up to `limit` of `texts` (distinct, in the engine's order) closest to `written`:
    the same piece first, then the smallest edit distance; `written` itself left out."""
    texts = [text for text in texts if text != written]
    piece = origin(written)
    ranked = sorted(
        range(len(texts)),
        key=lambda index: (origin(texts[index]) != piece or piece is None, edit_distance(written, texts[index]), index),
    )
    return [texts[index] for index in ranked[:limit]]
