"""The values, vocabularies and errors of the game API (re-exported by `games.api`):
small immutable NamedTuples and StrEnums with a good repr, cheap to define."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from referee.games.randomness import effective_seed
from referee.notation.lexicon import shorten
from referee.notation.model import phrase as phrase  # the engines mark their phrases with it

if TYPE_CHECKING:
    import pyparsing as pp

    from referee.notation.dialect import Dialect

Side = str
"""A side's long name, as the verdicts print it: "Red", "Athens"."""


# -- fixed vocabularies ---------------------------------------------------------------
# StrEnum members are `str`s equal to their values, so JSON and text output are unchanged.


class Reason(StrEnum):
    """Why a game ended (NOTATION.md §5)."""

    VICTORY_AREA = "victory-area"
    CAPTURES = "captures"
    SCORE = "score"
    ARMY_DESTROYED = "army-destroyed"
    NO_MOVES = "no-moves"
    LAST_PLAYER = "last-player"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"
    ALL_PASSED = "all-passed"
    REPETITION = "repetition"
    TIME = "time"
    ADJUDICATION = "adjudication"


class PendingKind(StrEnum):
    """What a record leaves unwritten at its end (NOTATION.md §8, Nieuchess)."""

    CHOICE = "choice"
    ROLL = "roll"
    BATTLE = "battle"


class EventKind(StrEnum):
    """What an action caused, for `referee replay`."""

    SETUP = "setup"
    MOVE = "move"
    CHARGE = "charge"
    CAPTURE = "capture"
    REORIENT = "reorient"
    ROUT = "rout"
    PUSH = "push"
    ELIMINATED = "eliminated"
    ELIMINATION = "elimination"
    INVASION = "invasion"
    ODDS = "odds"
    ROLL = "roll"
    RESULT = "result"
    RETREAT = "retreat"
    EXCHANGE = "exchange"
    REPLACEMENT = "replacement"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    WIN = "win"
    END = "end"


# -- values -------------------------------------------------------------------------------


class Outcome(NamedTuple):
    """How a game ended: the winners (none for a draw) and the reason of NOTATION.md §5."""

    winners: tuple[Side, ...]
    reason: Reason

    @property
    def draw(self) -> bool:
        return not self.winners

    def __str__(self) -> str:
        if self.draw:
            return f"draw ({self.reason})"
        verb = "wins" if len(self.winners) == 1 else "win"
        return f"{'+'.join(self.winners)} {verb} ({self.reason})"


class Resign(NamedTuple):
    """`resign`: the side whose turn it is gives up. Shared by every game."""

    def __str__(self) -> str:
        return "resign"


RESIGN = Resign()


_NO_DATA: Mapping[str, object] = MappingProxyType({})


class Event(NamedTuple):
    """Something an action caused, for `referee replay`: a push, a rout, a roll, a capture.

    `text` says it in words; `data` gives its typed fields for scripts (`replay --json`,
    `stats`): docs/replay-json.md lists them by kind. Empty for kinds that have none."""

    kind: EventKind
    text: str
    data: Mapping[str, object] = _NO_DATA

    def __str__(self) -> str:
        return self.text


class Chance(NamedTuple):
    """The roll and result written on an action that carries chance (a Nieuchess battle):
    each None while not yet written (`g6+h6xh7` awaits both)."""

    roll: int | None
    result: str | None

    @property
    def written(self) -> bool:
        return self.roll is not None and self.result is not None


class Randomness(StrEnum):
    """How a game draws randomness from its seeded stream (RANDOM.md)."""

    TILES = "tiles"
    """Dealt once, when the record is made (Numica's tiles): salts go to `new`."""
    DICE = "dice"
    """Drawn during play (Nieuchess's battle dice): salts may come until the first roll."""


class GameInfo(NamedTuple):
    """A game's metadata: what `referee games` lists and what the reader needs to know.

    `labels` maps every accepted side label form, lower case, to the side's long name;
    `short_labels` gives the canonical (short) label of each side for the writer.
    `engine` is the module that defines `ENGINE` (relative to `games`, ".nika"), imported on first use only.
    `randomness`: how the game draws from its seed (None: it has no chance).
    `first_choice`: the players choose who moves first (the `First` tag).

    Facts about the game only: how the tool draws it, shows it in help texts or times it
    lives in the tool (`referee.pictures.<name>`, the command line's examples, the bench).
    """

    name: str
    title: str
    sides: tuple[Side, ...]
    player_counts: tuple[int, ...]
    variants: tuple[str, ...]
    labels: Mapping[str, Side]
    short_labels: Mapping[Side, str]
    engine: str
    randomness: Randomness | None = None
    example_action: str = "pass"
    step_labels: bool = False
    sides_by_players: Mapping[int, tuple[Side, ...]] = {}
    first_choice: bool = False

    @property
    def display(self) -> str:
        """The game's name as a sentence writes it: "Numica"."""
        return self.name.capitalize()

    def side(self, label: str) -> Side | None:
        """The long name of the side a label names (any form, any case), or None."""
        return self.labels.get(label.lower())

    def players_text(self) -> str:
        """The player counts in words: "2", "2, 3 or 4"."""
        counts = [str(count) for count in self.player_counts]
        if len(counts) == 1:
            return counts[0]
        return phrase("{first} or {second}", first=", ".join(counts[:-1]), second=counts[-1])

    def sides_for(self, players: int) -> tuple[Side, ...]:
        return self.sides_by_players.get(players, self.sides)

    def dialect(
        self,
        action_pattern: str,
        parse_action: Callable[[str], object],
        action_element: Callable[[], pp.ParserElement],
        spanning_words: tuple[str, ...] = (),
    ) -> Dialect:
        """The game's notation: its labels from this metadata, its actions from the game
        (`spanning_words`: see `notation.Dialect.spanning_words`)."""
        from referee.notation.dialect import Dialect

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
            spanning_words=spanning_words,
        )


class Start(NamedTuple):
    """The tags every game shares, read once by `Engine.new_state` (NOTATION.md §2,
    RANDOM.md §4) and handed to the game's own `_start`.

    `sides` are the sides in play, in turn order from the game's first side; `first` the
    side that moves first (the `First` tag where the game lets players choose, else the
    game's first side); `salts` the (side, salt) pairs in the game's side order; `tags`
    every tag, for the game's own (`Target`, `Tiles`, `CRT`).
    """

    variant: str
    players: int
    sides: tuple[Side, ...]
    first: Side
    seed: str | None
    seed_hash: str | None
    salts: tuple[tuple[Side, str], ...]
    position: str | None
    tags: Mapping[str, str]

    @property
    def stream_seed(self) -> str | None:
        """The seed that names every stream of the record: the `Seed`, followed by the salts
        when there are any (RANDOM.md §4); None without a `Seed`."""
        if self.seed is None:
            return None
        return effective_seed(self.seed, self.salts) if self.salts else self.seed


# -- errors ---------------------------------------------------------------------------------


class RuleError(ValueError):
    """An action or turn that breaks a rule of the game. `message` is in a player's words.

    Written `IllegalActionError("{square} is empty", square=name)`, the message is an English
    template with named parameters: `template` and `params` keep them apart, so that the
    referee can show the message in a player's language (referee/speech.py `rule_text`,
    docs/languages.md) while this package knows nothing of languages. A message written
    whole (no parameters) is its own template."""

    def __init__(self, message: str, /, **params: object) -> None:
        text = message.format(**params) if params else message
        super().__init__(text)
        self.message = text
        self.template = message
        self.params: dict[str, object] = params


def game_word(word: str) -> str:
    """A word of a game (a piece's size) that a message takes as a parameter: as written;
    marked so, the catalogue translates it as it does the sides' names (context `game word`)."""
    return word


class IllegalActionError(RuleError):
    """An action of a valid form that the rules forbid here."""


class IllegalTurnError(RuleError):
    """A problem with a whole turn: a wrong label or round number, a turn cut short,
    pawns left unfought. Reported at the turn's label, with no action text."""


class WrongSideError(IllegalTurnError):
    """A turn labelled with a side that is not to move, or that does not play."""


class TurnOpenError(IllegalTurnError):
    """A turn begun while another is still open (`end_turn` was not called)."""


class TurnNotOpenError(IllegalActionError):
    """An action, or the end of a turn, while no turn is open (`begin_turn` first)."""


class GameOverError(IllegalTurnError, IllegalActionError):
    """A turn or an action after the game has ended."""


class SetupError(ValueError):
    """A tag value the game cannot read (bad Position, unknown Variant, Seed against Tiles).

    It makes the record malformed; `tag` names the tag at fault, when there is one.
    """

    def __init__(self, message: str, tag: str | None = None, /, **params: object) -> None:
        text = message.format(**params) if params else message  # a template, as RuleError's
        super().__init__(text)
        self.message = text
        self.tag = tag


def check_round(expected: int | None, written: int | None) -> None:
    """A written round number must be the turn's round; setup turns (`expected` None)
    carry none. Raises IllegalTurnError; shared so that every game words it alike."""
    if written is None:
        return
    if expected is None:
        raise IllegalTurnError("a setup turn carries no round number")
    if written != expected:  # (by value: `0001.` is round 1; a round of thousands of digits is quoted cut)
        shown = str(written)
        raise IllegalTurnError(
            "this turn is in round {expected}, not round {written}", expected=expected, written=shorten(shown)
        )


MAX_DIGITS = 6
"""The longest whole number a tag or Position field may hold (far below what `int()` refuses)."""


def whole_number(text: str, digits: int = MAX_DIGITS) -> int | None:
    """The value of a whole number written in ASCII digits (at most `digits` of them), else
    None: superscripts and other Unicode digits, signs, spaces and huge numbers are refused."""
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


def quoted(text: str, limit: int = 24) -> str:
    """A tag or field value as a message quotes it: in double quotes, cut after `limit` characters."""
    return f'"{text}"' if len(text) <= limit else f'"{text[:limit]}..."'
