"""Every record of ../shared/conformance gets the verdict its expected.jsonl gives.

Compared as the shared scoring tool compares: status; winners, draw and reason of finished
records; the side to move (and Nieuchess `pending`) of ongoing ones; result_matches; the
round, side and action of the first illegal action; the line of a syntax error.
"""

from __future__ import annotations

import json
from functools import cache

import pytest

from games import registry
from referee.adjudicate import Verdict, adjudicate, read_source
from tests.conftest import CONFORMANCE


def expectations() -> list[dict]:
    rows = []
    for game in registry.GAMES:
        path = CONFORMANCE / game / "expected.jsonl"
        if path.exists():
            rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


@cache
def verdicts(game: str, source: str) -> list[Verdict]:
    data = (CONFORMANCE / game / source).read_bytes()
    return [adjudicate(result, source, index).verdict for index, result in enumerate(read_source(data), 1)]


def side(game: str, name: str | None) -> str | None:
    return None if name is None else registry.GAMES[game].side(name) or name


@pytest.mark.parametrize("expected", expectations(), ids=lambda e: f"{e['game']}/{e['source']}#{e['record']}")
def test_record_gets_the_expected_verdict(expected: dict) -> None:
    game = expected["game"]
    got = verdicts(game, expected["source"])[expected["record"] - 1]
    assert got.status == expected["status"], got
    if got.status == "finished":
        assert sorted(got.winners) == sorted(side(game, w) for w in expected["winners"])
        assert got.draw == expected["draw"]
        assert got.reason == expected["reason"]
    if got.status == "ongoing":
        assert got.to_move == side(game, expected["to_move"])
        assert got.pending == expected.get("pending")
    if got.status in ("finished", "ongoing"):
        assert got.result_matches == expected["result_matches"]
        assert got.turns == expected["turns"]
    if got.status == "illegal":
        assert got.error is not None
        error = expected["error"]
        assert (got.error.round, got.error.side) == (error["round"], side(game, error["side"])), got.error
        assert (got.error.action or "").lower() == (error["action"] or "").lower(), got.error
    if got.status == "malformed":
        assert got.error is not None and got.error.line == expected["error"]["line"], got.error
