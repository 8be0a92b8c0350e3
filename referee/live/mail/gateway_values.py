"""The gateway's values: its settings (the options of `referee mail` and of a league's
mail) and what became of one message (`Handled`), apart from the gateway's work
(gateway.py) so that the commands, the IMAP pass and the league read them without the
gateway's whole import."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from referee.live.mail import delivery, policy
from referee.live.mail.compose import Answer
from referee.live.mail.log import Outcome
from referee.speech import DEFAULT

PLAYERS_FILE = "players.toml"
MAX_SIZE = 2**20
"""`--max-size`: the most of a message read before its sender is known (1 MB)."""


class Settings(NamedTuple):
    """The gateway's options: the game folder, where answers go, the GM's keys, who answers,
    the size limit, the game master's address for `Cc`, and the time (`--now`, seconds)."""

    games: Path
    outbox: Path
    smtp: delivery.Smtp | None
    keys: Path | None
    sender: str
    wait: float = 10.0
    max_size: int = MAX_SIZE
    gm: str | None = None
    now: int | None = None
    digest: policy.Digest = policy.Digest.EVERY_MOVE
    """Who hears of an accepted move at once (a league's `digest`, LEAGUE.md §3)."""
    requests: policy.Requests | None = None
    """A league's handlers of `leave` and `status` by mail (None: not a league's folder)."""
    log_file: Path | None = None
    """`--log-file`: one more file that gets each message's JSON log line."""
    trusted: str | None = None
    """`--trust-authserv ID`: the authserv-id whose Authentication-Results header verifies a sender."""
    lang: str = DEFAULT
    """The folder's language (a league's `lang`): what its players read unless their own says otherwise."""
    langs: tuple[tuple[str, str], ...] = ()
    """(address, language) of the players whose own language the folder's configuration names
    (a league's `[[player]] lang`); players.toml's `lang` of an address comes first (docs/languages.md)."""


class Handled(NamedTuple):
    """What became of one message: the exit status, lines for standard error, the answers
    sent, and the outcome written into `mail.log` (None when nothing could be written)."""

    exit_code: int
    notes: tuple[str, ...]
    answers: tuple[Answer, ...] = ()
    outcome: Outcome | None = None
    kept: tuple[Path, ...] = ()
    """The answers' files in the outbox (sent from there with `--smtp`)."""
