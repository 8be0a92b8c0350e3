"""The Nieuchess tables read at import (`derived.py`) are the ones the map gives, and
reading them is all an import does (start-up, issue 34)."""

from __future__ import annotations

import subprocess
import sys

from referee.games.nieuchess import board, derive, derived, hexsets
from referee.games.nieuchess.board import BOARD, GRAY, PLAIN, SIZE, Board, read_map

ATTRIBUTES = ("neighbours", "passable", "steps", "hot", "hot_steps", "red", "embarkation", "half", "axial", "centres")


def _map() -> str:
    return read_map(board._data("board.txt"))


def test_the_derived_file_is_what_the_map_gives_now() -> None:
    written = derive.TARGET.read_text(encoding="utf-8")
    assert written == derive.source(Board(_map(), derive=True)), (
        "games/nieuchess/derived.py is stale: run `python -m referee.games.nieuchess.derive`"
    )


def test_the_board_read_at_import_equals_the_board_worked_out_step_by_step() -> None:
    worked_out = Board(_map(), derive=True)
    assert BOARD.terrain == derived.TERRAIN == worked_out.terrain
    for name in ATTRIBUTES:
        assert getattr(BOARD, name) == getattr(worked_out, name), name
    assert BOARD.neighbours == tuple(board._adjacent(h) for h in range(SIZE))
    assert BOARD.stars == worked_out.stars


def test_another_map_has_its_tables_worked_out_not_read() -> None:
    terrain = _map()
    hex_ = terrain.index(PLAIN, 8 * board.WIDTH)  # a plain hex: graying it changes the steps next to it
    changed = terrain[:hex_] + GRAY + terrain[hex_ + 1 :]
    other = Board(changed)
    assert other.steps != BOARD.steps and not other.passable[hex_]
    assert all(hex_ not in other.steps[near] for near in other.neighbours[hex_])
    for name in ATTRIBUTES:
        assert getattr(other, name) == getattr(Board(changed, derive=True), name), name


def test_the_hex_sets_from_flags_are_those_of_the_hexes_flagged() -> None:
    assert hexsets.PASSABLE == hexsets.hexset(h for h in range(SIZE) if BOARD.passable[h])
    assert hexsets.HOT_LINE == hexsets.hexset(h for h in range(SIZE) if BOARD.hot[h])
    assert hexsets.ENEMY_HALF == (
        hexsets.hexset(h for h in range(SIZE) if BOARD.half[h] != 0),
        hexsets.hexset(h for h in range(SIZE) if BOARD.half[h] != 1),
    )


PROBE = """
import sys
called = set()
def watch(frame, event, arg):
    if event == "call" and "nieuchess" in frame.f_code.co_filename:
        called.add(frame.f_code.co_name)
sys.setprofile(watch)
import referee.games.nieuchess
sys.setprofile(None)
print(" ".join(sorted(called)))
"""


def test_importing_the_engine_works_out_no_table() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60)
    called = set(done.stdout.split())
    assert "<module>" in called  # the probe saw the package's modules run
    builders = {"_derive", "_neighbour_table", "_adjacent", "_axial", "_centres", "_disk", "_within", "hexset"}
    assert not called & builders, sorted(called & builders)
