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
from collections.abc import Callable, Sequence
from pathlib import Path

from referee import spoken_lines as spoken
from referee.games import registry
from referee.live.mail import compose, game
from referee.live.mail.audience import languages_of
from referee.live.mail.body import Submission
from referee.live.mail.compose import Answer, Kind
from referee.live.mail.ledger import Entry, Ledger
from referee.live.mail.log import Outcome
from referee.live.mail.players import Player
from referee.live.play import changes, queue_submit
from referee.live.play.queues import Notice
from referee.speech import DEFAULT, ENGLISH, N_, Speaker

Asked = tuple[list[Answer], list[str], Outcome]

QUEUE_LINES = (
    N_("{side} has no queued replies: nothing to clear"),
    N_("{side} has cleared its queued replies"),
    N_("{side} has no queued replies"),
    N_("{side} has queued replies; commitment {commitment}"),
    N_("{side}'s queued replies (committed in the record; commitment {commitment}):"),
    N_("{side}'s queued replies (committed, entering the record with the next turn; commitment {commitment}):"),
    N_("{side} has left the game: it queues nothing"),
    N_("it is your move: play it ({side} is to move)"),
    N_("the game awaits {what}: queue once it is given"),
    N_("{side}'s turn is in progress: queue once it is complete"),
    N_("{side} has set {count} queues in this game: no more can be kept"),
    N_("{verdict}: the game is over, nothing can be queued"),
    N_("the queue holds no line: write `if CONDITION then REPLY` (or --clear to remove a queue)"),
    N_("your queued replies are spent: a turn after your commitment was taken back"),
    N_("your queued replies are spent: you are no longer in the game"),
    N_("none of your queued lines answers {turn}: it is your move"),
    N_("your queued reply {reply} cannot be played ({why}): it is your move"),
    N_("your queued reply {reply} was your queue's last: the queue is spent"),
    N_("{side} plays {reply} (queued)"),
    N_("did you mean: {suggestions}?"),
)
"""The queue's lines as `play` writes them (referee/live/play/queue_submit.py, queues.py), in
English; in a mail they are said again in the reader's language (`speech.rule_text` reads
them back by these templates, the side names translated, the moves as written)."""
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
    speak: Callable[[str], Speaker] = lambda _: ENGLISH,
) -> Asked:
    """Set, show or clear the sender's queue; answered to the sender, and a commitment or
    a clearing told to every player."""
    to_sender = ((player.address, player.name),)
    say = speak(player.address)
    side = _side(current, player, submission.moves)
    if what == "show":
        shown = queue_submit.show_queue(current.path, side)
        body = _game_line(game_id, _said(shown.text(), say), say)
        return [Answer(Kind.SHOW, to_sender, body)], [], Outcome.SHOWN
    if keyed and submission.token != current.token:
        token = submission.token
        why = (
            say("carries no Token: line")
            if token is None
            else say("carries the token {token}, not the current one", token=token)
        )
        if token is not None and current.token is not None:  # what changed since, in the reader's words
            why += f" ({changes.explained(current.path, token, current.token, wrote='it', say=say)})"
        body = (
            say(
                "Your queue for game {game_id} was not stored: nothing was written. It {why}.", game_id=game_id, why=why
            )
            + "\n\n"
            + say("A message that queues must carry the game's current token:")
            + f"\n  Token: {current.token}\n"
        )
        return [Answer(Kind.REFUSED, to_sender, body)], [], Outcome.REFUSED
    text = None if what == "clear" else submission.moves
    with game.locked(folder / "mail-ledger.tsv", wait):  # a message delivered twice queues once
        ledger = Ledger(folder)
        before = ledger.find(message_id, player.address) if message_id is not None else None
        if before is not None:
            note = f"{message_id} was handled before ({before.outcome}): not queued again"
            body = compose.repeated(game_id, before.outcome, before.verdict, say)
            return [Answer(Kind.REPEAT, to_sender, body)], [note], Outcome.DUPLICATE
        result = queue_submit.set_queue(current.path, side, text, expect=submission.token, wait=wait)
        if message_id is not None:
            outcome = "refused" if result.exit_code else "played"
            entry = Entry(message_id, game_id, outcome, result.message.splitlines()[0], player.address)
            ledger.record(entry, game.write_atomically)
    if result.exit_code:
        stale = changes.said_again(current.path, submission.token, current.token, result.message, say)
        body = (
            say("Your queue for game {game_id} was not stored: nothing was written.", game_id=game_id)
            + f"\n\n{stale if stale != result.message else _said(result.text(), say)}\n"
        )
        note = f"{player.address}: queue refused for game {game_id}: {result.message}"
        return [Answer(Kind.REFUSED, to_sender, body)], [note], Outcome.REFUSED
    if not result.announce:
        return [Answer(Kind.SHOW, to_sender, _game_line(game_id, _said(result.message, say), say))], [], Outcome.SHOWN
    everyone = tuple((each.address, each.name) for each in current.roster.players)
    answers = []
    for say in languages_of(everyone, speak):  # one message per language (docs/languages.md): `say` for extraction
        body = _game_line(game_id, _said(result.message, say), say)
        if result.commitment is not None:
            body += (
                "\n"
                + say(
                    "The queue stays secret until the game ends; its replies are played as they are\n"
                    "triggered, and the reveal at the end lets everyone check them against this commitment."
                )
                + "\n"
            )
        to = tuple(pair for pair in everyone if speak(pair[0]) == say)
        answers.append(Answer(Kind.ACCEPTED, to, body))
    return answers, [], Outcome.PLAYED


def _game_line(game_id: str, text: str, say: Speaker) -> str:
    """`Game g1: TEXT` and a line end, in the speaker's language."""
    return say("Game {game_id}:", game_id=game_id) + f" {text}\n"


def _said(text: str, say: Speaker) -> str:
    """A queue's lines from `play` (QUEUE_LINES, a queue line's faults) said again, line by
    line; the queue's own lines (RGN) and any other line as written."""
    if say.lang == DEFAULT:
        return text
    return "\n".join(spoken.queue_line(line, say) for line in text.split("\n"))


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


def notices(
    game_id: str, after: game.Game, told: Sequence[Notice], speak: Callable[[str], Speaker] = lambda _: ENGLISH
) -> list[Answer]:
    """Each notice to its side's player alone (a spent queue), or to every player; in
    each reader's language."""
    answers: list[Answer] = []
    for notice in told:
        to = tuple(
            (each.address, each.name)
            for each in after.roster.players
            if notice.side is None or notice.side in each.sides
        )
        for say in languages_of(to, speak):
            who = f"{say.word(notice.side)}: " if notice.side is not None else ""
            group = tuple(pair for pair in to if speak(pair[0]) == say)
            answers.append(Answer(Kind.SHOW, group, _game_line(game_id, who + _said(notice.text, say), say)))
    return answers
