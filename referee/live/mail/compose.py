"""Composing answers: the words of each kind of answer, and the message that carries them
(`Re: [ID] ...`, `In-Reply-To`, `References`, the board as an SVG attachment)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from enum import Enum
from typing import NamedTuple

from referee import spoken_lines as spoken
from referee.judge.core.clock_walk import current_instant
from referee.live.addresses import clean_header_text
from referee.live.mail.folding import POLICY
from referee.live.mail.incoming import Incoming
from referee.live.mail.replies import Doubt
from referee.speech import DEFAULT, ENGLISH, N_, Speaker, rule_text

_REPLY_PREFIX = re.compile(r"^\s*((re|aw|sv|antw|vs)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


class Kind(Enum):
    """What an answer says."""

    ACCEPTED = "accepted"
    REFUSED = "refused"
    NOT_ACCEPTED = "not accepted"
    SHOW = "show"
    MOVES = "moves"
    NO_MOVES = "no moves"
    PLAIN_TEXT_PLEASE = "plain text please"
    REPEAT = "repeat"
    TOO_LARGE = "too large"
    REVEALED = "revealed"
    OFFERED = "offered"


class Answer(NamedTuple):
    """One answer before it becomes a message: to whom, the text, the board picture if any."""

    kind: Kind
    recipients: tuple[tuple[str, str], ...]
    body: str
    svg: str | None = None
    record: str | None = None
    """The game's record, attached as `ID.rgn` (when the seed is revealed)."""

    def __repr__(self) -> str:
        to = ", ".join(address for address, _ in self.recipients)
        return f"<Answer {self.kind.value} to {to}>"


class Answering(NamedTuple):
    """How a text about a game closes for its reader: `token`, the game's token (None:
    none to answer with); `to_move`, whether the reader is to move, who alone is told how
    to answer; `keyed`, whether the folder keeps passphrases (players.toml), so that
    those lines name the `Key:` line too."""

    token: str | None
    to_move: bool = True
    keyed: bool = False


class Turn(NamedTuple):
    """What the game says after a submission, in a player's words."""

    verdict: str
    events: tuple[str, ...]
    board: str
    next: str


def reply_subject(subject: str, game_id: str) -> str:
    """`Re: [ID] ...`: the original subject without its reply prefixes, the game's tag first."""
    rest = _REPLY_PREFIX.sub("", clean_header_text(subject, 300))
    if not game_id:  # an answer about no game (a league player's open games)
        return clean_header_text(f"Re: {rest.strip()}".rstrip(), 400)
    tag = f"[{game_id}]"
    rest = rest.replace(tag, "", 1).strip() if tag in rest else rest.strip()
    return clean_header_text(f"Re: {tag} {rest}".rstrip(), 400)


def build(
    answer: Answer,
    *,
    game_id: str,
    incoming: Incoming,
    sender: str,
    now: datetime | None = None,
    cc: str | None = None,
) -> EmailMessage:
    """The answer as a message from `sender`, threaded under the incoming message; `cc`
    is the game master's address (`--gm`), copied on every answer."""
    message = EmailMessage(policy=POLICY)
    message["From"] = _address(sender, "referee")
    message["To"] = [_address(address, name) for address, name in answer.recipients]
    if cc is not None and cc not in (address for address, _ in answer.recipients):
        message["Cc"] = _address(cc, "game master")
    message["Subject"] = reply_subject(incoming.subject, game_id)
    message["Date"] = format_datetime(now or datetime.fromtimestamp(current_instant(), UTC))
    message["Message-ID"] = make_msgid("referee", domain=sender.rpartition("@")[2] or "localhost")
    if incoming.message_id is not None:
        message["In-Reply-To"] = incoming.message_id
        message["References"] = " ".join((*incoming.references, incoming.message_id))
    # RFC 3834: an automatic answer, which vacation programs and this gateway never answer.
    message["Auto-Submitted"] = "auto-replied"
    message["X-Loop"] = sender  # an answer that comes back (a forward, a list) is never answered
    message.set_content(answer.body)
    if answer.svg is not None:
        message.add_attachment(answer.svg.encode("utf-8"), "image", "svg+xml", filename=f"{game_id}.svg")
    if answer.record is not None:
        message.add_attachment(answer.record, filename=f"{game_id}.rgn")
    return message


def _address(address: str, name: str) -> Address:
    user, _, domain = address.partition("@")
    return Address(display_name=clean_header_text(name, 80), username=user, domain=domain)


def turn_block(turn: Turn, say: Speaker = ENGLISH) -> list[str]:
    verdict, following = spoken.turn(turn.verdict, turn.next, say)
    turn = turn._replace(verdict=verdict, next=following)
    events = [rule_text(event, say) for event in turn.events] if say.lang != DEFAULT else list(turn.events)
    head = ([turn.verdict] if turn.verdict else []) + events
    tail = [spoken.board(turn.board.rstrip("\n"), say), "", turn.next] if turn.board else [turn.next]
    return [*head, "", *tail] if head else tail


def _hinted(lines: list[str], answering: Answering, say: Speaker) -> str:
    """The lines as a mail body, closed by how to answer where the reader is to move."""
    if answering.token and answering.to_move:
        lines = [*lines, "", reply_hint(answering.token, answering.keyed, say)]
    return "\n".join(lines) + "\n"


def accepted(
    game_id: str,
    who: str,
    side: str,
    moves: str,
    turn: Turn,
    answering: Answering,
    say: Speaker = ENGLISH,
) -> str:
    """To every player: what was played, what it caused, the board, who is next; the lines
    that say how to answer only for the player who is to move (`answering`)."""
    played = say("{who} ({side}) played in game {game_id}:", who=who, side=say.word(side), game_id=game_id)
    lines = [played, "", *_indented(moves), "", *turn_block(turn, say)]
    return _hinted(lines, answering, say)


def offered(
    game_id: str,
    who: str,
    side: str,
    kind: str,
    moves: str,
    turn: Turn,
    answering: Answering,
    say: Speaker = ENGLISH,
) -> str:
    """To every player: a draw or an undo is offered (after the moves played with it, if
    any), by whom, and how to answer it; the token request only for the player to move."""
    what = say("a draw") if kind == "draw" else say("to take back the last turn")
    played = moves.rstrip()[: -len(kind)].strip()  # the moves before the final word, if any
    acted = any(not word.endswith(":") for word in played.split())  # more than a label (`R: draw`)
    side_word = say.word(side)
    head = say("{who} ({side}) played in game {game_id}:", who=who, side=side_word, game_id=game_id)
    lines = [head, "", *_indented(played), ""] if acted else []
    lines += [
        say("{who} ({side}) offers {what} in game {game_id}.", who=who, side=side_word, what=what, game_id=game_id),
        "",
        say(
            "To accept, answer with the word `{word}` alone. To decline, play any move:\n"
            "the offer stands until the next move of any side.",
            word=kind,
        ),
        "",
        *turn_block(turn, say),
    ]
    return _hinted(lines, answering, say)


def refused(
    game_id: str,
    moves: str,
    error: str,
    suggestions: Sequence[str],
    turn: Turn | None,
    answering: Answering,
    say: Speaker = ENGLISH,
) -> str:
    """To the sender alone: why nothing was played, what might have been meant, the board."""
    lines = [say("Your submission to game {game_id} was not played: nothing was written.", game_id=game_id), ""]
    if moves:
        lines += [say("You sent:"), *_indented(moves), ""]
    lines.append(spoken.error(error, say))
    if suggestions:
        lines.append(say("Did you mean: {suggestions}?", suggestions=", ".join(suggestions)))
    if turn is not None:
        # The refusal's verdict is the error above: the board and who is to move follow it.
        lines += ["", *turn_block(turn._replace(verdict="", events=()), say)]
    return _hinted(lines, answering, say)


def not_accepted(game_id: str, reason: str, say: Speaker = ENGLISH) -> str:
    return say(
        "Your message to game {game_id} was not accepted: {reason}.\n\n"
        "This game asks every player for a passphrase: write it on a line of its own,\n"
        "  Key: your passphrase\n"
        "above your moves. Nothing was played.\n",
        game_id=game_id,
        reason=say(reason),
    )


NO_KEY_LINE = N_("it carries no Key: line")
WRONG_KEY = N_("the key is not this player's key")


def not_verified(game_id: str, authserv: str, say: Speaker = ENGLISH) -> str:
    """`--trust-authserv` without passphrases: a sender the provider did not verify."""
    return say(
        "Your message to game {game_id} was not accepted: the mail server {authserv} could\n"
        "not verify that it comes from your address (no DMARC or aligned DKIM pass).\n\n"
        "Send it again from your own mail account, as you sent your earlier moves.\n"
        "Nothing was played.\n",
        game_id=game_id,
        authserv=authserv,
    )


_DOUBTS = {
    Doubt.EARLIER_MESSAGE: N_("looks like the start of a quoted earlier message, yet it is not marked as a quote."),
    Doubt.BELOW_QUOTE: N_(
        "stands below the quoted message, and your text stands above it too: it may be\n"
        "your own text or part of the quote that your mail program did not mark."
    ),
}


def unclear(game_id: str, line: str, read: str, doubt: Doubt | None = None, say: Speaker = ENGLISH) -> str:
    """A reply whose new text and quote cannot be told apart: refused, showing what was read."""
    shown = "\n".join(f"  | {text}" for text in read.splitlines()[:40]) or say("  (nothing)")
    if doubt is Doubt.UNREADABLE:
        where = say("Your message's HTML could not be read to its end, so where your reply ends is unclear.\n")
    else:
        why = say(_DOUBTS[doubt or Doubt.EARLIER_MESSAGE])
        where = say(
            'Where your reply ends and the message it quotes begins is unclear: the line\n\n  "{line}"\n\n{why}\n',
            line=line,
            why=why,
        )
    return say(
        "Your message to game {game_id} was not played: nothing was written.\n{where}"
        "The referee never reads a quoted message as moves. It read this as your text:\n\n"
        "{shown}\n\n"
        "Please answer again with only your moves above the quoted text, or put them\n"
        "between a line `moves:` and a line `end`.\n",
        game_id=game_id,
        where=where,
        shown=shown,
    )


def plain_text_please(game_id: str, say: Speaker = ENGLISH) -> str:
    """A message with no text part, neither plain nor HTML (PLAY.md §5): asked for plain text."""
    return say(
        "Your message to game {game_id} holds no text, so nothing was played.\n\n"
        "Please send your moves as plain text (text/plain), one submission per message;\n"
        "write `show` for the board or `moves` for the legal moves. Most mail programs\n"
        "have a plain-text setting (Gmail: More options, Plain text mode).\n",
        game_id=game_id,
    )


def no_moves(game_id: str, turn: Turn, say: Speaker = ENGLISH) -> str:
    head = say("Your message to game {game_id} holds no moves, so nothing was played.", game_id=game_id)
    lines = [head, "", *turn_block(turn, say)]
    lines += ["", say("Write your moves in the body; `show` asks for the board, `moves` for the legal moves.")]
    return "\n".join(lines) + "\n"


def shown(game_id: str, turn: Turn, answering: Answering, say: Speaker = ENGLISH) -> str:
    lines = [say("Game {game_id}:", game_id=game_id), "", *turn_block(turn, say)]
    return _hinted(lines, answering, say)


def listed(game_id: str, header: str, actions: Sequence[str], say: Speaker = ENGLISH) -> str:
    body = ", ".join(actions)
    head = say("Game {game_id}: {header}", game_id=game_id, header=spoken.moves_header(header, say))
    return head + "\n\n" + "\n".join(_wrap(body, 72)) + "\n"


def too_large(game_id: str, limit: int, say: Speaker = ENGLISH) -> str:
    return say(
        "Your message to game {game_id} is larger than {size}, so it was not read and nothing was played.\n\n"
        "Please send your moves as plain text, without attachments or quoted history.\n",
        game_id=game_id,
        size=_size(limit, say),
    )


def token_needed(game_id: str, turn: Turn, token: str | None, say: Speaker = ENGLISH) -> str:
    """A writing message without `Token:` in a game with passphrases: refused, the current token quoted."""
    lines = [
        say("Your message to game {game_id} was not played: nothing was written.", game_id=game_id),
        "",
        say(
            "This game asks for the game's current token with every message that plays:\n"
            "  Token: {token}\n"
            "(a message without one could be an old message sent again by someone else).",
            token=token,
        ),
        "",
        *turn_block(turn._replace(verdict="", events=()), say),
    ]
    return "\n".join(lines) + "\n"


def revealed(game_id: str, seed: str, verdict: str, say: Speaker = ENGLISH) -> str:
    """To every player when a game with secret dice ends: the seed, and how to check every roll."""
    return say(
        "Game {game_id} is over ({verdict}), so the seed of its dice is revealed:\n\n"
        "  Seed: {seed}\n\n"
        "The record, with the seed written into it, is attached as {game_id}.rgn. This command\n"
        "checks that the seed matches the SeedHash published at the start, with every salt,\n"
        "and that every roll of the game is the one the seed gives:\n\n"
        "  referee check {game_id}.rgn\n",
        game_id=game_id,
        verdict=spoken.verdict_words(verdict, say),
        seed=seed,
    )


def named_next(turn: Turn, names: dict[str, str]) -> Turn:
    """`next: Bo (Sparta) to move`: the side to move named with its player, where it has one."""
    for side, name in names.items():
        prefix = f"next: {side} to move"
        if turn.next.startswith(prefix):
            return turn._replace(next=f"next: {name} ({side}) to move{turn.next[len(prefix) :]}")
    return turn


def _size(limit: int, say: Speaker = ENGLISH) -> str:
    if limit >= 2**20:
        return say("{count} MB", count=f"{limit / 2**20:g}")
    if limit >= 1024:
        return say("{count} KB", count=f"{limit / 1024:g}")
    return say.plural("{count} byte", "{count} bytes", limit)


_OUTCOMES = {"played": N_("played"), "refused": N_("refused"), "shown": N_("shown")}


def repeated(game_id: str, outcome: str, verdict: str, say: Speaker = ENGLISH) -> str:
    return say(
        "This message reached game {game_id} before and was {outcome} then; it is not played again.\n\n{verdict}\n",
        game_id=game_id,
        outcome=say(_OUTCOMES[outcome]) if outcome in _OUTCOMES else outcome,
        verdict=spoken.verdict_line(verdict, say),
    )


def _indented(text: str) -> list[str]:
    return ["  " + line for line in text.splitlines()]


def reply_hint(token: str, keyed: bool = False, say: Speaker = ENGLISH) -> str:
    """How to answer with a move: in a keyed game (players.toml) the `Key:` line with the
    `Token:` line, both above the moves; else the `Token:` line that keeps them to this
    board. Every "your move" text says it this way (issue 45.4)."""
    if keyed:
        return (
            say(
                "To play, answer with your moves as plain text, these two lines above them:\n"
                "  Key: your passphrase\n"
                "  Token: {token}\n"
                "(a message without your passphrase is not accepted; the token keeps your\n"
                "moves to the board shown here, and changes with every move).",
                token=token,
            )
            + "\n"
            + say(QUEUE_HINT)
        )
    return (
        say(
            "To play, answer with your moves as plain text. A line\n"
            "  Token: {token}\n"
            "makes sure they are played only on the board shown here.",
            token=token,
        )
        + "\n"
        + say(QUEUE_HINT)
    )


QUEUE_HINT = N_(
    "Once you have moved, you may queue replies ahead: a message of lines\n"
    "  if THEIR TURNS then YOUR REPLY\n"
    "is played for you when they play those turns (`queue` shows it, `queue clear` removes it)."
)
"""How to queue replies (PLAY.md §9), in every "your move" text and every digest."""


def games_hint(say: Speaker = ENGLISH) -> str:
    """How to answer a text of a keyed game that lists several games with their tokens (a
    digest, `status`): the game's [ID] in the Subject, the `Key:` and `Token:` lines."""
    return (
        say(
            "To play in one of them, answer with its [ID] in the Subject and these two\n"
            "lines above your moves:\n"
            "  Key: your passphrase\n"
            "  Token: (that game's token, as above)"
        )
        + "\n"
        + say(QUEUE_HINT)
    )


def notice(recipients: Sequence[tuple[str, str]], subject: str, body: str, sender: str, now: int) -> EmailMessage:
    """A message of the referee's own (no answer to a message: the new token of
    `retoken.py`), from `sender` at `now`, Subject folded as every answer's."""
    message = EmailMessage(policy=POLICY)
    message["From"] = _address(sender, "referee")
    message["To"] = [_address(address, name) for address, name in recipients]
    message["Subject"] = clean_header_text(subject, 300)
    message["Date"] = format_datetime(datetime.fromtimestamp(now, UTC))
    message["Message-ID"] = make_msgid("referee", domain=sender.rpartition("@")[2] or "localhost")
    message["Auto-Submitted"] = "auto-generated"
    message["X-Loop"] = sender
    message.set_content(body)
    return message


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines
