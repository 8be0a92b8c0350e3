"""Nieuchess combat (nieuchess.md, "Combat"): who may fight whom, the odds and the die,
the Combat Results Table, exchanges and retreats, and the battles a turn could write.

These functions judge one battle against a `Field` without changing it; the turn's state
(`state.py`) applies what they work out. What a battle leaves unwritten (its roll, the
winner's choices) is raised as `Unwritten`: the state leaves it pending at the end of a
record and refuses it anywhere else.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

from referee.games.api import Event, EventKind, IllegalActionError, PendingKind
from referee.games.nieuchess.actions import Battle, Choice
from referee.games.nieuchess.board import BOARD, GRAY, INDEX, NAMES, ODDS, Crt, odds_column
from referee.games.nieuchess.hexsets import BIT
from referee.games.nieuchess.movement import ENTERABLE, NEIGHBOURS, SIDES, STEPS, Field, hex_names, read_hexes
from referee.games.randomness import Dice
from referee.games.values import phrase

RETREAT_STEPS = 2
RESULT_WORDS = {
    "AE": phrase("the attackers are eliminated"),
    "DE": phrase("the defenders are eliminated"),
    "EX": phrase("one attacker and one defender are eliminated, chosen by the attacker"),
    "AB2": phrase("the attackers retreat 2 hexes, paths chosen by the defender"),
    "DB2": phrase("the defenders retreat 2 hexes, paths chosen by the attacker"),
}
RESULT_EVENTS = {
    "AE": phrase("AE: the attackers are eliminated"),
    "DE": phrase("DE: the defenders are eliminated"),
    "EX": phrase("EX: one attacker and one defender are eliminated, chosen by the attacker"),
    "AB2": phrase("AB2: the attackers retreat 2 hexes, paths chosen by the defender"),
    "DB2": phrase("DB2: the defenders retreat 2 hexes, paths chosen by the attacker"),
}
"""A battle's result as its event says it: the code and its words, each a whole phrase of
the catalogue (a template `{result}: {words}` has no word of its own to be read by)."""

Fate = tuple[int, int | None, tuple[str, ...]]
"""A losing pawn's fate: its hex, where it retreats to (None: eliminated), and the hexes
of its retreat by name (empty when it is eliminated)."""


class Unwritten(Exception):
    """A battle that lacks its roll or the winner's choices: `kind` is `roll` or `choice`,
    `side` the side that must write it, `message` what is pending, `refusal` the rule
    broken when the record goes on without it."""

    def __init__(self, kind: PendingKind, side: int, message: str, refusal: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.side = side
        self.message = message
        self.refusal = refusal


_new = tuple.__new__
"""A named tuple made from its fields' tuple (`_new(Event, (kind, text, data))`) by the
C constructor that its class's own `__new__`, written in Python, calls: one call less for
each event of a battle, where a call costs as much as a dozen operations."""


class Resolution(NamedTuple):
    """A battle worked out but not yet applied: roll, result and the pawns' fates in order."""

    roll: int
    result: str
    fates: list[Fate]
    dice: Dice | None


def check_battle(field: Field, side: int, attackers: list[int], defenders: list[int], fought: set[int]) -> None:
    """Each pawn once, the attackers the side's, the defenders the enemy's, none that has
    fought this turn, and every attacker next to every defender."""
    if not _plainly_legal(field.occupant, side + 1, attackers, defenders, fought):
        _refuse_battle(field, side, attackers, defenders, fought)


def _plainly_legal(
    occupant: bytearray, mark: int, attackers: list[int], defenders: list[int], fought: set[int]
) -> bool:
    """Whether `check_battle` finds nothing wrong, in a few operations: each of its checks,
    in any order (`_refuse_battle` then says which comes first)."""
    foe = 3 - mark
    for d in defenders:
        if occupant[d] != foe or d in fought:
            return False
    for a in attackers:
        if occupant[a] != mark or a in fought:
            return False
        near = NEIGHBOURS[a]
        for d in defenders:
            if d not in near:
                return False
    # Own pawns and enemy pawns: a pawn named twice is named twice on one side.
    return (len(attackers) == 1 or len(set(attackers)) == len(attackers)) and (
        len(defenders) == 1 or len(set(defenders)) == len(defenders)
    )


def _refuse_battle(field: Field, side: int, attackers: list[int], defenders: list[int], fought: set[int]) -> None:
    """`check_battle`'s checks one by one, raising the first broken."""
    everyone = attackers + defenders
    if len(set(everyone)) != len(everyone):
        twice = next(h for h in everyone if everyone.count(h) > 1)
        raise IllegalActionError("{twice} is named twice in the battle", twice=NAMES[twice])
    for hex_ in attackers:
        field.own_pawn(hex_, side)
    for hex_ in defenders:
        field.own_pawn(hex_, 1 - side)
    for hex_ in everyone:
        if hex_ in fought:
            raise IllegalActionError("the pawn on {hex} has already fought this turn", hex=NAMES[hex_])
    for a in attackers:
        for d in defenders:
            if d not in NEIGHBOURS[a]:
                raise IllegalActionError(
                    "{a} is not next to {d}: every attacker of a battle must be next to every defender",
                    a=NAMES[a],
                    d=NAMES[d],
                )


def odds_event(attacking: tuple[str, ...], defending: tuple[str, ...], column: int) -> Event:
    """The battle's odds, its pawns named (as `NAMES` names them) and its CRT column."""
    odds = ODDS[column]
    data = {"attackers": [*attacking], "defenders": [*defending], "odds": odds}
    return _new(Event, (EventKind.ODDS, f"{'+'.join(attacking)} against {'+'.join(defending)}: odds {odds}", data))


def roll_die(dice: Dice | None, action: Battle) -> tuple[int | None, Dice | None]:
    """The battle's die: the next of the seeded stream (checked against a written roll),
    or the written roll when the seed is not in the record. Also the dice after it: the
    same dice, rolled (`resolve`'s caller takes the roll back, `Dice.unroll`, when the
    battle is refused or left pending)."""
    if dice is None:
        return action.roll, None
    roll = dice.roll()
    if action.roll is not None and action.roll != roll:
        dice.unroll()
        raise IllegalActionError(
            "the die of this battle is {roll} (die {rolled} of the seed), not {roll2}",
            roll=roll,
            rolled=dice.rolled + 1,
            roll2=action.roll,
        )
    return roll, dice


def resolve(
    field: Field,
    crt: Crt,
    dice: Dice | None,
    seed_secret: bool,
    side: int,
    action: Battle,
    attackers: list[int],
    defenders: list[int],
    column: int,
) -> Resolution:
    """The battle's roll, result and fates, all checked against what the record wrote;
    `column` is its odds' (`odds_column`). Raises Unwritten when the roll or a needed
    choice is missing. The seeded dice are rolled in place: whatever it raises, the dice
    stand as before."""
    roll, dice_after = roll_die(dice, action)
    try:
        if roll is None:
            why = phrase("the seed is secret") if seed_secret else phrase("the record has no seed (physical dice)")
            raise Unwritten(
                PendingKind.ROLL,
                side,
                phrase("the roll of the battle {battle} ({why})", battle=action, why=why),
                phrase("this battle's roll must be written: {why}", why=why),
            )
        result = crt[roll - 1][column]
        if action.result is not None and action.result != result:
            raise IllegalActionError(
                "at odds {column} a roll of {roll} gives {result}, not {result2}",
                column=ODDS[column],
                roll=roll,
                result=result,
                result2=action.result,
            )
        fates: list[Fate]
        if result in ("AE", "DE"):
            if action.choices is not None:
                raise IllegalActionError(
                    "{result} takes no choices: {result2}", result=result, result2=RESULT_WORDS[result]
                )
            losers = attackers if result == "AE" else defenders
            fates = [(h, None, ()) for h in losers]
        elif result == "EX":
            fates = exchange(action, attackers, defenders, side)
        else:
            losers = attackers if result == "AB2" else defenders
            loser = side if result == "AB2" else 1 - side
            fates = retreats(field, action, losers, loser)
        return _new(Resolution, (roll, result, fates, dice_after))
    except BaseException:
        if dice_after is not None:
            dice_after.unroll()  # (the dice as they were)
        raise


def exchange(action: Battle, attackers: list[int], defenders: list[int], side: int) -> list[Fate]:
    """`EX`: the attacker's written choice of one attacker and one defender to eliminate
    (no choice needed on a side with one pawn)."""
    chosen: dict[int, int] = {}
    for item in action.choices or ():
        if not item.eliminated:
            raise IllegalActionError(
                "an exchange eliminates one attacker and one defender: write them as (-{names},-{names2})",
                names=NAMES[attackers[0]],
                names2=NAMES[defenders[0]],
            )
        (hex_,) = read_hexes((item.pawn,))
        group = 0 if hex_ in attackers else 1 if hex_ in defenders else None
        if group is None:
            raise IllegalActionError("{hex} is not in this battle", hex=NAMES[hex_])
        if group in chosen:
            raise IllegalActionError("an exchange eliminates exactly one attacker and one defender")
        chosen[group] = hex_
    for group, pawns in ((0, attackers), (1, defenders)):
        if group in chosen:
            continue
        if len(pawns) > 1:
            if action.choices is None:
                raise Unwritten(
                    PendingKind.CHOICE,
                    side,
                    phrase(
                        "{side}'s choice of the attacker and the defender the exchange {battle} eliminates",
                        side=SIDES[side],
                        battle=action,
                    ),
                    phrase(
                        "the exchange's losses must be written, one attacker and one defender, like {example}",
                        example=f"(-{NAMES[attackers[0]]},-{NAMES[defenders[0]]})",
                    ),
                )
            raise IllegalActionError(
                "the attacker must choose which of {hex_names} the exchange eliminates", hex_names=hex_names(pawns)
            )
        chosen[group] = pawns[0]
    return [(chosen[0], None, ()), (chosen[1], None, ())]


def retreat_paths(
    field: Field, hex_: int, winner: int, filled: set[int], vacated: set[int]
) -> Iterator[tuple[int, int]]:
    """Each 2-step retreat from hex_: every hex entered empty, not gray and not next to a
    pawn of the winning side. `filled`/`vacated` account for earlier retreats."""
    occupant, zone = field.occupant, field.zone(winner)

    def free(h: int) -> bool:
        return not zone >> h & 1 and ((not occupant[h] and h not in filled) or h in vacated)

    for first in STEPS[hex_]:
        if free(first):
            for second in STEPS[first]:
                if second != hex_ and free(second):
                    yield first, second


def retreats(field: Field, action: Battle, losers: list[int], loser: int) -> list[Fate]:
    """`DB2`/`AB2`: the winner's written retreats, applied in order, then the losing pawns
    left out, which must have no retreat left."""
    winner = 1 - loser
    if action.choices is None:
        if any(next(retreat_paths(field, h, winner, set(), set()), None) for h in losers):
            raise Unwritten(
                PendingKind.CHOICE,
                winner,
                phrase(
                    "the 2-hex retreat of {side}'s {hexes} ({battle}), chosen by {winner}",
                    side=SIDES[loser],
                    hexes=hex_names(losers),
                    battle=action,
                    winner=SIDES[winner],
                ),
                phrase(
                    "the retreats must be written, one 2-step path per losing pawn, like {example}",
                    example=f"({NAMES[losers[0]]}-...-...)",
                ),
            )
        return [(h, None, ()) for h in losers]
    filled: set[int] = set()
    vacated: set[int] = set()
    fates = _written_retreats(field, action.choices, losers, winner, filled, vacated)
    if len(fates) == len(losers):
        return fates  # (one fate for each losing pawn: each written once)
    done = {fate[0] for fate in fates}
    for pawn in losers:
        if pawn in done:
            continue
        if next(retreat_paths(field, pawn, winner, filled, vacated), None) is not None:
            raise IllegalActionError("{pawn} can retreat, so its 2-step path must be written", pawn=NAMES[pawn])
        fates.append((pawn, None, ()))
        vacated.add(pawn)
    return fates


def _written_retreats(
    field: Field,
    choices: tuple[Choice, ...],
    losers: list[int],
    winner: int,
    filled: set[int],
    vacated: set[int],
) -> list[Fate]:
    """The written choices in order; `filled` and `vacated` follow the retreats made."""
    fates: list[Fate] = []
    done: set[int] = set()
    for item in choices:
        names = item.path
        found = [*map(INDEX.get, names)]
        if None in found:  # (`read_hexes` names the hex off the map)
            path = read_hexes(names)
            names = tuple(NAMES[h] for h in path)
        else:  # every hex written as NAMES names it
            path = found  # type: ignore[assignment]
        pawn = path[0]
        if pawn not in losers:
            raise IllegalActionError("{pawn} is not a losing pawn of this battle", pawn=NAMES[pawn])
        if pawn in done:
            raise IllegalActionError("{pawn} is given two retreats", pawn=NAMES[pawn])
        done.add(pawn)
        if item.eliminated:
            example = next(retreat_paths(field, pawn, winner, filled, vacated), None)
            if example is not None:
                raise IllegalActionError(
                    "{pawn} can retreat (for instance {pawn}-{names}-{names2}): only a pawn with no "
                    "retreat is eliminated",
                    pawn=NAMES[pawn],
                    names=NAMES[example[0]],
                    names2=NAMES[example[1]],
                )
            fates.append((pawn, None, ()))
        else:
            check_retreat(field, path, winner, filled, vacated)
            fates.append((pawn, path[-1], names))
            filled.add(path[-1])
            vacated.discard(path[-1])
        vacated.add(pawn)
    return fates


def check_retreat(field: Field, path: list[int], winner: int, filled: set[int], vacated: set[int]) -> None:
    if len(path) == RETREAT_STEPS + 1:
        # The usual retreat, in a few operations: both hexes entered neighbours, empty,
        # not gray and outside the winner's zone (else the checks below say why, or find
        # that a hex a retreat has just left is entered again).
        start, middle, end = path
        occupant, blocked = field.occupant, field.zone(winner)
        if (
            middle in NEIGHBOURS[start]
            and end in NEIGHBOURS[middle]
            and not occupant[middle]
            and not occupant[end]
            and ENTERABLE[middle]
            and ENTERABLE[end]
            and not blocked & (BIT[middle] | BIT[end])
            and end != start
            and middle not in filled
            and end not in filled
        ):
            return
    if len(path) != RETREAT_STEPS + 1:
        raise IllegalActionError(
            "a retreat is exactly {retreat_steps} steps, like h7-h8-h9, not {count}",
            retreat_steps=RETREAT_STEPS,
            count=len(path) - 1,
        )
    occupant, zone = field.occupant, field.zone(winner)
    for a, b in zip(path, path[1:], strict=False):
        if b not in NEIGHBOURS[a]:
            raise IllegalActionError("{a} and {b} are not neighbours", a=NAMES[a], b=NAMES[b])
        if BOARD.terrain[b] == GRAY:
            raise IllegalActionError("a retreat cannot enter {b}, a gray hex", b=NAMES[b])
        if (occupant[b] and b not in vacated) or b in filled or b == path[0]:
            raise IllegalActionError("a retreat cannot enter {b}: it is not empty", b=NAMES[b])
        if zone >> b & 1:
            raise IllegalActionError(
                "a retreat cannot enter {b}: it is next to a pawn of the winner, {winner}",
                b=NAMES[b],
                winner=SIDES[winner],
            )


def carry_out(field: Field, resolution: Resolution) -> list[Event]:
    """Apply a battle's fates to the field: the events of the roll, result, eliminations
    and retreats."""
    roll, result = resolution.roll, resolution.result
    events = [_roll_event(roll, resolution.dice is None), _RESULT_EVENTS.get(result) or _result_event(result)]
    occupant = field.occupant
    for pawn, destination, path in resolution.fates:
        owner = occupant[pawn] - 1
        field.lift(pawn, owner)
        if destination is None:
            events.append(_ELIMINATIONS.get(pawn * 2 + owner) or _elimination_event(pawn, owner))
        else:
            field.put(destination, owner)
            text = "-".join(path)
            data = {"side": SIDES[owner], "from": NAMES[pawn], "to": NAMES[destination], "path": [*path]}
            events.append(_new(Event, (EventKind.RETREAT, f"{SIDES[owner]}'s pawn retreats {text}", data)))
    return events


# The events that depend on a few values only, each made the first time it is needed and
# then shared (events are immutable and their data only read): a roll and how it was
# given, a result, a side's pawn eliminated on a hex.
_ROLL_EVENTS: dict[int, Event] = {}
_RESULT_EVENTS: dict[str, Event] = {}
_ELIMINATIONS: dict[int, Event] = {}


def _roll_event(roll: int, as_written: bool) -> Event:
    key = roll * 2 + as_written
    event = _ROLL_EVENTS.get(key)
    if event is None:
        die = phrase("die {roll} (as written)", roll=roll) if as_written else phrase("die {roll}", roll=roll)
        event = _ROLL_EVENTS[key] = Event(EventKind.ROLL, die, {"die": roll, "as_written": as_written})
    return event


def _result_event(result: str) -> Event:
    event = _RESULT_EVENTS[result] = Event(
        EventKind.RESULT, RESULT_EVENTS[result], {"result": result, "exchange": result == "EX"}
    )
    return event


def _elimination_event(pawn: int, owner: int) -> Event:
    event = _ELIMINATIONS[pawn * 2 + owner] = Event(
        EventKind.ELIMINATION,
        f"{SIDES[owner]}'s pawn on {NAMES[pawn]} is eliminated",
        {"side": SIDES[owner], "hex": NAMES[pawn]},
    )
    return event


# -- the battles a turn could write (for legal_actions) -----------------------------


Group = tuple[tuple[int, ...], tuple[int, ...]]


def battle_groups(attackers: set[int], defenders: set[int]) -> list[Group]:
    """Battles among the unfought pawns that leave every other engaged pawn a partner."""
    if not attackers:
        return []
    partners: dict[int, set[int]] = {}
    for a in attackers:
        partners[a] = {n for n in NEIGHBOURS[a] if n in defenders}
    for d in defenders:
        partners[d] = {n for n in NEIGHBOURS[d] if n in attackers}
    groups: list[Group] = []
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

    def leaves_partners(group: Group) -> bool:
        gone = set(group[0]) | set(group[1])
        return all(partners[n] - gone for h in gone for n in partners[h] if n not in gone)

    return [group for group in groups if leaves_partners(group)]


def completions(field: Field, crt: Crt, dice: Dice | None, side: int, battle: Battle) -> list[Battle]:
    """The battle written out in full: roll, result and a few of the winner's choices."""
    attackers = read_hexes(battle.attackers)
    defenders = read_hexes(battle.defenders)
    column = odds_column(len(attackers), len(defenders))
    if dice is not None:
        rolls = [dice.copy().roll()]
    else:
        rolls = [battle.roll] if battle.roll is not None else list(range(1, 7))
    complete: list[Battle] = []
    for roll in rolls:
        result = crt[roll - 1][column]
        base = Battle(battle.attackers, battle.defenders, roll, result)
        if result in ("AE", "DE") or (result == "EX" and len(attackers) == 1 and len(defenders) == 1):
            complete.append(base)
        elif result == "EX":
            complete.extend(
                Battle(
                    base.attackers, base.defenders, roll, result, (Choice((NAMES[a],), True), Choice((NAMES[d],), True))
                )
                for a in attackers
                for d in defenders
            )
        else:
            losers = attackers if result == "AB2" else defenders
            loser = side if result == "AB2" else 1 - side
            for choices in retreat_choices(field, losers, 1 - loser, 0, set(), set(), 6):
                complete.append(Battle(base.attackers, base.defenders, roll, result, choices or None))
    return complete


def retreat_choices(
    field: Field, losers: list[int], winner: int, index: int, filled: set[int], vacated: set[int], limit: int
) -> list[tuple[Choice, ...]]:
    """Up to `limit` ways to write the retreats of losers[index:], in order."""
    if index == len(losers):
        return [()]
    pawn = losers[index]
    found: list[tuple[Choice, ...]] = []
    paths = list(retreat_paths(field, pawn, winner, filled, vacated))
    if not paths:
        for rest in retreat_choices(field, losers, winner, index + 1, filled, vacated | {pawn}, limit):
            found.append((Choice((NAMES[pawn],), True), *rest))
        return found
    for first, second in paths:
        rest_all = retreat_choices(
            field, losers, winner, index + 1, filled | {second}, (vacated | {pawn}) - {second}, limit - len(found)
        )
        for rest in rest_all:
            found.append((Choice((NAMES[pawn], NAMES[first], NAMES[second])), *rest))
        if len(found) >= limit:
            break
    return found[:limit]
