"""Tables of small numbers packed into text, and back: how `derived.py` holds the board's
tables so that Python reads them in a fraction of a millisecond whether or not its byte
code is cached (a module of literal tuples takes some 20 ms to compile).

A table is written as 16-bit numbers (little-endian), compressed with zlib and written in
base64. A table of tuples (`pack_rows`) holds its number of rows, where each row ends,
then every row's numbers one after the other.
"""

from __future__ import annotations

import binascii
import sys
import zlib
from array import array


def pack_numbers(values: list[int] | tuple[int, ...] | bytes, signed: bool = False) -> str:
    """A sequence of numbers in -32768..65535 as text."""
    packed = array("h" if signed else "H", list(values))  # (from bytes, `array` would take its raw bytes)
    if sys.byteorder == "big":
        packed.byteswap()
    return binascii.b2a_base64(zlib.compress(packed.tobytes(), 9), newline=False).decode("ascii")


def unpack_numbers(text: str, signed: bool = False) -> list[int]:
    """The numbers `pack_numbers` wrote."""
    packed = array("h" if signed else "H")
    packed.frombytes(zlib.decompress(binascii.a2b_base64(text)))
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tolist()


def pack_rows(rows: tuple[tuple[int, ...], ...], signed: bool = False) -> str:
    """A table of rows of numbers as text."""
    ends, total = [], 0
    for row in rows:
        total += len(row)
        ends.append(total)
    return pack_numbers([len(rows), *ends, *(value for row in rows for value in row)], signed)


def unpack_rows(text: str, signed: bool = False) -> tuple[tuple[int, ...], ...]:
    """The table `pack_rows` wrote."""
    values = unpack_numbers(text, signed)
    count = values[0]
    ends = values[1 : count + 1]
    flat = values[count + 1 :]
    return tuple([tuple(flat[start:end]) for start, end in zip([0, *ends], ends, strict=False)])
