"""The RGN reader: records, tags, move text, and where and why bad text stops being RGN."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.judge.core.adjudicate import dialect_for
from referee.judge.services.random_playout import play
from referee.notation.grammar import grammar
from referee.notation.model import Comment, Malformed, Record
from referee.notation.reader import _read_fast, read
from referee.notation.writer import write

HEAD = '[Game "numica"]\n[Seed "s"]\n'


def one(text: str | bytes) -> Record | Malformed:
    results = read(text, dialect_for)
    assert len(results) == 1
    return results[0]


def error_of(text: str | bytes) -> tuple[int, int, str]:
    result = one(text)
    assert isinstance(result, Malformed), result
    return result.error.span.line, result.error.span.column, result.error.message


def test_tags_with_escapes_and_unknown_tags_are_kept() -> None:
    record = one('[Game "numica"]\n[Event "The \\"big\\" one \\\\ two"] [Custom_1 "x"]\n')
    assert isinstance(record, Record)
    assert record.tag("Event") == 'The "big" one \\ two'
    assert record.tag("Custom_1") == "x"
    assert record.tag_span("Custom_1").column == 34


def test_turns_numbers_labels_glyphs_comments_and_draw() -> None:
    record = one(HEAD + "{opening} R: SSOOSOSO ; line\nBlue: OSOSOSOS!\n1. r: A1-a2 ?! {mid}\n1... B: a8-a7\ndraw\n")
    assert isinstance(record, Record)
    kinds = [type(item).__name__ for item in record.items]
    assert kinds == ["Comment", "Turn", "Turn", "Turn", "Turn", "Draw"]
    first, second, third = record.turns[:3]
    assert (first.side, first.number, first.span.line, first.span.column) == ("Red", None, 3, 11)
    assert isinstance(first.items[1], Comment) and not first.items[1].braced
    assert second.moves[0].glyph == "!"
    assert (third.number, third.side, third.moves[0].text, third.moves[0].glyph) == (1, "Red", "A1-a2", "?!")
    assert str(third.moves[0].action) == "a1-a2"
    assert record.turns[3].number == 1


def test_several_records_text_before_the_first_bom_and_crlf() -> None:
    data = b"\xef\xbb\xbfFrom: gm@club\r\nHi all,\r\n" + (HEAD + "R: SSOOSOSO\n").replace("\n", "\r\n").encode() * 2
    results = read(data, dialect_for)
    assert len(results) == 2
    assert all(isinstance(result, Record) for result in results)
    assert results[1].span.line == 6
    assert results[1].turns[0].span == (8, 1)


def test_no_record_at_all() -> None:
    assert read(b"just a mail with no game\n", dialect_for) == []


def test_bad_utf8_makes_only_its_record_malformed() -> None:
    data = (HEAD + "R: SSOOSOSO {caf").encode() + b"\xe9}\n" + HEAD.encode()
    first, second = read(data, dialect_for)
    assert isinstance(first, Malformed) and first.error.span == (3, 17)
    assert "UTF-8" in first.error.message
    assert isinstance(second, Record)


def test_unclosed_comment_is_reported_at_its_brace_and_the_next_record_is_read() -> None:
    data = HEAD + "R: SSOOSOSO { never closed\nB: OSOSOSOS\n" + HEAD + "R: SSOOSOSO\n"
    first, second = read(data, dialect_for)
    assert isinstance(first, Malformed)
    assert first.error.span == (3, 13)
    assert "never closed" in first.error.message
    assert isinstance(second, Record)


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        (HEAD + "R: SSOOSOSO\nRd: OSOSOSOS", 4, 1, 'expected a side label such as "R:"'),
        (HEAD + "R: SSOOSOSO\nB: c3c4", 4, 4, "expected an action such as \"a1-c3\", found 'c3c4'"),
        (HEAD + "SSOOSOSO", 3, 1, "expected a side label"),
        (HEAD + "R: SSOOSOSO draw a1-a2", 3, 18, "expected a side label"),
        (HEAD + "1. 2. R: SSOOSOSO", 3, 4, "expected a side label"),
        (HEAD + "R: SSOOSOSO 3.", 3, 15, "expected a side label"),
        (HEAD + "R: ! SSOOSOSO", 3, 4, "a glyph must follow an action"),
        (HEAD + "R: a1-a2}", 3, 9, "or an action, found '}'"),
        (HEAD + "R: a1-a2 b1b9}", 3, 10, "found 'b1b9'"),
        ('[Game "numica"]\n[Event "a\\nb"]\n', 2, 8, "quoted tag value"),
        ('[Game "numica"]\n[Event "open\n', 2, 8, "quoted tag value"),
        ('[Game "numica"]\n[Event]\n', 2, 7, "quoted tag value"),
        ('[Game "numica"]\n[Seed "a"]\n[Seed "b"]\n', 3, 1, "the tag Seed appears twice"),
        ('[Game "chess"]\n', 1, 7, 'unknown game "chess"'),
    ],
)
def test_syntax_and_tag_errors_say_where_and_what_was_expected(text: str, line: int, column: int, words: str) -> None:
    got_line, got_column, message = error_of(text)
    assert (got_line, got_column) == (line, column), message
    assert words in message


def test_the_detailed_grammar_agrees_with_the_fast_reader() -> None:
    text = HEAD + "{a} R: SSOOSOSO ;b\nB: OSOSOSOS !?\n1. R: a1-a2 {c} ?\n1... B: resign\n"
    dialect = dialect_for("numica")
    assert grammar(dialect).parse(text) == _read_fast(text, 1, dialect, "numica")


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10_000))
def test_canonical_form_reads_back_to_the_same_record(seed: int) -> None:
    """A written record reads back the same, spans aside, by both grammars."""
    playout = play("numica", None, f"grammar-{seed}", max_turns=30)
    dialect = dialect_for("numica")
    again = one(playout.text)
    assert isinstance(again, Record)
    assert write(again, dialect) == playout.text
    assert [(t.side, t.number, [m.action for m in t.moves]) for t in again.turns] == [
        (t.side, t.number, [m.action for m in t.moves]) for t in playout.record.turns
    ]
    assert grammar(dialect).parse(playout.text) == again._replace(offset=0, raw=b"")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300) | st.text(alphabet='[]{};:"\\ \nRBGame numica-x1aSO!?.draw', max_size=200))
def test_no_input_raises(data: bytes | str) -> None:
    """Whatever the bytes, the reader gives records or explanations, never an exception."""
    for result in read(HEAD.encode() + (data.encode() if isinstance(data, str) else data), dialect_for):
        assert isinstance(result, (Record, Malformed))


JUNK = [
    "{",
    "}",
    ";x\n",
    "R:",
    "Rd:",
    "B+:",
    "7.",
    "3...",
    "!",
    "?!",
    "draw",
    "a1-",
    "zz",
    '[Event "x"]',
    "SO",
    "a1xb2",
    "resign",
    "\t",
    "\n",
    " ",
    "{note}",
    "1.R:",
    "r:a1-a2!!",
    "².",
    "1234567890.",
    "123456789.",
    "000000000001.",
    "9" * 5000 + ".",
    "１.",
    "[Game",
    '"',
]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=0, max_value=500),
    st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(JUNK)), max_size=4),
)
def test_fast_reader_and_detailed_grammar_accept_the_same_text(seed: int, edits: list[tuple[int, str]]) -> None:
    """The fast path is an optimisation of the grammar: on any text (here, playouts with
    junk spliced in) both accept it and build the same record, or both reject it."""
    from referee.notation.reader import _Unreadable

    text = play("numica", None, f"oracle-{seed}", max_turns=12).text
    head, body = text.split("\n\n", 1)
    for position, junk in edits:
        cut = position % (len(body) + 1)
        body = body[:cut] + junk + body[cut:]
    text = head + "\n\n" + body
    dialect = dialect_for("numica")
    try:
        fast: Record | None = _read_fast(text, 1, dialect, "numica")
    except _Unreadable:
        fast = None
    try:
        slow: Record | None = grammar(dialect).parse(text)
    except Exception as error:  # noqa: BLE001 - the grammar's only failure is NotationError
        assert type(error).__name__ == "NotationError", error
        slow = None
    assert fast == slow, text


@pytest.mark.parametrize("number", ["2.", "2...", "2.\n\n\n"])
def test_a_record_ending_after_a_round_number_is_located_inside_it(number: str) -> None:
    """The label the number calls for is missing right after the number, inside the record,
    not at the next record's `[Game` line (where `format`, passing the record through,
    would shift it)."""
    from referee.judge import session
    from referee.notation.record_splitter import split

    first = '[Game "pikemen"]\n\nR: h4(SE)\nB: c6(E)\n' + number
    data = (first + '\n\n[Game "pikemen"]\n\nR: h4(SE)\n').encode()
    found = read(data.decode(), dialect_for)[0]
    assert isinstance(found, Malformed)
    where = (5, len(number.rstrip()) + 1)
    assert (found.error.span.line, found.error.span.column) == where
    for annotate in (False, True):
        verdict = session.check_raw(split(data)[0], "t.rgn", 1, annotate)
        assert verdict.error is not None and (verdict.error.line, verdict.error.column) == where


@pytest.mark.parametrize(
    ("game", "movetext", "column"),
    [
        ("pikemen", "R: h4(SE)}", 10),
        ("pikemen", "R: h4(SE)!}", 11),
        ("pikemen", "R: h4(SE) }", 11),
        ("nieuchess", "R: setup a1 b1}", 15),
        ("nika", "1. W: d1-W d2-W}", 16),
    ],
)
def test_a_stray_brace_after_a_valid_action_is_named_not_the_action(game: str, movetext: str, column: int) -> None:
    from referee.judge import session
    from referee.notation.record_splitter import split

    text = f'[Game "{game}"]\n[Seed "s"]\n\n{movetext}\n'
    found = read(text, dialect_for)[0]
    assert isinstance(found, Malformed)
    assert (found.error.span.line, found.error.span.column) == (4, column)
    assert found.error.message.endswith("found '}'")
    verdict = session.check_raw(split(text.encode())[0], "t.rgn", 1, True)
    assert verdict.error is not None and (verdict.error.column, verdict.error.message) == (column, found.error.message)
