"""`referee new`'s check of the side tags (issue 45.7): a game some of whose sides name a
player's address and others none would stall by mail at the first side nobody is told
of, so `new` refuses it (exit 2, naming every such side and, where a player holds
several sides, which sides go together) unless `--force`. A game with no address at all
is no mail game: nothing to check."""

from __future__ import annotations

from collections.abc import Sequence

from referee.errors import UsageError
from referee.games import registry
from referee.games.seats import seat_sides
from referee.live.addresses import address_of


def check_addresses(game: str, players: int | None, tags: Sequence[str]) -> None:
    """UsageError when some sides of the game `new` would write have an address and some
    in play have none (tags as `--tag NAME=VALUE`)."""
    info = registry.info(game)
    if info is None:
        return  # `new` names the unknown game itself
    given: dict[str, str] = {}
    for entry in tags:
        name, equals, value = entry.partition("=")
        side = info.side(name.strip())
        if equals and side is not None:
            given[side] = value
        elif (
            equals
            and name.strip() == "Players"
            and players is None
            and value.strip().isascii()
            and value.strip().isdigit()
        ):
            players = int(value.strip())
    count = players if players in info.player_counts else None
    sides = info.sides_for(count) if count is not None else info.sides
    missing = [side for side in sides if address_of(given.get(side, "")) is None]
    if not missing or len(missing) == len(sides):
        return
    held = seat_sides(info, count, 1) if count is not None else ()
    groups = [group for group in held if len(group) > 1]
    together = ""
    if groups:
        pairs = " or ".join(" and ".join(group) for group in groups)
        together = (
            f" In {info.name} with {count} players a player holds {pairs}: give both the same tag"
            f' (--tag {groups[0][0]}="Ann <ann@example.org>" --tag {groups[0][1]}="Ann <ann@example.org>").'
        )
    raise UsageError(
        f"{', '.join(missing)} would have no player's address while {_others(sides, missing)} have one:"
        f" by mail the game would stall at {missing[0]}'s turn.{together}"
        " Give every side an address, or --force to write it anyway."
    )


def _others(sides: Sequence[str], missing: Sequence[str]) -> str:
    return ", ".join(side for side in sides if side not in missing)
