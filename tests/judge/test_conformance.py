"""Every conformance record (the in-repo copy of ../shared/conformance) gets the verdict
its expected.jsonl gives, and the copy is the shared folder byte for byte.

Compared as the shared scoring tool compares: status; winners, draw and reason of finished
records; the side to move (and Nieuchess `pending`) of ongoing ones; result_matches; the
round, side and action of the first illegal action; the line of a syntax error.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import Verdict, adjudicate, read_source
from tests.conftest import CONFORMANCE, CONFORMANCE_GAMES, SHARED, SHARED_CONFORMANCE, conformance_folder

RECORDS = {"nika": 73, "numica": 63, "pikemen": 93, "nieuchess": 43}


def expectations() -> list[dict]:
    """Every expected verdict; a missing data folder fails the collection loudly."""
    rows = []
    for game in registry.GAMES:
        path = conformance_folder(game) / "expected.jsonl"
        rows += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def test_every_game_has_its_conformance_records() -> None:
    assert set(CONFORMANCE_GAMES) == set(registry.GAMES)
    rows = expectations()
    for game, count in RECORDS.items():
        assert sum(1 for row in rows if row["game"] == game) == count, game
    assert len(rows) == 272


def _files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()
    }


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} is absent: nothing to compare the in-repo copy with")
def test_in_repo_copy_matches_shared() -> None:
    """tests/data/conformance/<game>/ is ../shared/conformance/<game>/ byte for byte."""
    assert SHARED_CONFORMANCE.is_dir(), f"{SHARED} exists but holds no conformance/ folder"
    for game in CONFORMANCE_GAMES:
        ours, shared = _files(CONFORMANCE / game), _files(SHARED_CONFORMANCE / game)
        assert sorted(ours) == sorted(shared), f"{game}: the file lists differ (see tests/data/conformance/README.md)"
        changed = [name for name in shared if ours[name] != shared[name]]
        assert not changed, f"{game}: these files differ from ../shared/conformance: {changed}"


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
