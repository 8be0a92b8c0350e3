"""Every call `referee.play` makes into the adjudication and rendering layers, in one
place, so that when those layers are reworked only this module follows them."""

from __future__ import annotations

from typing import Any

from games import registry
from notation import writer
from notation.dialect import Dialect
from notation.model import ReadResult, Record, Turn
from referee import report
from referee.adjudicate import Played, Replay, Verdict, adjudicate, read_source

__all__ = [
    "Played",
    "Replay",
    "Verdict",
    "canonical_text",
    "dialect",
    "read_source",
    "replay",
    "verdict_json",
    "verdict_line",
]


def replay(result: ReadResult, source: str, *, keep_steps: bool = False) -> Replay:
    """One record replayed through its engine, with its verdict and final state."""
    return adjudicate(result, source, 1, keep_steps=keep_steps)


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    return report.as_json(verdict)


def verdict_line(verdict: Verdict) -> str:
    return report.line(verdict)


def describe(verdict: Verdict) -> str:
    return report.describe(verdict)


def dialect(game: str) -> Dialect:
    return registry.engine(game).dialect()


def canonical_text(record: Record, replayed: Replay) -> str:
    """The record in canonical form (NOTATION.md §7), with the round numbers its replay
    gave each turn (`replayed` must be the replay of this very record object)."""
    numbers = replayed.numbers
    items = tuple(
        item._replace(number=numbers[id(item)]) if isinstance(item, Turn) and id(item) in numbers else item
        for item in record.items
    )
    return writer.write(record._replace(items=items), dialect(record.game))


def annotated(verdict: Verdict, token: str | None, suggestions: list[str] | tuple[str, ...] = ()) -> Verdict:
    """The verdict with the turn token (PLAY.md §2) and did-you-mean suggestions."""
    return verdict._replace(token=token, suggestions=tuple(suggestions))


def relocated(verdict: Verdict, source: str, line: int, column: int) -> Verdict:
    """The verdict with its error moved to `line`, `column` of another `source`."""
    error = verdict.error._replace(line=line, column=column) if verdict.error is not None else None
    return verdict._replace(source=source, error=error)


def with_claim(verdict: Verdict, claimed: str) -> Verdict:
    """The verdict of the same record carrying the `Result` tag `claimed`, which is the
    computed result."""
    return verdict._replace(claimed=claimed, result_matches=True)


def error_span(verdict: Verdict) -> tuple[int, int] | None:
    return None if verdict.error is None else (verdict.error.line, verdict.error.column)
