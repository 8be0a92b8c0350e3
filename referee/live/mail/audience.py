"""Who reads which language (issue 49, docs/languages.md): the speaker of each address of
a games folder, and the languages of a group of recipients, so that an answer to several
players is written once per language."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from referee.live.mail import players
from referee.speech import Speaker, speaker

PLAYERS_FILE = "players.toml"


def languages_of(group: Sequence[tuple[str, str]], speak: Callable[[str], Speaker]) -> list[Speaker]:
    """The languages of a group of recipients, in the order of their first reader."""
    found: list[Speaker] = []
    for address, _ in group:
        say = speak(address)
        if say not in found:
            found.append(say)
    return found


def speaking(games: Path, langs: Iterable[tuple[str, str]], lang: str) -> Callable[[str], Speaker]:
    """The speaker of each address of the games folder: players.toml's `lang` of the address,
    else the folder's configuration's (`langs`: a league's `[[player]] lang`), else the
    folder's language `lang` (the gateway's settings hold all three)."""
    own = players.load_langs(games / PLAYERS_FILE)
    configured = dict(langs)

    def say(address: str) -> Speaker:
        wanted = address.lower()
        return speaker(own.get(wanted) or configured.get(wanted) or lang)

    return say
