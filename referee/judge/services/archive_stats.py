"""`referee stats`: what an archive of records holds, as values (rendering is in `render_stats`).

Records by game and status, results by side and reason, lengths in turns, and a dice
audit of Nieuchess battles: for each side, how often each face came up, with a chi-square
goodness-of-fit test against a fair die. See docs/stats.md.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from referee.games.api import EventKind
from referee.judge import session
from referee.judge.core.adjudicate import Played, dialect_for
from referee.judge.core.verdicts import Problem, Status, Verdict
from referee.judge.sources.record_sources import Read
from referee.notation.reader import read_raw
from referee.notation.record_splitter import MAX_RECORD

FACES = 6
UNFAIR_BELOW = 0.01
"""A side's rolls are flagged when the p-value of the chi-square test is below this."""
MIN_ROLLS = 5 * FACES
"""Fewer rolls than this (an expected count under 5 per face) give no p-value: the test would mislead."""


def chi_square_p(statistic: float) -> float:
    """P(X >= statistic) for a chi-square variable with 5 degrees of freedom (a six-faced
    die). For odd degrees of freedom 2m+1 the survival function has a closed form:
    erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) (1 + x/3 + ... + x^(m-1)/(3*5*...*(2m-1)))."""
    x = max(0.0, statistic)
    return min(1.0, math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2) * (1 + x / 3))


@dataclass
class DiceAudit:
    """One side's battle rolls: how often each face came up, and how many were taken as
    written (the record has no seed) rather than drawn from the seeded stream."""

    faces: list[int] = field(default_factory=lambda: [0] * FACES)
    as_given: int = 0

    def add(self, die: int, as_given: bool) -> None:
        self.faces[die - 1] += 1
        self.as_given += as_given

    @property
    def rolls(self) -> int:
        return sum(self.faces)

    @property
    def chi_square(self) -> float | None:
        if self.rolls < MIN_ROLLS:
            return None
        expected = self.rolls / FACES
        return sum((count - expected) ** 2 / expected for count in self.faces)

    @property
    def p_value(self) -> float | None:
        statistic = self.chi_square
        return None if statistic is None else chi_square_p(statistic)

    @property
    def unfair(self) -> bool:
        p = self.p_value
        return p is not None and p < UNFAIR_BELOW


@dataclass
class GameStats:
    """What the records of one game hold."""

    statuses: Counter[str] = field(default_factory=Counter)
    wins: Counter[str] = field(default_factory=Counter)
    """Finished records won by each side (a shared win counts for each winner)."""
    draws: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    lengths: list[int] = field(default_factory=list)
    """Turns of every legal record (finished or ongoing)."""
    dice: dict[str, DiceAudit] = field(default_factory=lambda: defaultdict(DiceAudit))

    @property
    def records(self) -> int:
        return sum(self.statuses.values())


@dataclass
class Stats:
    games: dict[str, GameStats] = field(default_factory=lambda: defaultdict(GameStats))

    @property
    def records(self) -> int:
        return sum(game.records for game in self.games.values())

    def add(self, verdict: Verdict, rolls: Iterable[tuple[str, int, bool]] = ()) -> None:
        """A record's verdict, and its battle rolls as (side, die, taken as given)."""
        game = self.games[verdict.game or "?"]
        game.statuses[str(verdict.status)] += 1
        if verdict.outcome is not None:
            game.reasons[str(verdict.outcome.reason)] += 1
            if verdict.outcome.draw:
                game.draws += 1
            game.wins.update(verdict.outcome.winners)
        if verdict.status in (Status.FINISHED, Status.ONGOING) and verdict.turns is not None:
            game.lengths.append(verdict.turns)
        for side, die, as_given in rolls:
            game.dice[side].add(die, as_given)


def median(values: list[int]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def collect(names: list[str], stats: Stats, max_record: int = MAX_RECORD) -> Iterator[Verdict | Problem]:
    """Read every record of every source into `stats`; yield each verdict and each
    problem of a source (as `session.check` does) for the exit status and standard error.
    Each record is replayed as a stream (`referee.judge.fast.streamed_verdict`), its rolls counted as they
    come, or from its record model where that path cannot."""
    from referee.judge.fast.streamed_verdict import lean_replay

    for item in session.each_record(names, max_record):
        if isinstance(item, Problem):
            yield item
            continue
        name, number, raw = item
        rolls: Counter[tuple[str, int, bool]] = Counter()

        def count(_verdict: Verdict, played: Played, rolls: Counter[tuple[str, int, bool]] = rolls) -> None:
            _count_rolls(rolls, played)

        judged = lean_replay(raw, name, number, each=count)
        if judged is None:
            rolls.clear()  # (those counted before the streamed path gave up)
            judged = session.judge(Read(number, read_raw(raw, dialect_for)), name, keep_steps=True)
            for played in judged.steps:
                count(judged.verdict, played)
        counted = (roll for roll, times in rolls.items() for _ in range(times))
        stats.add(judged.verdict, counted if judged.verdict.status != Status.ERROR else ())
        yield judged.verdict


def _count_rolls(rolls: Counter[tuple[str, int, bool]], played: Played) -> None:
    """The battle rolls of one action replayed, counted as (side, die, taken as given)."""
    for event in played.events:
        if event.kind == EventKind.ROLL and "die" in event.data:
            rolls[played.turn.side, int(str(event.data["die"])), bool(event.data.get("as_written"))] += 1
