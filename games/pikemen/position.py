"""A Pikemen `Position` tag read (pikemen.md): `Red:e1LU,d4SNE Blue:... score:Red=3,Blue=5
to:Red`, its fields in any order. Every message is a template of the catalogue, said
"Position: ..." and naming the Position tag (SetupError)."""

from __future__ import annotations

from typing import NamedTuple

from referee.games.api import SetupError, quoted, whole_number
from referee.games.pikemen.board import FACING_INDEX, SIZE_INDEX, SIZE_WORDS, SQUARE_INDEX, SQUARE_NAMES, STASH, Piece
from referee.games.registry import PIKEMEN


class Position(NamedTuple):
    """What a Position gives: the board, each side's score, the side to move (indices in
    the game's sides)."""

    board: list[Piece | None]
    scores: list[int]
    to_move: int


def read_position(text: str, sides: tuple[str, ...], players: int, target: int) -> Position:
    """The Position of a game of `players` players (its `sides`) played to `target` points."""
    board: list[Piece | None] = [None] * 64
    scores = [0] * len(sides)
    placed: set[str] = set()
    to_move: int | None = None
    has_score = False
    for field in text.split():
        name, colon, value = field.partition(":")
        key = name.lower()
        if not colon:
            raise SetupError(
                'Position: cannot read {field}: fields are like "Red:e1LU,d4SNE", "score:Red=3", "to:Red"',
                "Position",
                field='"' + field + '"',
            )
        if key == "score":
            if has_score:
                raise SetupError('Position: the field "score:" is given twice', "Position")
            has_score = True
            _read_scores(value, sides, scores)
        elif key == "to":
            if to_move is not None:
                raise SetupError('Position: the field "to:" is given twice', "Position")
            side = PIKEMEN.side(value)
            if side not in sides:
                raise SetupError(
                    "Position: {field} names no side of this {players}-player game",
                    "Position",
                    field='"to:' + value + '"',
                    players=players,
                )
            to_move = sides.index(side)
        else:
            side = PIKEMEN.side(name)
            if side is None:
                raise SetupError("Position: unknown field {field}", "Position", field='"' + name + ':"')
            if side not in sides:
                raise SetupError(
                    "Position: {side} does not play in a {players}-player game (see the Players tag)",
                    "Position",
                    side=side,
                    players=players,
                )
            if side in placed:
                raise SetupError("Position: {side}'s pieces are given twice", "Position", side=side)
            placed.add(side)
            _place(board, sides.index(side), value, players)
    missing = [side for side in sides if side not in placed]
    if missing:
        raise SetupError(
            "Position: no field for {sides} (write an empty one, like {field})",
            "Position",
            sides=", ".join(missing),
            field='"' + missing[0] + ':"',
        )
    if to_move is None:
        raise SetupError('Position: the side to move is missing: add a field like "to:Red"', "Position")
    if not any(piece is not None and piece[0] == to_move for piece in board):
        raise SetupError("Position: {side} is to move but has no pieces", "Position", side=sides[to_move])
    if sum(score >= target for score in scores) > 1:
        raise SetupError(
            "Position: more than one side has reached the target of {target} points", "Position", target=target
        )
    return Position(board, scores, to_move)


def _read_scores(value: str, sides: tuple[str, ...], scores: list[int]) -> None:
    """Read `Red=3,Blue=5` into scores; sides left out keep 0."""
    for entry in filter(None, value.split(",")):
        who, equals, points = entry.partition("=")
        side = PIKEMEN.side(who)
        points_value = whole_number(points)
        if not equals or side not in sides or points_value is None:
            raise SetupError(
                'Position: cannot read the score {entry}: write it like "Red=3" for a side in the game',
                "Position",
                entry=quoted(entry),
            )
        scores[sides.index(side)] = points_value


def _place(board: list[Piece | None], owner: int, value: str, players: int) -> None:
    """Put one side's pieces (`e1LU,d4SNE`) on the board, at most a stash of each size."""
    per_size = [0, 0, 0]
    for entry in filter(None, value.split(",")):
        square = SQUARE_INDEX.get(entry[:2].lower())
        size = SIZE_INDEX.get(entry[2:3].upper())
        facing = FACING_INDEX.get(entry[3:].upper())
        if square is None or size is None or facing is None:
            raise SetupError(
                'Position: cannot read the piece {entry}: write square, size S/M/L and facing, like "e1LU"',
                "Position",
                entry='"' + entry + '"',
            )
        if board[square] is not None:
            raise SetupError("Position: {square} holds two pieces", "Position", square=SQUARE_NAMES[square])
        per_size[size - 1] += 1
        if per_size[size - 1] > STASH[players]:
            raise SetupError(
                "Position: more than {stash} {size} pieces for one side in a {players}-player game",
                "Position",
                stash=STASH[players],
                size=SIZE_WORDS[size - 1],
                players=players,
            )
        board[square] = (owner, size, facing)
