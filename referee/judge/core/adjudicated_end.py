"""The `adjudicated` termination (LEAGUE.md §6, NOTATION.md §3, §9): a game decided at a
season's end, by the rule its `{[%adjudicated RULE RESULT]}` names.

`check` recomputes `draw` and `score` from the position the record reached, takes `gm` as
the game master's word, and calls illegal (at the comment's `{`) an adjudication that its
rule does not give. The league's `close` asks `decision` for what to write, so the two
can never disagree."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from referee.games.api import GameState, Side
from referee.notation.comment_commands import Command, CommandSyntaxError, read_commands, write_commands

COMMAND = "adjudicated"
"""The comment command's name: `{[%adjudicated RULE RESULT]}`."""


class Rule(StrEnum):
    """How an unfinished game is decided at the season's end (`adjudication` in league.toml)."""

    DRAW = "draw"
    SCORE = "score"
    GM = "gm"


class Refusal(ValueError):
    """A decision that cannot stand: its message says why, for a player."""


class Decision(NamedTuple):
    """A decision: its rule and its winners (none: a draw)."""

    rule: Rule
    winners: tuple[Side, ...]

    @property
    def result(self) -> str:
        """The result as a `Result` tag value: `draw` or the winners joined by `+`."""
        return "+".join(self.winners) if self.winners else "draw"

    @property
    def command(self) -> Command:
        return Command(COMMAND, (self.rule.value, self.result))


def read_result(state: GameState[Any], text: str) -> tuple[Side, ...]:
    """A `Result` value of a decided game: `draw`, or sides of the game still in it joined by `+`."""
    words = text.strip()
    if words.lower() == "draw":
        return ()
    if not words or words == "*":
        raise Refusal(f"an adjudication gives a result, not {words or 'nothing'!r}")
    sides: list[Side] = []
    for part in words.split("+"):
        side = state.info.side(part.strip())
        if side is None or side not in state.sides:
            raise Refusal(f"{words!r} names no side of {state.info.name}: {part.strip()!r}")
        if not state.in_game(side):
            raise Refusal(f"{side} has left the game and cannot win it")
        if side not in sides:
            sides.append(side)
    playing = [side for side in state.sides if state.in_game(side)]
    if len(playing) > 1 and set(sides) == set(playing):
        raise Refusal(f"{words!r} names every side still in the game: that is a draw (write draw)")
    return tuple(side for side in state.sides if side in sides)


def by_rule(state: GameState[Any], rule: Rule) -> tuple[Side, ...]:
    """The winners that `draw` or `score` gives in the position `state` (none: a draw).
    Score: the highest score among the sides still in the game wins; equal highest share a
    draw. Raises Refusal for a game that keeps no score, and for `gm` (no rule to compute)."""
    if rule is Rule.DRAW:
        return ()
    if rule is Rule.GM:
        raise Refusal("adjudication by gm needs the game master's decision (league adjudicate)")
    scores = state.adjudication_scores()
    if scores is None:
        raise Refusal(f"adjudication by score: {state.info.name} keeps no score")
    top = max(scores.values(), default=0)
    leaders = tuple(side for side, score in scores.items() if score == top)
    return leaders if len(leaders) == 1 else ()


def scores_text(state: GameState[Any]) -> str:
    """The scores `score` ranked, for messages: `Red 5, Blue 3`."""
    scores = state.adjudication_scores() or {}
    return ", ".join(f"{side} {score}" for side, score in scores.items())


def decision(state: GameState[Any], rule: Rule, given: str | None = None) -> Decision:
    """The decision to write for an unfinished game: by `draw` or `score` as the rule
    gives it; by `gm` the result `given` (required), read against the game."""
    if rule is Rule.GM:
        if given is None:
            raise Refusal("adjudication by gm needs the game master's decision (league adjudicate)")
        return Decision(rule, read_result(state, given))
    return Decision(rule, by_rule(state, rule))


def command_of(text: str) -> Command | None:
    """The `%adjudicated` command of a braced comment's text, if it holds one."""
    try:
        commands = read_commands(text)
    except CommandSyntaxError:
        return None
    return next((command for command in commands if command.name == COMMAND), None)


def judged(state: GameState[Any], command: Command) -> tuple[Side, ...]:
    """The winners of a written `%adjudicated RULE RESULT`, checked against its rule in
    the position `state`; Refusal (with the message of the illegal verdict) when the rule
    does not give it."""
    if len(command.args) != 2:
        raise Refusal("%adjudicated takes a rule (draw, score or gm) and a result")
    rule_word, result = command.args
    try:
        rule = Rule(rule_word.lower())
    except ValueError:
        raise Refusal(f"%adjudicated: unknown rule {rule_word!r} (draw, score or gm)") from None
    written = read_result(state, result)
    if rule is Rule.GM:
        return written
    given = by_rule(state, rule)
    if set(given) != set(written):
        gives = "+".join(given) if given else "a draw"
        basis = f" ({scores_text(state)})" if rule is Rule.SCORE else ""
        raise Refusal(f"adjudication by {rule.value} gives {gives}{basis}, not {result}")
    return given


def write_command(decision: Decision) -> str:
    """The comment's text for a decision: `[%adjudicated RULE RESULT]`."""
    return write_commands([decision.command])
