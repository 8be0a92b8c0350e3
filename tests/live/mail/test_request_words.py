"""The request words players write alone in a mail body (referee/live/mail/request_words.py,
docs/languages.md "Words players write"): read in every language, and never an action of
any game, a side's label or a word of the notation."""

from __future__ import annotations

import re

import pytest

from referee.games import registry
from referee.live.mail.body import Request, read_body
from referee.live.mail.policy import read_request
from referee.live.mail.request_words import MEANING, WORDS, request_of

NOTATION_WORDS = {"draw", "undo", "resign", "timeout", "pass", "end", "setup", "moves:"}
ALL_WORDS = sorted(MEANING)


def test_every_language_has_a_word_for_every_request() -> None:
    requests = set(WORDS["en"].values())
    assert requests == {"show", "moves", "status", "leave"}
    for lang, words in WORDS.items():
        assert set(words.values()) == requests, lang
    assert len(MEANING) == sum(len(words) for words in WORDS.values())  # no word stands for two requests


@pytest.mark.parametrize("game", sorted(registry.GAMES))
@pytest.mark.parametrize("word", ALL_WORDS)
def test_no_request_word_of_any_language_reads_as_an_action_of_any_game(game: str, word: str) -> None:
    engine = registry.engine(game)
    dialect = engine.dialect()
    for written in (word, word.upper(), word.capitalize()):
        assert re.fullmatch(dialect.action_pattern, written, re.IGNORECASE) is None, (game, written)
        assert written.lower() not in {label.lower() for label in (*dialect.labels, *dialect.short_labels)}
    state = engine.new_state({"Game": game, "Seed": "0" * 16})
    legal = {str(action).lower() for action in state.legal_actions()}
    assert word not in legal
    assert word not in NOTATION_WORDS


@pytest.mark.parametrize(("word", "asked"), [("mostrar", Request.SHOW), ("Jugadas", Request.MOVES)])
def test_the_board_and_moves_requests_read_in_spanish(word: str, asked: Request) -> None:
    assert read_body(f"Hola,\n\n{word}\n").request is asked
    assert read_body(f"{word} d1-W\n").request is Request.PLAY  # a word with moves is not a request


def test_the_league_requests_read_in_spanish() -> None:
    assert read_request("estado") == read_request("status")
    found = read_request("ausencia 3d")
    assert found is not None and (found.word, found.argument) == ("leave", "3d")
    assert read_request("ausencias 3d") is None and read_request("leave\n3d") is None


def test_request_of_is_none_for_every_other_word() -> None:
    assert [request_of(word) for word in ("mostrar ", "SHOW", "d1-W", "pass", "")] == ["show", "show", None, None, None]
