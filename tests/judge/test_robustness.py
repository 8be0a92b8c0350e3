"""No input, however broken, makes the referee raise: records of every game, mangled at
random, always get a verdict."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import registry
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.session import next_actions
from tests.conftest import conformance_folder

STATUSES = {"finished", "ongoing", "illegal", "malformed"}


def samples(game: str) -> list[bytes]:
    files = sorted(conformance_folder(game).glob("*.rgn"))[:6]
    return [path.read_bytes() for path in files]


@pytest.mark.parametrize("game", list(registry.GAMES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_mangled_records_always_get_a_verdict(game: str, data: st.DataObject) -> None:
    texts = samples(game)
    text = bytearray(data.draw(st.sampled_from(texts)))
    for _ in range(data.draw(st.integers(1, 4))):
        where = data.draw(st.integers(0, len(text)))
        how = data.draw(st.sampled_from(["delete", "insert", "swap"]))
        chunk = data.draw(
            st.binary(min_size=1, max_size=6)
            | st.sampled_from([b"x", b"-", b"+", b"(", b")", b"#", b"=", b"1", b"a9", b"U", b" "])
        )
        if how == "delete":
            del text[where : where + len(chunk)]
        elif how == "insert":
            text[where:where] = chunk
        else:
            text[where : where + len(chunk)] = chunk
    for index, result in enumerate(read_source(bytes(text)), start=1):
        replay = adjudicate(result, "fuzz", index)
        assert replay.verdict.status in STATUSES
        if replay.state is not None and replay.verdict.status == "ongoing":
            for action in next_actions(replay.state)[:50]:
                assert str(action)


def test_examples_folder_records_are_legal() -> None:
    """The legal examples the README's first command checks."""
    examples = sorted(Path(__file__).resolve().parents[2].glob("examples/*.rgn"))
    assert examples
    for path in examples:
        for index, result in enumerate(read_source(path.read_bytes()), start=1):
            verdict = adjudicate(result, path.name, index).verdict
            assert verdict.legal, verdict
