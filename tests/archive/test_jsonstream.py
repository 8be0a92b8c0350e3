"""JSON values read one after another from a stream, memory bounded by the largest value."""

from __future__ import annotations

import io

from referee.archive.jsonstream import BLOCK, Broken, json_values


def values(data: bytes, limit: int = 10_000) -> list[object]:
    return [value for _, value in json_values(io.BytesIO(data), limit)]


def test_one_value_an_array_and_json_lines() -> None:
    assert values(b' {"a": 1} ') == [{"a": 1}]
    assert values(b'[{"a": 1}, {"b": 2}]') == [{"a": 1}, {"b": 2}]
    assert values(b'{"a": 1}\n{"b": 2}\n') == [{"a": 1}, {"b": 2}]
    assert values(b"") == [] and values(b"[]") == []


def test_a_broken_line_costs_that_line_only() -> None:
    found = values(b'{"a": 1}\n{"b": \n{"c": 3}\n{"d": "\xff"}\n{"e": 5}\n')
    assert found[0] == {"a": 1} and found[2] == {"c": 3} and found[4] == {"e": 5}
    assert found[1] == Broken("line 2, col 7: not JSON: Expecting value")
    assert found[3] == Broken("line 4: bytes that are not UTF-8")


def test_inside_an_array_the_rest_cannot_be_told_apart() -> None:
    found = values(b'[{"a": 1}, {"b": 2} x, {"c": 3}]')
    assert found[:2] == [{"a": 1}, {"b": 2}]
    assert isinstance(found[2], Broken) and found[2].fatal and len(found) == 3
    assert values(b'[{"a": 1}')[-1] == Broken("the JSON array is not closed: its end is missing", fatal=True)


def test_a_value_larger_than_the_limit_is_refused_and_the_next_read() -> None:
    found = values(b'{"a": "' + b"x" * 5000 + b'"}\n{"c": 3}\n', limit=1000)
    assert found == [Broken("larger than 1000 bytes: refused, not read"), {"c": 3}]


def test_values_that_span_many_blocks() -> None:
    big = b'{"a": "' + "é".encode() * BLOCK + b'"}'
    assert values(big + b"\n" + big, limit=10 * BLOCK) == [{"a": "é" * BLOCK}] * 2


def test_a_value_nested_too_deeply_is_broken_not_a_crash() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    found = values(b'{"a": 1}\n{"b": ' + deep + b"}\n" + b'{"c": 3}\n', limit=1_000_000)
    assert found[0] == {"a": 1} and found[2] == {"c": 3}
    assert found[1] == Broken("line 2: nested too deeply to be read")
