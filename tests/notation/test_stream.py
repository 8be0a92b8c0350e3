"""Reading records one at a time from a stream: where records start (NOTATION.md §1, §3),
offsets and raw bytes, slow pipes, bounded memory, bugs kept with their record, and the
edges of round numbers, glyphs and long tokens."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.judge.core.adjudicate import adjudicate, dialect_for
from referee.notation.dialect import Dialect
from referee.notation.grammar import grammar
from referee.notation.model import Malformed, NotationError, ReadCrash, Record
from referee.notation.reader import _read_fast, _Unreadable, iter_records, read
from referee.notation.record_splitter import Splitter, split

HEAD = '[Game "numica"]\n[Seed "s"]\n'
RECORD = HEAD + "R: SSOOSOSO\nB: OSOSOSOS\n"


def records(data: bytes) -> list[Record | Malformed | ReadCrash]:
    return list(iter_records(io.BytesIO(data), dialect_for))


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_text_with_a_mark_is_read_as_utf8(encoding: str) -> None:
    # what Windows editors save as "Unicode": the mark says the encoding
    text = "Hi\r\n" + RECORD.replace('"s"', '"Zoë"') + RECORD
    mark = {
        "utf-16-le": b"\xff\xfe",
        "utf-16-be": b"\xfe\xff",
        "utf-32-le": b"\xff\xfe\0\0",
        "utf-32-be": b"\0\0\xfe\xff",
    }
    data = mark[encoding] + text.encode(encoding)
    whole = split(data)
    assert [raw.raw for raw in whole] == [RECORD.replace('"s"', '"Zoë"').encode(), RECORD.encode()]
    splitter = Splitter()  # the same when the bytes come one at a time, a character cut in two
    bytewise = [raw for byte in range(len(data)) for raw in splitter.feed(data[byte : byte + 1])]
    assert [raw.raw for raw in [*bytewise, *splitter.feed(b"", end=True)]] == [raw.raw for raw in whole]
    got = records(data)
    assert [type(result) for result in got] == [Record, Record] and got[1].span.line == 6
    assert dict((tag.name, tag.value) for tag in got[0].tags)["Seed"] == "Zoë"


def test_offsets_and_raw_bytes_give_back_the_input() -> None:
    data = b"\xef\xbb\xbfFrom: gm\r\n\r\n" + RECORD.replace("\n", "\r\n").encode() + b"  " + RECORD.encode()
    got = records(data)
    assert [type(result) for result in got] == [Record, Record]
    for result in got:
        assert data[result.offset : result.offset + len(result.raw)] == result.raw
        assert result.raw.startswith(b'[Game "numica"]')
    assert got[0].offset == data.index(b"[Game")
    assert got[0].raw + got[1].raw == data[got[0].offset :]
    assert got[1].span == (7, 3)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ('  [Game "numica"]\n[Seed "s"]\nR: SSOOSOSO\n', 1),  # leading blanks on its line
        ('\t[Game "numica"]\n', 1),
        ('Here is my move: [Game "numica"] [Seed "s"]\nR: SSOOSOSO\n', 1),  # anywhere before the first
        ('> quoted "[Game" ; [Game "numica"]\n', 1),  # before the first record nothing is a comment
        (RECORD.rstrip("\n") + ' [Game "numica"] [Seed "t"] R: SSOOSOSO\n', 2),  # joined on one line
        (RECORD + 'B: a8-a7 {unclosed\n   [Game "numica"]\n', 2),  # line start, inside a comment
        (RECORD + 'B: a8-a7 { a note [Game "numica"] }\n', 1),  # inside a comment, not at line start
        (RECORD + 'B: a8-a7 ; [Game "numica"]\n', 1),  # inside a ; comment
        ('[Game "numica"] [Event "see [Game \\" here"]\n', 1),  # inside a tag value
        ('[Game "numica"] [Gamestate "x"] [Game_2 "y"]\n', 1),  # another tag name
        ('[Game "numica"][Game "nika"]\n', 2),
        (RECORD + 'B: a8-a7 {x [Gamesmanship [Game "numica"] }\n', 1),
        (RECORD + 'B: a8-a7 [Gamesmanship; [Game "numica"]\n', 1),
        (RECORD + 'B: a8-a7 [Gamesmanship [Game "numica"]\n', 2),
    ],
)
def test_where_records_start(text: str, count: int) -> None:
    got = records(text.encode())
    assert len(got) == count, [result.raw for result in got]
    assert all(result.raw.startswith(b"[Game") for result in got)


def test_a_record_starting_mid_line_counts_columns_from_the_line_start() -> None:
    (result,) = records(b'Here is my move: [Game "numica"] [Seed "s"] R: SSOOSOSO zz\n')
    assert isinstance(result, Malformed)
    assert result.span == (1, 18)
    assert (result.error.span.line, result.error.span.column) == (1, 57)
    (result,) = records(b'Move: [Game "chess"]\n')
    assert isinstance(result, Malformed) and result.error.span == (1, 13)


def test_joined_records_are_both_judged() -> None:
    first, second = records((RECORD.rstrip("\n") + " " + RECORD).encode())
    assert isinstance(first, Record) and isinstance(second, Record)
    assert adjudicate(first).verdict.status == adjudicate(second).verdict.status == "ongoing"


def test_a_malformed_record_keeps_its_bytes_exactly() -> None:
    data = (HEAD + "R: SSOOSOSO {caf").encode("latin-1") + b"\xe9}\r\nB: zz\r\n"
    (result,) = records(data)
    assert isinstance(result, Malformed) and "UTF-8" in result.error.message
    assert result.raw == data


def test_splitter_gives_the_same_records_whatever_the_blocks() -> None:
    data = ("pre [Game x\n" + RECORD + '{ c\n [Game "nika"] ; [Game\n' + RECORD.rstrip() + " " + RECORD).encode()
    whole = split(data)
    for size in (1, 2, 3, 7, 64):
        splitter = Splitter()
        pieces = []
        for at in range(0, len(data), size):
            pieces += splitter.feed(data[at : at + size])
        pieces += splitter.feed(b"", end=True)
        assert pieces == whole, size
    assert len(whole) == 5


def test_each_record_is_given_as_soon_as_the_next_one_starts() -> None:
    """A slow producer on a pipe: the first record is read while the producer still writes."""
    producer = (
        "import sys, time\n"
        f"sys.stdout.write({RECORD!r} + '[Game \"numica\"]\\n'); sys.stdout.flush()\n"
        "time.sleep(20)\n"
        f"sys.stdout.write({HEAD!r})\n"
    )
    process = subprocess.Popen([sys.executable, "-c", producer], stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        started = time.monotonic()
        first = next(iter_records(process.stdout, dialect_for))
        assert process.poll() is None, "the record came only when the producer ended"
        assert time.monotonic() - started < 15
        assert isinstance(first, Record) and first.raw == RECORD.encode()
    finally:
        process.kill()
        process.wait()


# The peak of the child's own memory: VmHWM of /proc/self/status. (ru_maxrss would not do:
# Linux carries the parent's resident size at the fork over into the child's maximum, so a
# large test process would inflate every figure.)
_PEAK = (
    "import resource\n"
    "try:\n"
    "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
    "    print(int(status.split()[0]) / 1024)\n"
    "except (OSError, IndexError):\n"
    "    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
)


def _peak_megabytes(code: str) -> float:
    measure = f"{code}\n{_PEAK}"
    done = subprocess.run([sys.executable, "-c", measure], capture_output=True, text=True, check=True)
    return float(done.stdout.split()[-1])


def test_a_long_tag_value_costs_a_small_multiple_of_its_size() -> None:
    """5 MB of tag value: about 850 MB with an alternation in the value's regex."""
    code = (
        "import io\nfrom referee.notation.reader import iter_records\n"
        "from referee.judge.core.adjudicate import dialect_for\n"
        "data = b'[Game \"numica\"]\\n[Event \"' + b'x' * 5_000_000 + b'\"]\\n[Seed \"s\"]\\nR: SSOOSOSO zz\\n'\n"
        "(result,) = iter_records(io.BytesIO(data), dialect_for)\n"
        "assert len(str(result.error)) < 200, result.error\n"
    )
    baseline = _peak_megabytes("import referee.notation.reader, referee.judge.core.adjudicate")
    assert _peak_megabytes(code) - baseline < 80


@pytest.mark.slow
def test_memory_is_bounded_by_the_largest_record_not_the_file() -> None:
    code = (
        "from referee.bench.corpora import memory_inputs\nfrom pathlib import Path\nimport tempfile, json\n"
        "folder = tempfile.mkdtemp()\nprint(json.dumps([str(p) for _, p in memory_inputs(Path(folder), 0.4)]))"
    )
    paths = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout)
    read_all = (
        "import sys\nfrom referee.notation.reader import iter_records\n"
        "from referee.judge.core.adjudicate import adjudicate, dialect_for\n"
        f"for result in iter_records(open({paths[0]!r}, 'rb'), dialect_for):\n    adjudicate(result)\n"
    )
    assert _peak_megabytes(read_all) < 80  # a 20 MB file


def _both(text: str) -> tuple[object, object]:
    dialect = dialect_for("numica")
    assert dialect is not None
    try:
        fast: object = _read_fast(text, 1, dialect, "numica")
    except _Unreadable:
        fast = None
    try:
        slow: object = grammar(dialect).parse(text)
    except NotationError as error:
        slow = error.message
    return fast, slow


@pytest.mark.parametrize("number", ["²", "1²", "١", "１"])
def test_round_numbers_of_digits_beyond_ascii_are_malformed(number: str) -> None:
    text = HEAD + f"R: SSOOSOSO B: OSOSOSOS {number}. R: a1-a2\n"
    fast, slow = _both(text)
    assert fast is None and isinstance(slow, str), slow
    (result,) = records(text.encode())
    assert isinstance(result, Malformed)
    assert adjudicate(result).verdict.status == "malformed"
    assert len(result.error.message) < 120
    assert result.error.span == (3, 25)


@pytest.mark.parametrize(
    "number",
    ["1" * 4301, "9" * 5000, "1234567890", "0" * 10, "123456789"],
    ids=["4301-digits", "5000-digits", "10-digits", "ten-zeros", "9-digits"],
)
def test_a_wrong_round_number_of_any_length_is_read_and_illegal_at_its_label(number: str) -> None:
    """NOTATION.md §3 (amended, issue 45 item 17): compared by its value, never malformed."""
    text = HEAD + f"R: SSOOSOSO B: OSOSOSOS {number}. R: a1-a2\n"
    fast, slow = _both(text)
    assert isinstance(fast, Record) and isinstance(slow, Record)
    assert str(fast.turns[2].number) == str(slow.turns[2].number) == (number.lstrip("0") or "0")
    verdict = adjudicate(fast).verdict
    assert verdict.status == "illegal" and verdict.error is not None
    assert (verdict.error.line, verdict.error.column, verdict.error.action) == (3, 27 + len(number), None)
    assert len(verdict.error.message) < 100


def test_a_glyph_right_after_a_label_is_located_at_the_glyph() -> None:
    (result,) = records(b'[Game "pikemen"]\nR: h4(SE)\nB: ?! d8(S)\n')
    assert isinstance(result, Malformed)
    assert result.error.span == (3, 4), result.error
    assert "glyph" in result.error.message


@pytest.mark.parametrize(
    "text",
    [
        HEAD + "R: " + "x" * 100_000 + "\n",
        HEAD + "R: SSOOSOSO " + "a1-" * 30_000 + "\n",
        HEAD + '[Event "' + "y" * 100_000 + "\n",
        '[Game "' + "z" * 50_000 + '"]\n',
        '[Game "numica"]\n[' + "T" * 50_000 + ' "a"]\n[' + "T" * 50_000 + ' "b"]\n',
        HEAD + "zz" * 50_000 + "\n",
    ],
)
def test_messages_quote_only_a_short_prefix_of_a_long_token(text: str) -> None:
    (result,) = records(text.encode())
    assert isinstance(result, Malformed)
    assert len(result.error.message) < 250, result.error.message[:300]
    assert result.game is None or len(result.game) < 50


def _broken_dialect(game: str) -> Dialect | None:
    """numica's notation, except that reading one action is a bug."""
    dialect = dialect_for(game)
    if dialect is None or game != "numica":
        return dialect

    def parse_action(text: str) -> object:
        if text.lower() == "a1-a2":
            raise KeyError("a bug")
        assert dialect is not None
        return dialect.parse_action(text)

    return Dialect(
        "numica",
        dialect.labels,
        dialect.short_labels,
        dialect.action_pattern,
        parse_action,
        dialect.action_element,
        dialect.example_action,
    )


def test_a_crash_while_reading_a_record_stays_with_that_record() -> None:
    data = (RECORD + RECORD + "1. R: a1-a2\n" + RECORD).encode()
    first, crashed, third = iter_records(io.BytesIO(data), _broken_dialect)
    assert isinstance(first, Record) and isinstance(third, Record)
    assert isinstance(crashed, ReadCrash)
    assert crashed.message == "KeyError: 'a bug'"
    assert crashed.where.startswith("notation/test_stream.py:")
    assert crashed.game == "numica" and crashed.span == (5, 1)
    assert data[crashed.offset :].startswith(crashed.raw)
    with pytest.raises(KeyError):
        read(data, _broken_dialect)


def test_well_formed_records_are_read_without_pyparsing() -> None:
    """Start-up stays fast: the detailed grammar is imported only to explain an error."""
    code = (
        "import io, sys\nfrom referee.notation.reader import iter_records\n"
        "from referee.judge.core.adjudicate import dialect_for\n"
        f"assert all(r.raw for r in iter_records(io.BytesIO({(RECORD * 3).encode()!r}), dialect_for))\n"
        "print('pyparsing' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


_NAME = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"


def _reference_starts(data: bytes) -> list[int]:
    """Where records start, by the rules of NOTATION.md §1, §3, one byte at a time."""
    starts: list[int] = []
    state, index = "outside", 0

    def is_game(at: int) -> bool:
        return data.startswith(b"[Game", at) and (at + 5 >= len(data) or data[at + 5] not in _NAME)

    def at_line_start(at: int) -> bool:
        while at > 0 and data[at - 1] in b" \t":
            at -= 1
        return at == 0 or data[at - 1] == 0x0A

    while index < len(data):
        if is_game(index) and (not starts or state == "outside" or state == "braces" and at_line_start(index)):
            starts.append(index)
            state, index = "outside", index + 5
            continue
        byte = data[index]
        if starts and state == "outside":
            state = {0x7B: "braces", 0x3B: "line", 0x22: "quotes"}.get(byte, "outside")
        elif state == "braces" and byte == 0x7D or state == "line" and byte == 0x0A:
            state = "outside"
        elif state == "quotes":
            if byte == 0x5C and index + 1 < len(data) and data[index + 1] != 0x0A:
                index += 2
                continue
            if byte in b'"\n':
                state = "outside"
        index += 1
    return starts


def test_records_hiding_a_game_tag_after_plain_ones_are_cut_by_the_rules() -> None:
    """A buffer of many records: a comment, a `;` comment or a tag value that hides a
    `[Game` in a later record is found, though the records before it hold none."""
    hiding = [
        'B: a8-a7 { a note [Game "numica"] }\n',
        'B: a8-a7 ; [Game "numica"]\n',
        '[Event "see [Game \\" here"]\nB: a8-a7\n',
        'B: a8-a7 {unclosed\n   [Game "numica"]\n',
        "B: a8-a7\n",
    ]
    data = "".join(RECORD * 3 + "B: a8-a7\n" + RECORD + tail for tail in hiding).encode()
    expected = _reference_starts(data)
    assert len(expected) == 21  # (4 a group, and the unclosed comment's line-start `[Game`)
    for block in (len(data), 64, 7):
        splitter = Splitter()
        fed = []
        for at in range(0, len(data), block):
            fed += splitter.feed(data[at : at + block])
        fed += splitter.feed(b"", end=True)
        assert [raw.offset for raw in fed] == expected, block
    assert [raw.offset for raw in split(data)] == expected


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["[Game", "[Gamex", "[Game_", "{", "}", ";", '"', "\\", "\n", " ", "\t", "x", "é", "[", "G"]),
        max_size=40,
    ),
    st.integers(1, 9),
)
def test_the_splitter_follows_the_rules_whatever_the_blocks(pieces: list[str], block: int) -> None:
    data = "".join(pieces).encode("utf-8")
    expected = _reference_starts(data)
    assert [raw.offset for raw in split(data)] == expected
    splitter = Splitter()
    fed = []
    for at in range(0, len(data), block):
        fed += splitter.feed(data[at : at + block])
    fed += splitter.feed(b"", end=True)
    assert [raw.offset for raw in fed] == expected
    assert b"".join(raw.raw for raw in fed) == data[expected[0] :] if expected else not fed


def test_the_memory_benchmark_reports_every_input() -> None:
    from referee.bench.corpora import memory

    lines = list(memory(0.002))
    assert lines[0].split()[:2] == ["input", "MB"]
    assert [line.split()[0] for line in lines[1:]] == ["many", "long", "comment", "long"]
    assert "malformed" in lines[3] and "malformed" in lines[4] and "failed" not in "".join(lines)


def test_a_record_over_the_limit_is_refused_and_the_next_is_still_cut() -> None:
    """PLAY.md §8: only the first line of a refused record is kept; the records after it
    are cut where they start, even when the refused one left a comment open."""
    small = '[Game "numica"]\nR: SSOOSOSO\n'
    big = '[Game "nika"]\n{' + "x" * 5000 + "\n"
    found = split((small + big + small).encode(), max_record=1000)
    assert [raw.refused is None for raw in found] == [True, False, True]
    assert found[1].raw == b'[Game "nika"]' and "larger than 1000 bytes" in (found[1].refused or "")
    assert found[2].raw == small.encode() and found[2].offset == len(small) + len(big)
    assert found[2].line == 5


def test_a_long_stream_is_cut_in_memory_bounded_by_the_limit() -> None:
    import tracemalloc

    from referee.notation.record_splitter import raw_records

    class Endless(io.RawIOBase):
        def __init__(self, total: int) -> None:
            self.left = total

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            size = min(len(buffer), self.left)
            buffer[:size] = b"a" * size
            self.left -= size
            return size

    tracemalloc.start()
    stream = io.BufferedReader(Endless(30_000_000))
    head = io.BytesIO(b'[Game "nika"]\n1. ')
    found = list(raw_records(io.BufferedReader(_Joined(head, stream)), max_record=100_000))  # type: ignore[arg-type]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert len(found) == 1 and found[0].refused is not None
    assert peak < 3_000_000


class _Joined(io.RawIOBase):
    def __init__(self, *parts: io.IOBase) -> None:
        self.parts = list(parts)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while self.parts:
            data = self.parts[0].read(len(buffer))  # type: ignore[attr-defined]
            if data:
                buffer[: len(data)] = data
                return len(data)
            self.parts.pop(0)
        return 0


def test_a_round_number_is_read_by_its_value_and_a_long_one_never_converted() -> None:
    """`lexicon.round_value`, the one reading of a round number for every reader."""
    from referee.notation.lexicon import LongRound, round_value

    assert [round_value(text) for text in ("1.", "0001.", "000000000001...", "0.", "12.")] == [1, 1, 1, 0, 12]
    long = round_value("0" * 3 + "9" * 5000 + ".")
    assert isinstance(long, LongRound) and str(long) == f"{long}" == "9" * 5000
    assert (
        long != -1 and long != 1 and long == round_value("9" * 5000 + "...") and long != round_value("8" * 5000 + ".")
    )
    assert len({long, round_value("9" * 5000 + ".")}) == 1
