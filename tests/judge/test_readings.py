"""Readings of the notation (issue 45, items 16-18; NOTATION.md §3 and §5 amended), the
same on every path that gives a verdict: the fused check (`quick_verdict`), the streamed
detailed path (`lean_verdict`), `check`'s own choice of the two (`check_raw`, in text and
with `--json`'s token) and the record model (`session.judge`).

- 16: a tag the game does not use is ignored, whatever its value (`docs/protocol.md`).
- 17: a round number is compared by its value, whatever its length.
- 18: of several errors that make a record malformed, the first in the text is named.
"""

from __future__ import annotations

import functools
import re
import time

import pytest

from referee.games import registry
from referee.judge import session
from referee.judge.core.adjudicate import dialect_for
from referee.judge.core.verdict_additions import annotate_verdict
from referee.judge.core.verdict_words import verdict_fields
from referee.judge.core.verdicts import Status, Verdict
from referee.judge.fast.fused_check import quick_verdict
from referee.judge.fast.streamed_verdict import lean_verdict
from referee.judge.services.random_playout import play
from referee.judge.sources.record_sources import Read
from referee.notation.reader import read_raw
from referee.notation.record_splitter import split
from tests.helpers.cli import invoke

GAMES = tuple(registry.GAMES)


def verdicts(data: bytes) -> list[Verdict]:
    """Each record's verdict, checked to be the same by every path."""
    found = []
    for number, raw in enumerate(split(data), start=1):
        text = raw.raw.decode("utf-8", "replace")
        judged = session.judge(Read(number, read_raw(raw, dialect_for)), "t.rgn")
        full = judged.verdict
        assert session.check_raw(raw, "t.rgn", number) == full, text
        fused = quick_verdict(raw, "t.rgn", number)
        assert fused is None or fused == full, text
        lean = lean_verdict(raw, "t.rgn", number)
        assert lean is None or lean == full, text
        annotated = verdict_fields(annotate_verdict(judged))
        assert verdict_fields(session.check_raw(raw, "t.rgn", number, annotate=True)) == annotated, text
        found.append(full)
    return found


def verdict(text: str) -> Verdict:
    (one,) = verdicts(text.encode("utf-8"))
    return one


@functools.cache
def record(game: str) -> str:
    """A legal record of `game`, its tags `Game` and `Seed`, then its move text."""
    return play(game, None, f"readings-{game}").text


def with_tags(game: str, *tags: str) -> str:
    """`record(game)` with these tag lines added after its `Game` and `Seed`."""
    head, body = record(game).split("\n\n", 1)
    return "\n".join([head, *tags]) + "\n\n" + body


def legal(found: Verdict) -> bool:
    return found.status in (Status.FINISHED, Status.ONGOING)


# -- 16: a tag the game does not use is ignored -----------------------------------------------

UNREADABLE = {
    "First": '[First "Purple"]',
    "Seed": '[Seed ""]',
    "SeedHash": '[SeedHash "md5:abc"]',
    "salts": '[RedSalt ""] [BlueSalt ""] [AthensSalt ""]',
    "Tiles": '[Tiles "not 64 tiles"]',
    "CRT": '[CRT "no table"]',
    "Target": '[Target "many"]',
}
"""For each tag (or kind of tag) the spec names, a value its game cannot read."""

USED = {
    "First": {"pikemen", "nieuchess"},
    "Seed": {"numica", "nieuchess"},
    "SeedHash": {"numica", "nieuchess"},
    "salts": {"numica", "nieuchess"},
    "Tiles": {"numica"},
    "CRT": {"nieuchess"},
    "Target": {"pikemen"},
}
"""Which games use each tag (NOTATION.md §2, RANDOM.md, the game files)."""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("tag", list(UNREADABLE))
def test_a_tag_the_game_does_not_use_is_ignored(game: str, tag: str) -> None:
    """`[SeedHash "md5:abc"]` in Pikemen or Nika is no error (issue 45, item 16); in the
    games that use the tag, the same value makes the record malformed at the tag."""
    plain = verdict(record(game))
    assert legal(plain)
    text = with_tags(game, UNREADABLE[tag])
    if tag == "Seed":  # the record's own Seed is its first tag after Game: empty it instead
        text = re.sub(r'\[Seed "[^"]*"\]', '[Seed ""]', record(game), count=1)
    found = verdict(text)
    if game in USED[tag]:
        assert found.status == Status.MALFORMED, found
        assert found.error is not None and found.error.line in (2, 3)
    else:
        assert found == plain._replace(claimed=found.claimed), found


@pytest.mark.parametrize("game", ["nika", "pikemen"])
def test_a_seed_that_breaks_its_commitment_is_ignored_where_nothing_is_drawn(game: str) -> None:
    """A `Seed` and a `SeedHash` that disagree are two tags the game does not use."""
    text = with_tags(game, '[SeedHash "sha256:' + "0" * 64 + '"]')
    assert verdict(text) == verdict(record(game))


# -- 17: a round number is compared by its value, whatever its length --------------------------


def renumbered(game: str, round_: int, written: str) -> str:
    """`record(game)` with the number of round `round_` written `written` instead."""
    text = record(game)
    assert f"\n{round_}. " in text
    return text.replace(f"\n{round_}. ", f"\n{written}. ", 1)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("written", ["0001", "0000000001", "000000000001", "0" * 5000 + "1"])
def test_a_round_number_is_its_value_whatever_its_length(game: str, written: str) -> None:
    """`0001.`, `0000000001.` and a 12-digit `1.` are round 1 (issue 45, item 17): the same
    verdict, the same turn token, and `format` writes the plain number."""
    plain, padded = record(game), renumbered(game, 1, written)
    assert verdict(padded) == verdict(plain)
    tokens = [
        session.check_raw(raw, "t.rgn", n, annotate=True).token for n, raw in enumerate(split(padded.encode()), 1)
    ]
    assert tokens == [session.check_raw(raw, "t.rgn", 1, annotate=True).token for raw in split(plain.encode())]
    code, out, _ = invoke("format", "-", stdin=padded)
    assert code == 0 and out == invoke("format", "-", stdin=plain).stdout
    assert f"\n{written}." not in out and "\n1. " in out


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("written", ["9" * 5000, "0" * 10 + "3", "1" * 12, "3"])
def test_a_wrong_round_number_of_any_length_is_illegal_at_its_label(game: str, written: str) -> None:
    """A wrong number, however long, is illegal at its turn's label (round 2), never
    malformed, and quoted cut short; 5,000 digits are judged at once (no conversion)."""
    text = renumbered(game, 2, written)
    began = time.perf_counter()
    found = verdict(text)
    took = time.perf_counter() - began
    assert found.status == Status.ILLEGAL and found.error is not None, found
    error = found.error
    line = text[: text.index(f"\n{written}. ")].count("\n") + 2
    assert (error.line, error.column, error.round, error.action) == (line, len(written) + 3, 2, None)
    assert error.message.startswith("this turn is in round 2, not round ")
    assert len(error.message) < 100 and took < 2


# -- 18: of several errors that make a record malformed, the first in the text -----------------

ERRORS = {
    "value": ('[Result "Nobody"]', "Result names no side of"),
    "other value": ('[Variant "nope"]', "unknown variant"),
    "repeated": ('[Event "again"]', "the tag Event appears twice"),
    "tag syntax": ("[Site Home]", "expected a quoted tag value"),
    "token": ("@@", "expected an action such as"),
}
"""Each kind of error that makes a record malformed: what is written, and how its message
begins. A repeated tag repeats `[Event "first"]`, written before either error."""

PAIRS = [
    pytest.param(one, other, id=f"{one}-before-{other}")
    for one in ERRORS
    for other in ERRORS
    if one != other and one != "token"  # (a token of the move text comes after every tag)
]


def broken(game: str, *kinds: str) -> tuple[str, list[int]]:
    """`record(game)` with errors of these kinds, in this order, and the line of each."""
    head, body = record(game).split("\n\n", 1)
    lines = [*head.split("\n"), '[Event "first"]']
    turns = body.split("\n")
    at: list[int] = []
    for kind in kinds:
        written = ERRORS[kind][0]
        if kind == "token":  # the first action of the second turn line
            index = 1
            words = turns[index].split(" ")
            turns[index] = " ".join([*words[:-1], written]) if len(words) > 2 else turns[index] + " " + written
            at.append(len(lines) + 1 + index + 1)
        else:
            lines.append(written)
            at.append(len(lines))
    return "\n".join(lines) + "\n\n" + "\n".join(turns), at


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(("one", "other"), PAIRS)
def test_the_first_error_in_the_text_is_named(game: str, one: str, other: str) -> None:
    """Whatever the two kinds and their order (issue 45, item 18): a bad `Result` on line 2
    is named, not a bad action on line 4."""
    text, (line, _) = broken(game, one, other)
    found = verdict(text)
    assert found.status == Status.MALFORMED and found.error is not None, text
    assert found.error.line == line, (found.error, text)
    assert found.error.message.startswith(ERRORS[one][1]), found.error
    alone = verdict(broken(game, one)[0])
    assert alone.error == found.error


@pytest.mark.parametrize("game", GAMES)
def test_the_first_error_of_each_record_in_a_file(game: str) -> None:
    """Several records in one file, each with two errors in its own order, and a legal one
    between them: each verdict names its own record's first error, as `check` prints it."""
    texts = [broken(game, *pair.values)[0] for pair in PAIRS] + [record(game)]
    data = "\n".join(texts[-1:] + texts).encode("utf-8")
    found = verdicts(data)
    assert legal(found[0]) and legal(found[-1])
    for pair, got in zip(PAIRS, found[1:-1], strict=True):
        one = pair.values[0]
        assert got.status == Status.MALFORMED and got.error is not None
        assert got.error.message.startswith(ERRORS[one][1]), (pair.id, got.error)
    code, out, _ = invoke("check", "-", stdin=data)
    lines = out.splitlines()
    assert code == 1 and len(lines) == len(found)
    for pair, line in zip(PAIRS, lines[1:-1], strict=True):
        assert ERRORS[pair.values[0]][1] in line, (pair.id, line)
