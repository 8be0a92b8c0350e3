"""The replay page as `referee.pictures.page` built it before it was written piece by
piece (main 47dc78c): the whole page as one text, from the full replay's frames. Kept
only in the tests, as the reference the new page must match byte for byte; since issue 49
the page's English words (`page_words.WORDS`) are its data and its controls' text."""

from __future__ import annotations

import html
import json
import re
from importlib import resources
from typing import Any

from referee.games import registry
from referee.judge.core.adjudicate import Replay
from referee.judge.core.verdict_words import verdict_line as line
from referee.pictures import drawing_for, svg
from referee.pictures.drawing import Drawing, compose
from referee.pictures.page_words import WORDS
from referee.pictures.steps import Frame, frames


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


def _data(
    replay: Replay, text: str | None, first_line: int = 1, private: bool = False
) -> tuple[dict[str, Any], Drawing | None]:
    """Everything the script needs, as plain JSON (`private`: e-mail addresses left out)."""
    verdict = replay.verdict
    record = replay.record
    data: dict[str, Any] = {
        "game": verdict.game,
        "verdict": line(verdict),
        "status": verdict.status,
        "tags": [[tag.name, _public(tag.value) if private else tag.value] for tag in record.tags]
        if record is not None
        else [],
        "words": dict(WORDS),
        "turns": [],
        "steps": [],
        "pieces": [],
        "cells": {},
        "source": None,
        "colours": svg.MARK_COLOURS,
        "clock": verdict.clock.text() if verdict.clock is not None else None,
    }
    if verdict.status == "malformed" and verdict.error is not None and text is not None:
        # Lines end at LF (CRLF read as LF) as the reader counts them; not at U+2028 and
        # the other breaks `str.splitlines` knows, or the lines shown would not be the
        # line numbers given.
        lines = text.replace("\r\n", "\n").split("\n")
        first = max(first_line, verdict.error.line - 4)
        data["source"] = {
            "first": first,
            "lines": [
                _public(shown) if private else shown
                for shown in lines[first - first_line : verdict.error.line + 3 - first_line]
            ],
            "line": verdict.error.line,
            "column": verdict.error.column,
            "message": verdict.error.message,
        }
    if record is None or replay.state is None:
        return data, None
    title = registry.GAMES[record.game].title.split(" (")[0]
    found = frames(replay, title)
    drawing = drawing_for(record.game, found[0].position)
    table: dict[svg.Piece, int] = {}
    cells: dict[str, list[str]] = {}
    shown: set[int] = set()
    previous_details: list[str] | None = None
    previous_heading: str | None = None
    for frame in found:
        ids = set()
        for piece in drawing.pieces(frame.position):
            number = table.get(piece)
            if number is None:
                number = table[piece] = len(table)
                data["pieces"].append([piece.symbol, piece.transform(), piece.fields()])
            ids.add(number)
        marks = []
        for mark in _marks(drawing, frame):
            centre = drawing.centre(mark.at)
            if centre is not None:
                cells[mark.at] = [svg.num(centre[0]), svg.num(centre[1])]
                marks.append(mark.at if mark.kind == "last" else f"{mark.kind}:{mark.at}")
        details = drawing.details(frame.position)
        step: dict[str, Any] = {
            "t": frame.turn,
            "m": frame.move,
            "add": sorted(ids - shown),
            "del": sorted(shown - ids),
            "k": " ".join(marks),
        }
        if frame.events:
            step["e"] = [[event.kind, event.text] for event in frame.events]
        if frame.heading != previous_heading:
            step["h"] = frame.heading
        if details != previous_details:
            step["d"] = details
        if frame.illegal is not None:
            step["x"] = frame.illegal
        if frame.notes:
            step["c"] = list(frame.notes)
        data["steps"].append(step)
        shown, previous_heading, previous_details = ids, frame.heading, details
    turns: list[str] = ["start"]
    for frame in found[1:]:
        while len(turns) <= frame.turn + 1:
            turns.append("")
        turns[frame.turn + 1] = frame.label
    data["turns"] = turns
    data["cells"] = cells
    return data, drawing


_BOARDS: dict[tuple[str, str], str] = {}


def _board(drawing: Drawing) -> str:
    """The board without pieces as inline SVG markup; kept, since a batch of records of one
    game draws the same board again and again."""
    key = (type(drawing).__name__, drawing.key())
    if key not in _BOARDS:
        if len(_BOARDS) > 32:
            _BOARDS.clear()
        _BOARDS[key] = svg.serialize(compose(drawing, None, [])).split("\n", 1)[1]
    return _BOARDS[key]


def script_json(data: object) -> str:
    """`data` as JSON that can stand inside a `<script>` element whatever text it holds:
    `<`, `>` and `&` are written `\\u003c`, `\\u003e`, `\\u0026` (so no `</script>`, `<!--`
    or `]]>` from a record can end or change the element), and U+2028/U+2029 as escapes.
    Still plain JSON: `JSON.parse` gives back the same strings."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
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


def page(
    replay: Replay,
    text: str | None = None,
    first_line: int = 1,
    private: bool = False,
    back: tuple[str, str] | None = None,
) -> str:
    """The whole page as text, as main built it."""
    data, drawing = _data(replay, text, first_line, private)
    board = "" if drawing is None else _board(drawing)
    payload = script_json(data)
    nav = "" if back is None else f'<nav><a href="{html.escape(back[0])}">{html.escape(back[1])}</a></nav>\n'
    parts = {
        "LANG": "en",
        "NAV": nav,
        "TITLE": html.escape(data["verdict"]),
        "STYLE": _asset("page.css"),
        "BOARD": board,
        "DATA": payload,
        "SCRIPT": _asset("page.js"),
    }
    parts.update({f"W_{key.upper()}": html.escape(value) for key, value in WORDS.items()})
    return re.sub(r"\{\{([A-Z_]+)\}\}", lambda match: parts[match.group(1)], _asset("page.html"))
