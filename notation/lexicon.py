"""The words of RGN as regular expressions, shared by the fast reader and the detailed
grammar so that both read the same language. No pyparsing here: reading well-formed
records never imports it."""

from __future__ import annotations

import re

from notation.dialect import Dialect
from notation.model import Move

TOKEN_END = r"(?=\s|[{;]|$)"
TAG_NAME = r"[A-Za-z0-9_]+"
TAG_VALUE = r'"(?:[^"\\\n]|\\["\\])*"'
NUMBER = r"\d+\.(?:\.\.)?"
WORD = r"[^\s{};]+|[};]"


def unescape(quoted: str) -> str:
    """A tag value without its quotes, `\\"` and `\\\\` resolved."""
    return re.sub(r'\\(["\\])', r"\1", quoted[1:-1])


def label_regex(dialect: Dialect) -> str:
    plus = r"\+?" if dialect.step_labels else ""
    return rf"(?:{dialect.label_pattern}){plus}:"


def last_move_index(items: list) -> int | None:
    """Where the turn's latest action stands: a glyph standing apart belongs to it."""
    for index in range(len(items) - 1, -1, -1):
        if isinstance(items[index], Move):
            return index
    return None
