"""The table of token kinds (`notation.lexicon.TOKEN_KINDS`) is read alike by every reader
of move text: each row's sample token scans to its kind in the one scanner, the
record around it reads the same in the model reader and in the grammar (into the row's
item), and the quick scanner reads it the same or leaves it to them. A row added to the
table that some reader does not handle fails here: the model reader refuses a kind it
does not know, the grammar finds no element for it."""

from __future__ import annotations

import pytest

from referee.games import registry
from referee.judge.core.adjudicate import dialect_for
from referee.notation.grammar import grammar
from referee.notation.lexicon import TOKEN_KINDS, TokenKind
from referee.notation.model import Record, Turn
from referee.notation.quick import scan
from referee.notation.reader import _read_fast
from referee.notation.scanner import scanner
from tests.notation.test_quick_scan import expected_items


def _all_items(record: Record) -> list[object]:
    """The record's items, each turn followed by its own."""
    found: list[object] = []
    for item in record.items:
        found.append(item)
        if isinstance(item, Turn):
            found += item.items
    return found


@pytest.mark.parametrize("game", list(registry.GAMES))
@pytest.mark.parametrize("kind", TOKEN_KINDS, ids=[kind.name for kind in TOKEN_KINDS])
def test_each_token_kind_scans_to_itself_and_reads_alike_in_every_reader(game: str, kind: TokenKind) -> None:
    dialect = dialect_for(game)
    moves, token = kind.sample(dialect)
    at = moves.rindex(token) if kind.name != "label" else 0
    tokens = scanner(dialect)
    scanned = tokens.pattern.match(moves, at)
    assert scanned is not None and scanned.lastindex is not None
    read = tokens.kind[scanned.lastindex]
    if read == "label" and scanned[tokens.number] is not None:  # a head: the round number is its first token
        assert (kind.name, token) == ("number", scanned[tokens.number])
    else:
        assert read == kind.name and scanned[tokens.label if read == "label" else 0] == token
    text = f'[Game "{game}"]\n[Seed "s"]\n\n{moves}\n'
    slow = grammar(dialect).parse(text)
    assert _read_fast(text, 1, dialect, game) == slow
    items = _all_items(slow)
    assert any(isinstance(item, kind.item) for item in items), f"{kind.name} read into no {kind.item.__name__}"
    for keep in (False, True):
        quick = scan(text, dialect_for, keep=keep)
        assert quick is None or quick.items == expected_items(slow)[0]


def test_the_kinds_have_one_row_each() -> None:
    """Each kind's name is the group of its token: no two rows may share one."""
    names = [kind.name for kind in TOKEN_KINDS]
    assert len(set(names)) == len(names)
