"""Agreements in the record (PLAY.md §6): draw and undo offers as comment commands, the
players who must agree, and the record after an agreement.

    {[%offer draw Sparta]}   {[%offer undo Red]}

An offer is a player's; it stands until the next action of any side (a stamp, a grant or
another offer does not end it). Offers never make a record illegal: they are how `play`
and the mail gateway decide, not a rule of the game, so this module works on records
alone and leaves every verdict to the engine. Nothing here names a game: who is still in
the game is the engine's `in_game`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from email.utils import getaddresses
from enum import StrEnum

from referee.games import registry
from referee.games.api import Event, EventKind, GameInfo, GameState
from referee.notation.comment_commands import Command, CommandSyntaxError, read_commands, write_commands
from referee.notation.dialect import Dialect
from referee.notation.model import Comment, Record, RecordItem, Span, Turn, TurnItem

OFFER = "offer"
UNDONE = "undone by agreement:"
UNDONE_BY_MASTER = "undone by the game master:"
"""The comment of the game master's `undo` (`play FILE undo` without `--as`), which no player agreed to."""
NOWHERE = Span(1, 1)
_ADDRESS = re.compile(r"[^\s@<>,;:\"()\[\]\\]+@[^\s@<>,;:\"()\[\]\\]+", re.ASCII)


class OfferKind(StrEnum):
    """What a player offers."""

    DRAW = "draw"
    UNDO = "undo"


_KINDS = {kind.value: kind for kind in OfferKind}


@dataclass(frozen=True)
class Offer:
    """One side's offer, as `{[%offer draw Sparta]}` records it (long side name)."""

    kind: OfferKind
    side: str

    @property
    def command(self) -> Command:
        return Command(OFFER, (self.kind.value, self.side))

    def comment(self) -> Comment:
        return Comment(write_commands([self.command]), NOWHERE)

    def __repr__(self) -> str:
        return f"Offer({self.kind.value} by {self.side})"


@dataclass(frozen=True)
class Player:
    """One player: the sides whose tags share an address (or one side with no address),
    in turn order, and the addresses (lower case) that tell them."""

    sides: tuple[str, ...]
    addresses: tuple[str, ...]

    @property
    def name(self) -> str:
        """The player in words, by the sides it holds: `Athens/Messene`."""
        return "/".join(self.sides)

    def __repr__(self) -> str:
        return f"Player({self.name} {', '.join(self.addresses) or 'no address'})"


class AgreementError(ValueError):
    """A take-back that cannot be done: no turn of the record holds an action."""


def offers_in(comment: Comment, info: GameInfo) -> tuple[Offer, ...]:
    """The offers a comment records: `[%offer KIND SIDE]` commands whose KIND is `draw` or
    `undo` and whose SIDE is a side label of the game. A command of another kind or shape,
    a `;` comment, or a braced comment that is not wholly commands records none."""
    if not comment.braced:
        return ()
    try:
        commands = read_commands(comment.text)
    except CommandSyntaxError:
        return ()
    found: list[Offer] = []
    for command in commands:
        if command.name.lower() != OFFER or len(command.args) != 2:
            continue
        kind, label = command.args
        side = info.side(label)
        if kind.lower() in _KINDS and side is not None:
            found.append(Offer(_KINDS[kind.lower()], side))
    return tuple(found)


def _flat(items: Iterable[RecordItem]) -> Iterator[TurnItem | RecordItem]:
    for item in items:
        if isinstance(item, Turn):
            yield from item.items
        else:
            yield item


def standing(record: Record, info: GameInfo) -> tuple[Offer, ...]:
    """The offers written after the record's last action (or its `draw`), in record order."""
    found: list[Offer] = []
    for item in reversed(list(_flat(record.items))):
        if not isinstance(item, Comment):
            break  # an action, or a termination
        found[:0] = offers_in(item, info)
    return tuple(found)


def addresses(value: str) -> tuple[str, ...]:
    """The addresses a side tag holds, lower case: the part in `<...>` (`Ann
    <ann@example.org>`), or the whole value when it is a bare address; several when the
    tag names a team (`Ann <ann@example.org>, Bo <bo@example.org>`)."""
    try:
        pairs = getaddresses([value])
    except Exception:  # the standard parser has raised on odd text in some versions
        return ()
    return tuple(dict.fromkeys(address.lower() for _, address in pairs if _ADDRESS.fullmatch(address)))


def players(record: Record, info: GameInfo, state: GameState[object]) -> tuple[Player, ...]:
    """The players who must agree: sides whose tags share an address are one player, a
    side with no address is a player of its own, and a player whose sides have all left
    the game is none."""
    sides = tuple(state.sides)
    held: dict[str, set[str]] = {side: set() for side in sides}
    for tag in record.tags:
        side = info.side(tag.name)
        if side in held:
            held[side].update(addresses(tag.value))
    groups: list[tuple[list[str], set[str]]] = []
    for side in sides:
        joined = [group for group in groups if group[1] & held[side]]
        merged = ([side], set(held[side]))
        for group in joined:
            merged[0].extend(group[0])
            merged[1].update(group[1])
            groups.remove(group)
        groups.append(merged)
    found = []
    for members, mail in groups:
        if any(state.in_game(side) for side in members):
            ordered = tuple(side for side in sides if side in members)
            found.append(Player(ordered, tuple(sorted(mail))))
    return tuple(sorted(found, key=lambda player: sides.index(player.sides[0])))


def player_of(side: str, everyone: Sequence[Player]) -> Player | None:
    return next((player for player in everyone if side in player.sides), None)


def missing(kind: OfferKind, offers: Iterable[Offer], everyone: Sequence[Player]) -> tuple[Player, ...]:
    """The players without a standing offer of this kind (any of their sides counts)."""
    made = {offer.side for offer in offers if offer.kind is kind}
    return tuple(player for player in everyone if not made & set(player.sides))


def attached(items: Iterable[RecordItem]) -> tuple[RecordItem, ...]:
    """The items as the reader reads them back: a comment after a turn belongs to that
    turn (a turn runs to the next label or `draw`)."""
    out: list[RecordItem] = []
    for item in items:
        last = out[-1] if out else None
        if isinstance(item, Comment) and isinstance(last, Turn):
            out[-1] = last._replace(items=(*last.items, item))
        else:
            out.append(item)
    return tuple(out)


def with_items(record: Record, *extra: RecordItem) -> Record:
    """The record with items appended after its move text, attached as the reader would."""
    return record._replace(items=attached((*record.items, *extra)))


def _without_offers(comment: Comment) -> Comment | None:
    """The comment with its offer commands taken out; None when nothing is left of it."""
    if not comment.braced:
        return comment
    try:
        commands = read_commands(comment.text)
    except CommandSyntaxError:
        return comment
    kept = [command for command in commands if command.name.lower() != OFFER]
    if len(kept) == len(commands):
        return comment
    return Comment(write_commands(kept), comment.span) if kept else None


def _end_offers(items: Sequence[RecordItem], info: GameInfo) -> list[RecordItem]:
    """Every standing offer ended: offer commands after the last action removed."""
    out: list[RecordItem] = []
    acted = False
    for item in reversed(items):
        if acted:
            out.append(item)
        elif isinstance(item, Comment):
            kept = _without_offers(item) if offers_in(item, info) else item
            if kept is not None:
                out.append(kept)
        elif isinstance(item, Turn):
            inner: list[TurnItem] = []
            for sub in reversed(item.items):
                if not acted and isinstance(sub, Comment):
                    kept = _without_offers(sub) if offers_in(sub, info) else sub
                    if kept is not None:
                        inner.append(kept)
                    continue
                acted = acted or not isinstance(sub, Comment)
                inner.append(sub)
            out.append(item._replace(items=tuple(reversed(inner))))
        else:
            acted = True
            out.append(item)
    return list(reversed(out))


@dataclass(frozen=True)
class TakenBack:
    """A record after the undo of its last turn, and the undone turn's text."""

    record: Record
    undone: str
    turn: Turn


def take_back(
    record: Record, info: GameInfo, dialect: Dialect, numbers: Sequence[int | None] = (), by_master: bool = False
) -> TakenBack:
    """Take the last turn holding an action out of the record (PLAY.md §6): its label and
    actions become the comment `{undone by agreement: 14. B: e4-e6}` (glyphs and inner
    comments dropped); comments holding other commands (stamps, grants) in or after it
    stay, after that comment, as do comments after it; labels after it with no action go
    (their commands stay); every standing offer ends. `numbers` are the round numbers the
    canonical form writes on the record's turns, in order (a replay's `numbers`); the
    turn's own is used where they are missing; `by_master`: the game master's undo, written
    `{undone by the game master: ...}`. Raises AgreementError when no turn holds an action."""
    items = list(record.items)
    played = [(i, item) for i, item in enumerate(items) if isinstance(item, Turn) and item.moves]
    if not played:
        raise AgreementError("no turn has been played: there is nothing to take back")
    index, turn = played[-1]
    begun = sum(isinstance(item, Turn) for item in items[:index])
    number = numbers[begun] if begun < len(numbers) else turn.number
    label = dialect.short_labels[turn.side] + ("+" if turn.step else "") + ":"
    head = f"{number}. {label}" if number is not None else label
    undone = " ".join([head, *(str(move.action) for move in turn.moves)])
    kept: list[RecordItem] = [Comment(f"{UNDONE_BY_MASTER if by_master else UNDONE} {undone}", NOWHERE)]
    kept += [sub for sub in turn.items if isinstance(sub, Comment) and _stays(sub)]
    for item in items[index + 1 :]:
        inner = item.items if isinstance(item, Turn) else (item,)
        kept += [sub for sub in inner if isinstance(sub, Comment)]
    ended = _end_offers([*items[:index], *kept], info)
    return TakenBack(record._replace(items=attached(ended)), undone, turn)


def _stays(comment: Comment) -> bool:
    """Whether a comment of an undone turn stays: it holds commands other than offers (a
    stamp, a grant: the clock is not rewound), or it records an earlier undo."""
    if not comment.braced:
        return False
    if comment.text.lstrip().startswith((UNDONE, UNDONE_BY_MASTER)):
        return True
    try:
        commands = read_commands(comment.text)
    except CommandSyntaxError:
        return False
    return any(command.name.lower() != OFFER for command in commands)


def rolls_in(game: str, turn: Turn, events: Iterable[Event]) -> bool:
    """Whether a turn holds a roll or a battle result: written on its actions (`#4`,
    `=DB2`) or drawn for them in the replay (`events` of its actions)."""
    engine = registry.engine(game)
    for move in turn.moves:
        chance = engine.chance_of(move.action)
        if chance is not None and (chance.roll is not None or chance.result is not None):
            return True
    return any(event.kind in (EventKind.ROLL, EventKind.RESULT) for event in events)
