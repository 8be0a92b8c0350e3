"""The turn token of PLAY.md §2, `<turns>-<10 hex>`, naming one state of one game so that
a move is applied only to the board it was written for; and the canonical text it hashes."""

from __future__ import annotations

import hashlib

from referee.games import registry
from referee.judge.core.adjudicate import Replay, adjudicate
from referee.judge.core.verdicts import Status
from referee.notation import writer
from referee.notation.model import Record, Turn


def canonical_text(record: Record, replay: Replay | None = None) -> str:
    """The record in canonical form (NOTATION.md §7), its round numbers set from its
    replay (`replay` must be the replay of this very record; turns past an illegal action
    keep the numbers they were written with)."""
    numbers = (replay or adjudicate(record)).numbers
    items = []
    begun = 0
    for item in record.items:
        if isinstance(item, Turn) and begun < len(numbers):
            item = item._replace(number=numbers[begun])
            begun += 1
        items.append(item)
    return writer.write(record._replace(items=tuple(items)), registry.engine(record.game).dialect())


def turn_token(turns: int, canonical: str) -> str:
    """The token of a record with `turns` turns whose canonical text without its
    `Result` tag is `canonical`."""
    return token_of_digest(turns, hashlib.sha256(canonical.encode("utf-8")).hexdigest())


def token_of_digest(turns: int, hex_digest: str) -> str:
    """The token of a record with `turns` turns whose canonical text (without `Result`),
    hashed as it was written, has this SHA-256: `<turns>-<its first 10 hex digits>`."""
    return f"{turns}-{hex_digest[:10]}"


def token_of(replayed: Replay) -> str | None:
    """The token of a replayed record: None unless it is legal (finished or ongoing)."""
    record, verdict = replayed.record, replayed.verdict
    if record is None or verdict.status not in (Status.FINISHED, Status.ONGOING) or verdict.turns is None:
        return None
    bare = record._replace(tags=tuple(tag for tag in record.tags if tag.name != "Result"))
    return turn_token(verdict.turns, canonical_text(bare, replayed))
