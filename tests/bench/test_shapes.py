"""The bench corpora's shapes (`referee.bench.records.SHAPES`): the long shape writes every
Nieuchess move hex by hex, with long turns, every roll and replacement steps, all legal."""

from __future__ import annotations

import re

import pytest

from referee.bench.records import SHAPES, read_shape, shaped_play
from referee.judge.adjudicate import adjudicate, read_source
from referee.judge.errors import UsageError

TURN = re.compile(r"^(?:\d+\. )?[RB](\+?):(.*)$", re.MULTILINE)


MOVE = re.compile(r"[a-y]\d+(?:-[a-y]\d+)+")
BATTLE = re.compile(r"([a-y]\d+(?:\+[a-y]\d+)*)x[a-y]\d+(?:\+[a-y]\d+)*(.*)")
INVASION = re.compile(r"[a-y]\d+>[a-y]\d+")


def test_long_nieuchess_records_write_rides_hex_by_hex_and_are_legal() -> None:
    text = "\n".join(shaped_play("nieuchess", None, f"shape-{i}", "long").text for i in range(2))
    for index, result in enumerate(read_source(text.encode()), start=1):
        assert adjudicate(result, "t.rgn", index).verdict.status in ("ongoing", "finished")
    main = [words.split() for step, words in TURN.findall(text) if not step and "setup" not in words]
    words = [word for turn in main for word in turn]
    moves = [word for word in words if MOVE.fullmatch(word)]
    battles = [found for word in words if (found := BATTLE.fullmatch(word))]
    assert len(moves) + len(battles) + sum(bool(INVASION.fullmatch(word)) for word in words) == len(words)
    assert max(word.count("-") for word in moves) > 10  # rides along the hot line, step by step
    assert len(words) / len(main) > 10  # long turns
    assert battles and all(re.match(r"#[1-6]=", found[2]) for found in battles)  # every roll written
    assert any("+" in found[1] for found in battles)  # battles of several attackers
    assert any(step for step, _ in TURN.findall(text))  # replacement steps


def test_the_short_shape_is_the_canonical_playout() -> None:
    from referee.judge.playout import play

    assert shaped_play("nieuchess", None, "shape-short", "short").text == play("nieuchess", None, "shape-short").text
    assert "short" in SHAPES and "long" in SHAPES


def test_an_unknown_shape_is_a_usage_error() -> None:
    assert read_shape("long") == "long"
    with pytest.raises(UsageError, match="--shape is one of short, long"):
        read_shape("wide")
