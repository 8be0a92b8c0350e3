"""The words a player writes alone in a mail body to ask for something (PLAY.md §5, LEAGUE.md
§3), in every language the gateway reads (issue 49, docs/languages.md "Words players write").

Each request has its English word and the same word in each other language; the gateway
reads them all, whatever the player's own language (a Spanish player may write `show`,
an English one `mostrar`). The words of the notation (`draw`, `undo`, `resign`, `timeout`,
`pass`) are written into the record and are never translated: they are RGN. No request
word of any language reads as an action of any game (tests/live/mail/test_request_words.py).
"""

from __future__ import annotations

from types import MappingProxyType

WORDS: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType(
    {
        "en": MappingProxyType({"show": "show", "moves": "moves", "status": "status", "leave": "leave"}),
        "es": MappingProxyType({"mostrar": "show", "jugadas": "moves", "estado": "status", "ausencia": "leave"}),
    }
)
"""Per language, each request word and the request (its English word) it stands for."""

MEANING: MappingProxyType[str, str] = MappingProxyType(
    {word: request for words in WORDS.values() for word, request in words.items()}
)
"""Every request word of every language, lower case, and the request it stands for."""


def request_of(word: str) -> str | None:
    """The request (`show`, `moves`, `status`, `leave`) a word stands for, in any language
    and any case; None for any other word."""
    return MEANING.get(word.strip().lower())


def words_for(request: str, lang: str) -> str:
    """The word a player of `lang` is told to write for `request` (English where that
    language has none)."""
    for word, meant in WORDS.get(lang, WORDS["en"]).items():
        if meant == request:
            return word
    return request
