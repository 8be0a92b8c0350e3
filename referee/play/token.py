"""The turn token of PLAY.md §2: `<turns>-<10 hex>`, naming one state of one game so that
a move is applied only to the board it was written for."""

from __future__ import annotations

import hashlib

from referee.play import bridge


def turn_token(turns: int, canonical_text: str) -> str:
    """The token of a record with `turns` turns whose canonical text without its
    `Result` tag is `canonical_text`."""
    digest = hashlib.sha256(canonical_text.encode("utf-8")).hexdigest()
    return f"{turns}-{digest[:10]}"


def token_of(replayed: bridge.Replay) -> str | None:
    """The token of a replayed record: None unless it is legal (finished or ongoing)."""
    record, verdict = replayed.record, replayed.verdict
    if record is None or verdict.status not in ("finished", "ongoing") or verdict.turns is None:
        return None
    bare = record._replace(tags=tuple(tag for tag in record.tags if tag.name != "Result"))
    return turn_token(verdict.turns, bridge.canonical_text(bare, replayed))
