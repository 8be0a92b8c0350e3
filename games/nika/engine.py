"""The Nika engine: a record's start read into a state, from the standard position or a
`Position` tag (nika.md, "Position string"). The rules are in `state.py`."""

from __future__ import annotations

from referee.games.api import SetupError, Start
from referee.games.engine_base import Engine
from referee.games.nika.actions import DIALECT, Pass, PhalanxMove, Rally, Rotate, Step
from referee.games.nika.board import CITIES, LETTERS
from referee.games.nika.squares import (
    CITY,
    CLOSED,
    FACING,
    FACING_OF,
    INDEX,
    NAMES,
    PIECE_TEXT,
    PIECES_PER_CITY,
    START,
    STEP,
    VICTORY_SQUARES,
    code,
)
from referee.games.nika.state import NikaState
from referee.games.registry import NIKA
from referee.notation.dialect import Dialect


class NikaEngine(Engine[NikaState]):
    info = NIKA

    def dialect(self) -> Dialect:
        return DIALECT

    def _start(self, start: Start) -> NikaState:
        return read_position(START if start.position is None else start.position)

    def preference(self, state: object, action: object) -> int:
        """Purposeful play (issue 52): phalanxes advance, above all when they push or
        rout; a piece keeps its place in a phalanx, and a piece alone turns to join one;
        pieces step and rally more than they turn; nobody passes while anything else is
        open."""
        if not isinstance(state, NikaState):
            return 1
        cls = action.__class__
        if cls is PhalanxMove and isinstance(action, PhalanxMove):
            squares = [INDEX[name] for name in action.squares]
            plan = state._plan(squares, FACING_OF[action.direction])
            return PREFERENCE_CONTACT if isinstance(plan, tuple) and (plan[0] or plan[1]) else PREFERENCE_PHALANX
        if cls is Rotate and isinstance(action, Rotate):
            if len(action.squares) > 1:
                return 2
            square = INDEX[action.squares[0]]
            if _in_formation(state, square, FACING[state.board[square]]):
                return 0
            return PREFERENCE_JOIN if _in_formation(state, square, FACING_OF[action.facing]) else 1
        if cls is Step and isinstance(action, Step):
            square = INDEX[action.origin]
            return 0 if _in_formation(state, square, FACING[state.board[square]]) else 2
        return PREFERENCE.get(cls, 1)


def _in_formation(state: NikaState, square: int, facing: int) -> bool:
    """Whether a piece on `square` facing `facing` would stand beside a piece of its city
    facing the same way (a phalanx)."""
    board, city = state.board, CITY[state.board[square]]
    for direction in range(4):
        other = STEP[direction][square]
        if other >= 0 and (piece := board[other]) and CITY[piece] == city and FACING[piece] == facing:
            return True
    return False


PREFERENCE: dict[type, int] = {Rally: 4, Pass: 0}
PREFERENCE_JOIN = 10
"""A piece alone turning to stand in a phalanx."""
PREFERENCE_PHALANX = 12
"""A phalanx move that meets nobody: an advance."""
PREFERENCE_CONTACT = 60
"""A phalanx move that pushes or routs."""


def read_position(text: str) -> NikaState:
    """A state from a position string (nika.md, "Position string"); SetupError if unreadable."""
    fields: dict[str, str] = {}
    for field in text.split():
        name, colon, value = field.partition(":")
        key = name.lower() if name.lower() == "to" else NIKA.side(name)
        if not colon or key is None:
            raise SetupError(
                "cannot read {field} in the Position: expected W:, R:, B:, K: and to: fields",
                "Position",
                field='"' + field + '"',
            )
        if key in fields:
            raise SetupError("the Position gives {field} twice", "Position", field='"' + name + ':"')
        fields[key] = value
    missing = [LETTERS[i] + ":" for i, city in enumerate(CITIES) if city not in fields]
    if missing or "to" not in fields:
        lacking = ", ".join(missing + ([] if "to" in fields else ["to:"]))
        raise SetupError("the Position lacks {fields}", "Position", fields=lacking)
    to_move = NIKA.side(fields["to"])
    if to_move is None:
        raise SetupError("{field} names no Nika city", "Position", field='"to:' + fields["to"] + '"')
    board = bytearray(len(NAMES))
    for city, name in enumerate(CITIES):
        entries = [entry for entry in fields[name].split(",") if entry]
        if len(entries) > PIECES_PER_CITY:
            raise SetupError(
                "{city} has {count} pieces in the Position: a city has {most}",
                "Position",
                city=name,
                count=len(entries),
                most=PIECES_PER_CITY,
            )
        for entry in entries:
            match = PIECE_TEXT.fullmatch(entry.lower())
            if match is None:
                raise SetupError(
                    "cannot read the piece {entry} in the Position: write a square and a facing, like d1w",
                    "Position",
                    entry='"' + entry + '"',
                )
            square_name, facing = match.groups()
            square = INDEX.get(square_name)
            if square is None:
                raise SetupError(
                    "{square} in the Position is not a square of the board", "Position", square=square_name
                )
            if board[square]:
                raise SetupError("{square} holds two pieces in the Position", "Position", square=square_name)
            if CLOSED[city & 1][square]:
                raise SetupError(
                    "{city}'s piece on {square} stands in its enemies' victory area",
                    "Position",
                    city=name,
                    square=square_name,
                )
            board[square] = code(city, FACING_OF[facing.upper()])
    city = CITIES.index(to_move)
    teams_home = {
        city_index & 1
        for city_index in range(4)
        for square in VICTORY_SQUARES[city_index]
        if board[square] and CITY[board[square]] == city_index
    }
    if len(teams_home) == 2:
        raise SetupError("both teams stand in their victory areas in the Position: it cannot be played", "Position")
    return NikaState(board, city)


ENGINE = NikaEngine()
