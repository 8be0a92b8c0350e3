"""What each command does, as functions returning values: reading files (`-` is standard
input), adjudicating, formatting. The CLI only renders these and picks the exit code."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from games import registry
from games.api import GameState
from notation.model import Malformed, Record, Turn
from referee.adjudicate import Replay, Verdict, adjudicate, read_source


class UsageError(ValueError):
    """A command used wrongly or a file that cannot be read: exit status 2."""


def read_bytes(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {name}: {error.strerror or error}") from None


def _exit_code(verdicts: list[Verdict], problems: list[str], usage: bool) -> int:
    if usage:
        return 2
    if problems or any(not verdict.legal for verdict in verdicts):
        return 1
    return 0


class Checked:
    """Checks files one record at a time, so that verdicts stream out of a long batch as
    they are reached; afterwards it holds every verdict, the problems with the inputs
    (unreadable files, files with no record) and the exit status."""

    def __init__(self, names: list[str], annotate: bool = False) -> None:
        self.names = names
        self.annotate = annotate
        self.verdicts: list[Verdict] = []
        self.problems: list[str] = []
        self._unreadable = False

    def __iter__(self) -> Iterator[Verdict]:
        for name in self.names:
            try:
                data = read_bytes(name)
            except UsageError as error:
                self.problems.append(str(error))
                self._unreadable = True
                continue
            results = read_source(data)
            if not results:
                self.problems.append(f'{name}: no record found (a record starts with [Game "..."])')
            for index, result in enumerate(results, start=1):
                replayed = adjudicate(result, name, index)
                verdict = _annotate(replayed) if self.annotate else replayed.verdict
                self.verdicts.append(verdict)
                yield verdict

    @property
    def exit_code(self) -> int:
        return _exit_code(self.verdicts, self.problems, self._unreadable)


def check_files(names: list[str], annotate: bool = False) -> Checked:
    """The verdicts of every record of every file, as they are reached; `annotate` adds
    the turn token and did-you-mean suggestions (referee.play)."""
    return Checked(names, annotate)


def _annotate(replayed: Replay) -> Verdict:
    from referee.play.annotate import annotate

    return annotate(replayed)


def _one(name: str, index: int, **options: Any) -> Replay:
    """One record of a file, replayed."""
    results = read_source(read_bytes(name))
    if not results:
        raise UsageError(f'{name}: no record found (a record starts with [Game "..."])')
    if index > len(results):
        raise UsageError(f"{name} holds {len(results)} record(s), not {index}")
    return adjudicate(results[index - 1], name, index, **options)


def _verdict_line(verdict: Verdict) -> str:
    from referee import report

    return report.line(verdict)


def replay_text(name: str, index: int) -> tuple[str, int]:
    """Every action with its consequences, the final board and the verdict."""
    replay = _one(name, index, keep_steps=True)
    lines: list[str] = []
    turn: Turn | None = None
    for played in replay.steps:
        if played.turn is not turn:
            turn = played.turn
            where = "setup" if played.round is None else f"round {played.round}"
            lines.append(f"{where}, {turn.side}{' (replacement step)' if turn.step else ''}:")
        lines.append(f"  {played.move.text}")
        lines.extend(f"    {event}" for event in played.events)
    if replay.state is not None:
        lines += ["", replay.state.render()]
    lines += ["", _verdict_line(replay.verdict)]
    return "\n".join(lines), 0 if replay.verdict.legal else 1


class Shown(NamedTuple):
    verdict: Verdict
    state: GameState | None
    at: int | None

    @property
    def exit_code(self) -> int:
        return 0 if self.verdict.legal or self.at is not None and self.state is not None else 1

    def text(self) -> str:
        if self.state is None:
            return _verdict_line(self.verdict)
        heading = f"after round {self.at}" if self.at is not None else "at the end of the record"
        token = f"\ntoken: {self.verdict.token}" if self.verdict.token else ""
        board = f"{heading}:\n{self.state.render()}\nposition: {self.state.position()}"
        return f"{board}{token}\n{_verdict_line(self.verdict)}"

    def as_json(self) -> dict[str, Any]:
        from referee import report

        return {
            "position": None if self.state is None else self.state.position(),
            "to_move": None if self.state is None else self.state.to_move(),
            "board": None if self.state is None else self.state.render(),
            "token": self.verdict.token,
            "verdict": report.as_json(self.verdict),
        }


def show(name: str, index: int, at: int | None) -> Shown:
    replay = _one(name, index, until_round=at)
    return Shown(replay.verdict if at is not None else _annotate(replay), replay.state, at)


class Listed(NamedTuple):
    verdict: Verdict
    actions: list[str]

    @property
    def exit_code(self) -> int:
        return 0 if self.verdict.legal else 1

    def text(self) -> str:
        if self.verdict.status in ("illegal", "malformed"):
            return _verdict_line(self.verdict)
        if self.verdict.status == "finished":
            return f"no legal actions: the game is over\n{_verdict_line(self.verdict)}"
        header = f"{self.verdict.to_move} to move: {len(self.actions)} legal action(s)"
        return "\n".join([header, *self.actions])

    def as_json(self) -> dict[str, Any]:
        from referee import report

        return {"to_move": self.verdict.to_move, "actions": self.actions, "verdict": report.as_json(self.verdict)}


def next_actions(state: GameState, open_side: str | None = None) -> list[object]:
    """The actions open to the side to move: in the turn the record left open (labelled
    `open_side`) while that side still has the move, else in the turn that begins next."""
    label = state.next_turn()
    if open_side is None or open_side == state.to_move():
        actions = state.legal_actions()
        if actions or label is None:
            return actions
    if label is None:
        return []
    following = state.copy()
    try:
        following.end_turn()
        following.begin_turn(*label)
    except ValueError:
        return []
    return following.legal_actions()


def moves(name: str, index: int) -> Listed:
    replay = _one(name, index)
    actions: list[str] = []
    if replay.state is not None and replay.record is not None and replay.verdict.status == "ongoing":
        turns = replay.record.turns
        open_side = turns[-1].side if turns and turns[-1].moves else None
        actions = [str(action) for action in next_actions(replay.state, open_side)]
    return Listed(replay.verdict, actions)


class Formatted:
    """Records in canonical form, problems met, and the exit status."""

    def __init__(self) -> None:
        self.text = ""
        self.problems: list[str] = []
        self.exit_code = 0


def canonical(record: Record) -> str:
    """The record in canonical form, its round numbers set from a replay (turns past an
    illegal action keep the numbers they were written with)."""
    from notation import writer

    numbers = adjudicate(record).numbers
    items = tuple(
        item._replace(number=numbers[id(item)]) if isinstance(item, Turn) and id(item) in numbers else item
        for item in record.items
    )
    return writer.write(record._replace(items=items), registry.engine(record.game).dialect())


def format_files(names: list[str]) -> Formatted:
    formatted = Formatted()
    usage = False
    pieces: list[str] = []
    for name in names:
        try:
            data = read_bytes(name)
        except UsageError as error:
            formatted.problems.append(str(error))
            usage = True
            continue
        from notation.reader import split_records

        chunks = split_records(data)
        results = read_source(data)
        if not results:
            formatted.problems.append(f'{name}: no record found (a record starts with [Game "..."])')
        for index, (result, (_, chunk)) in enumerate(zip(results, chunks, strict=False), start=1):
            if isinstance(result, Malformed):
                formatted.problems.append(f"{name}:{index}: malformed, passed through as read: {result.error}")
                pieces.append(chunk.decode("utf-8", "replace").rstrip("\n") + "\n")
            else:
                pieces.append(canonical(result))
    formatted.text = "\n".join(pieces)
    formatted.exit_code = 2 if usage else (1 if formatted.problems else 0)
    return formatted


def new_record(game: str, players: int | None, seed: str | None, first: str | None, tags: list[str]) -> str:
    """A fresh record's tags; a fresh random seed for games that draw randomness."""
    from notation import writer
    from notation.model import Span, Tag

    info = registry.info(game)
    if info is None:
        raise UsageError(f'unknown game "{game}": choose one of {", ".join(registry.GAMES)}')
    if players is not None and players not in info.player_counts:
        raise UsageError(f"{info.name} is played by {info.players_text()} players, not {players}")
    if first is not None and info.side(first) is None:
        raise UsageError(f'"{first}" is not a side of {info.name}')
    if seed is None and info.randomness is not None:
        import secrets

        seed = secrets.token_hex(8)
    engine = registry.engine(info.name)
    values = {"Game": info.name, **engine.new_tags(players, seed, info.side(first) if first else None)}
    for entry in tags:
        name, equals, value = entry.partition("=")
        if not equals or not name.isidentifier():
            raise UsageError(f'--tag takes NAME=VALUE, not "{entry}"')
        values[name] = value
    span = Span(1, 1)
    dialect = engine.dialect()
    return writer.write_tags(writer.ordered_tags([Tag(k, v, span) for k, v in values.items()], dialect))
