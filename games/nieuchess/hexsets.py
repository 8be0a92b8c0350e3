"""Sets of hexes as integers: hex `h` is bit `h` (hexes numbered as in `board.py`).

The movement searches work on whole sets of hexes at once: one `spread` gives every
neighbour of every hex in a set, so a breadth-first search over ordinary steps is five
spreads and a few masks, whatever the number of hexes it reaches. The sets are plain
`int` values (immutable, so a `Field` can share them with its copies).

`spread` follows the odd-r rule of `board._adjacent` with shifts: a hex's neighbours in
its own rank are one bit away, those in the ranks above and below 25 bits away (same
file) and 24 or 26 bits away (the other file: f-1 in odd ranks, f+1 in even ranks).
Masks keep a shift from wrapping a hex from one edge of the map to the other.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from referee.games.nieuchess.board import BOARD, HEIGHT, SIZE, WIDTH

HexSet = int
"""A set of hexes: bit `h` set when hex `h` is in it."""

EVERY: HexSet = (1 << SIZE) - 1
_FILE_A: HexSet = sum(1 << (row * WIDTH) for row in range(HEIGHT))
_FILE_Y: HexSet = _FILE_A << (WIDTH - 1)
# Ranks 1, 3, 5, ... are the even rows (row = rank - 1): their neighbours in the ranks above
# and below lie in their own file and a file west; in ranks 2, 4, ..., a file east.
ODD_RANKS: HexSet = sum(((1 << WIDTH) - 1) << (row * WIDTH) for row in range(0, HEIGHT, 2))
EVEN_RANKS: HexSet = EVERY ^ ODD_RANKS
# The hexes whose neighbour one file to the west (f-1) or east (f+1) is on the map.
HAS_WEST: HexSet = EVERY ^ _FILE_A
HAS_EAST: HexSet = EVERY ^ _FILE_Y


BIT: tuple[HexSet, ...] = tuple(1 << hex_ for hex_ in range(SIZE))
"""Each hex alone, as a set: `BIT[h]` is `1 << h` made once (a shift builds a new integer
as long as the hex's number each time)."""


def hexset(hexes: Iterable[int]) -> HexSet:
    """The set of the given hex numbers."""
    bits = 0
    for hex_ in hexes:
        bits |= 1 << hex_
    return bits


def members(bits: HexSet) -> Iterator[int]:
    """The hex numbers in a set, in board order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


def spread(bits: HexSet) -> HexSet:
    """Every hex next to some hex of the set (the set's own hexes only when they are next
    to another of its hexes)."""
    # In each hex's own rank: the files on its west and east.
    west, east = (bits & HAS_WEST) >> 1, (bits & HAS_EAST) << 1
    # The files its neighbours in the ranks above and below have: its own, and f-1 in odd
    # ranks or f+1 in even ranks (a shift within the rank keeps it: west and east again);
    # then moved one rank up and one rank down.
    files = bits | (west & ODD_RANKS) | (east & EVEN_RANKS)
    return (west | east | (files << WIDTH) | (files >> WIDTH)) & EVERY


_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def flagged(flags: bytes) -> HexSet:
    """The hexes whose byte in `flags` (one a hex, 0 or 1, as the board's tables) is 1: read
    as a binary number, hex 0 the lowest digit."""
    return int(flags[::-1].translate(_DIGITS), 2)


PASSABLE: HexSet = flagged(BOARD.passable)
"""The hexes a pawn may enter: all but the gray ones."""
HOT_LINE: HexSet = flagged(BOARD.hot)
"""The hot line's hexes, along which pawns ride."""
GRAY_HEXES: HexSet = EVERY ^ PASSABLE
"""The gray hexes, which no pawn enters."""


def _line_in_order(line: HexSet) -> bool:
    """Whether the hot line is one path whose hexes follow each other in board order:
    each next to the hot hexes just before and after it in hex number, and to no other."""
    hexes = list(members(line))
    for at, hex_ in enumerate(hexes):
        if set(BOARD.hot_steps[hex_]) != {*hexes[max(at - 1, 0) : at], *hexes[at + 1 : at + 2]}:
            return False
    return True


_IN_ORDER: list[bool] = []


def hot_line_in_order() -> bool:
    """Whether the map's hot line is one path in board order (file m, ranks 5 to 32, on
    this map): then what a ride passes along it from a hex, up to the first pawn or hex of
    a zone either way, is the line between two hex numbers (`movement.Field._ride_sources`).
    Found when first asked rather than at import, for start-up (issue 34)."""
    if not _IN_ORDER:
        _IN_ORDER.append(_line_in_order(HOT_LINE))
    return _IN_ORDER[0]


def _cube(hex_: int) -> tuple[int, int, int]:
    """Cube coordinates (q, r, s), q + r + s = 0, from the board's axial (q, r)."""
    q, r = BOARD.axial[hex_]
    return q, r, -q - r


def _between_table(values: list[int]) -> tuple[tuple[HexSet, ...], ...]:
    """`table[a][b]`: the hexes whose coordinate (from `values`, shifted to start at 0)
    lies between a and b, both included, in either order."""
    low = min(values)
    top = max(values) - low + 1
    at = [0] * top
    for hex_, value in enumerate(values):
        at[value - low] |= 1 << hex_
    table = [[0] * top for _ in range(top)]
    for a in range(top):
        bits = 0
        for b in range(a, top):
            bits |= at[b]
            table[a][b] = table[b][a] = bits
    return tuple(tuple(row) for row in table)


_CUBES = [_cube(h) for h in range(SIZE)]
_LOW = [min(cube[axis] for cube in _CUBES) for axis in range(3)]
CUBE = tuple((q - _LOW[0], r - _LOW[1], s - _LOW[2]) for q, r, s in _CUBES)
"""Each hex's cube coordinates, shifted so that the smallest on the map is 0."""
_BETWEEN = tuple(_between_table([cube[axis] for cube in _CUBES]) for axis in range(3))
BETWEEN_Q, BETWEEN_R, BETWEEN_S = _BETWEEN
"""`lens`'s tables, for a caller that works out a lens inline: the hexes whose q (r, s)
coordinate lies between two values of `CUBE`."""


def lens(a: int, b: int) -> HexSet:
    """The hexes on the shortest lines from hex a to hex b (both included): on a hex grid,
    those whose three cube coordinates each lie between a's and b's."""
    (qa, ra, sa), (qb, rb, sb) = CUBE[a], CUBE[b]
    q_between, r_between, s_between = _BETWEEN
    return q_between[qa][qb] & r_between[ra][rb] & s_between[sa][sb]


# A walk of at most 5 steps from a hex stays within 5 rows of it: the searches of a move
# work on the 12 rows from an even row at most 6 below the origin's (`WALK_WINDOWS`), as
# sets 300 bits long rather than 900, whose operations cost less. The row masks repeat
# every two rows, so their first 12 rows serve every window.
_WINDOW_ROWS = 12
_WINDOW: HexSet = (1 << (_WINDOW_ROWS * WIDTH)) - 1
WINDOW_HAS_WEST: HexSet = HAS_WEST & _WINDOW
WINDOW_HAS_EAST: HexSet = HAS_EAST & _WINDOW
WINDOW_ODD_RANKS: HexSet = ODD_RANKS & _WINDOW
WINDOW_EVEN_RANKS: HexSet = EVEN_RANKS & _WINDOW
WALK_WINDOWS: list[tuple[int, HexSet] | None] = [None] * HEIGHT
"""For each row of the map (`hex // WIDTH`), the window a walk from a hex of that row
works in, once `walk_window` has made it: how far its hexes are shifted (hex h is bit
h - shift of the window's sets), and the window's passable hexes."""


def walk_window(row: int) -> tuple[int, HexSet]:
    """The window of `WALK_WINDOWS[row]`, made and kept (when first needed rather than
    at import, for start-up: issue 34)."""
    shift = max(row - 5, 0) // 2 * 2 * WIDTH
    window = WALK_WINDOWS[row] = shift, (PASSABLE >> shift) & _WINDOW
    return window


_BLUE_HALF: HexSet = flagged(BOARD.half)
ENEMY_HALF: tuple[HexSet, HexSet] = (_BLUE_HALF, EVERY ^ _BLUE_HALF)
"""Each side's enemy half of the map: Blue's half for Red, Red's half for Blue."""


def _within(hex_: int, steps: int) -> HexSet:
    """The hexes at most `steps` steps from hex_ (terrain ignored), hex_ included."""
    disk = 1 << hex_
    for _ in range(steps):
        disk |= spread(disk)
    return disk


def _disk(hex_: int, steps: int) -> HexSet:
    """`_within(hex_, steps)` in three table look-ups: the hexes whose cube coordinates each
    differ from hex_'s by `steps` at most (the map is convex: no shortest line leaves it)."""
    disk = EVERY
    for value, table in zip(CUBE[hex_], _BETWEEN, strict=True):
        disk &= table[max(value - steps, 0)][min(value + steps, len(table) - 1)]
    return disk


def in_reach(a: int, b: int) -> bool:
    """Whether hex b is at most 5 steps from hex a (the longest walk of a move), terrain
    ignored: each of their cube coordinates differs by 5 at most. (A table of the disk
    round every hex, built at import, cost start-up: issue 34.)"""
    (qa, ra, sa), (qb, rb, sb) = CUBE[a], CUBE[b]
    return -5 <= qa - qb <= 5 and -5 <= ra - rb <= 5 and -5 <= sa - sb <= 5


PathFacts = tuple[HexSet, int, HexSet]
"""What a path written hex by hex says before any pawn is looked at (`path_facts`)."""


def path_facts(path: tuple[int, ...]) -> PathFacts | None:
    """A path's own facts, found once when it is read: its inner hexes (all but the first
    and last, as a set), the first place from which the rest of the path lies on the hot
    line, and the hexes after that place (as a set); None when two hexes that follow each
    other are not neighbours."""
    neighbours, hot = BOARD.neighbours, BOARD.hot
    for before, after in zip(path, path[1:], strict=False):
        if after not in neighbours[before]:
            return None
    ride = len(path) - 1
    while ride > 0 and hot[path[ride - 1]] and hot[path[ride]]:
        ride -= 1
    return hexset(path[1:-1]), ride, hexset(path[ride + 1 :])
