"""The mail gateway of PLAY.md §5: one message in, the answers out.

`handle` decides, in this order: which game the subject names (no game: no answer),
whether the sender is one of its players (a stranger: no answer), whether the message
carries the player's key when `players.toml` asks for one, what the body asks (the
board, the legal moves, or moves to play), and whether this Message-ID was handled
before. Then it plays, composes the answers and delivers them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from email.message import EmailMessage
from pathlib import Path
from typing import NamedTuple

from referee.judge.errors import ExitStatus, UsageError
from referee.live.mail import compose, delivery, game, incoming, players
from referee.live.mail.body import Request, Submission, not_a_move, read_body
from referee.live.mail.compose import Answer, Kind
from referee.live.mail.errors import DeliveryError
from referee.live.mail.incoming import Incoming
from referee.live.mail.ledger import Entry, Ledger

PLAYERS_FILE = "players.toml"
ROLLS_ARE_DRAWN = (
    "this game's dice are drawn by the game master's key: write each battle without its roll "
    "(g6+h6xh7, not g6+h6xh7#4), and the answer gives the roll and its result"
)
_COMMENTS = re.compile(r"\{[^}]*\}?|;[^\n]*")
_ROLL = re.compile(r"#\s*\d")
OFFERS = ("draw", "undo")
"""A body of one of these words alone is an offer (PLAY.md §6)."""


class Settings(NamedTuple):
    """The gateway's options: the game folder, where answers go, the GM's keys, who answers."""

    games: Path
    outbox: Path
    smtp: delivery.Smtp | None
    keys: Path | None
    sender: str
    wait: float = 10.0


class Handled(NamedTuple):
    """What became of one message: the exit status, lines for standard error, the answers sent."""

    exit_code: int
    notes: tuple[str, ...]
    answers: tuple[Answer, ...] = ()


def handle(data: bytes, settings: Settings) -> Handled:
    """Read, judge, play, answer. Raises UsageError (exit 2) for a broken game folder."""
    try:
        message = incoming.parse(data)
    except RecursionError:
        return Handled(0, ("a message of parts nested too deeply to read: no answer",))
    if message.automatic:
        return Handled(0, (f"{_who(message)}: an automatic message (Auto-Submitted), not answered",))
    if message.sender is not None and message.sender == settings.sender.lower():
        return Handled(0, ("a message from this gateway's own address, not answered",))
    found = _find_game(message, settings.games)
    if found is None:
        return Handled(0, (_no_game(message, settings.games),))
    game_id, path = found
    current = game.open_game(path)
    player = current.roster.find(message.sender)
    if player is None:
        return Handled(0, (f"{_who(message)} is not a player of game {game_id}: no answer",))
    answers, notes = _answers(message, settings, game_id, current, player)
    built = [compose.build(answer, game_id=game_id, incoming=message, sender=settings.sender) for answer in answers]
    try:
        if settings.smtp is not None:
            delivery.send(built, settings.smtp)
        else:
            delivery.write_outbox(built, settings.outbox, game.write_atomically)
    except DeliveryError as error:
        kept = _keep(built, settings)
        return Handled(ExitStatus.BUSY, (*notes, str(error), *kept), tuple(answers))
    return Handled(0, tuple(notes), tuple(answers))


def _answers(
    message: Incoming, settings: Settings, game_id: str, current: game.Game, player: players.Player
) -> tuple[list[Answer], list[str]]:
    to_sender = ((player.address, player.name),)
    if message.text is None:
        return [Answer(Kind.PLAIN_TEXT_PLEASE, to_sender, compose.plain_text_please(game_id, message.html_only))], []
    submission = read_body(message.text)
    keys = players.load_keys(settings.games / PLAYERS_FILE)
    if keys is not None:
        reason = _key_problem(keys, player.address, submission)
        if reason is not None:
            return [Answer(Kind.NOT_ACCEPTED, to_sender, compose.not_accepted(game_id, reason))], [
                f"{player.address}: not accepted for game {game_id}: {reason}"
            ]
    if submission.request is Request.SHOW:
        turn = game.show(current)
        body = compose.shown(game_id, turn, current.token)
        return [Answer(Kind.SHOW, to_sender, body, game.board_svg(current))], []
    if submission.request is Request.MOVES:
        header, actions = game.legal_moves(current)
        return [Answer(Kind.MOVES, to_sender, compose.listed(game_id, header, actions))], []
    if not submission.moves:
        return [Answer(Kind.NO_MOVES, to_sender, compose.no_moves(game_id, current.turn))], []
    return _play(message, settings, game_id, current, player, submission)


def _key_problem(keys: dict[str, str], address: str, submission: Submission) -> str | None:
    if submission.key is None:
        return "it carries no Key: line"
    if not players.verify(keys.get(address), submission.key):
        return "the key is not this player's key"
    return None


def _play(
    message: Incoming,
    settings: Settings,
    game_id: str,
    current: game.Game,
    player: players.Player,
    submission: Submission,
) -> tuple[list[Answer], list[str]]:
    to_sender = ((player.address, player.name),)
    everyone = tuple((each.address, each.name) for each in current.roster.players)
    side = current.to_move if current.to_move in player.sides else player.sides[0]
    if submission.moves.strip().lower() in OFFERS:
        side = player.sides[0]  # an offer alone is the player's first side's, whoever is to move (PLAY.md §6)
    seed = game.read_key(settings.keys, game_id)
    if seed is not None and _writes_a_roll(submission.moves):
        # With the key at hand the dice are drawn, never written: a written roll would only
        # let a player probe the secret die (a wrong one is refused, naming the right one).
        body = compose.refused(game_id, submission.moves, ROLLS_ARE_DRAWN, (), current.turn, current.token)
        return [Answer(Kind.REFUSED, to_sender, body)], []
    with game.locked(settings.games / "mail-ledger.tsv", settings.wait):
        ledger = Ledger(settings.games)
        if message.message_id is not None:
            before = ledger.find(message.message_id)
            if before is not None:
                note = f"{message.message_id} was handled before ({before.outcome}): not played again"
                body = compose.repeated(game_id, before.outcome, current.turn.verdict)
                return [Answer(Kind.REPEAT, to_sender, body)], [note]
        played = game.submit(
            current, submission.moves, side=side, expect=submission.token, seed=seed, wait=settings.wait
        )
        if message.message_id is not None:
            outcome = "played" if played.written else "refused"
            ledger.record(Entry(message.message_id, game_id, outcome, played.turn.verdict), game.write_atomically)
    who = player.name or player.address
    if played.written and played.agreement in ("draw-offered", "undo-offered"):
        kind = played.agreement.partition("-")[0]
        body = compose.offered(game_id, who, side, kind, submission.moves, played.turn, played.token)
        return [Answer(Kind.OFFERED, everyone, body)], []
    if played.written:
        body = compose.accepted(game_id, who, side, submission.moves, played.turn, played.token)
        return [Answer(Kind.ACCEPTED, everyone, body, game.board_svg(game.open_game(current.path)))], []
    error = played.error or played.turn.verdict
    hint = not_a_move(submission.moves, error, _example(current))
    error = error if hint is None else f"{error}\n\n{hint}"
    body = compose.refused(game_id, submission.moves, error, played.suggestions, played.turn, played.token)
    return [Answer(Kind.REFUSED, to_sender, body)], []


def _example(current: game.Game) -> str | None:
    """A legal action of the side to move, to show how a move is written."""
    try:
        _, actions = game.legal_moves(current)
    except UsageError:
        return None
    return next((action for action in actions if action != "resign"), None)


def _writes_a_roll(moves: str) -> bool:
    """Whether the move text writes a die (`#4`) outside its comments."""
    bare = _COMMENTS.sub(" ", moves)
    return _ROLL.search(bare) is not None


def _find_game(message: Incoming, folder: Path) -> tuple[str, Path] | None:
    """The first bracketed ID of the subject that names a game file of the folder."""
    for game_id in message.game_ids:
        path = folder / f"{game_id}.rgn"
        if path.is_file():
            return game_id, path
    return None


def _no_game(message: Incoming, folder: Path) -> str:
    if not message.game_ids:
        return f'{_who(message)}: the subject "{message.subject}" names no game as [ID]: no answer'
    names = ", ".join(f"[{game_id}]" for game_id in message.game_ids)
    return f"{_who(message)}: no game {names} in {folder}: no answer"


def _who(message: Incoming) -> str:
    return f"message {message.message_id or '(no Message-ID)'} from {message.sender or '(no From address)'}"


def _keep(built: Sequence[EmailMessage], settings: Settings) -> list[str]:
    """After a failed delivery, the answers are written into the outbox for the game master."""
    try:
        paths = delivery.write_outbox(built, settings.outbox, game.write_atomically)
    except DeliveryError as error:
        return [f"and could not keep the answers: {error}"]
    return [f"the answer was kept in {path}" for path in paths]


__all__ = ["Handled", "Settings", "handle"]
