"""The bookkeeping of Nieuchess's open turn (nieuchess.md): whose it is, what kind, which
pawns moved, which fought, which stars were filled; and a battle that a record leaves
pending. Kept as sets of hexes, since a pawn has no identity beyond the hex it stands on.
`state.py` plays the order of play with them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from referee.games.api import PendingKind
from referee.games.nieuchess.actions import Battle

TurnKind = Literal["setup", "main", "step"]
"""A setup turn, a complete turn's main part (movement then combat), a replacement step."""


@dataclass(slots=True)
class TurnState:
    """The open turn: whose, what kind, and what happened in it so far."""

    side: int
    kind: TurnKind
    actions: int = 0
    moved: set[int] = field(default_factory=set)
    placements: int = 0
    invasions_before: int = 0
    combat: bool = False
    attackers_left: set[int] | None = None
    defenders_left: set[int] | None = None
    fought: set[int] = field(default_factory=set)
    stars: set[int] = field(default_factory=set)

    def copy(self) -> TurnState:
        twin = TurnState(
            self.side,
            self.kind,
            self.actions,
            set(self.moved),
            self.placements,
            self.invasions_before,
            self.combat,
            None,
            None,
            set(self.fought),
            set(self.stars),
        )
        if self.attackers_left is not None and self.defenders_left is not None:
            twin.attackers_left = set(self.attackers_left)
            twin.defenders_left = set(self.defenders_left)
        return twin


@dataclass(frozen=True)
class Pending:
    """A battle written at the very end of a record without its roll or its choices."""

    kind: PendingKind  # a roll or a choice
    battle: Battle
    side: int  # the side that must act: the attacker for a roll, the chooser for a choice
    message: str
