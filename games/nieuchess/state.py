"""Nieuchess's rules (nieuchess.md): movement with zones of control and the hot line,
invasions, seeded combat with retreats and exchanges, replacements.

A pawn has no identity beyond the hex it stands on, so the bookkeeping of a turn (which
pawns moved, which fought) is kept as sets of hexes. The board is a flat `occupant` array
(0 empty, 1 Red, 2 Blue) plus, per side, how many of its pawns touch each hex (`control`),
kept up to date on every placement and removal so zone-of-control tests cost one lookup.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import combinations

from games.api import (
    Engine,
    Event,
    GameOverError,
    GameState,
    IllegalActionError,
    IllegalTurnError,
    Outcome,
    Resign,
    SetupError,
    check_round,
)
from games.nieuchess.actions import DIALECT, Battle, Choice, Invasion, Move, Place, Setup
from games.nieuchess.board import (
    BOARD,
    FILES,
    GRAY,
    HEIGHT,
    NAMES,
    ODDS,
    RED,
    SIZE,
    STANDARD_CRT,
    TERRAIN_NAMES,
    WIDTH,
    Crt,
    DataError,
    hex_index,
    odds_column,
    read_crt_tag,
)
from games.randomness import Dice, effective_seed, record_salts, seed_hash
from games.registry import NIEUCHESS
from notation.dialect import Dialect

SIDES = NIEUCHESS.sides
SHORT = ("R", "B")
ARMY = 20
MAX_STEPS = 5
INVASIONS = 2
INVASION_SIZE = 5
RETREAT_STEPS = 2

NEIGHBOURS = BOARD.neighbours
STEPS = BOARD.steps
HOT = BOARD.hot
HOT_STEPS = BOARD.hot_steps
AXIAL_Q = tuple(q for q, _ in BOARD.axial)
AXIAL_R = tuple(r for _, r in BOARD.axial)
RESULT_WORDS = {
    "AE": "the attackers are eliminated",
    "DE": "the defenders are eliminated",
    "EX": "one attacker and one defender are eliminated, chosen by the attacker",
    "AB2": "the attackers retreat 2 hexes, paths chosen by the defender",
    "DB2": "the defenders retreat 2 hexes, paths chosen by the attacker",
}
SEED_HASH = re.compile(r"sha256:[0-9a-f]{64}", re.IGNORECASE)


def _names(hexes: Iterator[int] | list[int] | set[int] | tuple[int, ...]) -> str:
    return ", ".join(NAMES[h] for h in sorted(hexes))


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class TurnState:
    """The open turn: whose, what kind, and what happened in it so far."""

    side: int
    kind: str  # "setup", "main" or "step"
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

    kind: str  # "roll" or "choice"
    battle: Battle
    side: int  # the side that must act: the attacker for a roll, the chooser for a choice
    message: str


@dataclass
class Resolution:
    """A battle worked out but not yet applied: roll, result and the pawns' fates in order."""

    roll: int
    column: int
    result: str
    steps: list[tuple[int, int | None, str]]  # (pawn, new hex or None when eliminated, path text)
    dice: Dice | None


class NieuchessState(GameState):
    info = NIEUCHESS

    def __init__(
        self,
        crt: Crt,
        dice: Dice | None,
        first: int,
        to_move: int,
        pawns: tuple[list[int], list[int]],
        invasions: list[int],
        setups_left: int,
    ) -> None:
        self.crt = crt
        self.dice = dice
        self.first = first
        self.next_side = to_move
        self.occupant = bytearray(SIZE)
        self.control = (bytearray(SIZE), bytearray(SIZE))
        self.pawns: tuple[set[int], set[int]] = (set(), set())
        for side in (0, 1):
            for hex_ in pawns[side]:
                self._put(hex_, side)
        self.invasions = invasions
        self.setups_left = setups_left
        self.round = 0
        self.window = False
        self.steps_done: set[int] = set()
        self.turn: TurnState | None = None
        self._outcome: Outcome | None = None
        self.ended_round: int | None = None
        self._pending: Pending | None = None
        self._last = False
        self.seed_secret = False
        if not setups_left:
            self._judge_armies()

    # -- the board ----------------------------------------------------------------

    def _put(self, hex_: int, side: int) -> None:
        self.occupant[hex_] = side + 1
        self.pawns[side].add(hex_)
        control = self.control[side]
        for n in NEIGHBOURS[hex_]:
            control[n] += 1

    def _lift(self, hex_: int, side: int) -> None:
        self.occupant[hex_] = 0
        self.pawns[side].discard(hex_)
        control = self.control[side]
        for n in NEIGHBOURS[hex_]:
            control[n] -= 1

    def _pool(self, side: int) -> int:
        return ARMY - len(self.pawns[side])

    # -- the order of play --------------------------------------------------------

    def to_move(self) -> str | None:
        if self._outcome is not None:
            return None
        if self._pending is not None:
            return SIDES[self._pending.side]
        turn = self.turn
        if turn is None:
            return SIDES[self.next_side]
        if not turn.actions or (turn.kind == "main" and any(self._unfought(turn))):
            return SIDES[turn.side]
        return SIDES[self._side_after(turn)]

    def _side_after(self, turn: TurnState) -> int:
        """The side of the next turn once this one ends (replacement steps being optional)."""
        if turn.kind == "setup":
            return 1 - turn.side if self.setups_left == 2 else self.first
        if turn.kind == "main" and turn.side == self.first:
            return 1 - self.first
        return self.first

    def round_number(self) -> int | None:
        turn = self.turn
        if turn is not None and self.to_move() != SIDES[turn.side]:
            # The open turn may end here: like to_move(), name the turn that comes next.
            if turn.kind == "setup":
                return None if self.setups_left == 2 else 1
            return self.round + 1 if self._side_after(turn) == self.first else self.round
        if self.setups_left:
            return None
        if turn is not None:
            return self.round
        if self.next_side == self.first or self.round == 0:
            return self.round + 1
        return self.round

    def begin_turn(self, side: str, step: bool = False, number: int | None = None) -> bool:
        if self._outcome is not None:
            raise GameOverError(self._ended())
        if side not in SIDES:
            raise IllegalTurnError(f"{side} does not play Nieuchess: the sides are Red and Blue")
        if self.turn is not None:
            self.end_turn()
        mover = SIDES.index(side)
        if self.setups_left:
            if step:
                raise IllegalTurnError(
                    "replacement steps come at the end of complete turns; the game begins with the setup"
                )
            if mover != self.next_side:
                raise IllegalTurnError(f"{SIDES[self.next_side]} sets up now, not {side}")
            check_round(None, number)
            self.turn = TurnState(mover, "setup")
            return False
        if step:
            if not self.window:
                raise IllegalTurnError(
                    f"a replacement step ({SHORT[mover]}+:) comes only at the end of a complete turn, "
                    f"after {SIDES[1 - self.first]}'s turn"
                )
            if mover in self.steps_done:
                raise IllegalTurnError(f"{side} has already had its replacement step in round {self.round}")
            if number is not None and number != self.round:
                raise IllegalTurnError(f"this replacement step ends round {self.round}, not {number}")
            self.turn = TurnState(mover, "step")
            return False
        if mover != self.next_side:
            raise IllegalTurnError(f"it is {SIDES[self.next_side]}'s turn, not {side}'s")
        opens = mover == self.first or self.round == 0
        expected = self.round + 1 if opens else self.round
        check_round(expected, number)
        self.round = expected
        if opens:
            self.window = False
            self.steps_done = set()
        self.turn = TurnState(mover, "main", invasions_before=self.invasions[mover])
        return opens

    def end_turn(self) -> None:
        turn = self.turn
        if turn is None:
            return
        if self._outcome is not None:
            self.turn = None
            return
        side = turn.side
        if turn.kind == "setup":
            if not turn.actions:
                raise IllegalTurnError(f"{SIDES[side]} has not set up: write {SHORT[side]}: setup and its 20 hexes")
            self.setups_left -= 1
            self.next_side = 1 - side if self.setups_left else self.first
        elif turn.kind == "main":
            attackers, defenders = self._unfought(turn)
            if attackers or defenders:
                raise IllegalTurnError(self._unfought_message(side, attackers, defenders))
            if side == self.first:
                self.next_side = 1 - side
            else:
                self.next_side = self.first
                self.window = True
                self.steps_done = set()
        else:
            if not turn.actions:
                raise IllegalTurnError("a replacement step places 1 or 2 pawns on stars, like R+: g4")
            self.steps_done.add(side)
        self.turn = None
        self._pending = None

    def next_turn(self) -> tuple[str, bool] | None:
        if self._outcome is not None:
            return None
        if self.turn is not None:
            # The label that follows the open turn once it ends.
            following = self.copy()
            try:
                following.end_turn()
            except IllegalTurnError:
                return SIDES[self.turn.side], self.turn.kind == "step"
            return following.next_turn()
        if self.window and not self.setups_left:
            for side in (self.first, 1 - self.first):
                if side not in self.steps_done and self._stars_open(side, 0):
                    return SIDES[side], True
        return SIDES[self.next_side], False

    def can_end_turn(self) -> bool:
        turn = self.turn
        if self._outcome is not None or turn is None:
            return True
        if self._pending is not None:
            return False
        if turn.kind == "main":
            attackers, defenders = self._unfought(turn)
            return not attackers and not defenders
        return turn.actions > 0

    def pending(self) -> str | None:
        if self._outcome is not None:
            return None
        if self._pending is not None:
            return self._pending.kind
        turn = self.turn
        if turn is not None and turn.kind == "main" and turn.actions:
            attackers, defenders = self._unfought(turn)
            if attackers or defenders:
                return "battle"
        return None

    def pending_message(self) -> str | None:
        kind = self.pending()
        if kind is None:
            return None
        if self._pending is not None:
            return self._pending.message
        assert self.turn is not None
        attackers, defenders = self._unfought(self.turn)
        return f"battles for the pawns in contact: {self._pawn_list(self.turn.side, attackers, defenders)}"

    def notes(self) -> tuple[str, ...]:
        return () if self.dice is not None else ("rolls_as_given",)

    def _ended(self) -> str:
        return f"the game ended at turn {self.ended_round} ({self._outcome})"

    def _finish(self, winners: tuple[str, ...], reason: str) -> None:
        self._outcome = Outcome(winners, reason)
        self.ended_round = self.round
        self._pending = None

    def _judge_armies(self) -> tuple[Event, ...]:
        """A side with no pawn on the board loses at once; both at once is a draw."""
        red, blue = (not self.pawns[0]), (not self.pawns[1])
        if not red and not blue:
            return ()
        if red and blue:
            self._finish((), "army-destroyed")
            return (Event("end", "both armies are destroyed: the game is drawn"),)
        loser = 0 if red else 1
        self._finish((SIDES[1 - loser],), "army-destroyed")
        return (Event("end", f"{SIDES[loser]}'s army is destroyed: {SIDES[1 - loser]} wins"),)

    # -- actions ------------------------------------------------------------------

    def apply(self, action: object, last: bool = False) -> tuple[Event, ...]:
        if self._outcome is not None:
            raise IllegalActionError(self._ended())
        turn = self.turn
        if turn is None:
            raise IllegalActionError("no turn is open")
        if isinstance(action, Resign):
            turn.actions += 1
            self._finish((SIDES[1 - turn.side],), "resignation")
            return (Event("resign", f"{SIDES[turn.side]} resigns"),)
        if turn.kind == "setup":
            events = self._setup(turn, action)
        elif turn.kind == "step":
            events = self._place(turn, action)
        elif isinstance(action, Move):
            events = self._move(turn, action)
        elif isinstance(action, Invasion):
            events = self._invade(turn, action)
        elif isinstance(action, Battle):
            events = self._battle(turn, action, last)
            if self._pending is not None:
                return events
        elif isinstance(action, Setup):
            raise IllegalActionError("both sides have set up: a turn moves pawns and fights battles")
        elif isinstance(action, Place):
            raise IllegalActionError(
                f"{action.star} alone places a replacement pawn, which happens only in a replacement step "
                f"({SHORT[turn.side]}+:) at the end of a complete turn"
            )
        else:
            raise IllegalActionError(f"{action} is not a Nieuchess action")
        turn.actions += 1
        self._pending = None
        return events

    def _hexes(self, names: tuple[str, ...]) -> list[int]:
        """The hex numbers of written hexes; a hex off the map breaks the rules."""
        found = []
        for text in names:
            hex_ = hex_index(text)
            if hex_ is None:
                raise IllegalActionError(f"{text} is off the map (files a-y, ranks 1-{HEIGHT})")
            found.append(hex_)
        return found

    def _own_pawn(self, hex_: int, side: int) -> None:
        holder = self.occupant[hex_]
        if holder != side + 1:
            what = "is empty" if not holder else f"holds a {SIDES[holder - 1]} pawn"
            raise IllegalActionError(f"{NAMES[hex_]} {what}, not a {SIDES[side]} pawn")

    # setup

    def _setup(self, turn: TurnState, action: object) -> tuple[Event, ...]:
        side = turn.side
        if not isinstance(action, Setup):
            raise IllegalActionError(f"{SIDES[side]} must first set up: {SHORT[side]}: setup and 20 hexes of its half")
        if turn.actions:
            raise IllegalActionError("a setup turn is one action: setup and 20 hexes")
        hexes = self._hexes(action.hexes)
        seen: set[int] = set()
        for hex_, text in zip(hexes, action.hexes, strict=True):
            if hex_ in seen:
                raise IllegalActionError(f"{text} is listed twice in the setup")
            if BOARD.terrain[hex_] == GRAY:
                raise IllegalActionError(f"{text} is a gray hex: no pawn may stand there")
            if BOARD.half[hex_] != side:
                raise IllegalActionError(
                    f"{text} is on {SIDES[1 - side]}'s half: {SIDES[side]} sets up on its own half"
                )
            seen.add(hex_)
        if len(hexes) != ARMY:
            raise IllegalActionError(f"a setup places all {ARMY} pawns, not {len(hexes)}")
        for hex_ in hexes:
            self._put(hex_, side)
        return (Event("setup", f"{SIDES[side]} sets up {ARMY} pawns"),)

    # movement

    def _move(self, turn: TurnState, action: Move) -> tuple[Event, ...]:
        if turn.combat:
            raise IllegalActionError("no move after a battle: a turn moves first, then fights")
        side = turn.side
        path = self._hexes(action.path)
        origin, target = path[0], path[-1]
        self._own_pawn(origin, side)
        if origin in turn.moved:
            raise IllegalActionError(f"the pawn on {NAMES[origin]} has already moved this turn")
        if target == origin:
            raise IllegalActionError("a move must end on another hex than it started")
        if len(path) == 2:
            if not self._reaches(side, origin, target):
                raise IllegalActionError(self._unreachable(side, origin, target))
        else:
            self._check_path(side, path)
        self._lift(origin, side)
        self._put(target, side)
        turn.moved.add(target)
        return ()

    def _unreachable(self, side: int, origin: int, target: int) -> str:
        holder = self.occupant[target]
        if BOARD.terrain[target] == GRAY:
            return f"{NAMES[target]} is a gray hex: pawns cannot enter it"
        if holder == side + 1:
            return f"{NAMES[target]} is held by {SIDES[side]}'s own pawn: a move cannot end there"
        if holder:
            return f"{NAMES[target]} is held by a {SIDES[holder - 1]} pawn: a move never enters an enemy's hex"
        return (
            f"no legal path leads from {NAMES[origin]} to {NAMES[target]}: at most {MAX_STEPS} steps, "
            "stopping on the first hex in an enemy zone of control, then a ride along the hot line"
        )

    def _reaches(self, side: int, origin: int, target: int) -> bool:
        """Whether some legal path leads from origin to target (the destination form)."""
        occupant = self.occupant
        if occupant[target] or not BOARD.passable[target]:
            return False
        if HOT[target]:
            return target in self._destinations(side, origin)
        if BOARD.distance(origin, target) > MAX_STEPS:
            return False
        own, control = side + 1, self.control[1 - side]
        tq, tr = AXIAL_Q[target], AXIAL_R[target]
        seen = {origin}
        frontier = [origin]
        for left in range(MAX_STEPS - 1, -1, -1):
            following = []
            for hex_ in frontier:
                for n in STEPS[hex_]:
                    if n in seen:
                        continue
                    if n == target:
                        return True
                    seen.add(n)
                    holder = occupant[n]
                    if (holder and holder != own) or control[n]:
                        continue
                    dq, dr = AXIAL_Q[n] - tq, AXIAL_R[n] - tr
                    if (abs(dq) + abs(dr) + abs(dq + dr)) >> 1 <= left:
                        following.append(n)
            frontier = following
        return False

    def _destinations(self, side: int, origin: int) -> set[int]:
        """Every hex the pawn on origin can legally end a move on."""
        occupant = self.occupant
        own, control = side + 1, self.control[1 - side]
        found: set[int] = set()
        seen = {origin}
        frontier = [origin]
        rides = [origin] if HOT[origin] else []
        for _ in range(MAX_STEPS):
            following = []
            for hex_ in frontier:
                for n in STEPS[hex_]:
                    if n in seen:
                        continue
                    seen.add(n)
                    holder = occupant[n]
                    if holder:
                        if holder == own and not control[n]:
                            following.append(n)
                        continue
                    found.add(n)
                    if not control[n]:
                        following.append(n)
                        if HOT[n]:
                            rides.append(n)
            frontier = following
        ridden: set[int] = set()
        for start in rides:
            if start in ridden:
                continue
            ridden.add(start)
            todo = [start]
            while todo:
                for n in HOT_STEPS[todo.pop()]:
                    if n in ridden or (occupant[n] and n != origin):
                        continue
                    found.add(n)
                    if not control[n]:
                        ridden.add(n)
                        todo.append(n)
        found.discard(origin)
        return found

    def _check_path(self, side: int, path: list[int]) -> None:
        """An explicit path: at most 5 ordinary steps, then any number of ride steps."""
        occupant, control = self.occupant, self.control[1 - side]
        origin, last = path[0], len(path) - 1
        for a, b in zip(path, path[1:], strict=False):
            if b not in NEIGHBOURS[a]:
                raise IllegalActionError(f"{NAMES[a]} and {NAMES[b]} are not neighbours: a path goes from hex to hex")
        for index, hex_ in enumerate(path[1:], start=1):
            holder = occupant[hex_]
            if BOARD.terrain[hex_] == GRAY:
                raise IllegalActionError(f"{NAMES[hex_]} is a gray hex: pawns cannot enter it")
            if holder and holder != side + 1:
                raise IllegalActionError(
                    f"{NAMES[hex_]} is held by a {SIDES[holder - 1]} pawn: a move never enters an enemy's hex"
                )
            if control[hex_] and index < last:
                if holder:
                    raise IllegalActionError(
                        f"{NAMES[hex_]} is in {SIDES[1 - side]}'s zone of control and held by "
                        f"{SIDES[side]}'s own pawn: it cannot be entered"
                    )
                raise IllegalActionError(
                    f"the pawn must stop on {NAMES[hex_]}, "
                    f"the first hex it enters in {SIDES[1 - side]}'s zone of control"
                )
        if occupant[path[-1]] and path[-1] != origin:
            raise IllegalActionError(f"{NAMES[path[-1]]} is held by {SIDES[side]}'s own pawn: a move cannot end there")
        if last <= MAX_STEPS:
            return
        # The ride is a suffix of hot-line hexes free of pawns (the mover's own start is empty).
        ride_start = last
        while ride_start > 0 and HOT[path[ride_start - 1]] and HOT[path[ride_start]]:
            below = path[ride_start]
            if occupant[below] and below != origin:
                break
            ride_start -= 1
        for split in range(min(MAX_STEPS, last - 1), -1, -1):
            if split < ride_start:
                break
            hex_ = path[split]
            if split == 0 or not occupant[hex_] or hex_ == origin:
                return
        self._explain_ride(side, path, ride_start)

    def _explain_ride(self, side: int, path: list[int], ride_start: int) -> None:
        occupant, origin = self.occupant, path[0]
        if HOT[path[-1]] and ride_start > 0 and HOT[path[ride_start - 1]]:
            blocker = path[ride_start]
            raise IllegalActionError(
                f"the ride along the hot line is blocked by the pawn on {NAMES[blocker]}: "
                "rides never pass through pawns"
            )
        ridden = [i for i in range(1, len(path)) if HOT[path[i]] and HOT[path[i - 1]]]
        if ridden and not HOT[path[-1]]:
            raise IllegalActionError("after riding the hot line a pawn may not leave it in that turn")
        if HOT[path[-1]] and occupant[path[ride_start]] and path[ride_start] != origin and ride_start <= MAX_STEPS:
            raise IllegalActionError(
                f"a ride starts from an empty hex, and {NAMES[path[ride_start]]} is held by a pawn"
            )
        raise IllegalActionError(
            f"a move has at most {MAX_STEPS} steps, not {len(path) - 1} (only a ride along the hot line is not counted)"
        )

    # invasions

    def _invade(self, turn: TurnState, action: Invasion) -> tuple[Event, ...]:
        if turn.combat:
            raise IllegalActionError("no invasion after a battle: a turn moves first, then fights")
        side = turn.side
        origin, target = self._hexes((action.origin, action.target))
        self._own_pawn(origin, side)
        if origin in turn.moved:
            raise IllegalActionError(f"the pawn on {NAMES[origin]} has already moved this turn")
        if not BOARD.embarkation[origin]:
            raise IllegalActionError(f"{NAMES[origin]} is not an embarkation hex (a hex next to a red hex)")
        if BOARD.terrain[target] != RED:
            raise IllegalActionError(f"{NAMES[target]} is not a red invasion hex")
        if self.occupant[target]:
            raise IllegalActionError(f"{NAMES[target]} is not vacant")
        used = _ceil_div(turn.placements + 1, INVASION_SIZE)
        if used > turn.invasions_before:
            if not turn.invasions_before:
                raise IllegalActionError(f"{SIDES[side]} has no invasion left ({INVASIONS} per game)")
            raise IllegalActionError(
                f"{SIDES[side]} has {turn.invasions_before} invasion(s) left: at most "
                f"{turn.invasions_before * INVASION_SIZE} pawns can land this turn"
            )
        self._lift(origin, side)
        self._put(target, side)
        turn.moved.add(target)
        turn.placements += 1
        self.invasions[side] = turn.invasions_before - used
        return (
            Event(
                "invasion",
                f"{SIDES[side]}'s pawn on {NAMES[origin]} lands on {NAMES[target]} "
                f"({self.invasions[side]} invasion(s) left after this turn)",
            ),
        )

    # combat

    def _engaged(self, side: int) -> tuple[set[int], set[int]]:
        """The mover's pawns next to an enemy pawn, and the enemy pawns next to the mover's."""
        enemy = 1 - side
        theirs, ours = self.control[enemy], self.control[side]
        return ({h for h in self.pawns[side] if theirs[h]}, {h for h in self.pawns[enemy] if ours[h]})

    def _unfought(self, turn: TurnState) -> tuple[set[int], set[int]]:
        if turn.attackers_left is None or turn.defenders_left is None:
            return self._engaged(turn.side)
        return turn.attackers_left, turn.defenders_left

    def _pawn_list(self, side: int, attackers: set[int], defenders: set[int]) -> str:
        parts = []
        if attackers:
            parts.append(f"{SIDES[side]}'s {_names(attackers)}")
        if defenders:
            parts.append(f"{SIDES[1 - side]}'s {_names(defenders)}")
        return " and ".join(parts)

    def _unfought_message(self, side: int, attackers: set[int], defenders: set[int]) -> str:
        return (
            f"pawns in contact are left unfought: {self._pawn_list(side, attackers, defenders)} "
            "must fight a battle this turn"
        )

    def _battle(self, turn: TurnState, action: Battle, last: bool) -> tuple[Event, ...]:
        side = turn.side
        attackers = self._hexes(action.attackers)
        defenders = self._hexes(action.defenders)
        everyone = attackers + defenders
        if len(set(everyone)) != len(everyone):
            twice = next(h for h in everyone if everyone.count(h) > 1)
            raise IllegalActionError(f"{NAMES[twice]} is named twice in the battle")
        for hex_ in attackers:
            self._own_pawn(hex_, side)
        for hex_ in defenders:
            self._own_pawn(hex_, 1 - side)
        for hex_ in everyone:
            if hex_ in turn.fought:
                raise IllegalActionError(f"the pawn on {NAMES[hex_]} has already fought this turn")
        for a in attackers:
            for d in defenders:
                if d not in NEIGHBOURS[a]:
                    raise IllegalActionError(
                        f"{NAMES[a]} is not next to {NAMES[d]}: "
                        "every attacker of a battle must be next to every defender"
                    )
        column = odds_column(len(attackers), len(defenders))
        odds_event = Event(
            "odds",
            f"{'+'.join(NAMES[h] for h in attackers)} against "
            f"{'+'.join(NAMES[h] for h in defenders)}: odds {ODDS[column]}",
        )
        self._last = last
        if action.roll is not None and not 1 <= action.roll <= 6:
            raise IllegalActionError(f"a die shows 1 to 6, not {action.roll}")
        resolution = self._resolve(turn, action, attackers, defenders, column)
        if resolution is None:
            return (odds_event,)
        return self._commit(turn, attackers, defenders, resolution, odds_event)

    def _roll(self, action: Battle) -> tuple[int | None, Dice | None]:
        """The battle's die: the next of the seeded stream (checked against a written roll),
        or the written roll when the seed is not in the record."""
        if self.dice is None:
            return action.roll, None
        dice = self.dice.copy()
        roll = dice.roll()
        if action.roll is not None and action.roll != roll:
            raise IllegalActionError(
                f"the die of this battle is {roll} (die {dice.rolled} of the seed), not {action.roll}"
            )
        return roll, dice

    def _resolve(
        self, turn: TurnState, action: Battle, attackers: list[int], defenders: list[int], column: int
    ) -> Resolution | None:
        """The battle's roll, result and fates, all checked; None when left pending."""
        side = turn.side
        roll, dice = self._roll(action)
        if roll is None:
            why = "the seed is secret" if self.seed_secret else "the record has no seed (physical dice)"
            self._leave_pending(
                action,
                "roll",
                side,
                f"the roll of the battle {action} ({why})",
                f"this battle's roll must be written: {why}",
            )
            return None
        result = self.crt[roll - 1][column]
        if action.result is not None and action.result != result:
            raise IllegalActionError(f"at odds {ODDS[column]} a roll of {roll} gives {result}, not {action.result}")
        steps: list[tuple[int, int | None, str]]
        if result in ("AE", "DE"):
            if action.choices is not None:
                raise IllegalActionError(f"{result} takes no choices: {RESULT_WORDS[result]}")
            losers = attackers if result == "AE" else defenders
            steps = [(h, None, f"-{NAMES[h]}") for h in losers]
        elif result == "EX":
            steps = self._exchange(action, attackers, defenders, roll, column, side)
        else:
            losers = attackers if result == "AB2" else defenders
            loser = side if result == "AB2" else 1 - side
            steps = self._retreats(action, losers, loser, roll, column)
        if steps and steps[0][2] == "pending":
            return None
        return Resolution(roll, column, result, steps, dice)

    def _leave_pending(self, action: Battle, kind: str, side: int, message: str, refusal: str) -> None:
        if not self._last:
            raise IllegalActionError(refusal)
        self._pending = Pending(kind, action, side, message)

    def _exchange(
        self, action: Battle, attackers: list[int], defenders: list[int], roll: int, column: int, side: int
    ) -> list[tuple[int, int | None, str]]:
        chosen: dict[int, int] = {}
        for item in action.choices or ():
            if not item.eliminated:
                raise IllegalActionError(
                    "an exchange eliminates one attacker and one defender: write them as (-g6,-h7)"
                )
            (hex_,) = self._hexes((item.pawn,))
            group = 0 if hex_ in attackers else 1 if hex_ in defenders else None
            if group is None:
                raise IllegalActionError(f"{NAMES[hex_]} is not in this battle")
            if group in chosen:
                raise IllegalActionError("an exchange eliminates exactly one attacker and one defender")
            chosen[group] = hex_
        for group, pawns in ((0, attackers), (1, defenders)):
            if group not in chosen:
                if len(pawns) > 1:
                    if action.choices is None:
                        self._leave_pending(
                            action,
                            "choice",
                            side,
                            f"{SIDES[side]}'s choice of the attacker and the defender the exchange {action} eliminates",
                            "the exchange's losses must be written, one attacker and one defender, "
                            f"like (-{NAMES[attackers[0]]},-{NAMES[defenders[0]]})",
                        )
                        return [(0, None, "pending")]
                    raise IllegalActionError(
                        f"the attacker must choose which of {_names(pawns)} the exchange eliminates"
                    )
                chosen[group] = pawns[0]
        return [(chosen[0], None, f"-{NAMES[chosen[0]]}"), (chosen[1], None, f"-{NAMES[chosen[1]]}")]

    def _retreat_paths(self, hex_: int, winner: int, filled: set[int], vacated: set[int]) -> Iterator[tuple[int, int]]:
        """Each 2-step retreat from hex_: every hex entered empty, not gray and not next to a
        pawn of the winning side. `filled`/`vacated` account for earlier retreats."""
        occupant, control = self.occupant, self.control[winner]

        def free(h: int) -> bool:
            return not control[h] and ((not occupant[h] and h not in filled) or h in vacated)

        for first in STEPS[hex_]:
            if free(first):
                for second in STEPS[first]:
                    if second != hex_ and free(second):
                        yield first, second

    def _retreats(
        self, action: Battle, losers: list[int], loser: int, roll: int, column: int
    ) -> list[tuple[int, int | None, str]]:
        winner = 1 - loser
        filled: set[int] = set()
        vacated: set[int] = set()
        steps: list[tuple[int, int | None, str]] = []
        if action.choices is None:
            if any(next(self._retreat_paths(h, winner, filled, vacated), None) for h in losers):
                self._leave_pending(
                    action,
                    "choice",
                    winner,
                    f"the 2-hex retreat of {SIDES[loser]}'s {_names(losers)} ({action}), chosen by {SIDES[winner]}",
                    f"the retreats must be written, one 2-step path per losing pawn, like ({NAMES[losers[0]]}-...-...)",
                )
                return [(0, None, "pending")]
            return [(h, None, f"-{NAMES[h]}") for h in losers]
        done: set[int] = set()
        for item in action.choices:
            path = self._hexes(item.path)
            pawn = path[0]
            if pawn not in losers:
                raise IllegalActionError(f"{NAMES[pawn]} is not a losing pawn of this battle")
            if pawn in done:
                raise IllegalActionError(f"{NAMES[pawn]} is given two retreats")
            done.add(pawn)
            if item.eliminated:
                example = next(self._retreat_paths(pawn, winner, filled, vacated), None)
                if example is not None:
                    raise IllegalActionError(
                        f"{NAMES[pawn]} can retreat (for instance "
                        f"{NAMES[pawn]}-{NAMES[example[0]]}-{NAMES[example[1]]}): "
                        "only a pawn with no retreat is eliminated"
                    )
                steps.append((pawn, None, f"-{NAMES[pawn]}"))
            else:
                self._check_retreat(path, winner, filled, vacated)
                steps.append((pawn, path[-1], "-".join(NAMES[h] for h in path)))
                filled.add(path[-1])
                vacated.discard(path[-1])
            vacated.add(pawn)
        for pawn in losers:
            if pawn in done:
                continue
            if next(self._retreat_paths(pawn, winner, filled, vacated), None) is not None:
                raise IllegalActionError(f"{NAMES[pawn]} can retreat, so its 2-step path must be written")
            steps.append((pawn, None, f"-{NAMES[pawn]}"))
            vacated.add(pawn)
        return steps

    def _check_retreat(self, path: list[int], winner: int, filled: set[int], vacated: set[int]) -> None:
        if len(path) != RETREAT_STEPS + 1:
            raise IllegalActionError(f"a retreat is exactly {RETREAT_STEPS} steps, like h7-h8-h9, not {len(path) - 1}")
        occupant, control = self.occupant, self.control[winner]
        for a, b in zip(path, path[1:], strict=False):
            if b not in NEIGHBOURS[a]:
                raise IllegalActionError(f"{NAMES[a]} and {NAMES[b]} are not neighbours")
            if BOARD.terrain[b] == GRAY:
                raise IllegalActionError(f"a retreat cannot enter {NAMES[b]}, a gray hex")
            if (occupant[b] and b not in vacated) or b in filled or b == path[0]:
                raise IllegalActionError(f"a retreat cannot enter {NAMES[b]}: it is not empty")
            if control[b]:
                raise IllegalActionError(
                    f"a retreat cannot enter {NAMES[b]}: it is next to a pawn of the winner, {SIDES[winner]}"
                )

    def _commit(
        self, turn: TurnState, attackers: list[int], defenders: list[int], resolution: Resolution, odds_event: Event
    ) -> tuple[Event, ...]:
        side = turn.side
        if turn.attackers_left is None or turn.defenders_left is None:
            turn.attackers_left, turn.defenders_left = self._engaged(side)
        turn.combat = True
        turn.attackers_left.difference_update(attackers)
        turn.defenders_left.difference_update(defenders)
        turn.fought.update(attackers)
        turn.fought.update(defenders)
        if resolution.dice is not None:
            self.dice = resolution.dice
        seeded = "" if resolution.dice is not None else " (as written)"
        events = [
            odds_event,
            Event("roll", f"die {resolution.roll}{seeded}"),
            Event("result", f"{resolution.result}: {RESULT_WORDS[resolution.result]}"),
        ]
        for pawn, destination, text in resolution.steps:
            owner = self.occupant[pawn] - 1
            self._lift(pawn, owner)
            if destination is None:
                events.append(Event("elimination", f"{SIDES[owner]}'s pawn on {NAMES[pawn]} is eliminated"))
            else:
                self._put(destination, owner)
                turn.fought.add(destination)
                events.append(Event("retreat", f"{SIDES[owner]}'s pawn retreats {text}"))
        events.extend(self._judge_armies())
        return tuple(events)

    # replacements

    def _centre_held(self, side: int, star: int) -> bool:
        centre = BOARD.stars[star]
        enemy = 2 - side
        return not any(self.occupant[h] == enemy for h in centre.hexes)

    def _beyond(self, side: int) -> int:
        return sum(1 for h in self.pawns[side] if BOARD.half[h] != side)

    def _stars_open(self, side: int, placed: int) -> list[int]:
        """The stars where the side may place its next replacement pawn now."""
        if not self._pool(side) or placed >= 2:
            return []
        own = [centre.star for centre in BOARD.centres if centre.side == side]
        held = [star for star in own if self._centre_held(side, star)]
        beyond = self._beyond(side)
        limit = 2 if len(held) == 2 and beyond >= 2 else 1 if held and beyond >= 1 else 0
        if placed >= limit:
            return []
        return [star for star in held if not self.occupant[star]]

    def _place(self, turn: TurnState, action: object) -> tuple[Event, ...]:
        side = turn.side
        if not isinstance(action, Place):
            raise IllegalActionError(
                f"a replacement step only places pawns on stars, like {SHORT[side]}+: "
                f"{NAMES[next(c.star for c in BOARD.centres if c.side == side)]}"
            )
        (star,) = self._hexes((action.star,))
        centre = BOARD.stars.get(star)
        if centre is None or centre.side != side:
            stars = [c.star for c in BOARD.centres if c.side == side]
            raise IllegalActionError(f"{NAMES[star]} is not one of {SIDES[side]}'s stars ({_names(stars)})")
        if star in turn.stars:
            raise IllegalActionError(f"one replacement per centre: {NAMES[star]} is already used this step")
        if not self._pool(side):
            raise IllegalActionError(f"{SIDES[side]} has no eliminated pawn to bring back")
        if not self._centre_held(side, star):
            intruders = [h for h in centre.hexes if self.occupant[h] == 2 - side]
            raise IllegalActionError(
                f"{SIDES[side]} does not control the centre of {NAMES[star]}: "
                f"{SIDES[1 - side]} stands on {_names(intruders)}"
            )
        if self.occupant[star]:
            raise IllegalActionError(f"the star {NAMES[star]} is occupied")
        beyond = self._beyond(side)
        if not beyond:
            raise IllegalActionError(
                f"a replacement needs a {SIDES[side]} pawn on {SIDES[1 - side]}'s half of the board"
            )
        if turn.actions:
            held = sum(1 for c in BOARD.centres if c.side == side and self._centre_held(side, c.star))
            if held < 2 or beyond < 2:
                raise IllegalActionError(
                    "a second replacement needs both centres controlled and 2 pawns on the enemy half"
                )
        self._put(star, side)
        turn.stars.add(star)
        return (
            Event(
                "replacement",
                f"{SIDES[side]} brings back a pawn on {NAMES[star]} ({self._pool(side)} left in its pool)",
            ),
        )

    # -- listing legal actions ----------------------------------------------------

    def legal_actions(self) -> list[object]:
        if self._outcome is not None:
            return []
        if self._pending is not None:
            return self._completions(self._pending.battle)
        turn = self.turn
        if turn is None:
            label = self.next_turn()
            if label is None:
                return []
            twin = self.copy()
            twin.begin_turn(*label)
            return twin.legal_actions()
        side = turn.side
        if turn.kind == "setup":
            return [] if turn.actions else self._setups(side)
        if turn.kind == "step":
            return [Place(NAMES[star]) for star in self._stars_open(side, turn.actions) if star not in turn.stars]
        actions: list[object] = []
        if not turn.combat:
            for origin in sorted(self.pawns[side] - turn.moved):
                targets = sorted(self._destinations(side, origin))
                actions.extend(Move((NAMES[origin], NAMES[target])) for target in targets)
            if _ceil_div(turn.placements + 1, INVASION_SIZE) <= turn.invasions_before:
                vacant = [h for h in BOARD.red if not self.occupant[h]]
                for origin in sorted(self.pawns[side] - turn.moved):
                    if BOARD.embarkation[origin]:
                        actions.extend(Invasion(NAMES[origin], NAMES[target]) for target in vacant)
        for attackers, defenders in self._battle_groups(turn):
            battle = Battle(tuple(NAMES[h] for h in attackers), tuple(NAMES[h] for h in defenders))
            actions.extend(self._completions(battle))
        return actions

    def _setups(self, side: int) -> list[object]:
        """A few varied setups: listing every one is impossible (C(400, 20))."""
        hexes = [h for h in range(SIZE) if BOARD.half[h] == side and BOARD.passable[h]]
        chosen: list[object] = []
        for variant in range(8):
            ordered = sorted(hexes, key=lambda h: (h * 2654435761 + variant * 40503) % 1000003)
            chosen.append(Setup(tuple(NAMES[h] for h in sorted(ordered[:ARMY]))))
        return chosen

    def _battle_groups(self, turn: TurnState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Battles among the unfought pawns that leave every other engaged pawn a partner."""
        attackers, defenders = self._unfought(turn)
        if not attackers:
            return []
        partners: dict[int, set[int]] = {}
        for a in attackers:
            partners[a] = {n for n in NEIGHBOURS[a] if n in defenders}
        for d in defenders:
            partners[d] = {n for n in NEIGHBOURS[d] if n in attackers}
        groups: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        for a in sorted(attackers):
            foes = sorted(partners[a])
            for size in range(1, len(foes) + 1):
                groups.extend(((a,), group) for group in combinations(foes, size))
        for d in sorted(defenders):
            foes = sorted(partners[d])
            for size in range(2, len(foes) + 1):
                groups.extend((group, (d,)) for group in combinations(foes, size))
        for a1, a2 in combinations(sorted(attackers), 2):
            common = sorted(partners[a1] & partners[a2])
            groups.extend(((a1, a2), pair) for pair in combinations(common, 2))

        def leaves_partners(group: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
            gone = set(group[0]) | set(group[1])
            return all(partners[n] - gone for h in gone for n in partners[h] if n not in gone)

        return [group for group in groups if leaves_partners(group)]

    def _completions(self, battle: Battle) -> list[object]:
        """The battle written out in full: roll, result and a few of the winner's choices."""
        attackers = self._hexes(battle.attackers)
        defenders = self._hexes(battle.defenders)
        column = odds_column(len(attackers), len(defenders))
        rolls = (
            [self.dice.copy().roll()]
            if self.dice is not None
            else ([battle.roll] if battle.roll is not None else list(range(1, 7)))
        )
        side = self.turn.side if self.turn is not None else self.next_side
        complete: list[object] = []
        for roll in rolls:
            result = self.crt[roll - 1][column]
            base = Battle(battle.attackers, battle.defenders, roll, result)
            if result in ("AE", "DE"):
                complete.append(base)
            elif result == "EX":
                if len(attackers) == 1 and len(defenders) == 1:
                    complete.append(base)
                else:
                    for a in attackers:
                        for d in defenders:
                            complete.append(
                                Battle(
                                    base.attackers,
                                    base.defenders,
                                    roll,
                                    result,
                                    (Choice((NAMES[a],), True), Choice((NAMES[d],), True)),
                                )
                            )
            else:
                losers = attackers if result == "AB2" else defenders
                loser = side if result == "AB2" else 1 - side
                for choices in self._retreat_choices(losers, 1 - loser, 0, set(), set(), 6):
                    complete.append(Battle(base.attackers, base.defenders, roll, result, choices or None))
        return complete

    def _retreat_choices(
        self, losers: list[int], winner: int, index: int, filled: set[int], vacated: set[int], limit: int
    ) -> list[tuple[Choice, ...]]:
        """Up to `limit` ways to write the retreats of losers[index:], in order."""
        if index == len(losers):
            return [()]
        pawn = losers[index]
        found: list[tuple[Choice, ...]] = []
        paths = list(self._retreat_paths(pawn, winner, filled, vacated))
        if not paths:
            for rest in self._retreat_choices(losers, winner, index + 1, filled, vacated | {pawn}, limit):
                found.append((Choice((NAMES[pawn],), True), *rest))
            return found
        for first, second in paths:
            rest_all = self._retreat_choices(
                losers, winner, index + 1, filled | {second}, (vacated | {pawn}) - {second}, limit - len(found)
            )
            for rest in rest_all:
                found.append((Choice((NAMES[pawn], NAMES[first], NAMES[second])), *rest))
            if len(found) >= limit:
                break
        return found[:limit]

    # -- position, picture, copy --------------------------------------------------

    def position(self) -> str:
        to = self.to_move()
        side = SIDES.index(to) if to is not None else self.next_side
        pawns = " ".join(f"{SHORT[s]}:{','.join(NAMES[h] for h in sorted(self.pawns[s]))}" for s in (0, 1))
        return f"{pawns} inv:R={self.invasions[0]},B={self.invasions[1]} to:{SHORT[side]}"

    def render(self) -> str:
        lines = ["      " + " ".join(FILES)]
        for rank in range(HEIGHT, 0, -1):
            row = (rank - 1) * WIDTH
            cells = []
            for hex_ in range(row, row + WIDTH):
                holder = self.occupant[hex_]
                cells.append("X" if holder == 1 else "O" if holder == 2 else BOARD.terrain[hex_])
            shift = " " if rank % 2 == 0 else ""
            lines.append(f"{rank:>3}   {shift}{' '.join(cells)}")
            if rank == 19:
                lines.append("      " + "- " * (WIDTH - 1) + "-   (centre line)")
        lines.append("      " + " ".join(FILES))
        legend = ", ".join(f"{symbol} {meaning}" for symbol, meaning in TERRAIN_NAMES.items())
        lines.append(f"X Red pawn, O Blue pawn; {legend}")
        lines.append(
            "; ".join(
                f"{SIDES[side]} {len(self.pawns[side])} on the board, {self._pool(side)} in the pool, "
                f"{self.invasions[side]} invasion(s) left"
                for side in (0, 1)
            )
        )
        if self._outcome is not None:
            lines.append(f"game over: {self._outcome}")
        else:
            number = self.round_number()
            lines.append(f"{self.to_move()} to move" + (f", round {number}" if number else ""))
        return "\n".join(lines)

    def copy(self) -> NieuchessState:
        twin = NieuchessState.__new__(NieuchessState)
        twin.__dict__.update(self.__dict__)
        twin.occupant = bytearray(self.occupant)
        twin.control = (bytearray(self.control[0]), bytearray(self.control[1]))
        twin.pawns = (set(self.pawns[0]), set(self.pawns[1]))
        twin.invasions = list(self.invasions)
        twin.steps_done = set(self.steps_done)
        twin.turn = self.turn.copy() if self.turn is not None else None
        twin.dice = self.dice.copy() if self.dice is not None else None
        return twin


class NieuchessEngine(Engine):
    info = NIEUCHESS

    def dialect(self) -> Dialect:
        return DIALECT

    def new_state(self, tags: Mapping[str, str]) -> NieuchessState:
        self.variant(tags)
        self.players(tags)
        first_side = NIEUCHESS.side(tags.get("First", "Red").strip())
        if first_side is None:
            raise SetupError(f'"{tags.get("First")}" names no Nieuchess side (Red or Blue)', "First")
        first = SIDES.index(first_side)
        crt = STANDARD_CRT
        if "CRT" in tags:
            try:
                crt = read_crt_tag(tags["CRT"])
            except DataError as error:
                raise SetupError(str(error), "CRT") from None
        dice = self._dice(tags)
        position = tags.get("Position")
        if position is None:
            state = NieuchessState(crt, dice, first, first, ([], []), [INVASIONS, INVASIONS], 2)
        else:
            state = self._from_position(position, crt, dice, first)
        state.seed_secret = dice is None and "SeedHash" in tags
        return state

    def _dice(self, tags: Mapping[str, str]) -> Dice | None:
        commitment = tags.get("SeedHash")
        if commitment is not None and not SEED_HASH.fullmatch(commitment.strip()):
            raise SetupError('a SeedHash reads "sha256:" and 64 hex digits', "SeedHash")
        seed = tags.get("Seed")
        if seed is None:
            return None
        if not seed:
            raise SetupError("the Seed tag is empty", "Seed")
        if commitment is not None and seed_hash(seed) != commitment.strip().lower():
            raise SetupError("the Seed does not match the SeedHash published before the game", "Seed")
        return Dice(effective_seed(seed, record_salts(tags, SIDES)))

    def _from_position(self, text: str, crt: Crt, dice: Dice | None, first: int) -> NieuchessState:
        fields: dict[str, str] = {}
        for item in text.split():
            key, colon, value = item.partition(":")
            key = key.lower()
            if not colon or key in fields or key not in ("r", "b", "red", "blue", "inv", "to"):
                raise SetupError(f'cannot read "{item}" in the Position (fields R:, B:, inv:, to:)', "Position")
            fields[{"red": "r", "blue": "b"}.get(key, key)] = value
        if "r" not in fields or "b" not in fields:
            raise SetupError("a Nieuchess Position lists the pawns of both sides: R:... B:...", "Position")
        pawns: tuple[list[int], list[int]] = ([], [])
        taken: set[int] = set()
        for side, key in ((0, "r"), (1, "b")):
            for word in filter(None, fields[key].split(",")):
                hex_ = hex_index(word) if re.fullmatch(r"[a-z]\d{1,2}", word, re.IGNORECASE) else None
                if hex_ is None:
                    raise SetupError(f'"{word}" in the Position is not a hex of the map', "Position")
                if BOARD.terrain[hex_] == GRAY:
                    raise SetupError(f"{NAMES[hex_]} in the Position is a gray hex", "Position")
                if hex_ in taken:
                    raise SetupError(f"{NAMES[hex_]} is listed twice in the Position", "Position")
                taken.add(hex_)
                pawns[side].append(hex_)
            if len(pawns[side]) > ARMY:
                raise SetupError(f"{SIDES[side]} has more than {ARMY} pawns in the Position", "Position")
        invasions = [INVASIONS, INVASIONS]
        if "inv" in fields:
            seen: set[int] = set()
            for part in fields["inv"].split(","):
                label, equals, count = part.partition("=")
                named = NIEUCHESS.side(label.strip())
                if not equals or named is None or not count.isdigit() or int(count) > INVASIONS:
                    raise SetupError(
                        f'cannot read "inv:{fields["inv"]}" in the Position (like inv:R=2,B=1)', "Position"
                    )
                side = SIDES.index(named)
                if side in seen:
                    raise SetupError(f"{named}'s invasions are given twice in the Position", "Position")
                seen.add(side)
                invasions[side] = int(count)
        to_move = first
        if "to" in fields:
            named = NIEUCHESS.side(fields["to"])
            if named is None:
                raise SetupError(f'"to:{fields["to"]}" names no Nieuchess side', "Position")
            to_move = SIDES.index(named)
        return NieuchessState(crt, dice, first, to_move, pawns, invasions, 0)


ENGINE = NieuchessEngine()
