"""What a game package exports as `ENGINE` (`games.api` has the state it makes): its
metadata, its notation and chance syntax, and its start states from a record's tags."""

from __future__ import annotations

import abc
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, final

from referee.games.api import GameState
from referee.games.randomness import salt_tag, seed_hash
from referee.games.values import (
    Chance,
    Event,
    GameInfo,
    PendingKind,
    SetupError,
    Side,
    Start,
    quoted,
    whole_number,
)

if TYPE_CHECKING:
    from referee.notation.dialect import Dialect

# -- engines ------------------------------------------------------------------------------------

StateT = TypeVar("StateT", bound=GameState[Any], covariant=True)


@dataclass(frozen=True)
class ChanceSyntax:
    """How a game writes chance on an action's text (a battle's roll, its result and the
    choices after them), for live play: what `moves` and did-you-mean strip while the dice
    are secret, how a submission completes a battle awaiting its roll or choice, and how
    the mail gateway sees a written roll. `Engine.chance_syntax` gives it (None: no chance
    is ever written), so that `referee/` holds no game's roll syntax. The patterns are
    regular expressions over an action's text (`chance`: what chance adds to an action
    declared bare, to its end; `roll` and `choice`: a roll or choice part) and over move
    text (`written_roll`); `declared` and `rolled` are an example without and with its roll."""

    chance: str
    roll: str
    choice: str
    written_roll: str
    declared: str
    rolled: str
    part: str = ""
    """A roll or choice (or several) written alone at the start of a submission (PLAY.md
    §1.5), before the end of its token; empty: `LONE_PART`."""

    def bare(self, text: str) -> str:
        """The action as declared, its roll, result and choices left out (`g6+h6xh7`)."""
        return re.sub(self.chance, "", text)

    def awaited_part(self, rest: str, pending: PendingKind) -> str:
        """The part a submission writes alone to give what a battle awaits, from `rest`,
        what a completion of the battle adds to its text: the winner's choice while a choice
        is awaited, the roll while a roll is (`rest` whole when it holds neither)."""
        found = re.search(self.choice if pending == PendingKind.CHOICE else self.roll, rest)
        return found.group(0) if found else rest

    def writes_roll(self, text: str) -> bool:
        """Whether `text` (move text, its comments taken out) writes a roll on an action."""
        return re.search(self.written_roll, text) is not None


LONE_PART = r"(?:#\d+(?:=\w+)?(?:\([^)\s]*\))?|=\w+(?:\([^)\s]*\))?|\([^)\s]*\))"
"""What a submission of any game may write alone at its start as a battle's roll, result or
choice (`#4`, `=DB2`, `(h7-h8-h9)`): the form PLAY.md §1.5 gives. A game whose actions carry
no chance still reads it, so that `play` refuses it in the same words for every game
("nothing awaits ..."); a game with chance may narrow it (`ChanceSyntax.part`)."""

SEED_HASH = re.compile(r"sha256:[0-9a-f]{64}", re.IGNORECASE)


class Engine(abc.ABC, Generic[StateT]):
    """What a game package exports as `ENGINE`: its metadata, syntax and start states."""

    info: ClassVar[GameInfo]

    # Chance written on actions (a battle's die and result), for live play: a game whose
    # actions carry none keeps these defaults. `referee.live` asks only these hooks.

    def chance_of(self, action: object) -> Chance | None:
        """The roll and result written on `action` when it is an action that carries chance
        (a battle), else None."""
        return None

    def with_chance(self, action: object, roll: int, result: str) -> object:
        """`action` (one whose `chance_of` is not None) with this roll and result written in."""
        raise TypeError(f"{self.info.name} actions carry no roll: {action!r}")

    def choice_by_opponent(self, action: object, events: Sequence[Event]) -> bool:
        """Whether the choice written on `action` (a retreat) is the opposing side's to make,
        given the events its battle caused."""
        return False

    def spelled_out(self, state: Any, action: object) -> object:
        """`action` (legal in `state`, before it is applied) in the longest form the game's
        notation allows for it, for records of that shape (`referee bench --shape long`):
        the same action, unchanged, unless the game has a longer way to write it."""
        return action

    def preference(self, state: Any, action: object) -> int:
        """How strongly a player with a purpose picks `action` (legal in `state`, before it
        is applied) over the others, as a whole-number weight (0: only when every action
        weighs 0), for the bench's purposeful records (`referee bench`, issue 52): what a
        game's players go for (advances, pushes, captures, battles) weighs more. 1 for
        every action, the default, is uniform random play."""
        return 1

    def preferences(self, state: Any, actions: Sequence[object]) -> list[int]:
        """`preference` of each of `actions` (all legal in `state`), in order: a game may
        work out at once what its actions' weights share (the bench's purposeful playouts
        weigh every legal action at every step)."""
        return [self.preference(state, action) for action in actions]

    def chance_syntax(self) -> ChanceSyntax | None:
        """How chance is written on this game's actions; None for a game whose actions
        carry none."""
        return None

    @final
    def lone_part(self) -> str:
        """The pattern of a roll or choice written alone at the start of a submission: the
        game's own (`ChanceSyntax.part`), else `LONE_PART`."""
        syntax = self.chance_syntax()
        return syntax.part if syntax is not None and syntax.part else LONE_PART

    @abc.abstractmethod
    def dialect(self) -> Dialect:
        """The `notation.Dialect` that reads and writes this game's actions."""

    @final
    def new_state(self, tags: Mapping[str, str]) -> StateT:
        """The start state from a record's tags. Raises SetupError for a tag value it
        cannot read, naming the tag."""
        return self._start(self.read_start(tags))

    @abc.abstractmethod
    def _start(self, start: Start) -> StateT:
        """Hook: the game's start state from the common tags (and its own, in `start.tags`)."""

    @final
    def read_start(self, tags: Mapping[str, str]) -> Start:
        """The common tags of a record, checked (SetupError naming the tag otherwise)."""
        variant = self.variant(tags)
        players = self.players(tags)
        sides = self.info.sides_for(players)
        first = self._first(tags, sides)
        seed: str | None = None
        commitment: str | None = None
        salts: list[tuple[Side, str]] = []
        if self.info.randomness is not None:  # else `Seed`, `SeedHash` and salts are tags it does not use: ignored
            seed, commitment = self._seed(tags)
            for side in self.info.sides:
                salt = tags.get(salt_tag(side))
                if side in sides and salt is not None:
                    if not salt:
                        raise SetupError(
                            "the {tag} tag is empty: a salt is any non-empty text", salt_tag(side), tag=salt_tag(side)
                        )
                    salts.append((side, salt))
        return Start(
            variant=variant,
            players=players,
            sides=sides,
            first=first,
            seed=seed,
            seed_hash=commitment,
            salts=tuple(salts),
            position=tags.get("Position"),
            tags=MappingProxyType(dict(tags)),
        )

    def variant(self, tags: Mapping[str, str]) -> str:
        """The record's `Variant` (default `standard`), one the game declares."""
        written = tags.get("Variant")
        if written is None and "standard" in self.info.variants:
            return "standard"  # (most records name none)
        variant = ("standard" if written is None else written).strip().lower()
        if variant not in self.info.variants:
            known = ", ".join(f'"{name}"' for name in self.info.variants)
            raise SetupError(
                "unknown variant {variant}: {game} has {known}",
                "Variant",
                variant=quoted(variant),
                game=self.info.name,
                known=known,
            )
        return variant

    def players(self, tags: Mapping[str, str]) -> int:
        """The record's `Players` (default the fewest the game allows), one it declares."""
        written = tags.get("Players")
        if written is None:
            return self.info.player_counts[0]  # (most records name none)
        text = written.strip()
        count = whole_number(text)
        if count is None or count not in self.info.player_counts:
            raise SetupError(
                "{game} is played by {counts} players, not {written}",
                "Players",
                game=self.info.name,
                counts=self.info.players_text(),
                written=quoted(text),
            )
        return count

    def _first(self, tags: Mapping[str, str], sides: tuple[Side, ...]) -> Side:
        """The `First` tag's side where the players choose (default the game's first side)."""
        text = tags.get("First")
        if text is None or not self.info.first_choice:
            return sides[0]
        side = self.info.side(text.strip())
        if side not in sides:
            raise SetupError(
                "the First tag must name one of {sides}, not {written}",
                "First",
                sides=", ".join(sides),  # each side said in a player's language (speech reads the list)
                written=quoted(text),
            )
        return side

    def _seed(self, tags: Mapping[str, str]) -> tuple[str | None, str | None]:
        """The `Seed` (exactly as written) and the `SeedHash` (normalised), which must agree."""
        commitment = tags.get("SeedHash")
        if commitment is not None:
            commitment = commitment.strip()
            if not SEED_HASH.fullmatch(commitment):
                raise SetupError('a SeedHash reads "sha256:" and 64 hex digits', "SeedHash")
            commitment = commitment.lower()
        seed = tags.get("Seed")
        if seed == "":
            raise SetupError("the Seed tag is empty", "Seed")
        if seed is not None and commitment is not None and seed_hash(seed) != commitment:
            raise SetupError("the Seed does not match the SeedHash published before the game", "Seed")
        return seed, commitment

    def new_tags(self, players: int | None, seed: str | None, first: str | None) -> dict[str, str]:
        """The tags of a fresh record for `referee new` (besides `Game`). `First` only for a
        game whose players choose who moves first."""
        tags: dict[str, str] = {}
        if players is not None and len(self.info.player_counts) > 1:
            tags["Players"] = str(players)
        if first is not None and self.info.first_choice:
            tags["First"] = first
        if seed is not None:
            tags["Seed"] = seed
        return tags

    def keyed(self, state: GameState[Any], tags: Mapping[str, str]) -> GameState[Any] | None:
        """Hook: `state`, replayed from a record whose seed is secret (its `SeedHash` alone:
        the rolls taken as written), as a replay of the same record with `tags` (the game
        master's keyed tags: `Seed` the effective seed, no `SeedHash`, no salts) would
        reach it: a copy drawing its next dice from that seed. None when that cannot be
        sure, the caller then replaying the record with `tags` from its start: a roll used
        so far that is not the seed's die at its place (the keyed replay is illegal there),
        or anything else. The default, for games whose chance is not drawn as they go."""
        return None
