"""Text from outside (records, tags, comments, names, league.toml) made inert in HTML and
XML: markup characters escaped, and characters that are not allowed in a document (C0 and
C1 controls but tab and newline, lone surrogates, non-characters) replaced by U+FFFD.
Bidirectional controls are kept as text, but the pages put every such text in a `<bdi>`
element, so it cannot reorder the words around it."""

from __future__ import annotations

import html
import re

_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]")


def clean(text: str) -> str:
    """`text` without the characters no HTML or XML document may hold (each is U+FFFD)."""
    return _FORBIDDEN.sub("\ufffd", text.replace("\r\n", "\n").replace("\r", "\n"))


def esc(text: object) -> str:
    """Text for an HTML or XML element's content or a quoted attribute's value."""
    return html.escape(clean(str(text)), quote=True)


def bdi(text: object) -> str:
    """Outside text as an isolated run: escaped, and unable to reorder what surrounds it."""
    return f"<bdi>{esc(text)}</bdi>"
