"""Nieuchess's order of play (nieuchess.md): the setup, complete turns of movement then
combat, the replacement steps that end them, what a record leaves pending, and the end
of the game. Movement is judged in `movement.py`, battles in `combat.py`.

The bookkeeping of a turn (which pawns moved, which fought) is `turn.py`'s.
"""

from __future__ import annotations

from referee.games.api import Event, EventKind, GameState, IllegalActionError, IllegalTurnError, PendingKind, Reason
from referee.games.nieuchess.actions import Battle, Invasion, Move, NieuchessAction, Place, Setup, destination_moves
from referee.games.nieuchess.board import BOARD, GRAY, INDEX, NAMES, RED, SIZE, Crt, odds_column
from referee.games.nieuchess.combat import (
    Resolution,
    Unwritten,
    battle_groups,
    carry_out,
    check_battle,
    completions,
    odds_event,
    resolve,
)
from referee.games.nieuchess.hexsets import BIT, HexSet, members
from referee.games.nieuchess.movement import ARMY, SIDES, Field, hex_names, read_hexes
from referee.games.nieuchess.replacements import check_placement, own_stars, stars_open
from referee.games.nieuchess.turn import Pending, TurnState
from referee.games.randomness import Dice
from referee.games.registry import NIEUCHESS
from referee.games.values import phrase

SHORT = ("R", "B")
INVASIONS = 2
INVASION_SIZE = 5


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class NieuchessState(GameState[NieuchessAction]):
    """The protocol of `games.api.GameState`, with Nieuchess's hooks: the order of play
    (setup, complete turns, optional replacement steps) and the actions of each turn."""

    info = NIEUCHESS
    copy_fields = ("field", "invasions", "steps_done", "turn", "dice")

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
        super().__init__(SIDES)
        self.crt = crt
        self.dice = dice
        self.first = first
        self.next_side = to_move
        self.field = Field()
        for side in (0, 1):
            for hex_ in pawns[side]:
                self.field.put(hex_, side)
        self.invasions = invasions
        self.setups_left = setups_left
        self.round = 0
        self.window = False
        self.steps_done: set[int] = set()
        self.turn: TurnState | None = None
        self._pending: Pending | None = None
        self.seed_secret = False
        self.ended_side: int | None = None  # whose turn it was when the game ended
        self.rolls_used: tuple[int, ...] = ()  # the battles' dice so far (`NieuchessEngine.keyed`)
        if not setups_left:
            self._judge_armies()

    # -- the order of play ----------------------------------------------------------

    def _side_to_move(self) -> str:
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

    def _round(self) -> int | None:
        turn = self.turn
        if turn is not None and (self._outcome is not None or self._side_to_move() != SIDES[turn.side]):
            # The open turn may end here: like the side to move, name the turn that comes next.
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

    def _label_round(self, side: str, step: bool) -> int | None:
        """A replacement step is in the round of the complete turn it follows."""
        if step and self.window and not self.setups_left:
            return self.round
        return self._round()

    def _out_of_turn_note(self, side: str) -> str | None:
        if self.setups_left:
            return f"the setup: {SIDES[self.first]} first, then {SIDES[1 - self.first]}"
        return None

    def _open_turn(self, side: str, step: bool) -> bool:
        mover = SIDES.index(side)
        if self.setups_left:
            if step:
                raise IllegalTurnError(
                    "replacement steps come at the end of complete turns; the game begins with the setup"
                )
            self.turn = TurnState(mover, "setup")
            return False
        if step:
            if not self.window:
                raise IllegalTurnError(
                    "a replacement step ({mover}+:) comes only at the end of a complete turn, after {sides}'s turn",
                    mover=SHORT[mover],
                    sides=SIDES[1 - self.first],
                )
            if mover in self.steps_done:
                raise IllegalTurnError(
                    "{side} has already had its replacement step in round {round}", side=side, round=self.round
                )
            self.turn = TurnState(mover, "step")
            return False
        opens = mover == self.first or self.round == 0
        if opens:
            self.round += 1
            self.window = False
            self.steps_done = set()
        self.turn = TurnState(mover, "main", invasions_before=self.invasions[mover])
        return opens

    def _turn_problem(self) -> str | None:
        """Why the open turn may not end: a setup or a replacement step without its action,
        pawns in contact left unfought, a roll or choice still to write."""
        turn = self.turn
        if turn is None:
            return None
        side = turn.side
        if turn.kind == "setup" and not turn.actions:
            return phrase(
                "{side} has not set up: write {short}: setup and its 20 hexes", side=SIDES[side], short=SHORT[side]
            )
        if turn.kind == "main" and (turn.attackers_left is not None or self.field.in_contact(side)):
            attackers, defenders = self._unfought(turn)
            if attackers or defenders:  # (as sets of hexes: most turns that fought are done)
                return self._unfought_message(side, set(members(attackers)), set(members(defenders)))
        if turn.kind == "step" and not turn.actions:
            return phrase("a replacement step places 1 or 2 pawns on stars, like R+: g4")
        if self._pending is not None:
            return phrase("{pending} is still to be written", pending=self._pending.message)
        return None

    def _close_turn(self) -> None:
        """The turn order goes on past the open turn, also once the game is over, so that a
        turn written after the end is in the round the turn order gives it."""
        turn = self.turn
        if turn is not None:
            side = turn.side
            if turn.kind == "setup":
                self.setups_left -= 1
                self.next_side = 1 - side if self.setups_left else self.first
            elif turn.kind == "main" and side == self.first:
                self.next_side = 1 - side
            elif turn.kind == "main":
                self.next_side = self.first
                self.window = True
                self.steps_done = set()
            else:
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
                if side not in self.steps_done and stars_open(self.field, side, 0):
                    return SIDES[side], True
        return SIDES[self.next_side], False

    def pending(self) -> PendingKind | None:
        if self._outcome is not None:
            return None
        if self._pending is not None:
            return self._pending.kind
        turn = self.turn
        if turn is not None and turn.kind == "main" and turn.actions:
            attackers, defenders = self._unfought(turn)
            if attackers or defenders:
                return PendingKind.BATTLE
        return None

    def pending_message(self) -> str | None:
        kind = self.pending()
        if kind is None:
            return None
        if self._pending is not None:
            return self._pending.message
        assert self.turn is not None
        attackers, defenders = self._unfought_pawns(self.turn)
        return phrase(
            "battles for the pawns in contact: {pawns}", pawns=self._pawn_list(self.turn.side, attackers, defenders)
        )

    @property
    def rolls_as_given(self) -> bool:
        """Without a `Seed` in the record, the written rolls are taken as given."""
        return self.dice is None

    def _on_finish(self) -> None:
        self._pending = None
        self.ended_side = self.turn.side if self.turn is not None else self.next_side

    def _judge_armies(self) -> tuple[Event, ...]:
        """A side with no pawn on the board loses at once; both at once is a draw."""
        red, blue = (not self.field.held[0]), (not self.field.held[1])
        if not red and not blue:
            return ()
        if red and blue:
            self._finish((), Reason.ARMY_DESTROYED)
            return (Event(EventKind.END, "both armies are destroyed: the game is drawn"),)
        loser = 0 if red else 1
        self._finish((SIDES[1 - loser],), Reason.ARMY_DESTROYED)
        return (Event(EventKind.END, f"{SIDES[loser]}'s army is destroyed: {SIDES[1 - loser]} wins"),)

    # -- actions ------------------------------------------------------------------

    def _apply(self, action: NieuchessAction, last: bool) -> tuple[Event, ...]:
        turn = self.turn
        assert turn is not None, "the protocol opens a turn before its actions"
        kind = turn.kind
        if kind == "main":
            if action.__class__ is Move:  # the most frequent action
                # Most moves are a legal destination form or path written hex by hex:
                # judged and made at once; any other (an illegal one, or one written
                # otherwise) is judged by `_move`, which says why.
                hexes, facts = action.hexes, action.facts
                if (
                    hexes
                    and not turn.combat
                    and hexes[0] not in turn.moved
                    and (
                        self.field.step(turn.side, hexes[0], hexes[1])
                        if len(hexes) == 2
                        else facts is not None and self.field.follow(turn.side, hexes, facts)
                    )
                ):
                    turn.moved.add(hexes[-1])
                    events: tuple[Event, ...] = ()
                else:
                    events = self._move(turn, action)
            elif action.__class__ is Battle:
                events = self._battle(turn, action, last)
            else:
                events = self._main_action(turn, action, last)
            if self._pending is not None:
                return events
        elif kind == "setup":
            events = self._setup(turn, action)
        else:
            events = self._place(turn, action)
        turn.actions += 1
        self._pending = None
        return events

    def _resign(self, side: str) -> tuple[Event, ...]:
        if self.turn is not None:
            self.turn.actions += 1
        return super()._resign(side)

    def _main_action(self, turn: TurnState, action: NieuchessAction, last: bool) -> tuple[Event, ...]:
        """An action of a complete turn: a move, an invasion or a battle."""
        if isinstance(action, Move):
            return self._move(turn, action)
        if isinstance(action, Invasion):
            return self._invade(turn, action)
        if isinstance(action, Battle):
            return self._battle(turn, action, last)
        if isinstance(action, Setup):
            raise IllegalActionError("both sides have set up: a turn moves pawns and fights battles")
        if isinstance(action, Place):
            raise IllegalActionError(
                "{star} alone places a replacement pawn, which happens only in a replacement step "
                "({side}+:) at the end of a complete turn",
                star=action.star,
                side=SHORT[turn.side],
            )
        raise IllegalActionError("{action} is not a Nieuchess action", action=action)

    def _setup(self, turn: TurnState, action: NieuchessAction) -> tuple[Event, ...]:
        side = turn.side
        if not isinstance(action, Setup):
            raise IllegalActionError(
                "{side} must first set up: {side2}: setup and 20 hexes of its half", side=SIDES[side], side2=SHORT[side]
            )
        if turn.actions:
            raise IllegalActionError("a setup turn is one action: setup and 20 hexes")
        hexes = read_hexes(action.hexes)
        seen: set[int] = set()
        for hex_, text in zip(hexes, action.hexes, strict=True):
            if hex_ in seen:
                raise IllegalActionError("{text} is listed twice in the setup", text=text)
            if BOARD.terrain[hex_] == GRAY:
                raise IllegalActionError("{text} is a gray hex: no pawn may stand there", text=text)
            if BOARD.half[hex_] != side:
                raise IllegalActionError(
                    "{text} is on {sides}'s half: {side} sets up on its own half",
                    text=text,
                    sides=SIDES[1 - side],
                    side=SIDES[side],
                )
            seen.add(hex_)
        if len(hexes) != ARMY:
            raise IllegalActionError("a setup places all {army} pawns, not {count}", army=ARMY, count=len(hexes))
        for hex_ in hexes:
            self.field.put(hex_, side)
        return (Event(EventKind.SETUP, f"{SIDES[side]} sets up {ARMY} pawns"),)

    def _move(self, turn: TurnState, action: Move) -> tuple[Event, ...]:
        if turn.combat:
            raise IllegalActionError("no move after a battle: a turn moves first, then fights")
        side, pieces = turn.side, self.field
        path = list(action.hexes or read_hexes(action.path))  # `read_hexes` says which is off the map
        origin, target = path[0], path[-1]
        if pieces.occupant[origin] != side + 1:
            pieces.own_pawn(origin, side)  # says why
        if origin in turn.moved:
            raise IllegalActionError("the pawn on {origin} has already moved this turn", origin=NAMES[origin])
        if target == origin:
            raise IllegalActionError("a move must end on another hex than it started")
        if len(path) == 2:
            if not pieces.reaches(side, origin, target):
                raise IllegalActionError(pieces.unreachable(side, origin, target))
        else:
            pieces.check_path(side, path)
        pieces.shift(origin, target, side)
        turn.moved.add(target)
        return ()

    def _invade(self, turn: TurnState, action: Invasion) -> tuple[Event, ...]:
        if turn.combat:
            raise IllegalActionError("no invasion after a battle: a turn moves first, then fights")
        side, pieces = turn.side, self.field
        origin, target = read_hexes((action.origin, action.target))
        pieces.own_pawn(origin, side)
        if origin in turn.moved:
            raise IllegalActionError("the pawn on {origin} has already moved this turn", origin=NAMES[origin])
        if not BOARD.embarkation[origin]:
            raise IllegalActionError(
                "{origin} is not an embarkation hex (a hex next to a red hex)", origin=NAMES[origin]
            )
        if BOARD.terrain[target] != RED:
            raise IllegalActionError("{target} is not a red invasion hex", target=NAMES[target])
        if pieces.occupant[target]:
            raise IllegalActionError("{target} is not vacant", target=NAMES[target])
        used = _ceil_div(turn.placements + 1, INVASION_SIZE)
        if used > turn.invasions_before:
            if not turn.invasions_before:
                raise IllegalActionError(
                    "{side} has no invasion left ({invasions} per game)", side=SIDES[side], invasions=INVASIONS
                )
            raise IllegalActionError(
                "{side} has {invasions_before} invasion(s) left: at most {invasions_before2} pawns can land this turn",
                side=SIDES[side],
                invasions_before=turn.invasions_before,
                invasions_before2=turn.invasions_before * INVASION_SIZE,
            )
        pieces.shift(origin, target, side)
        turn.moved.add(target)
        turn.placements += 1
        self.invasions[side] = turn.invasions_before - used
        return (
            Event(
                EventKind.INVASION,
                f"{SIDES[side]}'s pawn on {NAMES[origin]} lands on {NAMES[target]} "
                f"({self.invasions[side]} invasion(s) left after this turn)",
            ),
        )

    # -- combat ---------------------------------------------------------------------

    def _unfought(self, turn: TurnState) -> tuple[HexSet, HexSet]:
        """The turn's pawns in contact that have not fought yet, and the enemy's."""
        if turn.attackers_left is None or turn.defenders_left is None:
            return self.field.engaged(turn.side)
        return turn.attackers_left, turn.defenders_left

    def _unfought_pawns(self, turn: TurnState) -> tuple[set[int], set[int]]:
        """`_unfought` as sets of hex numbers."""
        attackers, defenders = self._unfought(turn)
        return set(members(attackers)), set(members(defenders))

    def _pawn_list(self, side: int, attackers: set[int], defenders: set[int]) -> str:
        parts = []
        if attackers:
            parts.append(phrase("{side}'s {hexes}", side=SIDES[side], hexes=hex_names(attackers)))
        if defenders:
            parts.append(phrase("{side}'s {hexes}", side=SIDES[1 - side], hexes=hex_names(defenders)))
        return phrase("{first} and {second}", first=parts[0], second=parts[1]) if len(parts) == 2 else parts[0]

    def _unfought_message(self, side: int, attackers: set[int], defenders: set[int]) -> str:
        return phrase(
            "pawns in contact are left unfought: {pawns} must fight a battle this turn",
            pawns=self._pawn_list(side, attackers, defenders),
        )

    def _battle(self, turn: TurnState, action: Battle, last: bool) -> tuple[Event, ...]:
        """Check and resolve a battle; what it leaves unwritten is pending when `last`."""
        side = turn.side
        attacking, defending = action.attackers, action.defenders
        found, found_too = [*map(INDEX.get, attacking)], [*map(INDEX.get, defending)]
        if None in found or None in found_too:  # (`read_hexes` names the hex off the map)
            attackers, defenders = read_hexes(attacking), read_hexes(defending)
            attacking, defending = tuple(NAMES[h] for h in attackers), tuple(NAMES[h] for h in defenders)
        else:  # every hex written as NAMES names it
            attackers, defenders = found, found_too  # type: ignore[assignment]
        check_battle(self.field, side, attackers, defenders, turn.fought)
        column = odds_column(len(attackers), len(defenders))
        odds = odds_event(attacking, defending, column)
        if action.roll is not None and not 1 <= action.roll <= 6:
            raise IllegalActionError("a die shows 1 to 6, not {roll}", roll=action.roll)
        try:
            resolution = resolve(
                self.field, self.crt, self.dice, self.seed_secret, side, action, attackers, defenders, column
            )
        except Unwritten as missing:
            if not last:
                raise IllegalActionError(missing.refusal) from None
            self._pending = Pending(missing.kind, action, missing.side, missing.message)
            return (odds,)
        self._pending = None
        return self._commit(turn, attackers, defenders, resolution, odds)

    def _commit(
        self, turn: TurnState, attackers: list[int], defenders: list[int], resolution: Resolution, odds: Event
    ) -> tuple[Event, ...]:
        attackers_left, defenders_left = self._unfought(turn)
        for h in attackers:
            attackers_left &= ~BIT[h]
        for h in defenders:
            defenders_left &= ~BIT[h]
        turn.attackers_left, turn.defenders_left = attackers_left, defenders_left
        turn.combat = True
        fought = turn.fought
        fought.update(attackers)
        fought.update(defenders)
        if resolution.dice is not None:
            self.dice = resolution.dice
        self.rolls_used = (*self.rolls_used, resolution.roll)
        events = carry_out(self.field, resolution)
        for _, destination, _ in resolution.fates:
            if destination is not None:
                fought.add(destination)
        field = self.field
        if not field.held[0] or not field.held[1]:
            events.extend(self._judge_armies())
        return (odds, *events)

    # -- replacement steps -----------------------------------------------------------

    def _place(self, turn: TurnState, action: NieuchessAction) -> tuple[Event, ...]:
        side = turn.side
        if not isinstance(action, Place):
            raise IllegalActionError(
                "a replacement step only places pawns on stars, like {side}+: {names}",
                side=SHORT[side],
                names=NAMES[own_stars(side)[0]],
            )
        star = INDEX.get(action.star)
        if star is None:  # (`read_hexes` names the hex off the map)
            (star,) = read_hexes((action.star,))
        check_placement(self.field, side, star, turn.stars)
        self.field.put(star, side)
        turn.stars.add(star)
        left = self.field.pool(side)
        return (
            Event(
                EventKind.REPLACEMENT, f"{SIDES[side]} brings back a pawn on {NAMES[star]} ({left} left in its pool)"
            ),
        )

    # -- listing legal actions ----------------------------------------------------

    def _legal_actions(self) -> list[NieuchessAction]:
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
            return [Place(NAMES[star]) for star in stars_open(self.field, side, turn.actions) if star not in turn.stars]
        actions: list[NieuchessAction] = [] if turn.combat else self._movements(turn)
        for attackers, defenders in battle_groups(*self._unfought_pawns(turn)):
            battle = Battle(tuple(NAMES[h] for h in attackers), tuple(NAMES[h] for h in defenders))
            actions.extend(self._completions(battle))
        return actions

    def _movements(self, turn: TurnState) -> list[NieuchessAction]:
        """Every move in destination form, and every invasion the turn may still make."""
        side, pieces = turn.side, self.field
        actions: list[NieuchessAction] = []
        unmoved = [origin for origin in pieces.pawns(side) if origin not in turn.moved]
        for origin in unmoved:
            actions.extend(destination_moves(origin, pieces.destination_set(side, origin)))
        if _ceil_div(turn.placements + 1, INVASION_SIZE) <= turn.invasions_before:
            vacant = [h for h in BOARD.red if not pieces.occupant[h]]
            for origin in unmoved:
                if BOARD.embarkation[origin]:
                    actions.extend(Invasion(NAMES[origin], NAMES[target]) for target in vacant)
        return actions

    def _completions(self, battle: Battle) -> list[NieuchessAction]:
        side = self.turn.side if self.turn is not None else self.next_side
        return [*completions(self.field, self.crt, self.dice, side, battle)]

    def _setups(self, side: int) -> list[NieuchessAction]:
        """A few varied setups: listing every one is impossible (C(400, 20))."""
        hexes = [h for h in range(SIZE) if BOARD.half[h] == side and BOARD.passable[h]]
        chosen: list[NieuchessAction] = []
        for variant in range(8):
            ordered = sorted(hexes, key=lambda h: (h * 2654435761 + variant * 40503) % 1000003)
            chosen.append(Setup(tuple(NAMES[h] for h in sorted(ordered[:ARMY]))))
        return chosen

    # -- position, picture, copy --------------------------------------------------

    def position(self) -> str:
        # A finished game names the side whose turn it was when it ended (NOTATION.md §9).
        to = self.to_move()
        side = SIDES.index(to) if to is not None else self.next_side if self.ended_side is None else self.ended_side
        pawns = " ".join(f"{SHORT[s]}:{','.join(NAMES[h] for h in self.field.pawns(s))}" for s in (0, 1))
        return f"{pawns} inv:R={self.invasions[0]},B={self.invasions[1]} to:{SHORT[side]}"

    def render(self) -> str:
        lines = self.field.map_lines()
        lines.append(
            "; ".join(
                phrase(
                    "{side} {on} on the board, {pool} in the pool, {invasions} invasion(s) left",
                    side=SIDES[side],
                    on=ARMY - self.field.pool(side),
                    pool=self.field.pool(side),
                    invasions=self.invasions[side],
                )
                for side in (0, 1)
            )
        )
        if self._outcome is not None:
            lines.append(f"game over: {self._outcome}")
        else:
            number = self.round_number()
            lines.append(f"{self.to_move()} to move" + (f", round {number}" if number else ""))
        return "\n".join(lines)
