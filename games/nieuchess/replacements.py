"""Nieuchess replacements (nieuchess.md, "Replacements"): which centres a side controls
and where a replacement step may bring back a pawn from its pool."""

from __future__ import annotations

from referee.games.api import IllegalActionError
from referee.games.nieuchess.board import BOARD, NAMES
from referee.games.nieuchess.hexsets import ENEMY_HALF
from referee.games.nieuchess.movement import ARMY, SIDES, Field, hex_names

MAX_PER_STEP = 2


def own_stars(side: int) -> list[int]:
    """The stars of the side's two replacement centres, in board order."""
    return [centre.star for centre in BOARD.centres if centre.side == side]


def centre_held(field: Field, side: int, star: int) -> bool:
    """A side controls its centre while no enemy pawn stands on any of its purple hexes."""
    enemy = 2 - side
    return not any(field.occupant[h] == enemy for h in BOARD.stars[star].hexes)


def stars_open(field: Field, side: int, placed: int) -> list[int]:
    """The stars where the side may place its next replacement pawn, `placed` being the
    pawns its step has placed so far."""
    if not field.pool(side) or placed >= MAX_PER_STEP:
        return []
    held = [star for star in own_stars(side) if centre_held(field, side, star)]
    beyond = field.beyond(side)
    limit = 2 if len(held) == 2 and beyond >= 2 else 1 if held and beyond >= 1 else 0
    if placed >= limit:
        return []
    return [star for star in held if not field.occupant[star]]


def check_placement(field: Field, side: int, star: int, used: set[int]) -> None:
    """Refuse a replacement pawn on `star` unless the rules allow it now; `used` holds the
    stars this step has already used."""
    centre = BOARD.stars.get(star)
    if centre is not None and centre.side == side and not used and not field.occupant[star]:
        # A step's first pawn, in a few operations: a pawn in the pool, no enemy pawn on
        # the centre, one of the side's pawns on the enemy half (else the checks say why).
        held, occupant, enemy = field.held[side], field.occupant, 2 - side
        if held.bit_count() < ARMY and held & ENEMY_HALF[side]:
            for hex_ in centre.hexes:
                if occupant[hex_] == enemy:
                    break
            else:
                return
    if centre is None or centre.side != side:
        raise IllegalActionError(
            "{star} is not one of {side}'s stars ({hex_names})",
            star=NAMES[star],
            side=SIDES[side],
            hex_names=hex_names(own_stars(side)),
        )
    if star in used:
        raise IllegalActionError("one replacement per centre: {star} is already used this step", star=NAMES[star])
    if not field.pool(side):
        raise IllegalActionError("{side} has no eliminated pawn to bring back", side=SIDES[side])
    if not centre_held(field, side, star):
        intruders = [h for h in centre.hexes if field.occupant[h] == 2 - side]
        raise IllegalActionError(
            "{side} does not control the centre of {star}: {sides} stands on {hex_names}",
            side=SIDES[side],
            star=NAMES[star],
            sides=SIDES[1 - side],
            hex_names=hex_names(intruders),
        )
    if field.occupant[star]:
        raise IllegalActionError("the star {star} is occupied", star=NAMES[star])
    beyond = field.beyond(side)
    if not beyond:
        raise IllegalActionError(
            "a replacement needs a {side} pawn on {sides}'s half of the board", side=SIDES[side], sides=SIDES[1 - side]
        )
    if used:
        held = sum(1 for other in own_stars(side) if centre_held(field, side, other))
        if held < 2 or beyond < 2:
            raise IllegalActionError("a second replacement needs both centres controlled and 2 pawns on the enemy half")
