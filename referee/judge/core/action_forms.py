"""The forms in which `play` accepts an action at a given point, for `referee moves` and
for did-you-mean: what the one lists and the other suggests, `play` accepts.

The engine enumerates actions as a record holds them; a submission differs in three ways
(PLAY.md §1, §3; docs/play.md):

- a label is implied only for the side to move's ordinary turn, so an action of a
  replacement step is written with its step label (`R+: g4`);
- a battle that awaits its roll or its winner's choice is completed by that part alone,
  written as the battle token would hold it (`#4`, `(h7-h8-h9)`, `(-g6,-h7)`);
- while the seed is secret, no submission writes a roll: a battle is declared bare.

Nothing here names a game or knows how a roll is written: the game's `ChanceSyntax`
(`Engine.chance_syntax`) says, None for a game whose actions carry no chance.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.games import registry
from referee.games.api import GameState, PendingKind, Resign
from referee.games.engine_base import ChanceSyntax
from referee.notation.model import Record, Turn


def secret(tags: Mapping[str, str]) -> bool:
    """Whether the record's seed is secret: committed by `SeedHash`, not yet revealed."""
    return "SeedHash" in tags and "Seed" not in tags


def _unique(texts: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(texts))


def awaited_parts(
    battle: str, completions: Iterable[str], pending: str, hidden: bool, syntax: ChanceSyntax | None
) -> list[str]:
    """What completes `battle` (its canonical text as written), in the form a submission
    gives it (`syntax`, the game's): the winner's choice `(h7-h8-h9)` while a choice is
    awaited, the roll `#4` while a roll is (none while the seed is secret: only the game
    master's key rolls)."""
    if pending == PendingKind.ROLL and hidden:
        return []
    parts = []
    for text in completions:
        if not text.startswith(battle) or len(text) == len(battle):
            continue
        rest = text[len(battle) :]
        parts.append(syntax.awaited_part(rest, PendingKind(pending)) if syntax is not None else rest)
    return _unique(parts)


def _texts(actions: Iterable[object], hidden: bool, syntax: ChanceSyntax | None, label: str = "") -> list[str]:
    texts = (str(action) for action in actions)
    if hidden and syntax is not None:
        texts = (syntax.bare(text) for text in texts)
    return _unique(f"{label}{text}" for text in texts)


def turn_actions(state: GameState[Any], side: str, step: bool) -> list[object] | None:
    """The actions of the turn `side` would begin next (`step`: its replacement step), or
    None when the open turn cannot end or that turn cannot begin."""
    following = state.copy()
    try:
        following.end_turn()
        following.begin_turn(side, step)
    except ValueError:
        return None
    return list(following.legal_actions())


def listed(state: GameState[Any], record: Record) -> list[str]:
    """The actions open to the side to move at the end of a legal, unfinished record, each
    as `play` accepts it there: a choice or roll the game awaits (from whichever side
    gives it), the turn the record left open while its side still has the move, else the
    turn the side to move begins next: its replacement step (with the step label) and its
    ordinary turn. A replacement step of the side that has just moved is not listed."""
    hidden = secret(record.tag_map)
    syntax = registry.engine(record.game).chance_syntax()
    labels = registry.GAMES[record.game].short_labels
    pending = state.pending()
    turns = record.turns
    last: Turn | None = turns[-1] if turns else None
    if pending in (PendingKind.ROLL, PendingKind.CHOICE) and last is not None and last.moves:
        battle = str(last.moves[-1].action)
        completions = [str(action) for action in state.legal_actions() if not isinstance(action, Resign)]
        return awaited_parts(battle, completions, str(pending), hidden, syntax)
    to_move = state.to_move()
    if to_move is None:
        return []
    open_side = last.side if last is not None and last.moves else None
    label = state.next_turn()
    if pending is not None or open_side is None or open_side == to_move:
        actions = state.legal_actions()
        if actions or label is None or pending is not None:
            if last is not None and last.step and last.side == to_move:
                texts = _texts(actions, hidden, syntax, f"{labels[to_move]}+: ")
                return texts + _texts(turn_actions(state, to_move, False) or (), hidden, syntax)
            return _texts(actions, hidden, syntax)
    if label is None:
        return []
    if label == (to_move, True):
        steps = _texts(turn_actions(state, to_move, True) or (), hidden, syntax, f"{labels[to_move]}+: ")
        return steps + _texts(turn_actions(state, to_move, False) or (), hidden, syntax)
    return _texts(turn_actions(state, to_move, False) or (), hidden, syntax)
