"""The Nika engine: a record's start read into a state, from the standard position or a
`Position` tag (nika.md, "Position string"). The rules are in `state.py`."""

from __future__ import annotations

from referee.games.api import SetupError, Start
from referee.games.engine import Engine
from referee.games.nika.actions import DIALECT
from referee.games.nika.board import CITIES, LETTERS
from referee.games.nika.state import (
    CITY,
    CLOSED,
    FACING_OF,
    INDEX,
    NAMES,
    PIECE_TEXT,
    PIECES_PER_CITY,
    START,
    VICTORY_SQUARES,
    NikaState,
    code,
)
from referee.games.registry import NIKA
from referee.notation.dialect import Dialect


class NikaEngine(Engine[NikaState]):
    info = NIKA

    def dialect(self) -> Dialect:
        return DIALECT

    def _start(self, start: Start) -> NikaState:
        return read_position(START if start.position is None else start.position)


def read_position(text: str) -> NikaState:
    """A state from a position string (nika.md, "Position string"); SetupError if unreadable."""

    def fail(message: str) -> SetupError:
        return SetupError(message, "Position")

    fields: dict[str, str] = {}
    for field in text.split():
        name, colon, value = field.partition(":")
        key = name.lower() if name.lower() == "to" else NIKA.side(name)
        if not colon or key is None:
            raise fail(f'cannot read "{field}" in the Position: expected W:, R:, B:, K: and to: fields')
        if key in fields:
            raise fail(f'the Position gives "{name}:" twice')
        fields[key] = value
    missing = [LETTERS[i] + ":" for i, city in enumerate(CITIES) if city not in fields]
    if missing or "to" not in fields:
        raise fail(f"the Position lacks {', '.join(missing + ([] if 'to' in fields else ['to:']))}")
    to_move = NIKA.side(fields["to"])
    if to_move is None:
        raise fail(f'"to:{fields["to"]}" names no Nika city')
    board = bytearray(len(NAMES))
    for city, name in enumerate(CITIES):
        entries = [entry for entry in fields[name].split(",") if entry]
        if len(entries) > PIECES_PER_CITY:
            raise fail(f"{name} has {len(entries)} pieces in the Position: a city has {PIECES_PER_CITY}")
        for entry in entries:
            match = PIECE_TEXT.fullmatch(entry.lower())
            if match is None:
                raise fail(f'cannot read the piece "{entry}" in the Position: write a square and a facing, like d1w')
            square_name, facing = match.groups()
            square = INDEX.get(square_name)
            if square is None:
                raise fail(f"{square_name} in the Position is not a square of the board")
            if board[square]:
                raise fail(f"{square_name} holds two pieces in the Position")
            if CLOSED[city & 1][square]:
                raise fail(f"{name}'s piece on {square_name} stands in its enemies' victory area")
            board[square] = code(city, FACING_OF[facing.upper()])
    city = CITIES.index(to_move)
    teams_home = {
        city_index & 1
        for city_index in range(4)
        for square in VICTORY_SQUARES[city_index]
        if board[square] and CITY[board[square]] == city_index
    }
    if len(teams_home) == 2:
        raise fail("both teams stand in their victory areas in the Position: it cannot be played")
    return NikaState(board, city)


ENGINE = NikaEngine()
