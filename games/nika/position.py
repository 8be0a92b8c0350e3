"""A Nika position as data and as text: the board is a bytearray over the whole rectangle
of the map, 0 for an empty square, else a piece code `1 + 4 * city + facing`; here are the
tables the rules read it with, the Position string (nika.md, "Position string") read and
written, and the ring drawn as text. `state.py` plays the rules on it."""

from __future__ import annotations

import re

from referee.games.api import SetupError
from referee.games.nika.board import BOARD, CITIES, FACINGS, LETTERS
from referee.games.registry import NIKA

PIECES_PER_CITY = 6
START = "W:d1w,i1e,d2w,i2e,d3w,i3e R:a4s,b4s,c4s,a7n,b7n,c7n B:d8w,i8e,d9w,i9e,d10w,i10e K:j4s,k4s,l4s,j7n,k7n,l7n to:W"

WIDTH = BOARD.width
NAMES = BOARD.names
INDEX = BOARD.index()
CENTRAL = BOARD.central()
STEP = BOARD.step
VICTORY = BOARD.victory_owner
RALLY_SQUARES = tuple(BOARD.area(BOARD.rally_owner, city) for city in range(4))
VICTORY_SQUARES = tuple(BOARD.area(VICTORY, city) for city in range(4))
CLOSED = tuple(tuple(owner >= 0 and owner & 1 != team for owner in VICTORY) for team in (0, 1))
"""CLOSED[team][square]: the square is a victory area of the other team."""

CITY = (-1,) + tuple(code >> 2 for code in range(16))
FACING = (-1,) + tuple(code & 3 for code in range(16))
TEAM = (-1,) + tuple((code >> 2) & 1 for code in range(16))
FACING_OF = {letter: i for i, letter in enumerate(FACINGS)}
PIECE_TEXT = re.compile(r"([a-z]\d{1,2})([nesw])")


def code(city: int, facing: int) -> int:
    return 1 + 4 * city + facing


CITY_BYTE = tuple(bytes((city,)) for city in range(4))
"""The city to move as the last byte of a position's key (see `NikaState._key`)."""
CODE = tuple(tuple(code(city, facing) for facing in range(4)) for city in range(4))
"""CODE[city][facing]: the piece code, as a table for the hot paths."""


def read_board(text: str) -> tuple[bytearray, int]:
    """The board and the city to move of a position string (nika.md, "Position string");
    SetupError if unreadable."""

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
    return board, city


def position_text(board: bytearray, city: int) -> str:
    """The position string of `board` with `city` to move (what `read_board` reads)."""
    fields = []
    for owner, letter in enumerate(LETTERS):
        pieces = [
            f"{NAMES[i]}{FACINGS[FACING[piece]].lower()}"
            for i, piece in enumerate(board)
            if piece and CITY[piece] == owner
        ]
        fields.append(f"{letter}:{','.join(pieces)}")
    fields.append(f"to:{LETTERS[city]}")
    return " ".join(fields)


def board_lines(board: bytearray) -> list[str]:
    """The ring drawn as text, rank 10 at the top, files named above and below: `W^` is an
    Athens piece facing north; [..] marks a victory area, (..) a rally area, ## the central
    area."""
    arrows = "^>v<"
    header = "      " + "".join(f" {file}  " for file in BOARD.files)
    lines = [header.rstrip()]
    for rank in range(BOARD.height, 0, -1):
        cells = []
        for file in range(WIDTH):
            square = (rank - 1) * WIDTH + file
            if not BOARD.playable[square]:
                cells.append(" ## ")
                continue
            piece = board[square]
            inner = f"{LETTERS[CITY[piece]]}{arrows[FACING[piece]]}" if piece else " ."
            if VICTORY[square] >= 0:
                cells.append(f"[{inner if piece else LETTERS[VICTORY[square]] + ' '}]")
            elif BOARD.rally_owner[square] >= 0:
                cells.append(f"({inner if piece else LETTERS[BOARD.rally_owner[square]].lower() + ' '})")
            else:
                cells.append(f" {inner} ")
        lines.append(f"{rank:>3}   " + "".join(cells).rstrip())
    lines.append(header.rstrip())
    return lines
