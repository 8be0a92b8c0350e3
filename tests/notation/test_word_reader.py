"""The word reader (`notation.quick._Reader.words`), which reads most move texts by
splitting them at white space, gives what the token reader (`_Reader.read`, both modes) and
the full reader give: the same labels, actions and draws, the same canonical text, or it
leaves the record to them. On playouts of every game written with white space of every
kind, round numbers apart from and against their labels, setups spread over lines, glyphs,
odd characters, and with its word cache forgotten while it reads."""

from __future__ import annotations

import functools
import random
import re

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import dialect_for
from referee.judge.services.random_playout import play
from referee.notation import quick
from referee.notation.quick import _Reader, scan
from referee.notation.reader import TAG_SECTION, read_raw
from referee.notation.record_splitter import split
from referee.notation.writer import canonical_pieces, write_scanned, write_tag_values
from tests.helpers.sweep import cases
from tests.notation.test_quick_scan import expected_items

GAMES = sorted(registry.GAMES)


@functools.cache
def playout(game: str, seed: str) -> str:
    """The text of the random playout of `game` with `seed`, played once in a process:
    several tests read the same one (each odd spelling, each piece size), and a Nieuchess
    playout takes about a CPU second."""
    return play(game, None, seed).text


def token_read(text: str, keep: bool) -> tuple[list[object], str | None] | None:
    """What the token reader alone gives for a record: items, and with `keep` the body's text."""
    opened = dialect_for(text.split('"', 2)[1])
    assert opened is not None
    section = TAG_SECTION.match(text)
    assert section is not None
    read = _Reader(opened, keep).read(text, section.end())
    if read is None:
        return None
    return read[0], None if read[1] is None else "".join(read[1].parts)


def respaced(text: str, rng: random.Random) -> str:
    """The record with the white space between its move text's words changed at random
    (spaces, tabs, line ends, none between a round number and its label)."""
    head, _, moves = text.partition("\n\n")
    out: list[str] = []
    for word in moves.split():
        if out:
            if out[-1].endswith(".") and rng.random() < 0.5:
                out.append(rng.choice(["", " ", "  ", "\n", "\t"]))
            else:
                out.append(rng.choice([" ", " ", "  ", "\n", "\t ", " \n  ", "\r\n"]))
        out.append(word)
    return head + "\n\n" + "".join(out) + "\n"


def same_as_token_reader(text: str) -> None:
    for keep in (False, True):
        scanned = scan(text, dialect_for, keep=keep)
        expected = token_read(text, keep)
        if expected is None:
            assert scanned is None, text
            continue
        assert scanned is not None, text
        assert scanned.items == expected[0], text
        if keep:  # the same canonical text (a body kept as written is checked by the writer)
            assert scanned.body is not None and expected[1] is not None
            dialect = registry.engine(scanned.game).dialect()
            canonical = write_tag_values(scanned.tags, dialect) + expected[1] + ("\n" if expected[1] else "")
            assert write_scanned(scanned, dialect) == canonical, text
            assert "".join(canonical_pieces(scanned, dialect)) == canonical, text


@pytest.mark.parametrize("game", GAMES)
def test_playouts_read_as_the_token_reader_reads_them_whatever_the_white_space(game: str) -> None:
    rng = random.Random(f"words-{game}")
    for number in range(cases(12, 4)):
        text = playout(game, f"words-{game}-{number}")
        same_as_token_reader(text)
        for _ in range(3):
            same_as_token_reader(respaced(text, rng))


def rewritten_words(text: str, change: str) -> str:
    """The record with its move text's words written otherwise than the canonical form
    writes them, its white space kept."""
    head, _, moves = text.partition("\n\n")
    if change == "glued":  # "12.R:"
        moves = re.sub(r"(?m)^(\d+)\. ", r"\1.", moves)
    elif change == "padded":  # "012. R:"
        moves = re.sub(r"(?m)^(\d+)\. ", r"0\1. ", moves)
    elif change == "lower labels":
        moves = re.sub(r"(?m)^((?:\d+\. )?)(\S+:)", lambda found: found[1] + found[2].lower(), moves)
    elif change == "upper":
        moves = moves.upper()
    return head + "\n\n" + moves


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("change", ["glued", "padded", "lower labels", "upper"])
def test_a_move_text_spaced_canonically_with_words_written_otherwise_gets_the_canonical_text(
    game: str, change: str
) -> None:
    """A move text whose every word is written canonically is kept as written (one part),
    and the writer takes it as the canonical text once its white space is; one whose words
    are written otherwise (its white space canonical) gets the token reader's canonical
    text all the same."""
    for number in range(cases(4, 2)):
        text = playout(game, f"written-{game}-{number}")
        scan(text, dialect_for, keep=True)  # (its words learnt)
        scanned = scan(text, dialect_for, keep=True)
        assert scanned is not None and scanned.body is not None
        assert scanned.body.written == (game != "nieuchess")  # (its setups span words: read by tokens)
        for _ in range(2):  # the words unknown, then known
            same_as_token_reader(text)
            same_as_token_reader(rewritten_words(text, change))


@pytest.mark.parametrize("game", GAMES)
def test_playouts_read_as_the_full_reader_reads_them(game: str) -> None:
    rng = random.Random(f"full-{game}")
    for number in range(cases(6, 2)):
        text = respaced(playout(game, f"full-{game}-{number}"), rng)
        record = read_raw(split(text.encode())[0], dialect_for)
        scanned = scan(text, dialect_for)
        assert scanned is not None
        assert scanned.items == expected_items(record)[0]  # type: ignore[arg-type]


def test_a_setup_spread_over_lines_reads_as_one_action() -> None:
    # "setup" begins an action that spans words, and a hex alone is an action too: read
    # word by word, "B: setup n20\nj21" would be three actions, not one.
    text = playout("nieuchess", "spread")
    lines = text.split("\n")
    for at, line in enumerate(lines):
        if " setup " in line:
            words = line.split(" ")
            lines[at] = " ".join(words[:3]) + "\n" + "\n\t ".join(words[3:6]) + "\n" + " ".join(words[6:])
    spread = "\n".join(lines)
    assert spread.count("\n") >= text.count("\n") + 6
    record = read_raw(split(spread.encode())[0], dialect_for)
    scanned = scan(spread, dialect_for)
    assert scanned is not None
    assert scanned.items == expected_items(record)[0]  # type: ignore[arg-type]
    setups = [item for item in scanned.items if type(item).__name__ == "Setup"]
    assert len(setups) == 2


ODD = [
    ("{number}. {label}", "{number}.{label}"),
    ("{number}. {label}", "{number}...\n{label}"),
    ("{number}. {label}", "{number}.\u00a0{label}"),
    ("{number}. {label}", "{number}.\x1c{label}"),
    ("{number}. {label}", "{number}. \x1f {label}"),
    ("{number}. {label}", "{number}. \u2003{label}"),
    ("{number}. {label}", "{number}. {number}. {label}"),
    ("{number}. {label}", "{number}. draw {label}"),
    ("{number}. {label}", "draw\n{number}. {label}"),
    ("{number}. {label}", "draw\n{number}. {label} draw resign"),
    ("{number}. {label}", "{label} {label}"),
    ("{number}. {label}", "! {number}. {label}"),
    ("{number}. {label}", "timeout\n{number}. {label}"),
    ("{number}. {label}", "{number}.\n"),
]
"""Changes to the first numbered label of a playout's move text."""


@pytest.mark.parametrize("change", ODD)
@pytest.mark.parametrize("game", GAMES)
def test_odd_move_texts_read_as_the_token_reader_reads_them(game: str, change: tuple[str, str]) -> None:
    text = playout(game, f"odd-{game}")
    found = re.search(r"\n([0-9]+)\. ([A-Za-z]+:)", text)
    assert found is not None
    number, label = found.groups()
    before, after = (part.format(number=number, label=label) for part in change)
    same_as_token_reader(text.replace(before, after, 1))


def test_an_empty_move_text_has_no_canonical_part() -> None:
    # the canonical text of a record without moves ends after its tags (no empty line)
    for moves in ("", "\n", "  \n\n "):
        text = f'[Game "numica"]\n[Seed "s"]\n\n{moves}'
        scanned = scan(text, dialect_for, keep=True)
        assert scanned is not None and scanned.body is not None
        assert scanned.body.parts == [] and scanned.items == []
        same_as_token_reader(text)


def test_a_word_cache_forgotten_while_reading_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(quick, "ACTION_CACHE", 7)
    for game in GAMES:
        for number in range(cases(3, 1)):
            same_as_token_reader(playout(game, f"forget-{game}-{number}"))


@pytest.mark.parametrize("chunk", [1, 40, 300])
@pytest.mark.parametrize("lines", [1, 64])
def test_a_long_move_text_is_read_a_piece_at_a_time(monkeypatch: pytest.MonkeyPatch, chunk: int, lines: int) -> None:
    # pieces end before a line that begins with a label (never inside a turn, nor inside a
    # setup spread over lines), or the token reader reads the text
    monkeypatch.setattr(quick, "WORDS_CHUNK", chunk)
    monkeypatch.setattr(quick, "CUT_LINES", lines)
    rng = random.Random(f"pieces-{chunk}-{lines}")
    for game in GAMES:
        for number in range(cases(3, 1)):
            text = playout(game, f"pieces-{game}-{number}")
            same_as_token_reader(text)
            same_as_token_reader(respaced(text, rng))


def test_a_long_record_is_read_as_words_in_little_memory() -> None:
    import tracemalloc

    text = playout("pikemen", "little")
    while len(text) < 400_000:
        text += text[text.index("\n\n") + 2 :]
    scan(text[:2000] + "\n", dialect_for)  # (caches warm)
    reader = _Reader.of(dialect_for("pikemen"), False)  # type: ignore[arg-type]
    section = TAG_SECTION.match(text)
    assert section is not None
    tracemalloc.start()
    try:
        read = reader.words(text, section.end(), False, 0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert read is not None, "read as words"
    assert peak < 4 * len(text), f"{peak / len(text):.1f} times the text"


@pytest.mark.parametrize(
    "moves",
    [
        "R:",
        "1. R:",
        "draw",
        "resign",
        "a1-c3",
        "R: a1-c3",
        "x",
        "R: x",
        "a1-c3 R: a1-c3",  # an action before any label: not read as words, known or not
        "a1-c3 b2-b3",
        "R: a1-c3 draw b2-b3",  # an action after `draw`
        "R: a1-c3 draw B: b2-b3",
    ],
)
def test_a_move_text_of_a_few_words_reads_as_the_token_reader_reads_it(moves: str) -> None:
    for _ in range(2):  # the words unknown, then known
        same_as_token_reader(f'[Game "numica"]\n[Seed "s"]\n\n{moves}\n')
