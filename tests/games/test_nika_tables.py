"""Nika's lookup tables hold what the functions they replace compute."""

from __future__ import annotations

from referee.games.nika.squares import CITY, CITY_BYTE, CODE, FACING, code


def test_the_piece_code_table_holds_each_city_and_facing() -> None:
    for city in range(4):
        for facing in range(4):
            piece = CODE[city][facing]
            assert piece == code(city, facing)
            assert (CITY[piece], FACING[piece]) == (city, facing)
        assert CITY_BYTE[city] == bytes((city,))
