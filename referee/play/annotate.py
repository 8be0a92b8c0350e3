"""The play additions to every verdict: the turn token (PLAY.md §2) of a legal record and
the did-you-mean suggestions of an illegal one. Called by `check --json` and `show`."""

from __future__ import annotations

from referee.play import bridge
from referee.play.suggest import suggestions
from referee.play.token import token_of


def annotate(replayed: bridge.Replay) -> bridge.Verdict:
    """The replay's verdict with its token and, for an illegal action, suggestions."""
    verdict = replayed.verdict
    hints: list[str] = []
    error = verdict.error
    if verdict.status == "illegal" and error is not None and error.action is not None and replayed.state is not None:
        hints = suggestions(replayed.state, error.action)
    return bridge.annotated(verdict, token_of(replayed), hints)
