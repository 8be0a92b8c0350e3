"""The values of a record's tags: its start state, or the first of its tags whose value
cannot be read, and of several errors that make a record malformed, the first in the text
(NOTATION.md §5, amended: "by line and column", whatever its kind).

A record is malformed by a token that fits no form or a repeated tag (the reader's
`NotationError`), or by a tag value its game cannot read: the game's own (`SetupError`
from `Engine.new_state`: `Variant`, `Players`, `First`, a seed, `Position`, `Tiles`...),
a clock's (`TimeControl`, `Start`) or a `Result` naming no side. Every path that gives a
verdict (the record model, the streamed detailed path) asks `first_problem` here, so they
agree. Tags stand before the move text, so a tag's problem comes before any in the move
text; among tags, each is read with those before it in the game's reading order, and one
that cannot be read is then read as absent (its default) while the others are read on:
the first in the text of those found is named (docs/notation.md)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from referee.games import registry
from referee.games.api import GameState, SetupError, Side, quoted
from referee.notation.model import NotationError, Span, Tag

Problem = tuple[Span, str]
"""Where a record stops being readable, and why."""


def first(problems: Iterable[Problem | None]) -> Problem | None:
    """The problem first in the text (by line, then column), or None when there is none."""
    found = [problem for problem in problems if problem is not None]
    return min(found, key=lambda problem: tuple(problem[0])) if found else None


def notation_problem(error: NotationError | None) -> Problem | None:
    """A reader's error as a problem."""
    return None if error is None else (error.span, error.message)


def first_problem(
    game: str, tags: Sequence[Tag], where: Span, *problems: Problem | None
) -> tuple[GameState[Any] | None, Problem | None]:
    """The start state of a record of `game` with `tags` (it starts at `where`), or None
    when it cannot be made; and the first in the text of the problems its tag values
    have and `problems` (the reader's, the clock's stamps...), or None when there is none."""
    state, problem = tag_problem(game, tags, where)
    return state, first((problem, *problems))


def tag_problem(game: str, tags: Sequence[Tag], where: Span) -> tuple[GameState[Any] | None, Problem | None]:
    """The start state of a record of `game` with `tags`, and the first in the text of its
    tags whose value cannot be read (None, and the state, when all can be)."""
    values = {tag.name: tag.value for tag in tags}
    spans: dict[str, Span] = {}
    for tag in tags:
        spans.setdefault(tag.name, tag.span)
    problems: list[Problem] = []
    engine = registry.engine(game)
    state: GameState[Any] | None = None
    while True:
        try:
            state = engine.new_state(values)
            break
        except SetupError as error:
            name = error.tag
            if not name or name not in values:  # a problem of the record as a whole, or of a tag read as absent
                if not problems:
                    problems.append((where, error.message))
                break
            problems.append((spans[name], error.message))
            del values[name]  # read as absent: the tags after it are read on
    sides = state.sides if state is not None else _sides(game, values)
    if "TimeControl" in values or "Start" in values:
        problems += _clock_problems(values, spans)
    unread = unreadable_result(game, values.get("Result"), sides)
    if unread is not None:
        problems.append((spans["Result"], unread))
    problem = first(problems)
    return (state if problem is None else None), problem


def _sides(game: str, values: dict[str, str]) -> tuple[Side, ...]:
    """The sides of a record whose start state cannot be made: those of its player count
    if that can be read, else of the game's fewest players."""
    engine = registry.engine(game)
    try:
        players = engine.players(values)
    except SetupError:
        players = engine.info.player_counts[0]
    return engine.info.sides_for(players)


def _clock_problems(values: dict[str, str], spans: dict[str, Span]) -> list[Problem]:
    """The clock tags that cannot be read (TIME.md §1): `Start` is read alone too when
    `TimeControl` cannot be (its value is its own, whatever the control)."""
    from referee.judge.core.clock_walk import ClockTagError, read_setup, read_start_tag

    try:
        read_setup(values)
    except ClockTagError as error:
        problems = [(spans[error.tag], error.message)]  # (it names a tag of the record, always)
        if error.tag == "TimeControl" and "Start" in values:
            try:
                read_start_tag(values["Start"])
            except ClockTagError as also:
                problems.append((spans["Start"], also.message))
        return problems
    return []


_SHOWN = 24  # the longest side label a message quotes whole


def unreadable_result(game: str, claimed: str | None, sides: tuple[Side, ...]) -> str | None:
    """Why a `Result` tag cannot be read (NOTATION.md §9), or None: its values are `*`,
    `draw` and labels of the record's own sides joined by `+`."""
    if claimed is None:
        return None
    text = claimed.strip()
    if text == "*" or text.lower() == "draw":
        return None
    info = registry.GAMES[game]
    for part in text.split("+"):
        name = part.strip()
        if info.side(name) not in sides:
            shown = name if 0 < len(name) <= _SHOWN else quoted(name or claimed, _SHOWN)
            return f"Result names no side of {game}: {shown}"
    return None
