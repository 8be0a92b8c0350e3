"""What the quick scanner (`notation.quick`) reads a record into: its labels, `DRAW`, the
canonical text kept (`Body`) and the whole (`Scanned`), and how the canonical text's parts
are put together. Plain values, no reading here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Label(NamedTuple):
    """A turn's label: the side (long name), whether it is a `+` step, the round number written."""

    side: str
    step: bool
    number: int | None


class _Draw:
    def __repr__(self) -> str:
        return "DRAW"


DRAW = _Draw()
"""The `draw` termination, in the items of a `Scanned`."""


class Body(NamedTuple):
    """The canonical move text of a record read with `keep` (NOTATION.md §7), written as it
    was read: the record's comments and glyphs are in it, and its turns carry the round
    numbers written on them (the canonical form's numbers are the replay's:
    `notation.writer.canonical_pieces` puts them right where they differ, in a body read
    with `joined` false)."""

    parts: list[str]
    """In order, pieces that joined give the text after the tags without its last newline:
    each turn, `draw` and comment between turns on a line of its own, its newline first.
    When `joined`, some thousand of them are joined at a time (whole turns), which holds
    little more memory than the text itself."""
    joined: bool
    plain: bool
    """No comment or glyph is in it: the items alone give it (with the replay's numbers)."""
    written: bool = False
    """`parts` are the move text as written (one part, its newline first), every word of it
    written as the canonical form writes it: the canonical text when its white space is
    the canonical form's too, which `notation.writer` checks against the items (else it
    writes the text from them)."""


Item = Label | _Draw | object
"""A label, DRAW or an action (the game's own value)."""


class Scanned(NamedTuple):
    """A record read the quick way."""

    game: str
    tags: dict[str, str]
    """Every tag, by name, in file order."""
    items: list[Item]
    """Labels, actions and draws in record order."""
    body: Body | None = None
    """With `keep`: the move text's canonical text, comments and glyphs kept."""


def comment_text(line: bool, note: str, in_turn: bool, fresh: bool) -> tuple[str, bool]:
    """For `quick._Reader.read` with `keep`: a comment's canonical text (a `;` comment if `line`, else braced), and
    whether the next word starts a line (`fresh`): between turns, a comment is on a line
    of its own; in a turn, a `;` comment ends its line, a braced one follows a space."""
    if not in_turn:
        return (f"\n;{note}" if line else f"\n{{{note}}}"), fresh
    if line:
        return f" ;{note}\n", True
    return (f"{{{note}}}" if fresh else f" {{{note}}}"), False


def body_of(parts: list[str], chunks: list[str], fresh: bool, join: int, plain: bool) -> Body:
    """For `quick._Reader.read` with `keep`: the Body of the parts read (the last without its newline after a `;`
    comment), joined `join` at a time after `chunks` when `join`."""
    if fresh:
        parts[-1] = parts[-1][:-1]
    if join:
        if parts:
            chunks.append("".join(parts))
        parts = chunks
    return Body(parts, bool(join), plain)


def joined_texts(texts: Iterable[str], join: int) -> list[str]:
    """The canonical texts of a piece's words as its parts: one part when `join`, else one a word."""
    if not join:
        return list(texts)
    body = "".join(texts)
    return [body] if body else []


def joined_parts(parts: list[str], join: int) -> list[str]:
    """`parts` joined `join` at a time (none joined when 0)."""
    if not join:
        return parts
    return ["".join(parts[start : start + join]) for start in range(0, len(parts), join)]
