"""Sets of hexes as integers: hex `h` is bit `h` (hexes numbered as in `board.py`).

The movement searches work on whole sets of hexes at once: one `spread` gives every
neighbour of every hex in a set, so a breadth-first search over ordinary steps is five
spreads and a few masks, whatever the number of hexes it reaches. The sets are plain
`int` values (immutable, so a `Field` can share them with its copies).

`spread` follows the odd-r rule of `board._adjacent` with shifts: a hex's neighbours in
its own rank are one bit away, those in the ranks above and below 25 bits away (same
file) and 24 or 26 bits away (the other file: f-1 in odd ranks, f+1 in even ranks).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from games.nieuchess.board import BOARD, HEIGHT, SIZE, WIDTH

HexSet = int
"""A set of hexes: bit `h` set when hex `h` is in it."""

EVERY: HexSet = (1 << SIZE) - 1
_FILE_A: HexSet = sum(1 << (row * WIDTH) for row in range(HEIGHT))
_FILE_Y: HexSet = _FILE_A << (WIDTH - 1)
# Ranks 1, 3, 5, ... are the even rows (row = rank - 1).
_ODD_RANKS: HexSet = sum(((1 << WIDTH) - 1) << (row * WIDTH) for row in range(0, HEIGHT, 2))
_EVEN_RANKS: HexSet = EVERY ^ _ODD_RANKS
# The hexes whose neighbour one file to the west (f-1) or east (f+1) is on the map.
_HAS_WEST: HexSet = EVERY ^ _FILE_A
_HAS_EAST: HexSet = EVERY ^ _FILE_Y
# Those whose neighbours in the ranks above and below lie one file west (odd ranks) or east (even ranks).
_DIAGONAL_WEST: HexSet = _HAS_WEST & _ODD_RANKS
_DIAGONAL_EAST: HexSet = _HAS_EAST & _EVEN_RANKS


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
    west, east = bits & _HAS_WEST, bits & _HAS_EAST
    diagonal_west, diagonal_east = bits & _DIAGONAL_WEST, bits & _DIAGONAL_EAST
    around = (
        (east << 1)
        | (west >> 1)
        | (bits << WIDTH)
        | (bits >> WIDTH)
        | (diagonal_west << (WIDTH - 1))
        | (diagonal_west >> (WIDTH + 1))
        | (diagonal_east << (WIDTH + 1))
        | (diagonal_east >> (WIDTH - 1))
    )
    return around & EVERY


PASSABLE: HexSet = hexset(h for h in range(SIZE) if BOARD.passable[h])
"""The hexes a pawn may enter: all but the gray ones."""
HOT_LINE: HexSet = hexset(h for h in range(SIZE) if BOARD.hot[h])
"""The hot line's hexes, along which pawns ride."""
