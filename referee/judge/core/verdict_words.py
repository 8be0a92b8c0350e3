"""The words of the judging core: a verdict as one line of text (`verdict_line`, what
`check` prints) and as the JSON fields of NOTATION.md §8 (`verdict_fields`), the turn an
error names, plurals. Shared by the command line, `play`, the mail gateway and the pages,
so that a verdict reads the same everywhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.judge.core.verdicts import ErrorReport, Status, Verdict
from referee.notation.lexicon import shorten


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 record`, `2 records`; `many` for irregular plurals."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def _json(value: dict[str, Any]) -> str:
    import json  # only when JSON is asked for: `referee check` starts faster without it

    return json.dumps(value)


# Verdicts (check, and the last line of replay, show and moves)


def turn_text(error: ErrorReport) -> str:
    """The turn and action an illegal verdict names: `turn 9 Sparta, action 2 "c4-S"`,
    or `turn 12 Blue, "draw"` for a draw written after the end."""
    if error.side is None:
        return 'after the last turn, "draw"' if error.action is not None else "before the first turn"
    text = f"setup {error.side}" if error.round is None else f"turn {error.round} {error.side}"
    if error.number is not None:
        text += f', action {error.number} "{shorten(error.action or "")}"'
    elif error.action is not None:
        text += f', "{shorten(error.action)}"'
    return text


def describe(verdict: Verdict) -> str:
    """What the verdict says after its status, in words."""
    if verdict.error is not None:
        where = f"line {verdict.error.line}, col {verdict.error.column}"
        if verdict.status == Status.ILLEGAL:
            return f"{where}: {turn_text(verdict.error)}: {verdict.error.message}"
        return f"{where}: {verdict.error.message}"
    if verdict.outcome is not None:
        turns = plural(verdict.turns or 0, "turn")
        if verdict.outcome.draw:
            text = f"draw ({verdict.outcome.reason}) after {turns}"
        else:
            winners = verdict.outcome.winners
            verb = "wins" if len(winners) == 1 else "win"
            text = f"{'+'.join(winners)} {verb} ({verdict.outcome.reason}) after {turns}"
    else:
        ongoing = verdict.ongoing
        text = f"{ongoing.to_move if ongoing else None} to move"
        if ongoing is not None and ongoing.round is not None:
            text += f", round {ongoing.round}"
        if ongoing is not None and ongoing.pending_message:
            text += f", awaiting {ongoing.pending_message}"
    if verdict.clock is not None:
        text += f"; {verdict.clock.text()}"
    if verdict.rolls_as_given:
        text += "; rolls taken as written (no seed revealed in the record)"
    if verdict.result_matches is False:
        text += f'; the claimed result "{verdict.claimed}" does not match'
    return text


def verdict_line(verdict: Verdict) -> str:
    return f"{verdict.source}:{verdict.record}: {verdict.game or '?'}: {verdict.status}: {describe(verdict)}"


def verdict_fields(verdict: Verdict) -> dict[str, Any]:
    """The JSON verdict of NOTATION.md §8: the verdict's values flattened into its fields."""
    error = None
    if verdict.error is not None:
        report = verdict.error
        error = {
            "line": report.line,
            "column": report.column,
            "round": report.round,
            "side": report.side,
            "action": report.action,
            "message": report.message,
        }
    outcome, ongoing = verdict.outcome, verdict.ongoing
    fields: dict[str, Any] = {
        "source": verdict.source,
        "record": verdict.record,
        "game": verdict.game,
        "status": str(verdict.status),
        "winners": list(outcome.winners) if outcome else [],
        "draw": outcome.draw if outcome else False,
        "reason": outcome.reason if outcome else None,
        "turns": verdict.turns,
        "to_move": ongoing.to_move if ongoing else None,
        "round": ongoing.round if ongoing else None,
        "claimed": verdict.claimed,
        "result_matches": verdict.result_matches,
        "pending": str(ongoing.pending) if ongoing and ongoing.pending is not None else None,
        "rolls_as_given": verdict.rolls_as_given,
        "clock": None if verdict.clock is None else verdict.clock.fields(),
        "error": error,
        "message": describe(verdict),
        "token": verdict.token,
        "suggestions": list(verdict.suggestions),
        "offset": verdict.offset,
    }
    if verdict.queues:  # PLAY.md §9: only for a record that holds queue commands
        fields["queues"] = {state.side: state.fields() for state in verdict.queues}
    return fields


def json_line(value: dict[str, Any]) -> str:
    """One JSON object on one line (JSON Lines)."""
    return _json(value)


def verdict_json(verdict: Verdict) -> str:
    """`verdict_fields` as one JSON line, as `json.dumps` writes it. A verdict with no
    error and no clock (nearly every line of `check --json` on an archive) is written
    straight from its values, taken out of the verdict at once: the same text, four times
    as fast (tests/judge/test_verdict_json.py compares the two on verdicts of every kind)."""
    (
        source,
        record,
        game,
        status,
        outcome,
        ongoing,
        error,
        turns,
        claimed,
        matches,
        rolls,
        token,
        hints,
        clock,
        offset,
        queues,
    ) = verdict
    if error is not None or clock is not None or queues:
        return _json(verdict_fields(verdict))
    quoted = _quote or _load_quote()
    winners: tuple[str, ...] = ()
    reason = to_move = pending = round_number = None
    if outcome is not None:
        winners, reason = outcome
    elif ongoing is not None:
        to_move, round_number, pending, _ = ongoing
    return (
        f'{{"source": {quoted(source)}, "record": {_number(record)}, '
        f'"game": {"null" if game is None else quoted(game)}, "status": {quoted(status)}, '
        f'"winners": [{", ".join(map(quoted, winners))}], '
        f'"draw": {"true" if outcome is not None and not winners else "false"}, '
        f'"reason": {"null" if reason is None else quoted(reason)}, "turns": {_number(turns)}, '
        f'"to_move": {"null" if to_move is None else quoted(to_move)}, "round": {_number(round_number)}, '
        f'"claimed": {"null" if claimed is None else quoted(claimed)}, "result_matches": {_truth(matches)}, '
        f'"pending": {"null" if pending is None else quoted(str(pending))}, "rolls_as_given": {_truth(rolls)}, '
        f'"clock": null, "error": null, "message": {quoted(describe(verdict))}, '
        f'"token": {"null" if token is None else quoted(token)}, '
        f'"suggestions": [{", ".join(map(quoted, hints))}], "offset": {_number(offset)}}}'
    )


_quote: Callable[[str], str] | None = None
"""JSON's string quoting (`json.encoder.encode_basestring_ascii`), once `verdict_json` has
needed it (an import statement on every line would cost a sixth of the line)."""


def _load_quote() -> Callable[[str], str]:
    global _quote  # noqa: PLW0603 - loaded once, on first use: `check` in text starts without json
    from json.encoder import encode_basestring_ascii

    _quote = encode_basestring_ascii
    return encode_basestring_ascii


def _number(value: int | None) -> str:
    return "null" if value is None else int.__repr__(value)


def _truth(value: bool | None) -> str:
    return "null" if value is None else "true" if value else "false"
