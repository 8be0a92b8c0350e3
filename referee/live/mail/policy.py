"""What the gateway does differently on a league's folder (LEAGUE.md §3, PLAY.md §5.1),
given to it as plain settings and callbacks by the layer above (the league), which this
package never imports:

- `Digest`: who hears of an accepted move at once. `EVERY_MOVE` is PLAY.md §5 (every
  player); `DAILY` answers only the sender and the player now to move, the others reading
  the move in the league's daily digest. Refusals, offers, reveals and a game's end go at
  once to everyone concerned in both modes.
- `Requests`: the league's requests by mail, a body `leave DURATION` or `status`, each
  answered by a handler of the league (`Reply`: what to tell the sender, and whether
  anything was written).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from referee.live.mail.compose import Answer, Kind
from referee.live.mail.request_words import request_of


class Digest(StrEnum):
    """Who hears of an accepted move at once (`digest` of `league.toml`)."""

    EVERY_MOVE = "every-move"
    DAILY = "daily"


class Reply(NamedTuple):
    """A league request's answer to its sender: its text, and whether it wrote anything
    (a leave granted: `played` in mail.log; a refusal: `refused`; a status: `shown`)."""

    text: str
    written: bool = False


class Requests(NamedTuple):
    """The league's handlers of requests by mail. `leave(address, duration, now)` grants
    leave to the player of `address` in all their ongoing games (the duration as the
    player wrote it); `status(address, now)` lists their games. Both answer with a Reply
    and never raise for anything the player wrote."""

    name: str
    leave: Callable[[str, str, int], Reply]
    status: Callable[[str, int], Reply]
    open_games: Callable[[str, int], Reply | None] | None = None
    """For a message whose subject names no game of the folder: the sender's open games
    (IDs and tokens), or None for a stranger, who gets no answer."""


class Request(NamedTuple):
    """A league request read from a body: `leave` with its duration text, or `status`."""

    word: str
    argument: str = ""


_LEAVE = re.compile(r"(?P<word>\w+)(?:\s+(?P<duration>\S.*?))?", re.IGNORECASE)


def read_request(moves: str) -> Request | None:
    """The league request a body's move text is, if it is one: `status` alone, or `leave`
    and one duration on one line (`leave 3d`, `leave 1d12h`); None for anything else."""
    text = moves.strip()
    if "\n" in text:
        return None
    if request_of(text) == "status":  # `status`, or its word in another language (`estado`)
        return Request("status")
    found = _LEAVE.fullmatch(text)
    if found is not None and request_of(found.group("word")) == "leave":  # `leave 3d`, `ausencia 3d`
        return Request("leave", (found.group("duration") or "").strip())
    return None


def narrowed(
    answers: list[Answer], digest: Digest, sender: str, to_move: frozenset[str], everyone: bool
) -> list[Answer]:
    """The answers to an accepted move as the digest mode allows: with `DAILY`, unless
    `everyone` must hear (a game's end, a draw or undo agreed), the ACCEPTED answers keep
    only the sender and the players now to move (`to_move`, addresses); everything else
    is kept whole."""
    if digest is not Digest.DAILY or everyone:
        return answers
    kept: list[Answer] = []
    for answer in answers:
        if answer.kind is Kind.ACCEPTED:
            recipients = tuple(pair for pair in answer.recipients if pair[0] == sender or pair[0] in to_move)
            if not recipients:
                continue
            answer = answer._replace(recipients=recipients)
        kept.append(answer)
    return kept


__all__ = ["Digest", "Reply", "Request", "Requests", "narrowed", "read_request"]
