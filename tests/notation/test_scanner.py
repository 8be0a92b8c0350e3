"""The one scanner of move text (`notation.scanner`): its tokens follow each other with
nothing skipped, whatever the text; each token's kind is a row of the table; and a word
its `word` reads alone is the one token the scanner reads there, of the same kind."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import registry
from referee.judge.core.adjudicate import dialect_for
from referee.judge.services.random_playout import play
from referee.notation.lexicon import TOKEN_KINDS
from referee.notation.scanner import scanner

GAMES = sorted(registry.GAMES)
PIECES = ["R:", "B:", "1.", "12. ", "draw", "timeout", "{x}", "; y\n", "!?", "!", " ", "\n", "\t", "-", "a1", "İ"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=150, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=30))
def test_the_tokens_cover_any_text_one_after_another(game: str, pieces: list[str]) -> None:
    tokens = scanner(dialect_for(game))
    text = "".join(pieces)
    at = 0
    for token in tokens.tokens(text):
        assert token.start() == at, "a token starts where the one before it ended"
        at = token.end()
        if token.lastindex is None:
            assert text[token.start() :].isspace() or token.start() == len(text), "no group: the end"
            break
        assert tokens.kind[token.lastindex] in {kind.name for kind in TOKEN_KINDS} | {"bad"}
    assert at == len(text)


def _words(game: str) -> set[str]:
    """The words of some playouts of the game, and of them with glyphs and round numbers."""
    words: set[str] = set()
    for number in range(4):
        for spelled_out in (False, True):
            moves = play(game, None, f"scanner-{game}-{number}", max_turns=40, spelled_out=spelled_out).text.split(
                "\n\n", 1
            )[1]
            words.update(moves.split())
    words.update({word + "!?" for word in list(words)[:50]} | {"12.", "12.R:", "draw", "DRAW", "timeout", "1.5"})
    return words


@pytest.mark.parametrize("game", GAMES)
def test_a_word_read_alone_is_the_one_token_the_scanner_reads_there(game: str) -> None:
    tokens = scanner(dialect_for(game))
    kinds = {tokens.word_head: "label", tokens.word_draw: "draw", tokens.word_action: "action"}
    read_alone = 0
    for word in sorted(_words(game)):
        alone = tokens.word(word)
        if alone is None or alone.lastindex not in kinds:
            continue
        read_alone += 1
        token = tokens.pattern.match(word)
        assert token is not None and token.end() == len(word), word
        assert token.lastindex is not None and tokens.kind[token.lastindex] == kinds[alone.lastindex], word
    assert read_alone > 20
