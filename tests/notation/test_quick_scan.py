"""The quick scan reads a record into the same labels, actions and draws as the full
reader (and, keeping the canonical text, knows whether comments or glyphs are in it), or
declines it: on move texts that put a comment, a number, a draw, a
glyph, a label or nothing at all right after a turn's label, where the scan reads a label
and its turn's first action in one match."""

from __future__ import annotations

import pytest

from referee.judge.core.adjudicate import dialect_for
from referee.notation.model import Comment, Draw, Move, Record, Timeout, Turn
from referee.notation.quick import DRAW, Label, scan
from referee.notation.reader import read_raw
from referee.notation.record_splitter import split

FIRST = {"numica": "a1-c3", "pikemen": "e1(NE)", "nieuchess": "w3-t5", "nika": "a1-b2"}
"""An action of each game's notation (legal or not: only the reading is compared)."""

AFTER_LABEL = [
    "{a comment} {action}",
    "; a line comment\n{action}",
    "{action}{straight after}",
    "{action};after",
    "{action}!? {action}",
    "{action}!",
    "{action}?? B: {action}",
    "draw",
    "Draw B: {action}",
    "drawn",
    "B: {action}",
    "2. B: {action}",
    "2. {action}",
    "12 {action}",
    "{action}",
    "{ACTION}",
    "{action}{action}",
    "{action}x",
    "resign",
    "RESIGN draw",
    "timeout",
    "{action} draw",
    "",
]


def expected_items(record: Record) -> tuple[list[object], bool]:
    """What the quick scan should give for a record the full reader read, and whether the
    record holds no comment or glyph (`Body.plain`)."""
    items: list[object] = []
    plain = True
    for item in record.items:
        if isinstance(item, Turn):
            items.append(Label(item.side, item.step, item.number))
            for sub in item.items:
                if isinstance(sub, Move):
                    items.append(sub.action)
                    plain = plain and sub.glyph is None
                elif isinstance(sub, Draw):
                    items.append(DRAW)
                else:
                    plain = False
        elif isinstance(item, Draw):
            items.append(DRAW)
        elif isinstance(item, Comment):
            plain = False
        else:
            assert isinstance(item, Timeout)
            items.append("timeout")
    return items, plain


@pytest.mark.parametrize("game", sorted(FIRST))
@pytest.mark.parametrize("after", AFTER_LABEL)
@pytest.mark.parametrize("keep", [False, True])
def test_the_quick_scan_reads_what_follows_a_label_as_the_full_reader(game: str, after: str, keep: bool) -> None:
    action = FIRST[game]
    moves = "1. R: " + after.replace("{action}", action).replace("{ACTION}", action.upper())
    for text in (moves, moves.replace("R: ", "R:"), moves.replace("R: ", "R:\n  ")):
        data = f'[Game "{game}"]\n[Seed "s"]\n\n{text}\n'.encode()
        record = read_raw(split(data)[0], dialect_for)
        scanned = scan(data.decode(), dialect_for, keep=keep)
        if scanned is None:
            continue  # declined: the full reader reads it
        assert isinstance(record, Record), text
        items, plain = expected_items(record)
        assert scanned.items == items, text
        assert (scanned.body is not None) is keep, text
        assert scanned.body is None or scanned.body.plain is plain, text
