"""A game's side tags given a player's new address (`league address`, `league
substitute`): written as every change of a game file is (`core.decided`, under its lock),
and kept as a token change that is not a move (`changes.py`), so that a move written for
the old token is refused with what changed, and the player to move can be sent the new one."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from referee.judge.core.adjudicate import Replay, adjudicate
from referee.judge.core.turn_token import canonical_text, token_of
from referee.judge.core.verdict_words import verdict_line
from referee.live.addresses import addresses_in
from referee.live.play import changes, core
from referee.live.play.result import PlayResult
from referee.notation.model import Tag


def retag(
    path: Path, old: str, tag: str, what: Sequence[changes.Wording] | str, now: int, wait: float = 10.0
) -> PlayResult:
    """Every side tag of the game in `path` that names the address `old` holds `tag`
    (`Name <address>`) instead; `what` says it for a stale token's refusal. Nothing is
    written (exit 1) when the record is not legal or no tag names `old`."""

    def decide(current: Replay) -> tuple[PlayResult, str | None]:
        record = current.record
        if record is None or not current.verdict.legal:
            return PlayResult.of(1, current.verdict, None, error=verdict_line(current.verdict)), None
        tags = tuple(
            Tag(item.name, tag, item.span) if any(address == old for address, _ in addresses_in(item.value)) else item
            for item in record.tags
        )
        if tags == record.tags:
            return PlayResult.of(1, current.verdict, token_of(current), error="no side tag names it"), None
        changed = record._replace(tags=tags)
        replayed = adjudicate(changed, str(path))
        token = token_of(replayed)
        retoken = changes.change(path, token_of(current), token, what, now)
        result = PlayResult.of(0, replayed.verdict, token, retoken=retoken, replayed=replayed)
        return result, canonical_text(changed, replayed)

    return core.decided(path, decide, dry_run=False, wait=wait)
