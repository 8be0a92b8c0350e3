"""The bookkeeping of Nieuchess's open turn (nieuchess.md): whose it is, what kind, which
pawns moved, which fought, which stars were filled; and a battle that a record leaves
pending. Kept as sets of hexes, since a pawn has no identity beyond the hex it stands on.
`state.py` plays the order of play with them."""

from __future__ import annotations

from typing import Literal, NamedTuple

from referee.games.api import PendingKind
from referee.games.nieuchess.actions import Battle
from referee.games.nieuchess.hexsets import HexSet

TurnKind = Literal["setup", "main", "step"]
"""A setup turn, a complete turn's main part (movement then combat), a replacement step."""


class TurnState:
    """The open turn: whose, what kind, and what happened in it so far. (A class with slots
    written out rather than a dataclass: start-up, issue 34.)"""

    __slots__ = (
        "side",
        "kind",
        "actions",
        "moved",
        "placements",
        "invasions_before",
        "combat",
        "attackers_left",
        "defenders_left",
        "fought",
        "stars",
    )

    def __init__(
        self,
        side: int,
        kind: TurnKind,
        actions: int = 0,
        moved: set[int] | None = None,
        placements: int = 0,
        invasions_before: int = 0,
        combat: bool = False,
        attackers_left: HexSet | None = None,
        defenders_left: HexSet | None = None,
        fought: set[int] | None = None,
        stars: set[int] | None = None,
    ) -> None:
        self.side = side
        self.kind = kind
        self.actions = actions
        self.moved: set[int] = set() if moved is None else moved
        self.placements = placements
        self.invasions_before = invasions_before
        self.combat = combat
        self.attackers_left = attackers_left
        self.defenders_left = defenders_left
        self.fought: set[int] = set() if fought is None else fought
        self.stars: set[int] = set() if stars is None else stars

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"TurnState({fields})"

    def copy(self) -> TurnState:
        return TurnState(
            self.side,
            self.kind,
            self.actions,
            set(self.moved),
            self.placements,
            self.invasions_before,
            self.combat,
            self.attackers_left,
            self.defenders_left,
            set(self.fought),
            set(self.stars),
        )


class Pending(NamedTuple):
    """A battle written at the very end of a record without its roll or its choices."""

    kind: PendingKind  # a roll or a choice
    battle: Battle
    side: int  # the side that must act: the attacker for a roll, the chooser for a choice
    message: str
