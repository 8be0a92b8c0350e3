"""The league's requests by mail (LEAGUE.md §3, PLAY.md §5.1): a body `leave DURATION` or
`status`, in a message whose Subject names one of the sender's games.

`status` writes nothing and needs no `Token:`; `leave` writes (a grant in each of the
player's ongoing games), so with `players.toml` it needs the current token of the game
the Subject names (no replays), and a message delivered twice grants once (the
Message-ID ledger). Both are answered to the sender alone, by the league's handlers
(`policy.Requests`); their outcome is `shown`, `played` or `refused` in mail.log."""

from __future__ import annotations

from pathlib import Path

from referee.live.mail import compose, game
from referee.live.mail.body import Submission
from referee.live.mail.compose import Answer, Kind
from referee.live.mail.ledger import Entry, Ledger
from referee.live.mail.log import Outcome
from referee.live.mail.players import Player
from referee.live.mail.policy import Request, Requests
from referee.live.play import changes
from referee.speech import ENGLISH, N_, Speaker

Asked = tuple[list[Answer], list[str], Outcome]

MAX_DURATION = 40
"""The longest duration text read (`leave 1d12h`); anything longer is no duration."""
LEAVE_FORM = N_("leave DURATION (days, hours, minutes: leave 3d, leave 1d12h)")
"""How to ask for leave (in a speaker's language: `say(LEAVE_FORM)`, `ausencia 3d`)."""


def answer(
    request: Request,
    requests: Requests,
    *,
    submission: Submission,
    game_id: str,
    current: game.Game,
    player: Player,
    now: int,
    folder: Path,
    message_id: str | None,
    keys_asked: bool,
    wait: float,
    say: Speaker = ENGLISH,
) -> Asked:
    """Answer a league request to its sender."""
    to_sender = ((player.address, player.name),)
    if request.word == "status":
        reply = requests.status(player.address, now)
        return [Answer(Kind.SHOW, to_sender, reply.text)], [], Outcome.SHOWN
    if not request.argument or len(request.argument) > MAX_DURATION:
        text = (
            say("{league}: nothing was granted. Ask for leave as", league=requests.name) + f"\n\n  {say(LEAVE_FORM)}\n"
        )
        return [Answer(Kind.REFUSED, to_sender, text)], [], Outcome.REFUSED
    if keys_asked and submission.token != current.token:
        refusal = _token_refusal(game_id, submission.token, current, say)
        return [Answer(Kind.REFUSED, to_sender, refusal)], [], Outcome.REFUSED
    with game.locked(folder / "mail-ledger.tsv", wait):
        ledger = Ledger(folder)
        if message_id is not None:
            before = ledger.find(message_id, player.address)
            if before is not None:
                note = f"{message_id} was handled before ({before.outcome}): not granted again"
                body = compose.repeated(game_id, before.outcome, before.verdict, say)
                return [Answer(Kind.REPEAT, to_sender, body)], [note], Outcome.DUPLICATE
        reply = requests.leave(player.address, request.argument, now)
        if message_id is not None:
            outcome = "played" if reply.written else "refused"
            summary = reply.text.splitlines()[0] if reply.text else outcome
            ledger.record(Entry(message_id, game_id, outcome, summary, player.address), game.write_atomically)
    if not reply.written:
        return [Answer(Kind.REFUSED, to_sender, reply.text)], [], Outcome.REFUSED
    return [Answer(Kind.ACCEPTED, to_sender, reply.text)], [], Outcome.PLAYED


def _token_refusal(game_id: str, token: str | None, current: game.Game, say: Speaker) -> str:
    """Leave asked with no token, or a stale one, where passphrases are kept: refused."""
    if token is None:
        what = say("carries no Token: line")
    else:
        what = say("carries the token {token}, which is not the current one", token=token)
    if token is not None and current.token is not None:  # what changed since, in the reader's words
        what += f" ({changes.explained(current.path, token, current.token, wrote='it', say=say)})"
    return (
        say("Your leave request was not granted: nothing was written. It {what}.", what=what)
        + "\n\n"
        + say(
            "A request that writes must carry the current token of game {game} (the game the\n"
            "subject names), so that an old message sent again by someone else is refused:",
            game=game_id,
        )
        + f"\n\n  Token: {current.token}\n"
    )


__all__ = ["LEAVE_FORM", "Asked", "answer"]
