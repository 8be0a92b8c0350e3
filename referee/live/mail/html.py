"""The text of an HTML mail part, as a reader sees it (the standard library's `html.parser`):
paragraphs, `<div>` and `<br>` break lines; a `<blockquote>` (Gmail's, Apple Mail's,
Thunderbird's quote) becomes lines beginning with `>`, one per level; `<hr>` becomes a
line of underscores (where Outlook starts its quoted header block); `<style>`, `<script>`,
`<head>` and `<title>` are dropped; entities are decoded.

PLAY.md §5 answers HTML-only mail with a request for plain text; the gateway shows the
player what it read of the HTML with that request (docs/mail.md)."""

from __future__ import annotations

from html.parser import HTMLParser

MAX_TEXT = 65536
"""The most characters of text kept from one HTML part."""
_BREAKS = {"p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "pre"}
_HIDDEN = {"style", "script", "head", "title"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.depth = 0
        self.hidden = 0
        self.size = 0

    def _break(self) -> None:
        text = " ".join("".join(self.current).split())
        self.current = []
        if text or (self.lines and self.lines[-1].strip(">").strip()):
            prefix = "> " * self.depth
            self.lines.append(f"{prefix}{text}".rstrip() if text else prefix.rstrip())
            self.size += len(text) + len(prefix) + 1

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "blockquote":
            self._break()
            self.depth += 1
        elif tag == "hr":
            self._break()
            self.lines.append("> " * self.depth + "_" * 32)
        elif tag in _BREAKS:
            self._break()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _HIDDEN:
            self.hidden -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "blockquote":
            self._break()
            self.depth = max(0, self.depth - 1)
        elif tag in _BREAKS:
            self._break()

    def handle_data(self, data: str) -> None:
        if not self.hidden and self.size < MAX_TEXT:
            self.current.append(data)
            self.size += len(data)


def html_text(html: str) -> str:
    """The text of an HTML document, at most `MAX_TEXT` characters; never raises."""
    parser = _Text()
    try:
        parser.feed(html[: MAX_TEXT * 16])
        parser.close()
    except Exception:  # html.parser is lenient; whatever it could not take ends the text
        pass
    parser._break()
    return "\n".join(parser.lines).strip("\n")[:MAX_TEXT]


__all__ = ["html_text"]
