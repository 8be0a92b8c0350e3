"""The mail gateway of PLAY.md §5 and §5.1: one message in, the answers out.

`handle` decides, in this order, reading only the message's head (`headers.read_head`,
bounded and linear) until the sender is known to be a player: whether the message is
automatic (RFC 3834: never answered), which game the subject names (no game: no answer),
whether the sender is one of its players (a stranger: no answer), whether the message is
within the size limit (a player's larger message is answered "too large"). Only then is
the body read: the player's key when `players.toml` asks for one, what the body asks (the
board, the legal moves, a salt, or moves to play; a token for every message that writes,
with keys), and whether this Message-ID was handled before. Then it plays, composes the
answers, delivers them, and writes the outcome into `DIR/mail.log`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from referee import store
from referee.errors import BusyError, ExitStatus, UsageError
from referee.judge.core.clock_walk import current_instant
from referee.judge.core.verdict_words import plural
from referee.live.mail import asked, compose, delivery, game, incoming, log, players, policy, queued
from referee.live.mail.audience import languages_of, speaking
from referee.live.mail.body import Request, Submission, not_a_move, read_body
from referee.live.mail.compose import Answer, Kind
from referee.live.mail.gateway_values import PLAYERS_FILE, Handled, Settings
from referee.live.mail.headers import Head, read_head
from referee.live.mail.incoming import Incoming
from referee.live.mail.ledger import Entry, Ledger
from referee.live.mail.log import LogLine, Outcome
from referee.live.mail.mail_errors import DeliveryError
from referee.live.mail.replies import Doubt
from referee.live.mail.verified import verified
from referee.live.play import changes
from referee.live.play.submission import command_in, command_refusal
from referee.speech import Speaker

OFFERS = ("draw", "undo")
"""A body of one of these words alone is an offer (PLAY.md §6)."""


class _Trace:
    """What is known of a message so far, for its log line."""

    def __init__(self) -> None:
        self.game_id: str | None = None


def handle(data: bytes, settings: Settings, too_large: bool = False) -> Handled:
    """Read, judge, play, answer, log. `data` is at most `settings.max_size` bytes of the
    message, `too_large` says there was more. Raises UsageError (exit 2) for a broken
    game folder."""
    head = read_head(data)
    trace = _Trace()
    now = settings.now if settings.now is not None else current_instant()
    line: LogLine | None = None
    try:
        # One transaction (referee.store.journal): the game, the ledger, the answers in the
        # outbox and the log line are written all together or not at all; what a dead
        # gateway committed is completed by the next command on the folder.
        with store.transaction(settings.games, settings.wait):
            handled = _judge(head, data, settings, too_large, trace)
            if handled.outcome is not None:
                line = _line(now, head, trace, handled)
                log.append(settings.games, line)
    except BusyError as error:
        note = f"{error} (exit 75: the mail system will deliver it again)"
        handled = Handled(ExitStatus.BUSY, (note,), (), Outcome.BUSY)
        line = _line(now, head, trace, handled)
        log.append(settings.games, line)
    if line is not None and settings.log_file is not None:
        # The --log-file's JSON line, once the message's transaction is over: a line for
        # every message handled, never one for a message rolled back.
        try:
            log.append_json(settings.log_file, line)
        except OSError as error:
            why = error.reason if isinstance(error, store.WriteFailed) else error.strerror or error
            note = f"cannot write {settings.log_file}: {why} (exit 75: delivered again)"
            handled = handled._replace(exit_code=ExitStatus.BUSY, notes=(*handled.notes, note))
    if settings.smtp is not None and handled.kept:
        handled = _send(handled, settings)
    return handled


def _send(handled: Handled, settings: Settings) -> Handled:
    """With `--smtp`: send the outbox (the answers waiting there first, then this
    message's); exit 75 when the server cannot take them (they wait in the outbox)."""
    assert settings.smtp is not None
    try:
        with game.locked(settings.outbox / ".flush", settings.wait):
            flushed = delivery.flush(settings.outbox, settings.smtp)
    except (DeliveryError, BusyError) as error:
        kept = [f"the answer was kept in {path}" for path in handled.kept if path.exists()]
        return handled._replace(exit_code=ExitStatus.BUSY, notes=(*handled.notes, str(error), *kept))
    earlier = flushed.sent - sum(1 for path in handled.kept if not path.exists())
    notes = flush_notes(flushed._replace(sent=max(earlier, 0)), settings.outbox)
    return handled._replace(notes=(*handled.notes, *notes))


def _line(now: int, head: Head, trace: _Trace, handled: Handled) -> LogLine:
    assert handled.outcome is not None
    return LogLine(now, head.message_id, head.sender, trace.game_id, handled.outcome, _reason(handled))


def _reason(handled: Handled) -> str:
    """Why a message went the way it did, for the JSON log: the first note, else the first
    line of the first answer (never the passphrase: a body's `Key:` is never quoted)."""
    if handled.notes:
        return handled.notes[0]
    for answer in handled.answers:
        lines = answer.body.splitlines()
        first = next((line.strip() for line in lines if line.strip()), "")
        if "You sent:" in lines:  # a refusal: what was wrong follows the moves quoted
            rest = lines[lines.index("You sent:") + 1 :]
            why = next((line.strip() for line in rest if line.strip() and not line[:1].isspace()), "")
            return f"{first} {why}".strip()
        if first:
            return first
    return ""


def _judge(head: Head, data: bytes, settings: Settings, too_large: bool, trace: _Trace) -> Handled:
    found = _find_game(head, settings.games)
    trace.game_id = found[0] if found is not None else None
    automatic = _automatic(head, settings)
    if automatic is not None:
        return automatic
    if found is None:
        return _no_game_answer(head, settings)
    game_id, path = found
    current = game.open_game(path)
    player = current.roster.find(head.sender)
    if player is None:
        return _stranger(head, game_id)
    if too_large:
        body = compose.too_large(game_id, settings.max_size, say=_speaking(settings)(player.address))
        answer = Answer(Kind.TOO_LARGE, ((player.address, player.name),), body)
        note = f"{_who(head)}: larger than {settings.max_size} bytes: not read"
        return _deliver(head, settings, game_id, [answer], [note], Outcome.TOO_LARGE)
    try:
        message = incoming.with_body(head, data)
    except RecursionError:
        note = f"{_who(head)}: a message of parts nested too deeply to read: no answer"
        return Handled(0, (note,), (), Outcome.REFUSED)
    provider = settings.trusted is not None and verified(data, settings.trusted, player.address)
    answers, notes, outcome = _answers(message, settings, game_id, current, player, provider)
    return _deliver(head, settings, game_id, answers, notes, outcome)


def _automatic(head: Head, settings: Settings) -> Handled | None:
    """An automatic message (RFC 3834), one from the gateway's own address, or one come back
    through a loop: never answered."""
    if head.automatic is not None:
        note = f"{_who(head)}: an automatic message ({head.automatic}): not answered"
        return Handled(0, (note,), (), Outcome.AUTOMATIC)
    if head.sender is not None and head.sender == settings.sender.lower():
        note = "a message from this gateway's own address: not answered"
        return Handled(0, (note,), (), Outcome.AUTOMATIC)
    if settings.sender.lower() in head.loops:
        note = f"{_who(head)}: its X-Loop names this gateway's own address: not answered"
        return Handled(0, (note,), (), Outcome.AUTOMATIC)
    return None


def _stranger(head: Head, game_id: str) -> Handled:
    note = f"{_who(head)} is not a player of game {game_id}: no answer"
    return Handled(0, (note,), (), Outcome.STRANGER)


class Screened(NamedTuple):
    """A message decided on its head alone: what `handle` would have made of it, and its
    line for the logs (written by the caller, with those of the messages around it)."""

    handled: Handled
    line: LogLine


def screen(head: Head, settings: Settings, roster_of: Callable[[Path], players.Roster | None]) -> Screened | None:
    """What `handle` does with a message that its head decides: automatic mail, a game
    named by no file (where nobody is told their open games), a stranger's (`roster_of`
    gives a game file's players, None when it cannot be read). None for every other
    message, which `handle` reads whole. Nothing is written or answered here: `referee
    mail --imap` files a flood of strangers' messages in bulk (docs/mail.md)."""
    found = _find_game(head, settings.games)
    handled = _automatic(head, settings)
    if handled is None and found is None:
        requests = settings.requests
        if requests is not None and requests.open_games is not None and head.sender is not None:
            return None  # a league's player may be told their open games
        handled = Handled(0, (_no_game(head, settings.games),), (), Outcome.NO_GAME)
    if handled is None and found is not None:
        roster = roster_of(found[1])
        if roster is None or roster.find(head.sender) is not None:
            return None
        handled = _stranger(head, found[0])
    if handled is None:
        return None
    trace = _Trace()
    trace.game_id = found[0] if found is not None else None
    now = settings.now if settings.now is not None else current_instant()
    return Screened(handled, _line(now, head, trace, handled))


def _deliver(
    head: Head, settings: Settings, game_id: str, answers: list[Answer], notes: list[str], outcome: Outcome
) -> Handled:
    """Send the answers (the outbox's waiting answers first) or write them into the outbox."""
    message = Incoming(head.message_id, head.references, head.sender, "", head.subject, (), None, False, False)
    now = datetime.fromtimestamp(settings.now, UTC) if settings.now is not None else None
    built = [
        compose.build(answer, game_id=game_id, incoming=message, sender=settings.sender, cc=settings.gm, now=now)
        for answer in answers
    ]
    try:
        paths = delivery.write_outbox(built, settings.outbox, delivery.write_answer, settings.now)
    except DeliveryError as error:
        return Handled(ExitStatus.BUSY, (*notes, str(error)), tuple(answers), outcome)
    return Handled(0, tuple(notes), tuple(answers), outcome, tuple(paths))


def flush_waiting(settings: Settings) -> delivery.Flushed:
    """Send what waits in the outbox, under the outbox's lock; nothing when another gateway
    is sending them right now. DeliveryError when the server cannot take them."""
    if settings.smtp is None or not settings.outbox.is_dir() or not delivery.waiting(settings.outbox):
        return delivery.Flushed(0)
    try:
        with game.locked(settings.outbox / ".flush", 0):
            return delivery.flush(settings.outbox, settings.smtp)
    except BusyError:
        return delivery.Flushed(0)


def flush_notes(flushed: delivery.Flushed, outbox: Path) -> list[str]:
    """Lines for standard error about what `flush` did."""
    notes = [f"sent {plural(flushed.sent, 'answer')} waiting in {outbox}"] if flushed.sent else []
    notes += [f"the SMTP server refused {path.name} for good: kept as {path}" for path in flushed.set_aside]
    return notes


def _answers(
    message: Incoming,
    settings: Settings,
    game_id: str,
    current: game.Game,
    player: players.Player,
    provider: bool = False,
) -> tuple[list[Answer], list[str], Outcome]:
    """The answers to a player's message. `provider`: the sender was verified by the
    `--trust-authserv` provider's Authentication-Results, which stands for the passphrase."""
    to_sender = ((player.address, player.name),)
    mover = current.to_move in player.sides
    say = _speaking(settings)(player.address)
    if message.text is None:
        body = compose.plain_text_please(game_id, say)
        return [Answer(Kind.PLAIN_TEXT_PLEASE, to_sender, body)], [], Outcome.REFUSED
    submission = read_body(message.text, html=message.html_only)
    if not message.html_complete:
        submission = submission._replace(unclear="(the HTML could not be read to its end)", doubt=Doubt.UNREADABLE)
    keys = players.load_keys(settings.games / PLAYERS_FILE)
    keyed = keys is not None  # every "your move" text then names the Key: line (issue 45.4)
    authserv = settings.trusted
    if authserv is not None and keys is None and not provider:
        answer = Answer(Kind.NOT_ACCEPTED, to_sender, compose.not_verified(game_id, authserv, say))
        note = f"{player.address}: not accepted for game {game_id}: not verified by {authserv}"
        return [answer], [note], Outcome.NOT_ACCEPTED
    if keys is not None and not provider:
        reason = _key_problem(keys, player.address, submission)
        if reason is not None:
            answer = Answer(Kind.NOT_ACCEPTED, to_sender, compose.not_accepted(game_id, reason, say))
            return [answer], [f"{player.address}: not accepted for game {game_id}: {reason}"], Outcome.NOT_ACCEPTED
    if submission.unclear is not None:
        body = compose.unclear(game_id, submission.unclear, submission.moves, submission.doubt, say)
        note = f"{player.address}: refused for game {game_id}: the reply's boundary is unclear"
        return [Answer(Kind.REFUSED, to_sender, body)], [note], Outcome.REFUSED
    command = next((found for text in (submission.moves, submission.salt or "") if (found := command_in(text))), None)
    if command is not None:
        # Before the body is read as any request (a move, show, status, leave, an offer):
        # the referee's commands are the referee's alone (PLAY.md §7).
        turn = compose.named_next(current.turn, _names(current))
        error = command_refusal(command)
        answering = compose.Answering(current.token, mover, keyed)
        body = compose.refused(game_id, submission.moves, error, (), turn, answering, say)
        note = f"{player.address}: refused for game {game_id}: {error}"
        return [Answer(Kind.REFUSED, to_sender, body)], [note], Outcome.REFUSED
    request = _league_request(settings, submission)
    if request is not None and settings.requests is not None:
        return asked.answer(
            request,
            settings.requests,
            submission=submission,
            game_id=game_id,
            current=current,
            player=player,
            now=settings.now if settings.now is not None else current_instant(),
            folder=settings.games,
            message_id=message.message_id,
            keys_asked=keys is not None,
            wait=settings.wait,
            say=say,
        )
    wanted = queued.wants(submission) if submission.salt is None else None
    if wanted is not None:  # conditional moves (PLAY.md §9): `if ...`, `queue`, `queue clear`
        context = _queue_context(game_id, current, player, keys, settings)
        return queued.answer(wanted, submission, **context, message_id=message.message_id)
    names = _names(current)
    writes = submission.salt is not None or submission.request is Request.PLAY
    if (
        submission.request in (Request.SHOW, Request.MOVES)
        and not writes
        and _seen(message, settings, game_id, current, player)
    ):
        note = f"{message.message_id} was handled before (shown): not answered again"
        return [], [note], Outcome.DUPLICATE
    if submission.request is Request.SHOW and not writes:
        turn = compose.named_next(game.show(current), names)
        body = compose.shown(game_id, turn, compose.Answering(current.token, mover, keyed), say)
        return [Answer(Kind.SHOW, to_sender, body, game.board_svg(current, say))], [], Outcome.SHOWN
    if submission.request is Request.MOVES and not writes:
        header, actions = game.legal_moves(current)
        return [Answer(Kind.MOVES, to_sender, compose.listed(game_id, header, actions, say))], [], Outcome.SHOWN
    if not submission.moves and submission.salt is None:
        body = compose.no_moves(game_id, compose.named_next(current.turn, names), say)
        return [Answer(Kind.NO_MOVES, to_sender, body)], [], Outcome.REFUSED
    if keys is not None and submission.token is None:
        # With passphrases, a message that writes must name the board it was written for:
        # a captured message sent again later is then always stale.
        body = compose.token_needed(game_id, compose.named_next(current.turn, names), current.token, say)
        return [Answer(Kind.REFUSED, to_sender, body)], [], Outcome.REFUSED
    return _play(message, settings, game_id, current, player, submission, keyed)


def _seen(message: Incoming, settings: Settings, game_id: str, current: game.Game, player: players.Player) -> bool:
    """Whether this `show` or `moves` request (its Message-ID, from this player) was
    answered before; else it is recorded in the ledger, with its answer, so that a request
    delivered twice is answered once (a message with no Message-ID cannot be told again)."""
    if message.message_id is None:
        return False
    with game.locked(settings.games / "mail-ledger.tsv", settings.wait):
        ledger = Ledger(settings.games)
        if ledger.find(message.message_id, player.address) is not None:
            return True
        entry = Entry(message.message_id, game_id, "shown", current.turn.verdict, player.address)
        ledger.record(entry, game.write_atomically)
    return False


def _league_request(settings: Settings, submission: Submission) -> policy.Request | None:
    """A league's `leave` or `status` request, on a league's folder only."""
    if settings.requests is None or submission.request is not Request.PLAY or submission.salt is not None:
        return None
    return policy.read_request(submission.moves)


def _key_problem(keys: dict[str, str], address: str, submission: Submission) -> str | None:
    if submission.key is None:
        return compose.NO_KEY_LINE
    if not players.verify(keys.get(address), submission.key):
        return compose.WRONG_KEY
    return None


def _names(current: game.Game) -> dict[str, str]:
    """Each side with an address, named by its player: `Ann`, or the address."""
    return {side: player.name or player.address for player in current.roster.players for side in player.sides}


def _play(
    message: Incoming,
    settings: Settings,
    game_id: str,
    current: game.Game,
    player: players.Player,
    submission: Submission,
    keyed: bool = False,
) -> tuple[list[Answer], list[str], Outcome]:
    """Play the submission; `keyed`: the folder keeps passphrases (players.toml), so the
    lines that say how to answer name the `Key:` line too."""
    to_sender = ((player.address, player.name),)
    names = _names(current)
    speak = _speaking(settings)
    say = speak(player.address)

    def refusal(
        error: str, suggestions: Sequence[str], turn: compose.Turn, token: str | None
    ) -> tuple[list[Answer], list[str], Outcome]:
        """To the sender alone: nothing was played, and why (the lines on how to answer if it moves)."""
        answering = compose.Answering(token, _moves(current, player), keyed)
        body = compose.refused(game_id, submission.moves, error, suggestions, turn, answering, say)
        return [Answer(Kind.REFUSED, to_sender, body)], [], Outcome.REFUSED

    side = current.to_move if current.to_move in player.sides else _first_side(current, player)
    if submission.moves.strip().lower() in OFFERS:
        side = _first_side(current, player)  # an offer alone is the player's first side's (PLAY.md §6)
    seed = game.read_key(settings.keys, game_id)
    drawn = game.roll_refused(current, submission.moves) if seed is not None else None
    if drawn is not None:
        # With the key at hand the dice are drawn, never written: a written roll would only
        # let a player probe the secret die (a wrong one is refused, naming the right one).
        return refusal(drawn, (), compose.named_next(current.turn, names), current.token)
    salts: tuple[tuple[str, str], ...] = ()
    if submission.salt is not None:
        side = _first_side(current, player)
        salts = ((side, submission.salt),)
    with game.locked(settings.games / "mail-ledger.tsv", settings.wait):
        ledger = Ledger(settings.games)
        if message.message_id is not None:
            before = ledger.find(message.message_id, player.address)
            if before is not None:
                note = f"{message.message_id} was handled before ({before.outcome}): not played again"
                body = compose.repeated(game_id, before.outcome, current.turn.verdict, say)
                return [Answer(Kind.REPEAT, to_sender, body)], [note], Outcome.DUPLICATE
        played = game.submit(
            current,
            submission.moves,
            side=side if submission.moves else None,
            expect=submission.token,
            seed=seed,
            wait=settings.wait,
            salts=salts,
            now=settings.now,
        )
        if message.message_id is not None:
            outcome = "played" if played.written else "refused"
            ledger.record(
                Entry(message.message_id, game_id, outcome, played.turn.verdict, player.address), game.write_atomically
            )
    turn = compose.named_next(played.turn, names)
    if not played.written:
        error = played.error or played.turn.verdict
        error = changes.said_again(current.path, submission.token, played.token, error, say)  # a stale token's why
        hint = not_a_move(submission.moves, error, _example(current), say)
        error = error if hint is None else f"{error}\n\n{hint}"
        return refusal(error, played.suggestions, turn, played.token)
    # The game as written, from the replay `play` made of it (read again only where it made none).
    replayed = played.replayed
    after = game.game_of(current.path, replayed, played.token) if replayed else game.open_game(current.path)
    what = "\n".join(part for part in (f"Salt: {submission.salt}" if salts else "", submission.moves) if part)
    who = player.name or player.address
    if played.agreement in ("draw-offered", "undo-offered"):
        kind = played.agreement.partition("-")[0]

        def offer(to_move: bool, said: Speaker) -> str:
            answering = compose.Answering(played.token, to_move, keyed)
            return compose.offered(game_id, who, side, kind, submission.moves, turn, answering, said)

        return _to_everyone(after, Kind.OFFERED, offer, None, speak), [], Outcome.PLAYED
    pictures: dict[str, str | None] = {}

    def svg(said: Speaker) -> str | None:  # the board drawn once per language it is read in
        if said.lang not in pictures:
            pictures[said.lang] = game.board_svg(after, said)
        return pictures[said.lang]

    def accepted(to_move: bool, said: Speaker) -> str:
        answering = compose.Answering(played.token, to_move, keyed)
        return compose.accepted(game_id, who, side, what, turn, answering, said)

    answers = _to_everyone(after, Kind.ACCEPTED, accepted, svg, speak)
    movers = frozenset(each.address for each in after.roster.players if after.to_move in each.sides)
    everyone = after.finished or played.agreement is not None  # an end, a draw or undo agreed: all hear
    answers = policy.narrowed(answers, settings.digest, player.address, movers, everyone)
    if seed is not None and after.finished:
        answers += _revealed(game_id, after, seed, settings, speak)
    return answers + queued.notices(game_id, after, played.notices, speak), [], Outcome.PLAYED


def _queue_context(
    game_id: str, current: game.Game, player: players.Player, keys: object, settings: Settings
) -> dict[str, Any]:
    keyed = keys is not None
    return {
        "game_id": game_id,
        "current": current,
        "player": player,
        "keyed": keyed,
        "wait": settings.wait,
        "folder": settings.games,
        "speak": _speaking(settings),
    }


def _to_everyone(
    after: game.Game,
    kind: Kind,
    body: Callable[[bool, Speaker], str],
    svg: Callable[[Speaker], str | None] | None,
    speak: Callable[[str], Speaker],
) -> list[Answer]:
    """To every player: one answer to the player(s) to move, with the lines that say how to
    answer (`body(True, say)`); another to the others, without them (`body(False, say)`);
    each in its readers' language (one answer per language, the default's first), the
    board drawn (`svg(say)`) in that language too."""
    everyone = [(each.address, each.name) for each in after.roster.players]
    movers = {each.address for each in after.roster.players if after.to_move in each.sides}
    answers = []
    for hint in (True, False):
        group = [pair for pair in everyone if (pair[0] in movers) is hint]
        for say in languages_of(group, speak):
            to = tuple(pair for pair in group if speak(pair[0]) == say)
            answers.append(Answer(kind, to, body(hint, say), None if svg is None else svg(say)))
    return answers


def _revealed(
    game_id: str, after: game.Game, seed: str, settings: Settings, speak: Callable[[str], Speaker]
) -> list[Answer]:
    """When a game played with the GM's key ends: the seed revealed, and sent to every player
    (once), in each player's language."""
    record = game.reveal(after, seed, settings.wait)
    if record is None:
        return []
    everyone = [(each.address, each.name) for each in after.roster.players]
    verdict = after.turn.next.removeprefix("game over: ")
    answers = []
    for say in languages_of(everyone, speak):
        to = tuple(pair for pair in everyone if speak(pair[0]) == say)
        answers.append(Answer(Kind.REVEALED, to, compose.revealed(game_id, seed, verdict, say), record=record))
    return answers


def _first_side(current: game.Game, player: players.Player) -> str:
    """The player's first side in turn order."""
    return next((side for side in current.sides if side in player.sides), player.sides[0])


def _moves(current: game.Game, player: players.Player) -> bool:
    return current.to_move in player.sides


def _example(current: game.Game) -> str | None:
    """A legal action of the side to move, to show how a move is written."""
    try:
        _, actions = game.legal_moves(current)
    except UsageError:
        return None
    return next((action for action in actions if action != "resign"), None)


def _find_game(head: Head, folder: Path) -> tuple[str, Path] | None:
    """The first bracketed ID of the subject that names a game file of the folder."""
    for game_id in head.game_ids:
        path = folder / f"{game_id}.rgn"
        if path.is_file():
            return game_id, path
    return None


def _no_game_answer(head: Head, settings: Settings) -> Handled:
    """No game named: nothing for a stranger; a league's known player is told their open
    games, with IDs and tokens (the league's `open_games`), so that the next mail finds its game."""
    note = _no_game(head, settings.games)
    requests = settings.requests
    if requests is None or requests.open_games is None or head.sender is None:
        return Handled(0, (note,), (), Outcome.NO_GAME)
    now = settings.now if settings.now is not None else current_instant()
    reply = requests.open_games(head.sender, now)
    if reply is None:
        return Handled(0, (note,), (), Outcome.NO_GAME)
    answer = Answer(Kind.SHOW, ((head.sender, ""),), reply.text)
    told = note.replace(": no answer", ": answered with the player's open games")
    return _deliver(head, settings, "", [answer], [told], Outcome.NO_GAME)


def _no_game(head: Head, folder: Path) -> str:
    if not head.game_ids:
        return f'{_who(head)}: the subject "{head.subject[:200]}" names no game as [ID]: no answer'
    names = ", ".join(f"[{game_id}]" for game_id in head.game_ids[:5])
    return f"{_who(head)}: no game {names} in {folder}: no answer"


def _who(head: Head) -> str:
    return f"message {head.message_id or '(no Message-ID)'} from {head.sender or '(no single From address)'}"


__all__ = ["Handled", "Screened", "Settings", "flush_notes", "flush_waiting", "handle", "screen"]


def _speaking(settings: Settings) -> Callable[[str], Speaker]:
    """Each address's speaker in this folder (`audience.speaking` of the settings' folder and languages)."""
    return speaking(settings.games, settings.langs, settings.lang)
