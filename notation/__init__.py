"""RGN, the referee's game record notation: grammar, record model, reader and writer.

Knows nothing of any game's rules: each game supplies a `Dialect` (its labels and action
syntax)."""

if __name__ != "referee.notation":  # pragma: no cover - the message is the point (tests/system/test_packaging.py)
    raise ImportError(
        f"notation/ is the package referee.notation: import it by that name, not as {__name__!r} (docs/architecture.md)"
    )


from referee.notation.dialect import Dialect
from referee.notation.model import (
    Adjudicated,
    Comment,
    Draw,
    Malformed,
    Move,
    NotationError,
    ReadCrash,
    ReadItem,
    ReadResult,
    Record,
    Span,
    Tag,
    Timeout,
    Turn,
)

__all__ = [
    "Adjudicated",
    "Comment",
    "Dialect",
    "Draw",
    "Malformed",
    "Move",
    "NotationError",
    "ReadCrash",
    "ReadItem",
    "ReadResult",
    "Record",
    "Span",
    "Tag",
    "Timeout",
    "Turn",
]
