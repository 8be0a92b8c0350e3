"""The replay page: one self-contained HTML file that steps through a record.

The board is drawn once, as inline SVG without pieces; each step then sends only the
pieces it removes and adds (indexes into one table of distinct pieces) and the squares
it marks, and a small script (`page.js`, inlined) moves through them. So a long game
costs a few bytes per action instead of a whole picture per action, and stepping is a
handful of DOM changes. Everything is in the file: no network, no external file.

The page is made as a sequence of pieces (UTF-8), never joined whole (issue 34, "Memory"):
the frames are given one at a time to `Steps`, which turns each into its step's JSON at
once and keeps the page's `turns` and `steps` as escaped text in blocks of `BLOCK` values;
`pieces` then gives the page piece by piece, in the template's order, once the verdict
(which the title and the JSON's head need) is known. `page` joins them (the league's site).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator
from importlib import resources
from typing import Any

from referee.games import registry
from referee.judge.core import queue_check
from referee.judge.core.adjudicate import Replay
from referee.judge.core.verdict_words import verdict_line as line
from referee.judge.core.verdicts import Status, Verdict
from referee.notation.model import Record
from referee.pictures import drawing_for, page_words, svg
from referee.pictures.drawing import Drawing, compose
from referee.pictures.steps import Frame, frames
from referee.speech import DEFAULT, ENGLISH, Speaker

BLOCK = 256
"""Values of `turns` or `steps` encoded together into one block of the page's JSON (about
40 KB of steps): so that the many small strings of a long game cost their text, not an
object each, and the steps held as objects at a time stay few."""


def _asset(name: str) -> str:
    return resources.files("referee.pictures").joinpath(name).read_text(encoding="utf-8")


def _marks(drawing: Drawing, frame: Frame) -> list[svg.Mark]:
    if frame.illegal is not None:
        return drawing.marks(frame.move or frame.illegal, "illegal")
    if frame.move is None:
        return []
    return drawing.marks(frame.move, "last")


_ADDRESS = re.compile(r"\s*<[^<>\s@]+@[^<>\s]+>")


def _public(text: str) -> str:
    """`text` without its e-mail addresses (`Ann <ann@example.org>` is shown `Ann`)."""
    return _ADDRESS.sub("", text)


def _json(data: object) -> str:
    """`data` as the page's JSON writes it (not yet escaped: `_escaped`)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


class Restart(Exception):
    """The frames went back to a turn whose label is already written out: the caller
    makes the page again from the whole replay (no frame sequence known does this)."""


class _Blocks:
    """JSON values joined by commas, escaped for the script element, as UTF-8 blocks of
    `BLOCK` values each (encoded together: one `json.dumps` a block, not one a value).
    The value added last stays open to `set` (a turn's label, which a later frame of the
    same turn may replace). `size` None: all in one block."""

    def __init__(self, size: int | None) -> None:
        self.size = size
        self.blocks: list[bytes] = []
        self.values: list[Any] = []
        self.count = 0

    def add(self, value: Any) -> None:
        values = self.values
        values.append(value)
        self.count += 1
        if self.size is not None and len(values) > self.size:
            self._seal(values[:-1])
            del values[:-1]

    def _seal(self, values: list[Any]) -> None:
        joined = ("," if self.blocks else "") + _json(values)[1:-1]
        self.blocks.append(_escaped(joined).encode("utf-8"))

    def set(self, index: int, value: Any) -> None:
        """Replace the value at `index`, which must not be sealed in a block yet."""
        at = index - (self.count - len(self.values))
        if at < 0:
            raise Restart(index)
        self.values[at] = value

    def text(self) -> Iterator[bytes]:
        yield from self.blocks
        if self.values:
            yield _escaped(("," if self.blocks else "") + _json(self.values)[1:-1]).encode("utf-8")


class Steps:
    """The parts of the page's data that grow with the record, made frame by frame: the
    table of distinct pieces, the marked cells, each step (what it adds, removes, marks and
    says) and each turn's label. `whole`: in one block, for a replay already whole (where
    a later frame could go back to any turn), else in blocks of `BLOCK` values. What a step
    says (its label, heading, details, events and broken rule) is said by `say`."""

    def __init__(self, game: str, whole: bool = False, say: Speaker = ENGLISH) -> None:
        size = None if whole else BLOCK
        self.game = game
        self.say = say
        self.drawing: Drawing | None = None
        self.table: dict[svg.Piece, int] = {}
        self.numbers: dict[tuple[str, str], int | None] = {}  # by entry of a position: the piece's number
        self.pieces: list[list[Any]] = []
        self.cells: dict[str, list[str]] = {}
        self.shown: set[int] = set()
        self.previous_details: list[str] | None = None
        self.previous_heading: str | None = None
        self.steps = _Blocks(size)
        self.turns = _Blocks(size)

    def add(self, frame: Frame) -> None:
        """One more frame (the first is the start)."""
        drawing = self.drawing
        if drawing is None:
            drawing = self.drawing = drawing_for(self.game, frame.position)
        numbers = self.numbers
        ids = set()
        for key in drawing.entries(frame.position):
            number = numbers.get(key, -1)
            if number == -1:
                number = numbers[key] = self._number(drawing.piece(*key))
            if number is not None:
                ids.add(number)
        marks = []
        for mark in _marks(drawing, frame):
            centre = drawing.centre(mark.at)
            if centre is not None:
                self.cells[mark.at] = [svg.num(centre[0]), svg.num(centre[1])]
                marks.append(mark.at if mark.kind == "last" else f"{mark.kind}:{mark.at}")
        say = self.say
        details = drawing.details(frame.position, say)
        shown = self.shown
        step: dict[str, Any] = {
            "t": frame.turn,
            "m": frame.move,
            "add": sorted(ids - shown),
            "del": sorted(shown - ids),
            "k": " ".join(marks),
        }
        spoken = say.lang != DEFAULT
        if frame.events:
            step["e"] = [
                [event.kind, page_words.rule(event.text, say) if spoken else event.text] for event in frame.events
            ]
        if frame.heading != self.previous_heading:
            step["h"] = page_words.heading(frame.heading, say) if spoken else frame.heading
        if details != self.previous_details:
            step["d"] = details
        if frame.illegal is not None:
            step["x"] = page_words.rule(frame.illegal, say) if spoken else frame.illegal
        if frame.notes:
            step["c"] = list(frame.notes)
        self.steps.add(step)
        self.shown, self.previous_heading, self.previous_details = ids, frame.heading, details
        self._label(frame.turn + 1, page_words.label(frame.label, say) if spoken else frame.label)

    def _number(self, piece: svg.Piece | None) -> int | None:
        """The number of a piece in the table of distinct pieces (added when new)."""
        if piece is None:
            return None
        table = self.table
        number = table.get(piece)
        if number is None:
            number = table[piece] = len(table)
            entry: list[Any] = [piece.symbol, piece.transform(), piece.fields()]
            if self.say.lang != DEFAULT:  # its side and what it is, said (page.js describes the board by them)
                entry.append([self.say.word(piece.side), svg.piece_words(piece, self.say)])
            self.pieces.append(entry)
        return number

    def _label(self, index: int, label: str) -> None:
        """turns[index] = label, the turns between (with no frame) labelled ""."""
        turns = self.turns
        if index < turns.count:
            turns.set(index, label)
        else:
            while turns.count < index:
                turns.add("")
            turns.add(label)


def _source(verdict: Verdict, text: str | None, first_line: int, private: bool) -> dict[str, Any] | None:
    """Where a malformed record stops being RGN: the lines around the error."""
    if verdict.status != Status.MALFORMED or verdict.error is None or text is None:
        return None
    # Lines end at LF (CRLF read as LF) as the reader counts them; not at U+2028 and
    # the other breaks `str.splitlines` knows, or the lines shown would not be the
    # line numbers given.
    lines = text.replace("\r\n", "\n").split("\n")
    first = max(first_line, verdict.error.line - 4)
    return {
        "first": first,
        "lines": [
            _public(shown) if private else shown
            for shown in lines[first - first_line : verdict.error.line + 3 - first_line]
        ],
        "line": verdict.error.line,
        "column": verdict.error.column,
        "message": verdict.error.message,
    }


def _payload(
    verdict: Verdict,
    record: Record | None,
    source: dict[str, Any] | None,
    private: bool,
    steps: Steps | None,
    queues: dict[str, object] | None = None,
    say: Speaker = ENGLISH,
) -> Iterator[bytes]:
    """The page's JSON, everything the script needs (`private`: e-mail addresses left
    out), piece by piece: the keys in the order of one `json.dumps` of it all; the page's
    words (`data.words`) and the verdict's in `say`'s language."""
    tags = (
        [[tag.name, _public(tag.value) if private else tag.value] for tag in record.tags] if record is not None else []
    )
    head = {
        "game": verdict.game,
        "verdict": page_words.verdict(line(verdict), say),
        "status": verdict.status,
        "tags": tags,
        "words": page_words.words(say.lang),
    }
    yield _escaped(_json(head)[:-1] + ',"turns":[').encode("utf-8")
    if steps is not None:
        yield from steps.turns.text()
    yield b'],"steps":['
    if steps is not None:
        yield from steps.steps.text()
    tail = {
        "pieces": steps.pieces if steps is not None else [],
        "cells": steps.cells if steps is not None else {},
        "source": source,
        "colours": svg.MARK_COLOURS,
        "clock": page_words.clock(verdict.clock.text(), say) if verdict.clock is not None else None,
    }
    if queues is None and record is not None:
        queues = queue_check.page_view(record)
    if queues is not None and say.lang != DEFAULT:
        queues = page_words.queues(queues, say)
    if queues is not None:  # conditional moves (PLAY.md §9): only on a record that holds them
        tail["queues"] = queues
    yield _escaped("]," + _json(tail)[1:]).encode("utf-8")


_BOARDS: dict[tuple[str, str, str], str] = {}


def _board(drawing: Drawing, say: Speaker = ENGLISH) -> str:
    """The board without pieces as inline SVG markup, its legend and description in the
    speaker's language; kept, since a batch of records of one game draws the same board
    again and again."""
    key = (type(drawing).__name__, drawing.key(), say.lang)
    if key not in _BOARDS:
        if len(_BOARDS) > 32:
            _BOARDS.clear()
        _BOARDS[key] = svg.serialize(compose(drawing, None, [], say=say)).split("\n", 1)[1]
    return _BOARDS[key]


def script_json(data: object) -> str:
    """`data` as JSON that can stand inside a `<script>` element whatever text it holds:
    `<`, `>` and `&` are written `\\u003c`, `\\u003e`, `\\u0026` (so no `</script>`, `<!--`
    or `]]>` from a record can end or change the element), and U+2028/U+2029 as escapes.
    Still plain JSON: `JSON.parse` gives back the same strings."""
    return _escaped(_json(data))


def _escaped(text: str) -> str:
    """`script_json`'s escapes of JSON text; each maps one character, so JSON escaped in
    pieces is the JSON escaped whole."""
    for raw, escaped in _SCRIPT_ESCAPES:
        text = text.replace(raw, escaped)
    return text


_SCRIPT_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
)

_PLACE = re.compile(r"\{\{([A-Z_]+)\}\}")


def pieces(
    verdict: Verdict,
    record: Record | None,
    steps: Steps | None,
    text: str | None = None,
    first_line: int = 1,
    private: bool = False,
    back: tuple[str, str] | None = None,
    queues: dict[str, object] | None = None,
    say: Speaker = ENGLISH,
) -> Iterator[bytes]:
    """The page of a record, piece by piece (UTF-8): its verdict, its tags (`record`), its
    frames as `steps` holds them (None: no board), and for a malformed record the source
    `text` (whose first line is line `first_line` of its file). `private` leaves the
    players' e-mail addresses out of the tags and the source shown (a page for the
    public); `back` is a link (address, words) shown above the verdict; `queues`: the
    queue view of a record read as a stream (`queue_check.page_view`), else made from
    `record`; `say` speaks the page's words (`<html lang>`, the controls, the steps: the
    frames in `steps` were said by the `Steps`' own speaker)."""
    drawing = steps.drawing if steps is not None else None
    source = _source(verdict, text, first_line, private)
    nav = "" if back is None else f'<nav><a href="{html.escape(back[0])}">{html.escape(back[1])}</a></nav>\n'
    words = page_words.words(say.lang)
    parts: dict[str, str | Iterable[bytes]] = {
        "LANG": html.escape(page_words.html_lang(say)),
        "NAV": nav,
        "TITLE": html.escape(page_words.verdict(line(verdict), say)),
        "STYLE": _asset("page.css"),
        "BOARD": "" if drawing is None else _board(drawing, say),
        "DATA": _payload(verdict, record, source, private, steps, queues, say),
        "SCRIPT": _asset("page.js"),
    }
    for key in (
        "start",
        "start_title",
        "back",
        "back_title",
        "forward",
        "forward_title",
        "end",
        "end_title",
        "actions",
    ):
        parts[f"W_{key.upper()}"] = html.escape(words[key])
    template = _asset("page.html")
    at = 0
    for match in _PLACE.finditer(template):
        yield template[at : match.start()].encode("utf-8")
        part = parts[match.group(1)]
        if isinstance(part, str):
            yield part.encode("utf-8")
        else:
            yield from part
        at = match.end()
    yield template[at:].encode("utf-8")


def of_replay(replay: Replay, say: Speaker = ENGLISH) -> Steps | None:
    """The frames of a whole replay (`adjudicate(..., keep_steps=True)`) in `Steps` (said
    by `say`); None when it has no board."""
    record = replay.record
    if record is None or replay.state is None:
        return None
    title = registry.GAMES[record.game].title.split(" (")[0]
    steps = Steps(record.game, whole=True, say=say)
    for frame in frames(replay, title):
        steps.add(frame)
    return steps if steps.drawing is not None else None


def page(
    replay: Replay,
    text: str | None = None,
    first_line: int = 1,
    private: bool = False,
    back: tuple[str, str] | None = None,
    say: Speaker = ENGLISH,
) -> str:
    """The whole page as text (UTF-8, deterministic), in `say`'s language. `text` is the record's source,
    whose first line is line `first_line` of its file; `private` leaves the players'
    e-mail addresses out of the tags and the source shown (a page for the public); `back`
    is a link (address, words) shown above the verdict."""
    found = pieces(replay.verdict, replay.record, of_replay(replay, say), text, first_line, private, back, say=say)
    return b"".join(found).decode("utf-8")
