"""Writes `derived.py`: the tables `board.Board` works out from the map, as literals.

Importing the engine then reads them (packed: `packing.py`) rather than working them out
again in every process: start-up, issue 34.
After a change to `data/board.txt`, write the file again:

    python -m referee.games.nieuchess.derive

Until then `board.py` sees that the map is not the one the tables came from (`TERRAIN`)
and works the tables out at import, as it did before, and tests/games fails, naming this
command. The file is data only, never edited by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.games.nieuchess.board import SIZE, WIDTH, Board, _data, read_map
from referee.games.nieuchess.packing import pack_numbers, pack_rows

TARGET = Path(__file__).with_name("derived.py")
WRAP = 116


def _text(name: str, text: str) -> list[str]:
    """`name: str = (...)`, the text cut into lines of at most WRAP characters."""
    width = WRAP - 6
    return [f"{name}: str = (", *(f'    "{text[at : at + width]}"' for at in range(0, len(text), width)), ")"]


def source(board: Board) -> str:
    """The text of `derived.py` for a board worked out from its map."""
    rows = [board.terrain[start : start + WIDTH] for start in range(0, SIZE, WIDTH)]
    centres = tuple((centre.star, tuple(sorted(centre.hexes)), centre.side) for centre in board.centres)
    lines = [
        '"""The tables `board.Board` works out from data/board.txt, written by',
        "`python -m referee.games.nieuchess.derive` (never by hand; see derive.py), packed as",
        "`packing.py` says.",
        '"""',
        "",
        "# ruff: noqa",
        "",
        "TERRAIN: str = (",
        *(f'    "{row}"' for row in rows),
        ")",
        *_text("NEIGHBOURS", pack_rows(board.neighbours)),
        *_text("STEPS", pack_rows(board.steps)),
        *_text("HOT_STEPS", pack_rows(board.hot_steps)),
        *_text("AXIAL", pack_rows(board.axial, signed=True)),
        *_text("RED", pack_numbers(board.red)),
        *_text("PASSABLE", pack_numbers(board.passable)),
        *_text("HOT", pack_numbers(board.hot)),
        *_text("EMBARKATION", pack_numbers(board.embarkation)),
        *_text("HALF", pack_numbers(board.half)),
        f"CENTRES: tuple[tuple[int, tuple[int, ...], int], ...] = {centres!r}",
    ]
    return "\n".join(lines) + "\n"


def main() -> int:
    TARGET.write_text(source(Board(read_map(_data("board.txt")), derive=True)), encoding="utf-8")
    print(f"wrote {TARGET}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
