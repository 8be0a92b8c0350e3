"""The additions of `check --json` and `show` to a verdict: the turn token (PLAY.md §2) of
a legal record and the did-you-mean suggestions of an illegal action."""

from __future__ import annotations

from referee.judge.core.adjudicate import Replay
from referee.judge.core.did_you_mean import suggestions
from referee.judge.core.turn_token import token_of
from referee.judge.core.verdicts import Status, Verdict, annotated


def annotate_verdict(replayed: Replay) -> Verdict:
    """The replay's verdict with its token and, for an illegal action, suggestions."""
    verdict = replayed.verdict
    hints: list[str] = []
    error = verdict.error
    if (
        error is not None
        and error.action is not None
        and replayed.state is not None
        and verdict.status == Status.ILLEGAL
    ):
        hints = suggestions(replayed.state, error.action)
    return annotated(verdict, token_of(replayed), hints)
