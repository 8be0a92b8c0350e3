"""The one small game API that every rule engine implements.

Its values, vocabularies and errors live in `games.values` and are re-exported here; a
game's engine (its metadata, syntax and start states: `Engine`) is in `games.engine`.

A game is declared by a `GameInfo` (static metadata, cheap to import) and implemented by a
`GameState` subclass in its own package, imported only when a record of that game is read.
The referee drives every game the same way:

    state = engine.new_state(tags)        # the common tags read once into a `Start`
    state.begin_turn(side, step, number)  # for each turn label
    state.apply(action, last)             # for each action of the turn
    state.end_turn()                      # when the next label arrives
    state.agree_draw()                    # at a `draw` termination

and asks `to_move()`, `round_number()`, `outcome()`, `pending()`, `legal_actions()` and
`position()` at any point.

The turn protocol lives here, once: the public methods of `GameState` are template methods
(`typing.final`) that check the game's end, the open turn, the label's side, the round
number, the count of actions and resignation, all with one wording and one error class per
cause; each engine implements only the hooks they call (`_side_to_move`, `_round`,
`_open_turn`, `_apply`, `_turn_problem`, `_close_turn`, `_legal_actions`, plus `position`
and `render`). Likewise `Engine.new_state` reads the tags every game shares (`Variant`,
`Players`, `First`, `Seed`, `SeedHash`, the salts, `Position`) and hands a `Start` to the
game's own `_start`. Errors are `ValueError`s split by cause, each carrying a message a
player understands, naming the rule.
"""

from __future__ import annotations

import abc
from array import array
from collections.abc import Container, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar, final

from referee.games.values import (
    MAX_DIGITS,
    RESIGN,
    Chance,
    Event,
    EventKind,
    GameInfo,
    GameOverError,
    IllegalActionError,
    IllegalTurnError,
    Outcome,
    PendingKind,
    Randomness,
    Reason,
    Resign,
    RuleError,
    SetupError,
    Side,
    Start,
    TurnNotOpenError,
    TurnOpenError,
    WrongSideError,
    check_round,
    phrase,
    quoted,
    whole_number,
)
from referee.notation.scanned import DRAW, Label

if TYPE_CHECKING:
    pass

__all__ = [
    "MAX_DIGITS",
    "RESIGN",
    "ActionT",
    "Event",
    "EventKind",
    "GameInfo",
    "GameOverError",
    "GameState",
    "IllegalActionError",
    "IllegalTurnError",
    "Outcome",
    "Chance",
    "PendingKind",
    "Randomness",
    "Reason",
    "Resign",
    "RuleError",
    "SetupError",
    "Side",
    "Start",
    "TurnNotOpenError",
    "TurnOpenError",
    "WrongSideError",
    "check_round",
    "quoted",
    "whole_number",
]

_ACTIONS = (
    phrase("no action"),
    phrase("one action"),
    phrase("two actions"),
    phrase("three actions"),
    phrase("four actions"),
)


def _actions(count: int) -> str:
    return _ACTIONS[count] if count < len(_ACTIONS) else phrase("{count} actions", count=count)


# -- the state of a game in play ------------------------------------------------------------

ActionT = TypeVar("ActionT")


class GameState(abc.ABC, Generic[ActionT]):
    """The mutable state of one game in play, over the game's action type `ActionT`.

    The public methods are the turn protocol, implemented here once; a game implements the
    hooks (underscored) that they call. Class attributes a game sets:

    - `actions_per_turn`: how many actions a turn holds (None: the game's `_turn_problem`
      decides); the protocol refuses one more and ends a turn with fewer only once the game
      is over.
    - `copy_fields`: the attributes holding mutable values (lists, dicts, sets,
      bytearrays, objects with a `copy()` method, or tuples of these), which `copy()`
      duplicates; every other attribute is shared, so it must be immutable.
    """

    info: ClassVar[GameInfo]
    actions_per_turn: ClassVar[int | None] = None
    copy_fields: ClassVar[tuple[str, ...]] = ()

    _outcome: Outcome | None = None
    _default_end: ClassVar[bool] = True
    """Whether the game keeps the default `_turn_problem` and `_close_turn` (set per class)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._default_end = cls._turn_problem is GameState._turn_problem and cls._close_turn is GameState._close_turn

    def __init__(self, sides: tuple[Side, ...]) -> None:
        self.sides = sides
        self._outcome = None
        self._ended_turn = 0
        self._turns = 0
        self._turn_open = False
        self._turn_side: Side = ""
        self._acted = 0
        # The class's settings, read at every turn: an instance's attribute is read faster.
        self._limit = self.actions_per_turn
        self._plain_end = self._default_end
        self._due_side: Side | None = None
        """The side `_side_to_move()` gives, for a game that keeps it here as its turn order
        changes (spares `begin_turn` a call); None: `begin_turn` asks `_side_to_move()`."""
        self._opens: bool | None = None
        """Whether the next turn opens a round, for a game that keeps it here as its turn
        order changes and whose `_open_turn` changes nothing (spares `begin_turn` a call a
        turn); None: `begin_turn` asks `_open_turn`."""
        self._keeps_round = False
        self._due_round: int | None = None
        """With `_keeps_round`, what `_label_round` gives (the same for every label), for a
        game that keeps it here as its rounds change (spares `begin_turn` a call a numbered
        turn); else `begin_turn` asks `_label_round`."""

    # -- what the referee asks --------------------------------------------------------

    @final
    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        return self._outcome

    @final
    def to_move(self) -> Side | None:
        """The side that acts next (None once the game is over)."""
        return None if self._outcome is not None else self._side_to_move()

    @final
    def due_side(self) -> Side:
        """The side the turn order gives the next action to, even once the game is over
        (the side that would have acted had the game gone on)."""
        return self._side_to_move()

    @final
    def round_number(self) -> int | None:
        """The round of the turn in progress or next to begin (None during setup). Once the
        game is over, the round its next turn would have had by the turn order."""
        return self._round()

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._outcome is not None

    @property
    def turns(self) -> int:
        """The turns begun so far (setup turns and replacement steps included)."""
        return self._turns

    @property
    def turn_open(self) -> bool:
        """Whether a turn is open: begun and not yet ended."""
        return self._turn_open

    @property
    def acted(self) -> int:
        """The actions played in the open turn (or the last one, once it has ended); inside
        the `_apply` and `_resign` hooks, those before the action being played."""
        return self._acted

    # -- the turn protocol ----------------------------------------------------------------

    @final
    def begin_turn(self, side: Side, step: bool = False, number: int | None = None, ending: bool = False) -> bool:
        """Open a turn labelled `side` (`step`: a `+` replacement step) with the written
        round number, if any. Returns whether this turn opens a round (the canonical
        writer numbers exactly those). Raises GameOverError, TurnOpenError, WrongSideError
        or IllegalTurnError; the state is unchanged then.

        `ending`: first end the open turn, as `end_turn()` does (one call for both, as a
        replay's loop makes at each label after the first). When it may not end, raises
        what `end_turn` raises, the turn still open; when the new turn is refused, the one
        before stays ended."""
        if ending:
            if self._acted == self._limit and self._plain_end and self._turn_open:
                self._turn_open = False  # `end_turn` where it surely ends: a full turn, the default hooks
            else:
                self.end_turn()
        if self._outcome is not None:
            raise self._game_over()
        if self._turn_open:
            raise TurnOpenError(
                "{turn_side}'s turn is still open: it must end before another turn begins", turn_side=self._turn_side
            )
        if step:
            if side not in self.sides:
                raise self._not_playing(side)
            if not self.info.step_labels:
                raise IllegalTurnError(
                    "{display} has no replacement steps: a label has no '+'", display=self.info.display
                )
        else:
            due = self._due_side
            if due is None:
                due = self._side_to_move()
            if side != due:  # the side due always plays: only another label needs these checks
                if side not in self.sides:
                    raise self._not_playing(side)
                note = self._out_of_turn_note(side)
                raise WrongSideError(f"it is {due}'s turn, not {side}'s" + (f" ({note})" if note else ""))
        if number is not None:  # most turns carry no round number: nothing to check
            expected = self._due_round if self._keeps_round else self._label_round(side, step)
            if number != expected:
                check_round(expected, number)
        opens = self._opens
        if opens is None:
            opens = self._open_turn(side, step)
        self._turns += 1
        self._turn_open, self._turn_side, self._acted = True, side, 0
        return opens

    @final
    def apply(self, action: ActionT, last: bool = False) -> tuple[Event, ...]:
        """Play one action of the open turn. Raises IllegalActionError (state unchanged),
        GameOverError after the end, TurnNotOpenError when no turn is open.

        `last` says nothing but comments, `resign` or `draw` follows it in the record: an
        unwritten choice or roll that would be illegal mid-record is then left pending
        instead (see `pending()`), since those end the game anyway."""
        if self._outcome is not None:
            raise self._game_over()
        if not self._turn_open:
            raise self._no_turn()
        limit = self._limit
        if limit is not None and self._acted >= limit:
            raise IllegalActionError(
                "a {display} turn holds exactly {actions}", display=self.info.display, actions=_actions(limit)
            )
        if action.__class__ is Resign:
            events = self._resign(self._turn_side)
        else:
            events = self._apply(action, last)
        self._acted += 1
        return events

    @final
    def play_steps(
        self, steps: Iterable[object], open_ended: Container[int], renumbered: array[int] | None = None
    ) -> int:
        """Play a record's steps as the quick reader gives them (`notation.scanned`): a
        `Label` begins a turn (ending the one before, as `begin_turn(..., ending=True)`),
        `DRAW` agrees a draw, anything else is an action, applied as `apply` applies it
        (`last` when its place is in `open_ended`). Returns the turns begun; raises the
        RuleError of the first rule broken, without saying where (the detailed replay
        says it: `referee.judge.core.replay_loop`). `renumbered`, when given, gets the turns (from 0)
        on which the canonical form writes another round number than the one written (a
        number missing where a round opens, or written where none does), each followed by
        that number (0: none).

        The fast path of `referee check`: one loop in the framework, `apply`'s checks
        written out in it, so that an action costs one call of the game's hook; and a
        label costs no call where `begin_turn` surely succeeds (the turn before is full and
        ends by the default hooks, the label is the due side's, its round number is none
        or the one kept in `_due_round`, and the game keeps `_opens`). A turn's first action
        skips `apply`'s checks, which a label just played makes hold."""
        begin, play, limit = self.begin_turn, self._apply, self._limit
        full_ends = self._plain_end and limit is not None  # (a full turn then surely ends)
        acts = limit is None or limit > 0  # (a turn just begun takes an action)
        fresh = False  # a turn has just begun (open, the game not over, no action yet)
        turns = 0
        opened = False  # a turn is open: the next label ends it
        side: Side
        step: bool
        number: int | None
        for at, item in enumerate(steps):
            kind = item.__class__
            if kind is Label:
                side, step, number = item  # type: ignore[misc]
                if (
                    full_ends
                    and opened
                    and (opens_round := self._opens) is not None  # (first: a game keeps it or not)
                    and not step
                    and self._acted == limit  # (after a label, the turn is open)
                    and self._outcome is None
                    and side == self._due_side
                    and (number is None or (self._keeps_round and number == self._due_round))
                ):  # `begin(side, False, number, True)` where it surely succeeds, written out
                    self._turns += 1
                    self._turn_side, self._acted = side, 0
                else:
                    opens_round = begin(side, step, number, opened)
                turns += 1
                opened, fresh = True, acts
                if renumbered is not None:
                    if opens_round:
                        if number is None:
                            renumbered.append(turns - 1)
                            renumbered.append(self.round_number() or 0)
                    elif number is not None:
                        renumbered.append(turns - 1)
                        renumbered.append(0)
            elif item is DRAW:
                if self._outcome is not None:
                    raise self._game_over()  # (a draw after the end)
                self._finish((), Reason.AGREEMENT)
                fresh = False
            elif fresh:  # the turn's first action: `apply`'s checks hold
                # (apart from the branch below on purpose: one branch for both, testing
                # `fresh or ...` and adding to `_acted`, cost `check` of Numica 0.5 %)
                fresh = False
                if kind is Resign:
                    self._resign(self._turn_side)
                else:
                    play(item, at in open_ended)  # type: ignore[arg-type]
                self._acted = 1
            elif self._outcome is None and self._turn_open and (limit is None or self._acted < limit):
                if kind is Resign:
                    self._resign(self._turn_side)
                else:
                    play(item, at in open_ended)  # type: ignore[arg-type]
                self._acted += 1
            else:
                self.apply(item, at in open_ended)  # type: ignore[arg-type]  # (refused there, with its error)
        return turns

    @final
    def end_turn(self) -> None:
        """Close the open turn because another label follows it. Raises IllegalTurnError
        when the turn is incomplete (never once the game is over), TurnNotOpenError when
        no turn is open."""
        if not self._turn_open:
            raise self._no_turn()
        if self._plain_end:  # the default hooks, written out: most turns end here
            limit = self._limit
            if self._outcome is None and limit is not None and self._acted < limit:
                raise IllegalTurnError(str(self._turn_problem()))
            self._turn_open = False
            return
        if self._outcome is None:
            problem = self._turn_problem()
            if problem is not None:
                raise IllegalTurnError(problem)
        self._close_turn()
        self._turn_open = False

    @final
    def can_end_turn(self) -> bool:
        """Whether the open turn may end here (used by random playouts)."""
        return self._turn_open and (self._outcome is not None or self._turn_problem() is None)

    @final
    def legal_actions(self) -> list[ActionT]:
        """Every action the side to move may play next within the open turn, or in the turn
        that begins next when none is open. Empty when the open turn can only end."""
        if self._outcome is not None:
            return []
        limit = self.actions_per_turn
        if self._turn_open and limit is not None and self._acted >= limit:
            return []
        return self._legal_actions()

    @final
    def awaited(self) -> Side | None:
        """The side whose input the game awaits (TIME.md §3: the side whose clock runs): the
        side to move, a side that must make a choice included; None once the game is over
        or while it awaits the game master's roll."""
        if self._outcome is not None or self.pending() == PendingKind.ROLL:
            return None
        return self._side_to_move()

    @final
    def time_out(self) -> tuple[Event, ...]:
        """The `timeout` termination (TIME.md §4): the side the game awaits loses on time,
        as if it had resigned at this point (two sides: the other wins; a team: it loses;
        3-4 Pikemen players: it leaves and play goes on). The reason is `time`, unless
        the side's leaving ends the game otherwise (`last-player`). The caller has
        checked that a side is awaited and that its time has run out."""
        if self._outcome is not None:
            raise self._game_over()
        side = self.awaited()
        if side is None:
            raise IllegalActionError("the game awaits the game master, not a side")
        events = self._resign(side)
        if self._turn_open and self._turn_side == side:
            self._acted += 1  # within the side's own turn: counted as `apply` counts a `resign`
        outcome = self._outcome
        if outcome is not None and outcome.reason == Reason.RESIGNATION:
            self._outcome = Outcome(outcome.winners, Reason.TIME)
        lost = Event(EventKind.TIMEOUT, f"{side} loses on time")
        return (lost, *(event for event in events if event.kind != EventKind.RESIGN))

    @final
    def agree_draw(self) -> None:
        """The `draw` termination: all players agree to a draw (the first ending stands)."""
        if self._outcome is None:
            self._finish((), Reason.AGREEMENT)

    @final
    def adjudicate(self, winners: tuple[Side, ...]) -> None:
        """The `adjudicated` termination (LEAGUE.md §6): the game ends as decided, `winners`
        (none: a draw), with the reason `adjudication`. The caller has checked the decision
        against its rule."""
        if self._outcome is not None:
            raise self._game_over()
        self._finish(tuple(winners), Reason.ADJUDICATION)

    def adjudication_scores(self) -> dict[Side, int] | None:
        """The score of each side still in the game, in turn order, for a game that keeps
        a score (Pikemen); None for the others. Adjudication by `score` ranks these
        (LEAGUE.md §6)."""
        return None

    @final
    def copy(self) -> Self:
        """An independent copy: shared immutable values, duplicated `copy_fields`."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        for name in self.copy_fields:
            setattr(twin, name, _duplicate(getattr(self, name)))
        return twin

    def next_turn(self) -> tuple[Side, bool] | None:
        """The label (side, step) a random playout should open next, or None when over."""
        side = self.to_move()
        return None if side is None else (side, False)

    def in_game(self, side: Side) -> bool:
        """Whether `side` still takes part in the game. Every side does unless the game lets
        a side leave while the others play on (Pikemen with 3-4 players), which overrides
        this. The referee asks it to know who must agree to a draw or an undo."""
        return side in self.sides

    def pending(self) -> PendingKind | None:
        """What the game awaits that the record has not written, or None."""
        return None

    def pending_message(self) -> str | None:
        """A player's description of what is pending, for the verdict's message."""
        return None

    @property
    def rolls_as_given(self) -> bool:
        """Whether the written rolls are taken as given (no `Seed`: RANDOM.md §4). Games
        with dice override this."""
        return False

    @abc.abstractmethod
    def position(self) -> str:
        """The position string of the game's spec file."""

    @abc.abstractmethod
    def render(self) -> str:
        """The board drawn as text for `referee show`."""

    # -- for the game: ending it ----------------------------------------------------------

    @final
    def _finish(self, winners: tuple[Side, ...], reason: Reason) -> None:
        """End the game (the first ending stands) and note the turn it ended in."""
        if self._outcome is None:
            self._outcome = Outcome(winners, reason)
            self._ended_turn = self._turns
            self._on_finish()

    def _on_finish(self) -> None:
        """Hook: the game has just ended (clear what it awaited, for instance)."""

    # -- hooks every game implements ------------------------------------------------------

    @abc.abstractmethod
    def _side_to_move(self) -> Side:
        """The side that acts next by the turn order, within the open turn or the next one,
        whether or not the game is over."""

    @abc.abstractmethod
    def _round(self) -> int | None:
        """The round of the turn in progress or next to begin (None during setup), also
        once the game is over (the turn order goes on as if it had not ended)."""

    @abc.abstractmethod
    def _open_turn(self, side: Side, step: bool) -> bool:
        """Open the turn: `side` is the side to move, the label and round number checked.
        Returns whether it opens a round. May raise IllegalTurnError, before any change."""

    @abc.abstractmethod
    def _apply(self, action: ActionT, last: bool) -> tuple[Event, ...]:
        """Play one action (never `resign`) in the open turn, which has room for it.
        Raises IllegalActionError with the state unchanged."""

    @abc.abstractmethod
    def _legal_actions(self) -> list[ActionT]:
        """The actions the side to move may play next (see `legal_actions`)."""

    # -- hooks with a default ---------------------------------------------------------------

    def _turn_problem(self) -> str | None:
        """Why the open turn may not end here, or None when it may (the game not over)."""
        limit = self.actions_per_turn
        if limit is None or self._acted >= limit:
            return None
        return phrase(
            "{side}'s turn ended after {done}: a {display} turn holds exactly {actions}",
            side=self._turn_side,
            done=_actions(self._acted),
            display=self.info.display,
            actions=_actions(limit),
        )

    def _close_turn(self) -> None:
        """The open turn ends (complete, or the game over)."""

    def _label_round(self, side: Side, step: bool) -> int | None:
        """The round a label of `side` (a step, with `step`) would open now."""
        return self._round()

    def _resign(self, side: Side) -> tuple[Event, ...]:
        """`side` resigns: by default, with two sides, the other one wins."""
        winners = tuple(other for other in self.sides if other != side)
        self._finish(winners, Reason.RESIGNATION)
        return (Event(EventKind.RESIGN, f"{side} resigns"),)

    def _out_of_turn_note(self, side: Side) -> str | None:
        """Why `side`, a side of the game, is not the one to move (added to the message)."""
        return None

    # -- messages -----------------------------------------------------------------------------

    def _game_over(self) -> GameOverError:
        outcome = str(self._outcome)
        if self._ended_turn == 0 and self._outcome is not None and self._outcome.reason != Reason.AGREEMENT:
            return GameOverError("the game was already over in the Position ({outcome})", outcome=outcome)
        if self._ended_turn == 0:
            return GameOverError("the game ended before the first turn ({outcome})", outcome=outcome)
        return GameOverError("the game ended at turn {turn} ({outcome})", turn=self._ended_turn, outcome=outcome)

    def _no_turn(self) -> TurnNotOpenError:
        return TurnNotOpenError(
            "no turn is open: {side}'s turn must begin with its label first", side=self._side_to_move()
        )

    def _not_playing(self, side: Side) -> WrongSideError:
        sides = ", ".join(self.sides)  # each side said in a player's language (speech reads the list)
        if len(self.info.player_counts) > 1:
            return WrongSideError(
                "{side} does not play in a {count}-player game: the sides are {sides}",
                side=side,
                count=len(self.sides),
                sides=sides,
            )
        return WrongSideError(
            "{side} does not play {game}: the sides are {sides}", side=side, game=self.info.display, sides=sides
        )


def _duplicate(value: Any) -> Any:
    """An independent copy of a mutable field value (see `GameState.copy_fields`)."""
    if type(value) is tuple:
        return tuple(_duplicate(item) for item in value)
    copier = getattr(value, "copy", None)
    return value if copier is None else copier()
