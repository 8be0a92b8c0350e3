"""The one small game API that every rule engine implements.

Its value types are NamedTuples: immutable, with a good repr, and ten times cheaper to
define than dataclasses, which `referee` pays at every start.

A game is declared by a `GameInfo` (static metadata, cheap to import) and implemented by a
`GameState` subclass in its own package, imported only when a record of that game is read.
The referee drives every game the same way:

    state = engine.new_state(tags)        # from the record's tags, or a Position
    state.begin_turn(side, step, number)  # for each turn label
    state.apply(action, last)             # for each action of the turn
    state.end_turn()                      # when the next label arrives
    state.agree_draw()                    # at a `draw` termination

and asks `to_move()`, `outcome()`, `pending()`, `legal_actions()` and `position()` at any
point. Errors are `ValueError`s split by cause, each carrying a message a player
understands, naming the rule.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ClassVar, NamedTuple

if TYPE_CHECKING:
    import pyparsing as pp

    from notation.dialect import Dialect

Side = str
"""A side's long name, as the verdicts print it: "Red", "Athens"."""


class Outcome(NamedTuple):
    """How a game ended: the winners (none for a draw) and the reason of NOTATION.md §5."""

    winners: tuple[Side, ...]
    reason: str

    @property
    def draw(self) -> bool:
        return not self.winners

    def __str__(self) -> str:
        if self.draw:
            return f"draw ({self.reason})"
        return f"{'+'.join(self.winners)} win ({self.reason})"


class Resign(NamedTuple):
    """`resign`: the side whose turn it is gives up. Shared by every game."""

    def __str__(self) -> str:
        return "resign"


RESIGN = Resign()


class Event(NamedTuple):
    """Something an action caused, for `referee replay`: a push, a rout, a roll, a capture."""

    kind: str
    text: str

    def __str__(self) -> str:
        return self.text


class GameInfo(NamedTuple):
    """A game's metadata: what `referee games` lists and what the reader needs to know.

    `labels` maps every accepted side label form, lower case, to the side's long name;
    `short_labels` gives the canonical (short) label of each side for the writer.
    `engine` is the module that defines `ENGINE`, imported on first use only.
    """

    name: str
    title: str
    sides: tuple[Side, ...]
    player_counts: tuple[int, ...]
    variants: tuple[str, ...]
    labels: Mapping[str, Side]
    short_labels: Mapping[Side, str]
    engine: str
    randomness: str | None = None
    example_action: str = "pass"
    step_labels: bool = False
    sides_by_players: Mapping[int, tuple[Side, ...]] = {}

    def side(self, label: str) -> Side | None:
        """The long name of the side a label names (any form, any case), or None."""
        return self.labels.get(label.lower())

    def players_text(self) -> str:
        """The player counts in words: "2", "2, 3 or 4"."""
        counts = [str(count) for count in self.player_counts]
        return " or ".join(filter(None, (", ".join(counts[:-1]), counts[-1])))

    def sides_for(self, players: int) -> tuple[Side, ...]:
        return self.sides_by_players.get(players, self.sides)

    def dialect(
        self,
        action_pattern: str,
        parse_action: Callable[[str], object],
        action_element: Callable[[], pp.ParserElement],
    ) -> Dialect:
        """The game's notation: its labels from this metadata, its actions from the game."""
        from notation.dialect import Dialect

        first = self.sides[0]
        return Dialect(
            game=self.name,
            labels=self.labels,
            short_labels=self.short_labels,
            action_pattern=action_pattern,
            parse_action=parse_action,
            action_element=action_element,
            example_action=self.example_action,
            step_labels=self.step_labels,
            label_examples=(f"{self.short_labels[first]}:", f"{first}:"),
        )


class RuleError(ValueError):
    """An action or turn that breaks a rule of the game. `message` is in a player's words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalActionError(RuleError):
    """An action of a valid form that the rules forbid here."""


class IllegalTurnError(RuleError):
    """A problem with a whole turn: a wrong label or round number, a turn cut short,
    pawns left unfought. Reported at the turn's label, with no action text."""


def check_round(expected: int | None, written: int | None) -> None:
    """A written round number must be the turn's round; setup turns (`expected` None)
    carry none. Raises IllegalTurnError; shared so that every game words it alike."""
    if written is None:
        return
    if expected is None:
        raise IllegalTurnError("a setup turn carries no round number")
    if written != expected:
        raise IllegalTurnError(f"this turn is in round {expected}, not round {written}")


class GameOverError(IllegalTurnError):
    """A turn or action after the game has ended."""


class SetupError(ValueError):
    """A tag value the game cannot read (bad Position, unknown Variant, Seed against Tiles).

    It makes the record malformed; `tag` names the tag at fault, when there is one.
    """

    def __init__(self, message: str, tag: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.tag = tag


class GameState(abc.ABC):
    """The mutable state of one game in play. `copy()` gives an independent state."""

    info: ClassVar[GameInfo]

    @abc.abstractmethod
    def to_move(self) -> Side | None:
        """The side that acts next (None once the game is over)."""

    @abc.abstractmethod
    def round_number(self) -> int | None:
        """The round of the turn in progress or next to begin (None during setup)."""

    @abc.abstractmethod
    def begin_turn(self, side: Side, step: bool = False, number: int | None = None) -> bool:
        """Open a turn labelled `side` (`step`: a `+` replacement step) with the written
        round number, if any. Returns whether this turn opens a round (the canonical
        writer numbers exactly those). Raises IllegalTurnError or GameOverError."""

    @abc.abstractmethod
    def apply(self, action: object, last: bool = False) -> tuple[Event, ...]:
        """Play one action of the open turn. Raises IllegalActionError (state unchanged).

        `last` says nothing follows it in the record: an unwritten choice or roll that
        would be illegal mid-record is then left pending instead (see `pending()`)."""

    @abc.abstractmethod
    def end_turn(self) -> None:
        """Close the open turn because another label follows it.
        Raises IllegalTurnError when the turn is incomplete."""

    @abc.abstractmethod
    def legal_actions(self) -> list[object]:
        """Every action the side to move may play next within its turn (a turn is begun
        if none is open). Empty when the turn can only end."""

    @abc.abstractmethod
    def can_end_turn(self) -> bool:
        """Whether the open turn may end here (used by random playouts)."""

    _outcome: Outcome | None = None

    def outcome(self) -> Outcome | None:
        """The outcome once the game is over, else None."""
        return self._outcome

    def agree_draw(self) -> None:
        """The `draw` termination: all players agree to a draw (the first ending stands)."""
        if self._outcome is None:
            self._finish((), "agreement")

    def _finish(self, winners: tuple[Side, ...], reason: str) -> None:
        """End the game; engines extend this to note when it ended."""
        self._outcome = Outcome(winners, reason)

    @abc.abstractmethod
    def position(self) -> str:
        """The position string of the game's spec file."""

    @abc.abstractmethod
    def render(self) -> str:
        """The board drawn as text for `referee show`."""

    @abc.abstractmethod
    def copy(self) -> GameState:
        """An independent copy."""

    def pending(self) -> str | None:
        """What the game awaits that the record has not written: `choice`, `roll`,
        `battle` (Nieuchess), or None."""
        return None

    def pending_message(self) -> str | None:
        """A player's description of what is pending, for the verdict's message."""
        return None

    def notes(self) -> tuple[str, ...]:
        """Flags for the verdict, such as `rolls_as_given`."""
        return ()

    def next_turn(self) -> tuple[Side, bool] | None:
        """The label (side, step) a random playout should open next, or None when over."""
        side = self.to_move()
        return None if side is None else (side, False)


class Engine(abc.ABC):
    """What a game package exports as `ENGINE`: its metadata, syntax and start states."""

    info: ClassVar[GameInfo]

    @abc.abstractmethod
    def dialect(self) -> Dialect:
        """The `notation.Dialect` that reads and writes this game's actions."""

    @abc.abstractmethod
    def new_state(self, tags: Mapping[str, str]) -> GameState:
        """The start state from a record's tags (`Position`, `Seed`, `Players`...).
        Raises SetupError for a tag value it cannot read."""

    def variant(self, tags: Mapping[str, str]) -> str:
        """The record's `Variant` (default `standard`), one the game declares."""
        variant = tags.get("Variant", "standard").strip().lower()
        if variant not in self.info.variants:
            known = ", ".join(f'"{name}"' for name in self.info.variants)
            raise SetupError(f'unknown variant "{variant}": {self.info.name} has {known}', "Variant")
        return variant

    def players(self, tags: Mapping[str, str]) -> int:
        """The record's `Players` (default the fewest the game allows), one it declares."""
        text = tags.get("Players", str(self.info.player_counts[0])).strip()
        counts = self.info.player_counts
        if not text.isdigit() or int(text) not in counts:
            raise SetupError(
                f'{self.info.name} is played by {self.info.players_text()} players, not "{text}"', "Players"
            )
        return int(text)

    def new_tags(self, players: int | None, seed: str | None, first: str | None) -> dict[str, str]:
        """The tags of a fresh record for `referee new` (besides `Game`)."""
        tags: dict[str, str] = {}
        if players is not None and len(self.info.player_counts) > 1:
            tags["Players"] = str(players)
        if first is not None:
            tags["First"] = first
        if seed is not None:
            tags["Seed"] = seed
        return tags
