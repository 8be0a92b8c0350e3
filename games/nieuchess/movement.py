"""Nieuchess movement (nieuchess.md, "Movement"): the pawns on the map, their zones of
control, and the searches that say where a pawn may go (at most 5 ordinary steps, then a
ride along the hot line).

A pawn has no identity beyond the hex it stands on. The `Field` keeps a flat `occupant`
array (0 empty, 1 Red, 2 Blue) and each side's pawns as a set of hexes held in an integer
(`hexsets.py`), so that the searches below step from whole sets of hexes to their
neighbours at once.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.api import IllegalActionError
from referee.games.nieuchess.board import (
    BOARD,
    FILES,
    GRAY,
    HEIGHT,
    INDEX,
    NAMES,
    SIZE,
    TERRAIN_NAMES,
    WIDTH,
    hex_index,
)
from referee.games.nieuchess.hexsets import (
    BETWEEN_Q,
    BETWEEN_R,
    BETWEEN_S,
    BIT,
    CUBE,
    ENEMY_HALF,
    EVEN_RANKS,
    GRAY_HEXES,
    HAS_EAST,
    HAS_WEST,
    HOT_LINE,
    ODD_RANKS,
    PASSABLE,
    WALK_WINDOWS,
    WINDOW_EVEN_RANKS,
    WINDOW_HAS_EAST,
    WINDOW_HAS_WEST,
    WINDOW_ODD_RANKS,
    HexSet,
    PathFacts,
    hot_line_in_order,
    in_reach,
    lens,
    members,
    spread,
    walk_window,
)
from referee.games.registry import NIEUCHESS
from referee.games.values import phrase

SIDES = NIEUCHESS.sides
ARMY = 20
MAX_STEPS = 5

NEIGHBOURS = BOARD.neighbours
STEPS = BOARD.steps
HOT = BOARD.hot
HOT_STEPS = BOARD.hot_steps
ENTERABLE = BOARD.passable


def hex_names(hexes: Iterable[int]) -> str:
    """Hexes named in a message, in board order: "g4, h5"."""
    return ", ".join(NAMES[h] for h in sorted(hexes))


def read_hexes(names: Iterable[str]) -> list[int]:
    """The hex numbers of written hexes; a hex off the map breaks the rules."""
    found = []
    for text in names:
        hex_ = INDEX.get(text)  # actions keep their hexes in lower case; others are looked up
        if hex_ is None:
            hex_ = hex_index(text)
            if hex_ is None:
                raise IllegalActionError(
                    "{text} is off the map (files a-y, ranks 1-{height})", text=text, height=HEIGHT
                )
        found.append(hex_)
    return found


class Field:
    """The map with the pawns on it: who holds each hex and whose zones cover it.

    `occupant` is a flat array (0 empty, 1 Red, 2 Blue) and `held` the same pawns as one
    set of hexes per side (see `hexsets.py`). A side's zone of control, and the hexes its
    pawns bar to enemy pawns passing by, are worked out when first asked and kept until
    that side's pawns change; a turn's moves change only the mover's pawns, so all the
    moves of a turn share the enemy's."""

    __slots__ = ("held", "occupant", "zones")

    def __init__(self) -> None:
        self.occupant = bytearray(SIZE)
        self.held: list[HexSet] = [0, 0]
        self.zones: list[tuple[HexSet, HexSet] | None] = [None, None]

    def copy(self) -> Field:
        twin = Field.__new__(Field)
        twin.occupant = bytearray(self.occupant)
        twin.held = list(self.held)
        twin.zones = list(self.zones)  # immutable values: sharing them is safe
        return twin

    def put(self, hex_: int, side: int) -> None:
        self.occupant[hex_] = side + 1
        self.held[side] |= BIT[hex_]
        self.zones[side] = None

    def lift(self, hex_: int, side: int) -> None:
        self.occupant[hex_] = 0
        self.held[side] &= ~BIT[hex_]
        self.zones[side] = None

    def shift(self, origin: int, target: int, side: int) -> None:
        """The side's pawn on origin goes to target (a move or an invasion)."""
        self.occupant[origin], self.occupant[target] = 0, side + 1
        self.held[side] ^= BIT[origin] ^ BIT[target]
        self.zones[side] = None

    def pawns(self, side: int) -> list[int]:
        """The hexes of the side's pawns, in board order."""
        return list(members(self.held[side]))

    def pool(self, side: int) -> int:
        """The side's eliminated pawns, waiting for a replacement step."""
        return ARMY - self.held[side].bit_count()

    def beyond(self, side: int) -> int:
        """How many of the side's pawns stand on the enemy half."""
        return (self.held[side] & ENEMY_HALF[side]).bit_count()

    def zone(self, side: int) -> HexSet:
        """The side's zone of control: every hex next to one of its pawns."""
        kept = self.zones[side]
        return (kept or self._work_out_zone(side))[0]

    def barrier(self, side: int) -> HexSet:
        """The hexes an enemy pawn can never step through because of this side: its pawns,
        its zone of control (which stops the enemy), and the gray hexes."""
        kept = self.zones[side]
        return (kept or self._work_out_zone(side))[1]

    def _work_out_zone(self, side: int) -> tuple[HexSet, HexSet]:
        zone = spread(self.held[side])
        kept = self.zones[side] = (zone, zone | self.held[side] | GRAY_HEXES)
        return kept

    def own_pawn(self, hex_: int, side: int) -> None:
        """Refuse an action unless the side has a pawn on the hex."""
        holder = self.occupant[hex_]
        if holder != side + 1:
            what = phrase("is empty") if not holder else phrase("holds a {side} pawn", side=SIDES[holder - 1])
            raise IllegalActionError("{hex} {what}, not a {side} pawn", hex=NAMES[hex_], what=what, side=SIDES[side])

    def in_contact(self, side: int) -> bool:
        """Whether some pawn of the side stands next to an enemy pawn (`engaged` not empty)."""
        kept = self.zones[1 - side]
        return bool(self.held[side] & (kept or self._work_out_zone(1 - side))[0])

    def engaged(self, side: int) -> tuple[HexSet, HexSet]:
        """The side's pawns next to an enemy pawn, and the enemy pawns next to the side's (sets of
        hexes, see `hexsets.py`; none when the two armies are not in contact)."""
        enemy = 1 - side
        ours = self.held[side] & self.zone(enemy)
        if not ours:
            return 0, 0
        return ours, self.held[enemy] & self.zone(side)

    def map_lines(self) -> list[str]:
        """The board drawn as text: X Red, O Blue, terrain symbols elsewhere."""
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
                lines.append("      " + phrase("{dashes}   (centre line)", dashes="- " * (WIDTH - 1) + "-"))
        lines.append("      " + " ".join(FILES))
        legend = ", ".join(f"{symbol} {meaning}" for symbol, meaning in TERRAIN_NAMES.items())
        lines.append("; ".join((phrase("X Red pawn, O Blue pawn"), legend)))
        return lines

    # -- the destination form -----------------------------------------------------

    def reaches(self, side: int, origin: int, target: int) -> bool:
        """Whether some legal path leads from origin to target (the destination form)."""
        if self.occupant[target] or not BOARD.passable[target]:
            return False
        within = in_reach(origin, target)
        if within:
            kept = self.zones[1 - side]  # `barrier(1 - side)`
            blocked = lens(origin, target) & (kept or self._work_out_zone(1 - side))[1]
            if not blocked or not blocked & ~(BIT[origin] | BIT[target]):
                # A shortest line of at most 5 steps, all its hexes (but its ends) free to step through.
                return True
        return self._detour(side, origin, target, within)

    def _detour(self, side: int, origin: int, target: int, within: bool) -> bool:
        """`reaches` where no free shortest line of at most 5 steps leads to target (empty
        and enterable); `within`: target is at most 5 steps away (`in_reach`)."""
        if HOT[target]:
            # Steps to the target, or to a hex a ride to the target can start from.
            sources = self._ride_sources(side, origin, target)
            if sources is None:
                return True
            goal = sources | BIT[target]
        elif within:  # off the hot line only ordinary steps lead there: at most 5 of them
            goal = BIT[target]
        else:
            return False
        return self._walk_to(side, origin, goal)

    def step(self, side: int, origin: int, target: int) -> bool:
        """A move in the destination form judged and made at once: when the side's pawn
        stands on origin and some legal path leads to target (as `reaches` says), the pawn
        goes there (as `shift`) and the answer is True. Otherwise nothing changes and the
        answer is False: the move is illegal (`unreachable` says why). The commonest move,
        along a free shortest line of at most 5 steps, costs a few operations; any other
        needs the search (`_detour`)."""
        occupant = self.occupant
        mark = side + 1
        if occupant[origin] != mark or occupant[target] or not ENTERABLE[target]:
            return False
        # Within 5 steps (as `in_reach` says): each cube coordinate differs by 5 at most.
        qa, ra, sa = CUBE[origin]
        qb, rb, sb = CUBE[target]
        if (
            -MAX_STEPS <= qa - qb <= MAX_STEPS
            and -MAX_STEPS <= ra - rb <= MAX_STEPS
            and -MAX_STEPS <= sa - sb <= MAX_STEPS
        ):
            enemy = 1 - side
            barrier = (self.zones[enemy] or self._work_out_zone(enemy))[1]
            blocked = BETWEEN_Q[qa][qb] & BETWEEN_R[ra][rb] & BETWEEN_S[sa][sb] & barrier  # `lens` & barrier
            if (blocked and blocked & ~(BIT[origin] | BIT[target])) and not self._detour(side, origin, target, True):
                return False
        elif not HOT[target] or not self._detour(side, origin, target, False):
            return False
        occupant[origin], occupant[target] = 0, mark
        self.held[side] ^= BIT[origin] ^ BIT[target]
        self.zones[side] = None
        return True

    def follow(self, side: int, path: tuple[int, ...], facts: PathFacts) -> bool:
        """An explicit path judged and made at once, with its `facts` (`path_facts`): when
        the side's pawn stands on its first hex and the path is legal (as `check_path`
        says), the pawn goes to its last hex (as `shift`) and the answer is True.
        Otherwise nothing changes and the answer is False: `check_path` then says why."""
        occupant = self.occupant
        mark = side + 1
        origin, target = path[0], path[-1]
        if occupant[origin] != mark or occupant[target] or not ENTERABLE[target]:
            return False
        enemy = 1 - side
        inner, start, tail = facts
        # The hexes between the ends: none gray, none an enemy's, none in the enemy's zone.
        if (self.zones[enemy] or self._work_out_zone(enemy))[1] & inner:
            return False
        last = len(path) - 1
        if last > MAX_STEPS:
            # The steps beyond the fifth: a ride along the hot line through empty hexes
            # (the origin counts as empty), begun within the first 5 steps on a hot-line
            # hex that is the origin or empty (as `_check_ride`).
            if (self.held[0] | self.held[1]) & ~BIT[origin] & tail:
                start = last  # a pawn on the way: the ride can start no earlier than the last one
                while not occupant[path[start]] or path[start] == origin:
                    start -= 1
            if start > MAX_STEPS:
                return False
            split = path[start]
            if start == MAX_STEPS and occupant[split] and split != origin:
                return False
        occupant[origin], occupant[target] = 0, mark
        self.held[side] ^= BIT[origin] ^ BIT[target]
        self.zones[side] = None
        return True

    def destinations(self, side: int, origin: int) -> list[int]:
        """Every hex the pawn on origin can legally end a move on, in board order."""
        return list(members(self.destination_set(side, origin)))

    def destination_set(self, side: int, origin: int) -> HexSet:
        """Every hex the pawn on origin can legally end a move on: the empty hexes that at
        most 5 ordinary steps reach, and those a ride along the hot line reaches from
        the origin or from a hot-line hex the steps reach outside the enemy's zone."""
        start, enemy_zone = 1 << origin, self.zone(1 - side)
        empty = ~(self.held[0] | self.held[1])
        walked = self._walk(side, origin) & empty
        rides = (start | (walked & ~enemy_zone)) & HOT_LINE
        return (walked | self._ride(side, origin, rides)) & ~start

    def _walk(self, side: int, origin: int) -> HexSet:
        """The hexes that at most 5 ordinary steps from origin enter (origin included),
        breadth first.

        A step enters a hex that is not gray, holds no enemy pawn, and, when it holds one
        of the side's own pawns, is outside the enemy's zone of control (the pawn would
        have to stop there). The first hex entered in the enemy's zone stops the pawn."""
        own, enemy_zone = self.held[side], self.zone(1 - side)
        reached = frontier = BIT[origin]
        fresh = PASSABLE & ~(self.held[1 - side] | (own & enemy_zone) | reached)  # enterable, not yet entered
        onward = ~enemy_zone
        for _ in range(MAX_STEPS):
            # `spread(frontier) & fresh`, written out (`fresh` keeps it on the map).
            west, east = (frontier & HAS_WEST) >> 1, (frontier & HAS_EAST) << 1
            files = frontier | (west & ODD_RANKS) | (east & EVEN_RANKS)
            frontier = (west | east | (files << WIDTH) | (files >> WIDTH)) & fresh
            reached |= frontier
            fresh ^= frontier
            frontier &= onward
            if not frontier:
                break
        return reached

    def _walk_to(self, side: int, origin: int, goal: HexSet) -> bool:
        """Whether `_walk` enters a hex of `goal`, found with fewer and cheaper operations:
        the search stops once it does, it works on the origin's window of rows
        (`hexsets.WALK_WINDOWS`), and it keeps only the hexes not yet entered."""
        row = origin // WIDTH
        shift, passable = WALK_WINDOWS[row] or walk_window(row)
        enemy = 1 - side
        zone = (self.zones[enemy] or self._work_out_zone(enemy))[0]
        frontier = BIT[origin - shift]
        # Enterable, not yet entered; a hex of the goal is entered once it leaves `fresh`.
        fresh = passable & ~((self.held[enemy] >> shift) | ((self.held[side] & zone) >> shift) | frontier)
        goal = goal >> shift & fresh
        if not goal:
            return False
        onward = ~(zone >> shift)
        for _ in range(MAX_STEPS):
            # `spread(frontier) & fresh`, written out (`fresh` keeps it on the map).
            west, east = (frontier & WINDOW_HAS_WEST) >> 1, (frontier & WINDOW_HAS_EAST) << 1
            files = frontier | (west & WINDOW_ODD_RANKS) | (east & WINDOW_EVEN_RANKS)
            frontier = (west | east | (files << WIDTH) | (files >> WIDTH)) & fresh
            fresh ^= frontier
            if fresh & goal != goal:
                return True
            frontier &= onward
            if not frontier:
                return False
        return False

    def _ride(self, side: int, origin: int, rides: HexSet) -> HexSet:
        """The hexes a ride along the hot line reaches from the hexes of `rides`: hot-line
        hexes free of pawns (the mover's own start counts as empty), one after the other;
        a hex in the enemy's zone of control ends the ride."""
        enemy_zone = self.zone(1 - side)
        open_line = HOT_LINE & ~((self.held[0] | self.held[1]) & ~(1 << origin))
        reached, ridden, frontier = 0, rides, rides
        while frontier:
            entered = spread(frontier) & open_line & ~ridden
            reached |= entered
            frontier = entered & ~enemy_zone
            ridden |= frontier
        return reached

    def _ride_sources(self, side: int, origin: int, target: int) -> HexSet | None:
        """The hexes a ride along the hot line to target (hot, empty) can start from once
        ordinary steps end there, or None when the origin itself can ride to it: the
        hot-line hexes a ride to target passes (empty, outside the enemy's zone of
        control), which are those it can start from too.

        On a hot line in board order (`hot_line_in_order`, the map's), those are the line's
        hexes between the first pawn or hex of the zone below target and the first above
        (the "stops"), found in a few operations; the origin can ride to target when it is
        one of the stops. Otherwise `_ride_reading` reads the line hex by hex."""
        if not hot_line_in_order():
            return self._ride_reading(side, origin, target)
        enemy = 1 - side
        zone = (self.zones[enemy] or self._work_out_zone(enemy))[0]
        bit = BIT[target]
        stops = HOT_LINE & (self.held[0] | self.held[1] | zone) & ~bit
        low = (stops & (bit - 1)).bit_length() - 1  # the first stop below target (-1: none)
        above = stops >> target
        high = (above & -above).bit_length() - 1 + target if above else SIZE  # the first above (SIZE: none)
        if origin in (low, high):
            return None
        return HOT_LINE & ((1 << high) - (2 << low if low >= 0 else 1)) & ~bit

    def _ride_reading(self, side: int, origin: int, target: int) -> HexSet | None:
        """`_ride_sources` on any hot line: `_ride` read backwards, from target through the
        hot-line hexes a ride passes."""
        occupant = self.occupant
        closed = self.zone(1 - side) | BIT[target]  # where the reading stops, or has been
        sources = 0
        todo = [target]
        while todo:
            for hex_ in HOT_STEPS[todo.pop()]:
                if hex_ == origin:
                    return None
                bit = BIT[hex_]
                if occupant[hex_] or closed & bit:
                    continue
                closed |= bit
                sources |= bit
                todo.append(hex_)
        return sources

    def unreachable(self, side: int, origin: int, target: int) -> str:
        """Why the destination form cannot reach target, in a player's words."""
        holder = self.occupant[target]
        if BOARD.terrain[target] == GRAY:
            return phrase("{hex} is a gray hex: pawns cannot enter it", hex=NAMES[target])
        if holder == side + 1:
            return phrase(
                "{hex} is held by {side}'s own pawn: a move cannot end there", hex=NAMES[target], side=SIDES[side]
            )
        if holder:
            return phrase(
                "{hex} is held by a {side} pawn: a move never enters an enemy's hex",
                hex=NAMES[target],
                side=SIDES[holder - 1],
            )
        return phrase(
            "no legal path leads from {origin} to {target}: at most {steps} steps, "
            "stopping on the first hex in an enemy zone of control, then a ride along the hot line",
            origin=NAMES[origin],
            target=NAMES[target],
            steps=MAX_STEPS,
        )

    def path(self, side: int, origin: int, target: int) -> list[int] | None:
        """A legal path from origin to target written hex by hex (the explicit form of a
        move the destination form allows), or None when none leads there: the fewest
        ordinary steps, else the fewest before a ride along the hot line, then the
        shortest ride."""
        occupant, enemy_zone, mark = self.occupant, self.zone(1 - side), side + 1
        came: dict[int, int] = {origin: origin}
        frontier = [origin]  # the hexes a pawn may step on from
        sources = [origin] if HOT[origin] else []
        for _ in range(MAX_STEPS):
            onward = []
            for hex_ in frontier:
                for near in STEPS[hex_]:
                    holder = occupant[near]
                    if near in came or (holder and holder != mark):
                        continue
                    controlled = enemy_zone >> near & 1
                    if controlled and holder:
                        continue
                    came[near] = hex_
                    if not controlled:
                        onward.append(near)
                        if HOT[near] and not holder:
                            sources.append(near)
            frontier = onward
        if target not in came or occupant[target]:
            rode: dict[int, int] = {}
            todo = list(sources)
            seen = set(sources)
            while todo and target not in rode:
                hex_ = todo.pop(0)
                for near in HOT_STEPS[hex_]:
                    if near in seen or (occupant[near] and near != origin):
                        continue
                    seen.add(near)
                    rode[near] = hex_
                    if not enemy_zone >> near & 1:
                        todo.append(near)
            if target not in rode:
                return None
            found = [target]
            while found[-1] in rode:  # back along the ride to its source, then the steps
                found.append(rode[found[-1]])
        else:
            found = [target]
        while found[-1] != origin:
            found.append(came[found[-1]])
        return found[::-1]

    # -- the explicit path ----------------------------------------------------------

    def check_path(self, side: int, path: list[int]) -> None:
        """An explicit path: at most 5 ordinary steps, then any number of ride steps."""
        self._check_steps(side, path)
        origin, last = path[0], len(path) - 1
        if self.occupant[path[-1]] and path[-1] != origin:
            raise IllegalActionError(
                "{names} is held by {side}'s own pawn: a move cannot end there", names=NAMES[path[-1]], side=SIDES[side]
            )
        if last > MAX_STEPS:
            self._check_ride(path)

    def _check_steps(self, side: int, path: list[int]) -> None:
        """Each step goes to a neighbour that is not gray, not an enemy's, and stops the
        pawn when it is in an enemy zone of control."""
        occupant, enemy_zone = self.occupant, self.zone(1 - side)
        last = len(path) - 1
        for a, b in zip(path, path[1:], strict=False):
            if b not in NEIGHBOURS[a]:
                raise IllegalActionError(
                    "{a} and {b} are not neighbours: a path goes from hex to hex", a=NAMES[a], b=NAMES[b]
                )
        for index, hex_ in enumerate(path[1:], start=1):
            holder = occupant[hex_]
            if BOARD.terrain[hex_] == GRAY:
                raise IllegalActionError("{hex} is a gray hex: pawns cannot enter it", hex=NAMES[hex_])
            if holder and holder != side + 1:
                raise IllegalActionError(
                    "{hex} is held by a {sides} pawn: a move never enters an enemy's hex",
                    hex=NAMES[hex_],
                    sides=SIDES[holder - 1],
                )
            if enemy_zone >> hex_ & 1 and index < last:
                if holder:
                    raise IllegalActionError(
                        "{hex} is in {sides}'s zone of control and held by {side}'s own pawn: it cannot be entered",
                        hex=NAMES[hex_],
                        sides=SIDES[1 - side],
                        side=SIDES[side],
                    )
                raise IllegalActionError(
                    "the pawn must stop on {hex}, the first hex it enters in {sides}'s zone of control",
                    hex=NAMES[hex_],
                    sides=SIDES[1 - side],
                )

    def _check_ride(self, path: list[int]) -> None:
        """A path longer than 5 steps: its end must be a ride along the hot line, free of
        pawns (the mover's own start counts as empty), begun within the first 5 steps."""
        occupant, origin, last = self.occupant, path[0], len(path) - 1
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
        self._explain_ride(path, ride_start)

    def _explain_ride(self, path: list[int], ride_start: int) -> None:
        occupant, origin = self.occupant, path[0]
        if HOT[path[-1]] and ride_start > 0 and HOT[path[ride_start - 1]]:
            blocker = path[ride_start]
            raise IllegalActionError(
                "the ride along the hot line is blocked by the pawn on {blocker}: rides never pass through pawns",
                blocker=NAMES[blocker],
            )
        ridden = [i for i in range(1, len(path)) if HOT[path[i]] and HOT[path[i - 1]]]
        if ridden and not HOT[path[-1]]:
            raise IllegalActionError("after riding the hot line a pawn may not leave it in that turn")
        if HOT[path[-1]] and occupant[path[ride_start]] and path[ride_start] != origin and ride_start <= MAX_STEPS:
            raise IllegalActionError(
                "a ride starts from an empty hex, and {names} is held by a pawn", names=NAMES[path[ride_start]]
            )
        raise IllegalActionError(
            "a move has at most {max_steps} steps, not {count} (only a ride along the hot line is not counted)",
            max_steps=MAX_STEPS,
            count=len(path) - 1,
        )
