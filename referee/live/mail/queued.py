"""Conditional moves by mail (PLAY.md §9): a body whose first word is `if` is a queue,
`queue` alone shows the sender their queue, `queue clear` removes it; and the notices of
spent queues, each to its side's player alone.

A queue and a clearing write (the side's queue file, the commitment told to everyone), so
with `players.toml` they need the current `Token:` as moves do (PLAY.md §5.1); `queue`
writes nothing and needs none. A player's queue is shown to that player only, never to
anyone else before the reveal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from referee.games import registry
from referee.live.mail import compose, game
from referee.live.mail.body import Submission
from referee.live.mail.compose import Answer, Kind
from referee.live.mail.ledger import Entry, Ledger
from referee.live.mail.log import Outcome
from referee.live.mail.players import Player
from referee.live.play import changes, queue_submit
from referee.live.play.queues import Notice

Asked = tuple[list[Answer], list[str], Outcome]
_REPLY_LABEL = re.compile(r"(?<!\S)then\s+([A-Za-z]+)\s*:", re.IGNORECASE)


def wants(submission: Submission) -> str | None:
    """`set`, `show` or `clear` when the body is a queue request; else None."""
    words = submission.moves.split()
    if not words:
        return None
    first = words[0].lower()
    if first == "if":
        return "set"
    if first == "queue" and len(words) == 1:
        return "show"
    if first == "queue" and len(words) == 2 and words[1].lower() == "clear":
        return "clear"
    return None


def answer(
    what: str,
    submission: Submission,
    *,
    game_id: str,
    current: game.Game,
    player: Player,
    keyed: bool,
    wait: float,
    folder: Path,
    message_id: str | None,
) -> Asked:
    """Set, show or clear the sender's queue; answered to the sender, and a commitment or
    a clearing told to every player."""
    to_sender = ((player.address, player.name),)
    side = _side(current, player, submission.moves)
    if what == "show":
        shown = queue_submit.show_queue(current.path, side)
        body = f"Game {game_id}: {shown.text()}\n"
        return [Answer(Kind.SHOW, to_sender, body)], [], Outcome.SHOWN
    if keyed and submission.token != current.token:
        token = submission.token
        why = "carries no Token: line" if token is None else f"carries the token {token}, not the current one"
        if token is not None and current.token is not None:
            why += f" ({changes.stale(current.path, token, current.token, wrote='it').partition(': ')[2]})"
        body = (
            f"Your queue for game {game_id} was not stored: nothing was written. It {why}.\n\n"
            f"A message that queues must carry the game's current token:\n  Token: {current.token}\n"
        )
        return [Answer(Kind.REFUSED, to_sender, body)], [], Outcome.REFUSED
    text = None if what == "clear" else submission.moves
    with game.locked(folder / "mail-ledger.tsv", wait):  # a message delivered twice queues once
        ledger = Ledger(folder)
        before = ledger.find(message_id, player.address) if message_id is not None else None
        if before is not None:
            note = f"{message_id} was handled before ({before.outcome}): not queued again"
            body = compose.repeated(game_id, before.outcome, before.verdict)
            return [Answer(Kind.REPEAT, to_sender, body)], [note], Outcome.DUPLICATE
        result = queue_submit.set_queue(current.path, side, text, expect=submission.token, wait=wait)
        if message_id is not None:
            outcome = "refused" if result.exit_code else "played"
            entry = Entry(message_id, game_id, outcome, result.message.splitlines()[0], player.address)
            ledger.record(entry, game.write_atomically)
    if result.exit_code:
        body = f"Your queue for game {game_id} was not stored: nothing was written.\n\n{result.text()}\n"
        note = f"{player.address}: queue refused for game {game_id}: {result.message}"
        return [Answer(Kind.REFUSED, to_sender, body)], [note], Outcome.REFUSED
    if not result.announce:
        return [Answer(Kind.SHOW, to_sender, f"Game {game_id}: {result.message}\n")], [], Outcome.SHOWN
    everyone = tuple((each.address, each.name) for each in current.roster.players)
    body = f"Game {game_id}: {result.message}\n"
    if result.commitment is not None:
        body += (
            "\nThe queue stays secret until the game ends; its replies are played as they are\n"
            "triggered, and the reveal at the end lets everyone check them against this commitment.\n"
        )
    return [Answer(Kind.ACCEPTED, everyone, body)], [], Outcome.PLAYED


def _side(current: game.Game, player: Player, text: str) -> str:
    """The sender's side a queue is for: the one its first reply names, else the
    sender's first side that is not to move."""
    found = _REPLY_LABEL.search(text)
    record = current.replayed.record
    if found is not None and record is not None:
        named = registry.GAMES[record.game].side(found.group(1))
        if named is not None and named in player.sides:
            return named
    waiting = [side for side in player.sides if side != current.to_move]
    return (waiting or list(player.sides))[0]


def notices(game_id: str, after: game.Game, told: Sequence[Notice]) -> list[Answer]:
    """Each notice to its side's player alone (a spent queue), or to every player."""
    answers: list[Answer] = []
    for notice in told:
        to = tuple(
            (each.address, each.name)
            for each in after.roster.players
            if notice.side is None or notice.side in each.sides
        )
        if to:
            who = f"{notice.side}: " if notice.side is not None else ""
            answers.append(Answer(Kind.SHOW, to, f"Game {game_id}: {who}{notice.text}\n"))
    return answers
