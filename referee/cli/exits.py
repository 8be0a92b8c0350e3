"""The exit status of every command, chosen in one place (`exit_status`) from a `Tally`
of what the command met. NOTATION.md §8; the README's exit-status table says the same.

Precedence, highest first: 75 (a game file is busy: nothing was done), 2 (a usage error,
an unreadable input, output that cannot be written: the run is incomplete), 3 (a record
met an error of the referee itself), 1 (a record illegal or malformed, a claimed result
that does not match, an input with no record), 0."""

from __future__ import annotations

from collections import Counter

from referee.errors import ExitStatus
from referee.judge.core.verdicts import Problem, ProblemKind, Status, Verdict


class Tally:
    """What a command met: verdicts by status, claims that do not match, problems."""

    def __init__(self, *, usage: bool = False, busy: bool = False, refused: bool = False) -> None:
        self.statuses: Counter[Status] = Counter()
        self.mismatched = 0
        self.problems: Counter[ProblemKind] = Counter()
        self.usage = usage
        self.busy = busy
        self.refused = refused
        """A submission (`play`, `reveal`) was refused or left the game illegal."""

    def __repr__(self) -> str:
        statuses = {str(status): count for status, count in self.statuses.items()}
        problems = {str(kind): count for kind, count in self.problems.items()}
        return (
            f"Tally(statuses={statuses}, mismatched={self.mismatched}, problems={problems}, "
            f"usage={self.usage}, busy={self.busy}, refused={self.refused})"
        )

    def add(self, item: Verdict | Problem) -> None:
        if isinstance(item, Problem):
            self.problems[item.kind] += 1
            return
        self.statuses[item.status] += 1
        if item.result_matches is False:
            self.mismatched += 1

    def add_counts(self, statuses: dict[Status, int], mismatched: int) -> None:
        """Many verdicts at once: how many of each status, how many claims do not match."""
        self.statuses.update(statuses)
        self.mismatched += mismatched

    @property
    def records(self) -> int:
        return sum(self.statuses.values())


def exit_status(tally: Tally) -> ExitStatus:
    """The one rule that turns what a command met into its exit status."""
    if tally.busy:
        return ExitStatus.BUSY
    if tally.usage or tally.problems[ProblemKind.UNREADABLE]:
        return ExitStatus.USAGE
    if tally.statuses[Status.ERROR]:
        return ExitStatus.ERROR
    rejected = tally.statuses[Status.ILLEGAL] + tally.statuses[Status.MALFORMED]
    if rejected or tally.refused or tally.mismatched or tally.problems[ProblemKind.NO_RECORD]:
        return ExitStatus.REJECTED
    return ExitStatus.OK
