"""The canonical form of a record (NOTATION.md §7): what `referee format` and `new` write.

Tags in the contract's order, one turn per line with short labels and canonical action
text (`str()` of the typed action), comments kept. Reading the output gives back the
same record, spans aside.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from notation.dialect import Dialect
from notation.model import Comment, Draw, Move, Record, Span, Tag, Timeout, Turn
from notation.quick import Scanned

LEADING_TAGS = ("Game", "Variant", "Players")
MIDDLE_TAGS = ("First", "Seed", "SeedHash", "Position")
CLOCK_TAGS = ("TimeControl", "Start")
"""After `Position`, before the others (TIME.md §1)."""


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


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
        elif isinstance(item, Draw):
            body.append("draw")
        elif isinstance(item, Timeout):
            body.append("timeout")
        else:
            body.append(str(item))
    text = lines[0]
    if body:
        text += "\n" + "\n".join(line.rstrip("\n") for line in body) + "\n"
    return text


def write_scanned(scanned: Scanned, numbers: Sequence[int], dialect: Dialect, without: str = "") -> str:
    """The canonical form of a record read the quick way with its canonical text kept
    (`notation.quick.scan(..., keep=True)`), the same text `write` gives of the record
    model: `numbers` are the round numbers to write on the turns, in order (0: none; as
    `write` takes them from the turns), and the tag `without` is left out (the turn
    token's text has no `Result`)."""
    return "".join(canonical_pieces(scanned, numbers, dialect, without))


PIECE = 4096
"""Parts of a record's move text joined at a time by `canonical_pieces`."""


def canonical_pieces(scanned: Scanned, numbers: Sequence[int], dialect: Dialect, without: str = "") -> Iterator[str]:
    """`write_scanned` in pieces of some thousand parts, so that a hash of a long record's
    canonical text never holds the whole text. The turns whose number in `numbers` is not
    the one written on them get it now (in `scanned.body`, which is changed)."""
    body = scanned.body
    if body is None:
        raise ValueError("the record was not scanned with keep=True: it has no canonical text")
    nowhere = Span(1, 1)
    tags = [Tag(name, value, nowhere) for name, value in scanned.tags.items() if name != without]
    yield write_tags(ordered_tags(tags, dialect))
    parts = body.parts
    if numbers != body.numbers:  # a number missing or written where the canonical form has none
        for turn, (number, written) in enumerate(zip(numbers, body.numbers, strict=False)):
            if number != written:
                at = body.labels[turn]
                label = parts[at][1:].rpartition(" ")[2]
                parts[at] = f"\n{number}. {label}" if number else "\n" + label
    for start in range(0, len(parts), PIECE):
        yield "".join(parts[start : start + PIECE])
    if parts:
        yield "\n"
