"""Verdicts rendered for people (one line per record) and for scripts (JSON objects)."""

from __future__ import annotations

from typing import Any

from referee.adjudicate import Verdict


def describe(verdict: Verdict) -> str:
    """What the verdict says after its status, in words."""
    if verdict.error is not None:
        where = f"line {verdict.error.line}, col {verdict.error.column}"
        if verdict.status == "malformed":
            return f"{where}: {verdict.error.message}"
        return f"{where}: {verdict.error_turn}: {verdict.error.message}"
    if verdict.status == "finished":
        if verdict.draw:
            text = f"draw ({verdict.reason}) after {verdict.turns} turns"
        else:
            verb = "wins" if len(verdict.winners) == 1 else "win"
            text = f"{'+'.join(verdict.winners)} {verb} ({verdict.reason}) after {verdict.turns} turns"
    else:
        text = f"{verdict.to_move} to move"
        if verdict.round is not None:
            text += f", round {verdict.round}"
        if verdict.pending_message:
            text += f", awaiting {verdict.pending_message}"
    if verdict.rolls_as_given:
        text += "; rolls taken as written (no seed in the record)"
    if verdict.result_matches is False:
        text += f'; the claimed result "{verdict.claimed}" does not match'
    return text


def line(verdict: Verdict) -> str:
    return f"{verdict.source}:{verdict.record}: {verdict.game or '?'}: {verdict.status}: {describe(verdict)}"


def as_json(verdict: Verdict) -> dict[str, Any]:
    """The JSON verdict of NOTATION.md §8."""
    error = None
    if verdict.error is not None:
        error = {
            "line": verdict.error.line,
            "column": verdict.error.column,
            "round": verdict.error.round,
            "side": verdict.error.side,
            "action": verdict.error.action,
            "message": verdict.error.message,
        }
    return {
        "source": verdict.source,
        "record": verdict.record,
        "game": verdict.game,
        "status": verdict.status,
        "winners": list(verdict.winners),
        "draw": verdict.draw,
        "reason": verdict.reason,
        "turns": verdict.turns,
        "to_move": verdict.to_move,
        "round": verdict.round,
        "claimed": verdict.claimed,
        "result_matches": verdict.result_matches,
        "pending": verdict.pending,
        "rolls_as_given": verdict.rolls_as_given,
        "error": error,
        "message": describe(verdict),
        "token": verdict.token,
        "suggestions": list(verdict.suggestions),
    }
