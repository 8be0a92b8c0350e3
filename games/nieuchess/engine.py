"""The Nieuchess engine: a record's tags read into the start state. The common tags
(`First`, `Seed`, `SeedHash`, the salts, `Position`'s text) are read by `games.api`; the
`CRT` and the Position string are Nieuchess's own."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from referee.games.api import Chance, Event, EventKind, SetupError, Start, quoted, whole_number
from referee.games.engine_base import ChanceSyntax, Engine
from referee.games.nieuchess.actions import DIALECT, Battle, Invasion, Move
from referee.games.nieuchess.board import BOARD, GRAY, NAMES, STANDARD_CRT, WIDTH, hex_index, read_crt_tag
from referee.games.nieuchess.hexsets import path_facts, spread
from referee.games.nieuchess.movement import ARMY, SIDES
from referee.games.nieuchess.state import INVASIONS, NieuchessState
from referee.games.randomness import Dice
from referee.games.registry import NIEUCHESS
from referee.notation.dialect import Dialect

CHANCE_SYNTAX = ChanceSyntax(
    chance=r"#.*$",
    roll=r"#\d+",
    choice=r"\(.*\)$",
    written_roll=r"#\s*\d",
    declared="g6+h6xh7",
    rolled="g6+h6xh7#4",
)
"""A battle's roll, result and choices follow it: `g6+h6xh7#4=DB2(h7-h8-h9)` (nieuchess.md)."""

POSITION_KEYS = {"r": "r", "b": "b", "red": "r", "blue": "b", "inv": "inv", "to": "to"}
HEX_FORM = re.compile(r"[a-z][0-9]{1,2}", re.IGNORECASE)


BATTLE_PREFERENCE = 20
MULTI_BATTLE_PREFERENCE = 300
CONTACT_PREFERENCE = 100
ADVANCE_PREFERENCE = 6
"""The weights of purposeful play (`NieuchessEngine.preference`) against 1 for any other
action: a battle of one pawn a side, one of several, a move into contact, a move towards
the enemy's half."""


class NieuchessEngine(Engine[NieuchessState]):
    info = NIEUCHESS

    def dialect(self) -> Dialect:
        return DIALECT

    def chance_of(self, action: object) -> Chance | None:
        """A battle's roll and result as written (`#4=DB2`), each None until written."""
        return Chance(action.roll, action.result) if isinstance(action, Battle) else None

    def with_chance(self, action: object, roll: int, result: str) -> object:
        if not isinstance(action, Battle):
            return super().with_chance(action, roll, result)
        return action._replace(roll=roll, result=result)

    def spelled_out(self, state: object, action: object) -> object:
        """A move in destination form written as a whole path, hex by hex (ordinary steps,
        then the ride along the hot line); any other action as it is."""
        if not isinstance(action, Move) or len(action.path) != 2 or not isinstance(state, NieuchessState):
            return action
        turn = state.turn
        origin, target = hex_index(action.path[0]), hex_index(action.path[1])
        if turn is None or origin is None or target is None:
            return action
        path = state.field.path(turn.side, origin, target)
        if path is None:
            return action
        hexes = tuple(path)
        return Move(tuple(NAMES[hex_] for hex_ in hexes), hexes, path_facts(hexes))

    def preference(self, state: object, action: object) -> int:
        """Purposeful play (issue 52): battles, above all of several pawns a side; moves
        into contact with the enemy (which bring battles), then moves towards the enemy's
        half; invasions more often than a move that goes nowhere."""
        cls = action.__class__
        if cls is Battle and isinstance(action, Battle):
            return MULTI_BATTLE_PREFERENCE if len(action.attackers) + len(action.defenders) > 2 else BATTLE_PREFERENCE
        if cls is Move and isinstance(action, Move) and isinstance(state, NieuchessState) and state.turn is not None:
            side = state.turn.side
            origin, target = hex_index(action.path[0]), hex_index(action.path[-1])
            if origin is None or target is None:
                return 1
            occupant, enemy = state.field.occupant, 2 - side
            if any(occupant[near] == enemy for near in BOARD.neighbours[target]):
                return CONTACT_PREFERENCE
            ahead = target // WIDTH - origin // WIDTH
            return ADVANCE_PREFERENCE if (ahead > 0) == (side == 0) and ahead else 1
        return 2 if cls is Invasion else 1

    def preferences(self, state: object, actions: Sequence[object]) -> list[int]:
        """`preference` of each action, a listed move's from the hex numbers it carries and
        the hexes next to an enemy pawn, found once for them all."""
        if not isinstance(state, NieuchessState) or state.turn is None:
            return super().preferences(state, actions)
        side = state.turn.side
        contact = spread(state.field.held[1 - side])
        weights = []
        for action in actions:
            if action.__class__ is not Move or not isinstance(action, Move) or len(action.hexes) != len(action.path):
                weights.append(self.preference(state, action))
                continue
            origin, target = action.hexes[0], action.hexes[-1]
            if contact >> target & 1:
                weights.append(CONTACT_PREFERENCE)
                continue
            ahead = target // WIDTH - origin // WIDTH
            weights.append(ADVANCE_PREFERENCE if (ahead > 0) == (side == 0) and ahead else 1)
        return weights

    def chance_syntax(self) -> ChanceSyntax:
        return CHANCE_SYNTAX

    def choice_by_opponent(self, action: object, events: Sequence[Event]) -> bool:
        """After AB2 the defender chooses the attacker's retreat (nieuchess.md)."""
        if not isinstance(action, Battle) or action.choices is None:
            return False
        return any(event.kind == EventKind.RESULT and event.data.get("result") == "AB2" for event in events)

    def _start(self, start: Start) -> NieuchessState:
        """The start state: the common tags read by `Engine.new_state`, and the `CRT`."""
        first = SIDES.index(start.first)
        crt = STANDARD_CRT
        if "CRT" in start.tags:
            crt = read_crt_tag(start.tags["CRT"])
        # The dice follow the effective seed (salted, RANDOM.md §4); the SeedHash, checked
        # by the common reader, commits to the seed alone.
        dice = Dice(start.stream_seed) if start.stream_seed is not None else None
        if start.position is None:
            state = NieuchessState(crt, dice, first, first, ([], []), [INVASIONS, INVASIONS], 2)
        else:
            pawns, invasions, to_move = read_position(start.position, first)
            state = NieuchessState(crt, dice, first, to_move, pawns, invasions, 0)
        state.seed_secret = dice is None and start.seed_hash is not None
        return state

    def keyed(self, state: object, tags: Mapping[str, str]) -> NieuchessState | None:
        """`state` (its seed secret, its rolls as written) drawing its next die from the
        keyed tags' seed: the rolls it used must be that seed's first dice, one a battle."""
        if not isinstance(state, NieuchessState) or state.dice is not None or not state.seed_secret:
            return None
        try:
            fresh = self.new_state(tags)
        except SetupError:
            return None
        if fresh.dice is None or fresh.seed_secret or (fresh.crt, fresh.first) != (state.crt, state.first):
            return None
        dice = fresh.dice.copy()
        if any(dice.roll() != roll for roll in state.rolls_used):
            return None
        twin = state.copy()
        twin.dice, twin.seed_secret = dice, False
        return twin


def read_position(text: str, first: int) -> tuple[tuple[list[int], list[int]], list[int], int]:
    """A Position string (nieuchess.md): each side's pawns, the invasions left, the side to
    move (default `first`). Raises SetupError, naming the Position tag."""
    fields = _position_fields(text)
    pawns: tuple[list[int], list[int]] = ([], [])
    taken: set[int] = set()
    for side, key in ((0, "r"), (1, "b")):
        pawns[side].extend(_position_pawns(fields[key], side, taken))
    invasions = _position_invasions(fields["inv"]) if "inv" in fields else [INVASIONS, INVASIONS]
    to_move = first
    if "to" in fields:
        named = NIEUCHESS.side(fields["to"])
        if named is None:
            raise SetupError("{field} names no Nieuchess side", "Position", field=quoted("to:" + fields["to"]))
        to_move = SIDES.index(named)
    return pawns, invasions, to_move


def _position_fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    for item in text.split():
        key, colon, value = item.partition(":")
        key = POSITION_KEYS.get(key.lower(), "")
        if not colon or not key or key in fields:
            raise SetupError(
                "cannot read {field} in the Position (fields R:, B:, inv:, to:)", "Position", field=quoted(item)
            )
        fields[key] = value
    if "r" not in fields or "b" not in fields:
        raise SetupError("a Nieuchess Position lists the pawns of both sides: R:... B:...", "Position")
    return fields


def _position_pawns(text: str, side: int, taken: set[int]) -> list[int]:
    """One side's comma-separated hexes; `taken` collects the hexes of both sides."""
    pawns = []
    for word in filter(None, text.split(",")):
        hex_ = hex_index(word) if HEX_FORM.fullmatch(word) else None
        if hex_ is None:
            raise SetupError("{hex} in the Position is not a hex of the map", "Position", hex=quoted(word))
        if BOARD.terrain[hex_] == GRAY:
            raise SetupError("{hex} in the Position is a gray hex", "Position", hex=NAMES[hex_])
        if hex_ in taken:
            raise SetupError("{hex} is listed twice in the Position", "Position", hex=NAMES[hex_])
        taken.add(hex_)
        pawns.append(hex_)
    if len(pawns) > ARMY:
        raise SetupError("{side} has more than {army} pawns in the Position", "Position", side=SIDES[side], army=ARMY)
    return pawns


def _position_invasions(text: str) -> list[int]:
    """`inv:R=2,B=1`: the invasions each side has left (at most 2; a side not named keeps 2).
    Counts are short runs of ASCII digits: a superscript or a huge number is refused."""
    invasions = [INVASIONS, INVASIONS]
    seen: set[int] = set()
    for part in text.split(","):
        label, equals, count = part.partition("=")
        named = NIEUCHESS.side(label.strip())
        left = whole_number(count)
        if not equals or named is None or left is None or left > INVASIONS:
            raise SetupError(
                "cannot read {field} in the Position (like inv:R=2,B=1)", "Position", field=quoted("inv:" + text)
            )
        side = SIDES.index(named)
        if side in seen:
            raise SetupError("{side}'s invasions are given twice in the Position", "Position", side=named)
        seen.add(side)
        invasions[side] = left
    return invasions


ENGINE = NieuchessEngine()
