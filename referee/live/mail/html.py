"""The text of an HTML mail part, as its reader sees it, with the quoted earlier message
left out where the sender's mail program marked it (PLAY.md §5, amended; docs/mail.md,
"HTML-only mail"). Read with the standard library's `html.parser`: nothing is fetched,
nothing is run.

- Lines: `<br>`, `<p>`, `<div>`, list items, table rows and headings break lines; other
  white space is folded as a browser folds it (kept in `<pre>`); entities are decoded.
- Never read: `<script>`, `<style>`, `<head>`, `<title>`, `<template>`, and an element
  hidden by its inline style (`display:none`, `visibility:hidden`, `mso-hide:all`) or its
  `hidden` attribute, with everything inside.
- Quoted parts: a `<blockquote>` (any, Apple Mail's and Thunderbird's `type="cite"`
  among them), Gmail's `gmail_quote` and `gmail_attr`, Thunderbird's `moz-cite-prefix`
  and `moz-forward-container`, Yahoo's `yahoo_quoted` (also with Yahoo's `ydp...` prefix)
  become one line `>` each, their text left out: the plain rules then drop it
  (`replies.new_text`).
- Cuts: Outlook's reply header block (`divRplyFwdMsg`, `appendonsend`,
  `OutlookMessageHeader`, `mail-editor-reference-message-container`, also with Outlook's
  `x_` prefix) ends the text: everything after it is the earlier message. `<hr>` becomes
  a line of underscores, which the plain rules read as a cut (Outlook's rule above its
  `From:`/`Sent:` block).
- Bounds: the input is the message's part, bounded by the message's size limit
  (PLAY.md §5.1); at most `MAX_DEPTH` elements are followed open, and text nested deeper
  is left out. A document the parser gives up on is marked `complete=False`: the gateway
  then refuses it, showing the text read so far."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import NamedTuple

MAX_DEPTH = 256
"""The most elements followed open at once; text nested deeper is left out."""
QUOTE_MARK = ">"
"""The line a quoted part becomes."""
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"}
_BREAKS = {
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figure", "footer", "form",
    "h1", "h2", "h3", "h4", "h5", "h6", "header", "li", "main", "nav", "ol", "p", "pre", "section", "table",
    "tr", "ul",
}  # fmt: skip
_CLOSES_P = _BREAKS - {"br", "dd", "dt", "li", "tr"}
_CELLS = {"td", "th"}
_NEVER_READ = {"script", "style", "head", "title", "template"}
_QUOTE_CLASSES = ("gmail_quote", "gmail_quote_container", "gmail_attr", "moz-cite-prefix", "moz-forward-container")
_QUOTE_SUFFIXES = ("yahoo_quoted",)
_CUT_IDS = ("divrplyfwdmsg", "appendonsend", "mail-editor-reference-message-container")
_CUT_CLASSES = ("outlookmessageheader",)
_HIDING_STYLE = re.compile(r"(?:^|;)\s*(display\s*:\s*none|visibility\s*:\s*hidden|mso-hide\s*:\s*all)\b", re.I)


class HtmlText(NamedTuple):
    """The text of an HTML part: quoted parts as `>` lines, nothing after a cut; and
    whether the parser read the document to its end."""

    text: str
    complete: bool = True


class _Open(NamedTuple):
    tag: str
    quote: bool
    hidden: bool


def _marks(tag: str, attrs: list[tuple[str, str | None]]) -> tuple[bool, bool, bool]:
    """Whether an element is a quoted part, a cut, and hidden."""
    if not attrs:
        return tag == "blockquote", False, tag in _NEVER_READ
    values = {name.lower(): (value or "") for name, value in attrs[:64]}
    classes = {word.lower() for word in values.get("class", "")[:1000].split()}
    element_id = values.get("id", "")[:200].lower()
    quote = tag == "blockquote" or any(word in _QUOTE_CLASSES or word.endswith(_QUOTE_SUFFIXES) for word in classes)
    quote = quote or "yahoo_quoted" in element_id
    cut = any(element_id.endswith(name) for name in _CUT_IDS) or any(word in _CUT_CLASSES for word in classes)
    hidden = tag in _NEVER_READ or "hidden" in values or bool(_HIDING_STYLE.search(values.get("style", "")[:4000]))
    return quote, cut, hidden


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.current: list[str] = []
        self.open: list[_Open] = []
        self.counts: dict[str, int] = {}
        self.quoting = 0
        self.hiding = 0
        self.too_deep = 0
        self.cut = False
        self.pre = 0

    # -- lines -------------------------------------------------------------------------

    def _break(self, empty: bool = False) -> None:
        """End the current line: kept when it holds text, or `empty` (a `<br>`) says so."""
        text = "".join(self.current)
        self.current = []
        if self.pre and text:
            self.lines.extend(line.rstrip() for line in text.removesuffix("\n").split("\n"))
        elif (folded := " ".join(text.split())) or empty:
            self.lines.append(folded)

    def _mark_quote(self) -> None:
        self._break()
        if not self.lines or self.lines[-1] != QUOTE_MARK:
            self.lines.append(QUOTE_MARK)

    # -- the open elements -------------------------------------------------------------

    def _push(self, entry: _Open) -> None:
        self.open.append(entry)
        self.counts[entry.tag] = self.counts.get(entry.tag, 0) + 1
        self.quoting += entry.quote
        self.hiding += entry.hidden
        self.pre += entry.tag == "pre"

    def _pop(self) -> _Open:
        entry = self.open.pop()
        self.counts[entry.tag] -= 1
        self.quoting -= entry.quote
        self.hiding -= entry.hidden
        self.pre -= entry.tag == "pre"
        return entry

    def _implied_ends(self, tag: str) -> None:
        """The end tags HTML lets a writer leave out, as far as they matter here."""
        top = self.open[-1].tag if self.open else ""
        if top == "p" and tag in _CLOSES_P:
            self._pop()
        elif tag == "li" and top == "li":
            self._pop()
        elif tag in _CELLS | {"tr"} and top in _CELLS:
            self._pop()
            if tag == "tr" and self.open and self.open[-1].tag == "tr":
                self._pop()
        elif tag == "tr" and top == "tr":
            self._pop()

    # -- the parser's events -----------------------------------------------------------

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.cut:
            return
        reading = not (self.quoting or self.hiding or self.too_deep)
        quote, cut, hidden = _marks(tag, attrs)
        if cut and reading:
            self._break()
            self.cut = True
            return
        if tag in _VOID:
            if reading and tag == "br":
                self._break(empty=True)
            elif reading and tag == "hr":
                self._break()
                self.lines.append("_" * 32)
            return
        self._implied_ends(tag)
        if len(self.open) >= MAX_DEPTH:
            self.too_deep += 1
            return
        if reading and tag in _BREAKS:
            self._break()
        if reading and quote and not hidden:
            self._mark_quote()
        if reading and tag in _CELLS:
            self.current.append(" ")
        self._push(_Open(tag, quote, hidden))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.cut:
            return
        if self.too_deep:
            self.too_deep -= 1
            return
        if not self.counts.get(tag):
            if tag in ("br", "p") and not (self.quoting or self.hiding):
                self._break(empty=tag == "br")  # a stray `</p>` or `</br>` breaks the line, as browsers do
            return
        if tag in _BREAKS and not (self.quoting or self.hiding):
            self._break()  # before `pre` ends: its lines are its own
        while self.open:
            if self._pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if not (self.cut or self.quoting or self.hiding or self.too_deep):
            self.current.append(data)


def html_text(html: str) -> HtmlText:
    """The text of an HTML document as a reader sees it, quoted parts as `>` lines and
    nothing after a cut; never raises."""
    reader = _Reader()
    complete = True
    try:
        reader.feed(html)
        reader.close()
    except Exception:  # html.parser is lenient, yet `<![...` can still stop it
        complete = False
    reader._break()
    lines: list[str] = []
    for line in reader.lines:
        if line or (lines and lines[-1]):
            lines.append(line)  # runs of empty lines become one
    return HtmlText("\n".join(lines).strip("\n"), complete)


__all__ = ["MAX_DEPTH", "HtmlText", "html_text"]
