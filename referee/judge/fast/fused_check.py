"""The fused check path: a record's text straight into its game's engine.

`referee check` gives most records a verdict without building their record model:
`notation.quick` reads the tags and the move text into labels and actions, and they are
played on the engine as they come. Positions are not even counted, since a legal record's
verdict (finished or ongoing) names none. A record that breaks a rule, that the quick
reader does not read, or whose replay fails in any way, gets `None` here, and the caller
reads and replays it again the detailed way (`notation.reader`, `referee.judge.core.adjudicate`),
which finds the line, column and wording of its error. So the verdicts are exactly the
detailed path's: `tests/judge/fast/test_fused_check.py` compares both on random and mutated records of
every game.
"""

from __future__ import annotations

import hashlib
from array import array
from typing import Any

from referee.games import registry
from referee.games.api import GameState
from referee.judge.core.adjudicate import dialect_for, legal_verdict
from referee.judge.core.replay_loop import action_places, quick_kinds
from referee.judge.core.replay_loop import open_ended as find_open_ended
from referee.judge.core.tag_values import unreadable_result
from referee.judge.core.turn_token import token_of_digest
from referee.judge.core.verdicts import Verdict
from referee.notation.dialect import Dialect
from referee.notation.quick import Scanned, scan
from referee.notation.record_splitter import RawRecord
from referee.notation.writer import canonical_pieces, write_scanned

WHOLE = 1 << 16
"""A record up to this size (bytes) has its canonical text hashed whole, a longer one a
piece at a time."""


def quick_verdict(raw: RawRecord, source: str, index: int, *, token: bool = False) -> Verdict | None:
    """The verdict of a legal record read straight from its bytes, or None when the
    detailed path must give the verdict (not read quickly, illegal, timed, or any failure).

    With `token`, the verdict carries the turn token (PLAY.md §2), its canonical text
    written from the same reading and replay (`notation.writer.write_scanned`; a long
    record's a piece at a time, `notation.writer.canonical_pieces`)."""
    return quick_check(raw, source, index, token=token)[0]


def quick_check(
    raw: RawRecord, source: str, index: int, *, token: bool = False
) -> tuple[Verdict | None, set[int] | None]:
    """`quick_verdict`, and when it is None but the record was read quickly, the places
    among its actions (counted from 0) of those `referee.judge.core.replay_loop.open_ended` finds, which the
    detailed path as a stream needs (`referee.judge.fast.streamed_verdict`): so it need not read the record
    quickly again."""
    scanned = None
    try:
        scanned = scan(_text(raw), dialect_for, keep=token)
        if scanned is None or "TimeControl" in scanned.tags or "Start" in scanned.tags:
            return None, None  # a timed record (or one that claims to be) is judged the detailed way
        game, tags, items = scanned.game, scanned.tags, scanned.items
        engine = registry.engine(game)
        state: GameState[Any] = engine.new_state(tags)
        claimed = tags.get("Result")
        if unreadable_result(game, claimed, state.sides) is None:  # (else malformed at the tag)
            # Played on a new state with the driver every path shares; a broken rule raises.
            renumbered = array("i") if token else None
            kinds = quick_kinds(items)
            turns = state.play_steps(items, find_open_ended(kinds), renumbered)
            made = None
            if renumbered is not None:
                made = token_of_digest(turns, _digest(raw, scanned, engine.dialect(), renumbered, kinds))
            return legal_verdict(game, claimed, state, source, index, turns, token=made, offset=raw.offset), None
    except Exception:  # noqa: BLE001 - a broken rule or anything else: the detailed path words it
        pass
    if scanned is None:
        return None, None
    items = scanned.items
    del scanned
    return None, action_places(quick_kinds(items))


def _digest(raw: RawRecord, scanned: Scanned, dialect: Dialect, renumbered: array[int], kinds: bytes) -> str:
    """The SHA-256 (hex) of the canonical text without `Result` of the record read as
    `scanned` (with `keep`) and replayed, `renumbered` as the replay gave it, its items'
    `kinds` (`notation.writer.canonical_pieces`)."""
    body = scanned.body
    if renumbered and body is not None and not body.plain:  # (rare) read again, its labels apart
        again = scan(_text(raw), dialect_for, keep=True, joined=False)
        assert again is not None
        scanned = again
    if len(raw.raw) <= WHOLE:
        text = write_scanned(scanned, dialect, renumbered, "Result", kinds)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    digest = hashlib.sha256()  # a piece at a time: a long record's canonical text is never held whole
    for piece in canonical_pieces(scanned, dialect, renumbered, "Result", kinds):
        digest.update(piece.encode("utf-8"))
    return digest.hexdigest()


def _text(raw: RawRecord) -> str:
    """The record's text, line ends as LF."""
    data = raw.raw
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    return data.decode("utf-8")
