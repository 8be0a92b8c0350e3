"""Who reads which language (issue 49, docs/languages.md): the speaker of each address of
a games folder, and the languages of a group of recipients, so that an answer to several
players is written once per language."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from referee.live.mail import players
from referee.speech import Speaker, speaker

if TYPE_CHECKING:
    from referee.live.mail.gateway import Settings

PLAYERS_FILE = "players.toml"


def languages_of(group: list[tuple[str, str]], speak: Callable[[str], Speaker]) -> list[Speaker]:
    """The languages of a group of recipients, in the order of their first reader."""
    found: list[Speaker] = []
    for address, _ in group:
        say = speak(address)
        if say not in found:
            found.append(say)
    return found


def speaking(settings: Settings) -> Callable[[str], Speaker]:
    """The speaker of each address of the folder: players.toml's `lang` of the address, else
    the folder's configuration's (a league's `[[player]] lang`), else the folder's language."""
    own = players.load_langs(settings.games / PLAYERS_FILE)
    configured = dict(settings.langs)

    def say(address: str) -> Speaker:
        wanted = address.lower()
        return speaker(own.get(wanted) or configured.get(wanted) or settings.lang)

    return say
