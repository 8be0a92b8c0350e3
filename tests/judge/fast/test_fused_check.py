"""The fused check path gives exactly the verdicts of the detailed path.

`referee check` first tries `referee.judge.fast.fused_check.quick_verdict` (the record's text straight into
its engine) and falls back to reading and replaying the record the detailed way. These
tests compare both paths record by record: on the conformance records, on random
playouts of every game and player count, and on those records mutated (actions swapped,
dropped, repeated or replaced, text cut short, bytes flipped, junk inserted). They also
check that the fused path does take the plain legal records, so that it cannot quietly
stop working and leave every record to the slow path.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import registry
from referee.judge import session
from referee.judge.core.adjudicate import dialect_for, open_ended
from referee.judge.core.replay_loop import open_ended as drive_open_ended
from referee.judge.core.replay_loop import quick_kinds
from referee.judge.core.turn_token import canonical_text
from referee.judge.core.verdict_additions import annotate_verdict
from referee.judge.core.verdict_words import verdict_fields
from referee.judge.core.verdicts import Verdict
from referee.judge.fast.fused_check import quick_verdict
from referee.judge.services.random_playout import play
from referee.judge.sources.record_sources import Read
from referee.notation.lexicon import unescape
from referee.notation.model import Record
from referee.notation.quick import DRAW, Label, scan
from referee.notation.reader import read_raw
from referee.notation.record_splitter import RawRecord, split
from tests.helpers.fuzzing import corpus, mutate
from tests.helpers.sweep import cases, spread


def detailed(raw: RawRecord, number: int = 1, annotate: bool = False) -> Verdict:
    judged = session.judge(Read(number, read_raw(raw, dialect_for)), "t.rgn")
    return annotate_verdict(judged) if annotate else judged.verdict


def assert_same(data: bytes) -> int:
    """Compare both paths on every record of `data`, in text and with the token and every
    JSON field of `check --json`; the number the fused path judged."""
    quick = 0
    for number, raw in enumerate(split(data), start=1):
        text = raw.raw.decode("utf-8", "replace")
        fused = quick_verdict(raw, "t.rgn", number)
        if fused is not None:
            quick += 1
            assert fused == detailed(raw, number), text
        assert session.check_raw(raw, "t.rgn", number) == detailed(raw, number)
        with_token = quick_verdict(raw, "t.rgn", number, token=True)
        expected = detailed(raw, number, annotate=True)
        assert (with_token is None) == (fused is None), text
        if with_token is not None:
            assert with_token.token is not None
            assert verdict_fields(with_token) == verdict_fields(expected), text
        assert verdict_fields(session.check_raw(raw, "t.rgn", number, annotate=True)) == verdict_fields(expected)
    return quick


PLAYOUT_KEYS = [
    (game, players, index)
    for game, info in registry.GAMES.items()
    for players in tuple(info.sides_by_players) or (None,)
    for index in range(3)
]
"""Which random playouts the tests judge: (game, player count, index). The playouts themselves
are played when a test first asks for one (`playout`), not while the tests are collected."""

over_playouts = pytest.mark.parametrize(("game", "players", "index"), PLAYOUT_KEYS, ids=lambda value: str(value)[:12])
"""A test once for each of the `PLAYOUT_KEYS`, given as `game`, `players` and `index`."""


@functools.cache
def playout(game: str, players: int | None, index: int) -> bytes:
    return play(game, players, f"fused-{game}-{players}-{index}").text.encode("utf-8")


def playouts() -> list[bytes]:
    return [playout(*key) for key in PLAYOUT_KEYS]


@over_playouts
def test_the_fused_path_judges_random_playouts_as_the_detailed_path(game: str, players: int | None, index: int) -> None:
    assert assert_same(playout(game, players, index)) == 1  # a plain legal record is judged the fused way


def conformance_judged(judge: Callable[[bytes], int]) -> tuple[int, int]:
    """`judge` on every conformance record: the sum of what it gave (how many of its paths
    judged the record) and the number of records."""
    judged = total = 0
    for records in corpus().values():
        for record in records:
            total += 1
            judged += judge(record)
    return judged, total


def test_the_fused_path_agrees_on_every_conformance_record() -> None:
    judged, total = conformance_judged(assert_same)
    assert judged > total // 3  # the legal ones, comments and glyphs and all


def _mutated(rng: random.Random, data: bytes) -> bytes:
    """One record with one change to its move text, as a player's slip would make it."""
    head, _, moves = data.decode("utf-8").partition("\n\n")
    tokens = moves.split(" ")
    a, b = rng.randrange(len(tokens)), rng.randrange(len(tokens))
    kind = rng.randrange(6)
    if kind == 0:
        tokens[a], tokens[b] = tokens[b], tokens[a]
    elif kind == 1:
        del tokens[a]
    elif kind == 2:
        tokens.insert(a, tokens[b])
    elif kind == 3:
        tokens[a] = tokens[b]
    elif kind == 4:
        tokens = tokens[: a + 1]
    else:
        tokens.insert(a, rng.choice(["draw", "resign", "{note}", ";note\n", "!", "12.", "x"]))
    return (head + "\n\n" + " ".join(tokens)).encode("utf-8")


@settings(max_examples=cases(300, 60), deadline=None)
@given(st.integers(0, len(PLAYOUT_KEYS) - 1), st.randoms(use_true_random=False))
def test_the_fused_path_agrees_on_mutated_playouts(which: int, rng: random.Random) -> None:
    assert_same(_mutated(rng, playout(*PLAYOUT_KEYS[which])))


NOTES = ("{a note}", "{}", "{[%at 2026-12-01T12:00:00Z Red]}", ";a line note\n", "; \n", "{multi\nline}")
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")


def _decorated(rng: random.Random, data: bytes) -> bytes:
    """The record with comments between its tokens and glyphs on its actions, anywhere."""
    head, _, moves = data.decode("utf-8").partition("\n\n")
    out = []
    for token in moves.split(" "):
        if rng.random() < 0.25 and token and token[-1].isalnum() and any(c in token for c in "-x"):
            token += rng.choice(GLYPHS)
        out.append(token)
        if rng.random() < 0.2 and not token.endswith("."):  # (between a round number and its label: not RGN)
            out.append(rng.choice(NOTES))
    lead = rng.choice(("", "{before the first turn} ", ";line before\n"))
    return (head + "\n\n" + lead + " ".join(out)).encode("utf-8")


@settings(max_examples=cases(150, 30), deadline=None)
@given(st.integers(0, len(PLAYOUT_KEYS) - 1), st.integers(0, 2**32))
def test_the_fused_path_agrees_with_comments_and_glyphs_everywhere(which: int, seed: int) -> None:
    """Comments and glyphs are kept for the token's canonical text: the token of the fused
    path is the detailed path's wherever they stand."""
    rng = random.Random(seed)
    data = _decorated(rng, playout(*PLAYOUT_KEYS[which]))
    assert_same(data)
    assert_same(_mutated(rng, data))


def _rewritten(rng: random.Random, data: bytes, legal: bool = False) -> bytes:
    """The record written otherwise than canonically, still meaning the same or nearly:
    tags in another order (a `Result` and another tag among them), round numbers dropped,
    added where the canonical form has none (also as `1...`) or written with a leading zero,
    labels and actions in other capitals, other white space between tokens. With `legal`,
    only changes that keep a legal record legal (no `Result`, no numbers added)."""
    head, _, moves = data.decode("utf-8").partition("\n\n")
    game, *tags = head.split("\n")
    extra = ['[Event "Cup"]', '[Site "Here"]'] if legal else ['[Result "*"]', '[Event "Cup"]', '[Result "draw"]']
    tags += rng.sample(extra, 2)
    rng.shuffle(tags)
    out: list[str] = []
    for token in moves.split():
        if token.endswith(":"):  # a label
            if out and out[-1][:1].isdigit() and rng.random() < 0.3:
                out.pop()  # its round number dropped
            elif not legal and not (out and out[-1][:1].isdigit()) and rng.random() < 0.3:
                out.append(rng.choice(("1.", "2...", "07.")))  # a number where none was (often wrong: illegal)
            token = token.lower() if rng.random() < 0.3 else token
        elif token[:1].isdigit() and token.endswith(".") and rng.random() < 0.2:
            token = "0" + token
        elif rng.random() < 0.1:
            token = token.upper() if rng.random() < 0.5 else token.lower()
        out.append(token)
    spaces = [rng.choice((" ", "\n", "  ", "\t", " \n\n ")) for _ in out]
    text = "".join(space + token for space, token in zip(spaces, out, strict=True))
    return ("\n".join([game, *tags]) + "\n\n" + text.lstrip() + rng.choice(("\n", "", "  \n\n"))).encode("utf-8")


@settings(max_examples=cases(150, 30), deadline=None)
@given(st.integers(0, len(PLAYOUT_KEYS) - 1), st.integers(0, 2**32))
def test_the_fused_path_agrees_on_records_written_otherwise(which: int, seed: int) -> None:
    """The token hashes the canonical text whatever the record's own writing: other tag
    order, round numbers missing or extra, other capitals and white space (with comments
    and glyphs too)."""
    rng = random.Random(seed)
    data = _rewritten(rng, playout(*PLAYOUT_KEYS[which]))
    assert_same(data)
    assert_same(_rewritten(rng, _decorated(rng, playout(*PLAYOUT_KEYS[which]))))


def test_a_record_written_otherwise_keeps_its_token() -> None:
    """Legal records written otherwise than canonically get the same token from the fused
    path as from the detailed path, and the fused path does take them."""
    rng = random.Random(11)
    legal = 0
    for data in playouts():
        for _ in range(3):
            raw = split(_rewritten(rng, data, legal=True))[0]
            expected = detailed(raw, annotate=True)
            if expected.legal:
                legal += 1
                judged = quick_verdict(raw, "t.rgn", 1, token=True)
                assert judged is not None and judged.token == expected.token
    assert legal >= len(PLAYOUT_KEYS)


def test_a_record_without_round_numbers_and_with_comments_keeps_its_token() -> None:
    """Round numbers left out (the canonical form writes them) on records with comments and
    glyphs, whose canonical text is then read again label by label, and without them,
    written from the items: the same token as the detailed path, on the fused path."""
    for data in playouts():
        head, _, moves = data.decode("utf-8").partition("\n\n")
        bare = re.sub(r"(?m)^\d+\. ", "", moves)
        glossed = re.sub(r"(?m)^(\S+: \S+)", r"\1!? {why} ; a line note\n", bare, count=3)
        for text in (bare, "{before} " + glossed):
            raw = split((head + "\n\n" + text).encode("utf-8"))[0]
            expected = detailed(raw, annotate=True)
            judged = quick_verdict(raw, "t.rgn", 1, token=True)
            assert (judged is None) == (not expected.legal)
            if judged is not None:
                assert verdict_fields(judged) == verdict_fields(expected)


def test_a_tag_value_with_quotes_and_backslashes_keeps_its_token() -> None:
    """The canonical text escapes a tag value's quotes and backslashes (NOTATION.md §7):
    the fused path hashes the same text as the detailed path."""
    for data in playouts():
        head, _, moves = data.decode("utf-8").partition("\n\n")
        for value in ('The \\"Grand\\" Cup', "C:\\\\league", 'both \\\\ and \\"'):
            raw = split(f'{head}\n[Event "{value}"]\n\n{moves}'.encode())[0]
            expected = detailed(raw, annotate=True)
            judged = quick_verdict(raw, "t.rgn", 1, token=True)
            assert expected.legal and judged is not None
            assert judged.token == expected.token, value
            record = read_raw(raw, dialect_for)
            assert isinstance(record, Record)
            again = read_raw(split(canonical_text(record).encode())[0], dialect_for)  # the text the token hashes
            assert isinstance(again, Record)
            assert {tag.name: tag.value for tag in again.tags}["Event"] == unescape(f'"{value}"')


def test_check_json_takes_the_fused_path_for_legal_records_with_comments() -> None:
    """The token is built on the fused path, not by reading the record again."""
    rng = random.Random(5)
    legal = 0
    for data in playouts():
        raw = split(_decorated(rng, data))[0]
        expected = detailed(raw, annotate=True)
        if expected.legal:  # (a comment inside a Nieuchess setup breaks it: illegal)
            legal += 1
            judged = quick_verdict(raw, "t.rgn", 1, token=True)
            assert judged is not None and judged.token == expected.token
    assert legal >= len(PLAYOUT_KEYS) // 2


@settings(max_examples=cases(300, 60), deadline=None)
@given(st.integers(0, 10**6))
def test_the_fused_path_agrees_on_fuzzed_conformance_records(number: int) -> None:
    assert_same(mutate(7, number))


def test_open_ended_actions_are_found_as_the_detailed_path_finds_them() -> None:
    texts = [
        "B: o30-o29 R: resign",
        "B: o30-o29 resign",
        "B: o30-o29 draw draw",
        "B: o30-o29 R: draw",
        "draw B: o30-o29",
        "B: o30-o29 resign resign R: q14-n13 draw",
        "B: o30-o29 {why} resign R: q14-n13 ; done\n",
    ]
    for moves in texts:
        data = f'[Game "nieuchess"]\n[First "Blue"]\n\n{moves}\n'.encode()
        raw = split(data)[0]
        record = read_raw(raw, dialect_for)
        scanned = scan(data.decode(), dialect_for)
        assert scanned is not None and isinstance(record, Record)
        moves_in_order = [move for turn in record.turns for move in turn.moves]
        expected = {moves_in_order.index(move) for move in open_ended(record)}
        actions = [at for at, item in enumerate(scanned.items) if type(item) is not Label and item is not DRAW]
        found = {actions.index(at) for at in drive_open_ended(quick_kinds(scanned.items))}
        assert found == expected, moves


@pytest.mark.parametrize("index", range(2))
def test_the_fused_path_agrees_when_a_battle_leaves_its_roll_or_result_unwritten(index: int) -> None:
    """A Nieuchess action whose roll or result is left out is legal only last in its record
    (or before a resign or a draw): both paths must agree wherever it stands."""
    data = play("nieuchess", None, f"fused-unwritten-{index}").text
    head, _, moves = data.partition("\n\n")
    tokens = moves.split(" ")
    battles = [at for at, token in enumerate(tokens) if "#" in token]
    assert battles
    for at in spread(battles, 3):  # (first, middle, last: the two playouts meet AB, DB and EX results)
        for cut in ("=", "#"):
            changed = [*tokens[:at], tokens[at].split(cut)[0], *tokens[at + 1 :]]
            assert_same((head + "\n\n" + " ".join(changed)).encode("utf-8"))
            assert_same((head + "\n\n" + " ".join(changed[: at + 1]) + " resign\n").encode("utf-8"))
