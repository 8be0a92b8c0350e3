"""The canonical form of a record (NOTATION.md §7): what `referee format` and `new` write.

Tags in the contract's order, one turn per line with short labels and canonical action
text (`str()` of the typed action), comments kept. Reading the output gives back the
same record, spans aside.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache

from referee.notation.dialect import Dialect
from referee.notation.lexicon import TERMINATION_WORDS
from referee.notation.model import Comment, Move, Record, Span, Tag, Turn
from referee.notation.quick import DRAW, Item, Label, Scanned

LEADING_TAGS = ("Game", "Variant", "Players")
MIDDLE_TAGS = ("First", "Seed", "SeedHash", "Position")
CLOCK_TAGS = ("TimeControl", "Start")
"""After `Position`, before the others (TIME.md §1)."""


def escape(value: str) -> str:
    if "\\" in value or '"' in value:
        return value.replace("\\", "\\\\").replace('"', '\\"')
    return value  # (nearly every value: nothing to escape)


def ordered_tags(tags: tuple[Tag, ...] | list[Tag], dialect: Dialect) -> list[Tag]:
    """Game, Variant, Players, side names in turn order, First, Seed/SeedHash, the sides'
    salts, Position, TimeControl, Start, the others as read, Result last."""
    by_name = {tag.name: tag for tag in tags}
    side_order = list(dialect.short_labels)
    side_tags = sorted(
        (tag for tag in tags if tag.name.lower() in dialect.labels),
        key=lambda tag: side_order.index(dialect.labels[tag.name.lower()]),
    )
    salts = [by_name[f"{side}Salt"] for side in side_order if f"{side}Salt" in by_name]
    named = (
        set(LEADING_TAGS) | set(MIDDLE_TAGS) | set(CLOCK_TAGS) | {"Result"} | {tag.name for tag in side_tags + salts}
    )
    ordered = [by_name[name] for name in LEADING_TAGS if name in by_name]
    ordered += side_tags
    ordered += [by_name[name] for name in MIDDLE_TAGS[:-1] if name in by_name]
    ordered += salts  # after SeedHash, before Position (NOTATION.md §7), in side order
    ordered += [by_name[name] for name in MIDDLE_TAGS[-1:] if name in by_name]
    ordered += [by_name[name] for name in CLOCK_TAGS if name in by_name]
    ordered += [tag for tag in tags if tag.name not in named]
    ordered += [by_name["Result"]] if "Result" in by_name else []
    return ordered


def write_tags(tags: list[Tag]) -> str:
    return "".join(f'[{tag.name} "{escape(tag.value)}"]\n' for tag in tags)


@lru_cache(maxsize=256)
def _tag_order(names: tuple[str, ...], dialect: Dialect, without: str) -> tuple[str, ...]:
    """The names of tags read in the order `names` as `ordered_tags` orders them, `without`
    left out (kept: records of a file mostly have the same tags)."""
    nowhere = Span(1, 1)
    return tuple(
        tag.name for tag in ordered_tags([Tag(name, "", nowhere) for name in names], dialect) if tag.name != without
    )


def write_tag_values(tags: Mapping[str, str], dialect: Dialect, without: str = "") -> str:
    """`write_tags(ordered_tags(...))` of tags read as values by name, the tag `without`
    left out."""
    order = _tag_order(tuple(tags), dialect, without)
    return "".join([f'[{name} "{escape(tags[name])}"]\n' for name in order])


def write_turn(turn: Turn, dialect: Dialect) -> str:
    """One turn on one line (a `;` comment ends its line, so the turn goes on below)."""
    label = dialect.short_labels[turn.side] + ("+" if turn.step else "") + ":"
    words = [f"{turn.number}. {label}" if turn.number is not None else label]
    text = ""
    for item in turn.items:
        if isinstance(item, Move):
            words.append(f"{item.action}{item.glyph or ''}")
        elif isinstance(item, Comment) and item.braced:
            words.append(str(item))
        elif isinstance(item, Comment):
            text += " ".join(words) + f" {item}\n"
            words = []
    return text + " ".join(words)


def write(record: Record, dialect: Dialect) -> str:
    """The whole record in canonical form, ending with a newline."""
    lines = [write_tags(ordered_tags(record.tags, dialect))]
    body = []
    for item in record.items:
        if isinstance(item, Turn):
            body.append(write_turn(item, dialect))
        elif type(item) in TERMINATION_WORDS:
            body.append(TERMINATION_WORDS[type(item)])
        else:
            body.append(str(item))
    text = lines[0]
    if body:
        text += "\n" + "\n".join(line.rstrip("\n") for line in body) + "\n"
    return text


def write_scanned(
    scanned: Scanned, dialect: Dialect, renumbered: Sequence[int] = (), without: str = "", kinds: bytes | None = None
) -> str:
    """The canonical form of a record read the quick way with its canonical text kept
    (`notation.quick.scan(..., keep=True)`), the same text `write` gives of the record
    model: `renumbered` are the turns (counted from 0) whose canonical round number is not
    the one written on them, in order, each followed by that number (0: none), as the
    replay finds them
    (`referee.judge.core.replay_loop.drive`), and the tag `without` is left out (the turn token's text
    has no `Result`). `kinds`, when known, are the items' kinds, a byte each: `T` for a
    label, `e` for `draw`, any other for an action (`referee.judge.core.replay_loop.quick_kinds`)."""
    body = scanned.body
    if not renumbered and body is not None and (not body.written or _canonical(body.parts, scanned.items, kinds)):
        parts = body.parts  # (nearly every record: the text as kept)
        return write_tag_values(scanned.tags, dialect, without) + "".join(parts) + ("\n" if parts else "")
    return "".join(canonical_pieces(scanned, dialect, renumbered, without, kinds))


def canonical_pieces(
    scanned: Scanned, dialect: Dialect, renumbered: Sequence[int] = (), without: str = "", kinds: bytes | None = None
) -> Iterator[str]:
    """`write_scanned` in pieces of some thousand turns, so that a hash of a long record's
    canonical text never holds the whole text again. With turns `renumbered`, a record
    with comments or glyphs must have been scanned with `joined=False` (its labels are then
    parts of their own, changed here); one without is written from its items, and so is
    one kept as written (`Body.written`) whose white space is not the canonical form's."""
    body = scanned.body
    if body is None or (renumbered and body.joined and not body.plain):
        raise ValueError("the record's canonical text was not kept (scan with keep=True, and joined=False to renumber)")
    yield write_tag_values(scanned.tags, dialect, without)
    parts = body.parts
    if body.plain and (renumbered or (body.written and not _canonical(parts, scanned.items, kinds))):
        yield from _plain_pieces(scanned.items, dialect, renumbered)
    elif renumbered:
        _renumber(parts, renumbered)
        for start in range(0, len(parts), PIECE):
            yield "".join(parts[start : start + PIECE])
    else:
        yield from parts
    if parts:
        yield "\n"


PIECE = 4096
"""Parts joined at a time when renumbered."""

_NOT_WHITE = bytes(set(range(256)) - set(b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"))
"""Every byte but those `str.split` takes for white space in ASCII text."""


def _canonical(parts: list[str], items: list[Item], kinds: bytes | None) -> bool:
    """Whether a move text kept as written (`Body.written`: one part, every word written as
    the canonical form writes it) is the canonical text: the white space between its words
    is one newline before each label or `draw`, one space before anything else, and one
    space after a round number's dot (NOTATION.md §7)."""
    text = parts[0] if parts else ""
    joined = text.replace(". ", ".")  # (a round number joined to its label: one word, as read)
    if text.count(".") != len(text) - len(joined):
        return False  # a dot not followed by one space
    if kinds is None:
        kinds = bytes(_KIND.get(item.__class__, 97) for item in items)
    between = joined[1:].encode("ascii").translate(None, _NOT_WHITE)
    return between == kinds[1:].translate(_SEPARATOR)


_KIND = {Label: ord("T"), DRAW.__class__: ord("e")}
"""An item's kind by its class (`a` for an action's)."""

_SEPARATOR = bytes(10 if kind in b"Te" else 32 for kind in range(256))
"""The white space the canonical form writes before an item, by its kind: a newline
before a label or `draw`, one space before anything else."""


def _plain_pieces(items: list[Item], dialect: Dialect, renumbered: Sequence[int]) -> Iterator[str]:
    """The canonical move text of a record with no comment or glyph, from its items, some
    thousand lines at a time: each turn's label with its round number (the one written, or
    the one `renumbered` gives), its actions' canonical texts."""
    short = dialect.short_labels
    texts: dict[int, str] = {}  # an action's text by identity (the quick reader shares equal actions)
    lines: list[str] = []
    words: list[str] | None = None
    turn, next_at = -1, 0
    for item in items:
        kind = item.__class__
        if kind is Label:
            if words is not None:
                lines.append(" ".join(words))
                if len(lines) >= PIECE:
                    yield "\n" + "\n".join(lines)
                    lines.clear()
            label: Label = item  # type: ignore[assignment]
            turn += 1
            number = label.number
            if next_at < len(renumbered) and renumbered[next_at] == turn:
                number, next_at = renumbered[next_at + 1] or None, next_at + 2
            written = short[label.side] + ("+" if label.step else "") + ":"
            words = [f"{number}. {written}" if number is not None else written]
        elif item is DRAW:
            if words is not None:
                lines.append(" ".join(words))
            lines.append("draw")
            words = None
        else:
            text = texts.get(id(item))
            if text is None:
                text = texts[id(item)] = str(item)
            words.append(text)  # type: ignore[union-attr]
    if words is not None:
        lines.append(" ".join(words))
    if lines:
        yield "\n" + "\n".join(lines)


def _renumber(parts: list[str], renumbered: Sequence[int]) -> None:
    """Set the round numbers `renumbered` gives (turn, number, turn, number...: 0 for none)
    on the turns' labels among `parts`, a label being a part of its own (`\\n12. R:`): the
    only parts that start a line with neither a comment nor `draw` and end with a colon."""
    turn, next_at = -1, 0
    for at, part in enumerate(parts):
        if next_at >= len(renumbered):
            return
        if part[:1] == "\n" and part[1:2] not in (";", "{") and part[-1:] == ":":
            turn += 1
            if turn == renumbered[next_at]:
                number = renumbered[next_at + 1]
                next_at += 2
                label = part[1:].rpartition(" ")[2]
                parts[at] = f"\n{number}. {label}" if number else "\n" + label
