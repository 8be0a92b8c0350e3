"""Nika's lookup tables hold what the functions they replace compute."""

from __future__ import annotations

from referee.games.nika.squares import (
    CITY,
    CITY_BYTE,
    CLOSED,
    CODE,
    FACING,
    INDEX,
    NAMES,
    NEXT_TO,
    STEP,
    VICTORY,
    advance,
    code,
    group_of,
)


def test_the_piece_code_table_holds_each_city_and_facing() -> None:
    for city in range(4):
        for facing in range(4):
            piece = CODE[city][facing]
            assert piece == code(city, facing)
            assert (CITY[piece], FACING[piece]) == (city, facing)
        assert CITY_BYTE[city] == bytes((city,))


def test_a_written_group_is_remembered_as_squares_only_when_they_allow_a_phalanx() -> None:
    assert group_of(("d1", "d2")) == (INDEX["d1"], INDEX["d2"])
    assert group_of(("d1", "d1")) is None  # a square twice
    assert group_of(("d1", "e2")) is None  # diagonal: not joined
    assert group_of(("d1", "z9")) is None  # off the board
    assert group_of(tuple(f"{file}1" for file in "abcdefg")) is None  # more than a city's pieces
    assert group_of(("d1", "d2", "d3", "e3")) == tuple(INDEX[name] for name in ("d1", "d2", "d3", "e3"))


def _groups(size: int) -> set[tuple[int, ...]]:
    """Every joined group of `size` squares of the board, in the canonical order."""
    groups = {(square,) for square in INDEX.values()}
    for _ in range(size - 1):
        groups = {
            tuple(sorted({*group, neighbour}))
            for group in groups
            for square in group
            for neighbour in NEXT_TO[square]
            if neighbour not in group
        }
    return groups


def test_an_advance_is_each_run_stepping_one_square_as_the_rules_say() -> None:
    """`advance` against the runs walked on a board: each run (front first) steps one
    square ahead, its back square left empty."""
    for size in (2, 3, 4):
        for group in _groups(size):
            for direction in range(4):
                fronts, contacts, vacated, clear, reached, wins = advance(group, direction)
                forward, back = STEP[direction], STEP[direction ^ 2]
                runs = []
                for front in group:
                    if forward[front] not in group:
                        run = [front]
                        while back[run[-1]] in group:
                            run.append(back[run[-1]])
                        runs.append(run)
                assert fronts == tuple((run[0], forward[run[0]], len(run)) for run in runs)
                assert contacts == tuple(forward[run[0]] for run in runs)
                on_board = all(forward[run[0]] >= 0 for run in runs)
                for team in (0, 1):
                    assert clear[team] == (on_board and not any(CLOSED[team][c] for c in contacts))
                if not on_board:
                    continue
                walked, stepped = bytearray(len(NAMES)), bytearray(len(NAMES))
                for square in group:
                    walked[square] = stepped[square] = 1
                for run in runs:
                    for square in run:
                        walked[forward[square]] = walked[square]
                    walked[run[-1]] = 0
                for square in vacated:
                    stepped[square] = 0
                for square in contacts:
                    stepped[square] = 1
                assert stepped == walked
                assert set(reached) == {forward[square] for square in group}
                owners = {VICTORY[square] for square in reached} - {-1}
                assert wins == sum(1 << city for city in owners)
