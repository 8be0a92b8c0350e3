"""Clinch notices (LEAGUE.md §7, docs/league.md "Clinch notices"): from the placing ranges
(league/ranges.py), who has made sure of first place (`worst` 1), of a promotion place
(`worst` within the top `promote`) or of relegation (`best` within the bottom `relegate`).

Only certain figures clinch: an exact range, or safe bounds, whose `worst` is never better
than the truth and `best` never worse, so a bound that clinches clinches in every outcome.
Each (player, clinch) is told once: `tick` logs `{"event": "clinch", "player", "what"}`
with the mails, and a clinch already in league.log is never told again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee.league.league_toml import LeagueConfig
from referee.league.ranges import Range
from referee.speech import N_, Speaker

CLINCH_EVENT = "clinch"


class Clinched(StrEnum):
    """What a player has made sure of."""

    FIRST = "first"
    PROMOTION = "promotion"
    RELEGATION = "relegation"


@dataclass(frozen=True)
class Clinch:
    """One player's clinch: their address, their name and what."""

    address: str
    name: str
    what: Clinched

    def __repr__(self) -> str:
        return f"Clinch({self.name!r}: {self.what})"

    def entry(self, at: str) -> dict[str, Any]:
        """league.log's line for it."""
        return {"event": CLINCH_EVENT, "at": at, "player": self.address, "what": self.what.value}


def clinched(config: LeagueConfig, names: Mapping[str, str], ranges: Mapping[str, Range]) -> list[Clinch]:
    """Every clinch the ranges show (`names`: the players of the table, in its order, by address)."""
    count = len(ranges)
    found: list[Clinch] = []
    for address, name in names.items():
        placed = ranges.get(address)
        if placed is None:
            continue
        if placed.worst == 1:
            found.append(Clinch(address, name, Clinched.FIRST))
        if config.promote and placed.worst <= config.promote:
            found.append(Clinch(address, name, Clinched.PROMOTION))
        if config.relegate and placed.best > count - config.relegate:
            found.append(Clinch(address, name, Clinched.RELEGATION))
    return found


def told(log: Sequence[dict[str, Any]]) -> set[tuple[str, str]]:
    """The (address, what) pairs league.log says were told."""
    return {(str(entry.get("player")), str(entry.get("what"))) for entry in log if entry.get("event") == CLINCH_EVENT}


def due(
    config: LeagueConfig, names: Mapping[str, str], ranges: Mapping[str, Range], log: Sequence[dict[str, Any]]
) -> list[Clinch]:
    """The clinches not told yet."""
    done = told(log)
    return [found for found in clinched(config, names, ranges) if (found.address, found.what.value) not in done]


_TEXTS: dict[Clinched, tuple[str, str]] = {
    Clinched.FIRST: (
        N_("{league}: {name} has clinched first place"),
        N_(
            "{league}: {name} has clinched first place: no result still to come can bring anyone level "
            "with them on points."
        ),
    ),
    Clinched.PROMOTION: (
        N_("{league}: {name} has clinched promotion"),
        N_(
            "{league}: {name} has clinched promotion: whatever the results still to come, they finish "
            "in the top {count} on points (at worst {worst})."
        ),
    ),
    Clinched.RELEGATION: (
        N_("{league}: {name} will be relegated"),
        N_(
            "{league}: {name} will be relegated: whatever the results still to come, they finish "
            "in the bottom {count} on points (at best {best})."
        ),
    ),
}
"""Each clinch's mail: its subject and its body (each takes what it names of `clinch_text`'s fields)."""


def clinch_text(say: Speaker, config: LeagueConfig, found: Clinch, placed: Range) -> tuple[str, str]:
    """The subject and body of a clinch's mail, in the reader's language."""
    subject, body = _TEXTS[found.what]
    count = config.promote if found.what is Clinched.PROMOTION else config.relegate
    fields = {"league": config.name, "name": found.name, "count": count, "worst": placed.worst, "best": placed.best}
    return say(subject, **fields), say(body, **fields) + "\n"
