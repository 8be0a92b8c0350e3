"""The pairing mails (LEAGUE.md §2, `pair` "mails each player their games"): one message per
player and round, written as `.eml` files into the league's outbox (PLAY.md §5.1), where
the mail gateway's delivery or any mail program collects them (`tick --smtp` sends them);
`message` makes `tick`'s mails (referee/league/tick.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import NamedTuple

from referee.league.league_toml import LeagueConfig
from referee.live.addresses import clean_header_text
from referee.live.mail.compose import QUEUE_HINT
from referee.live.mail.delivery import write_answer, write_outbox
from referee.live.mail.folding import POLICY
from referee.notation.timing import spoken_instant
from referee.speech import ENGLISH, Speaker, speaker

OUTBOX = "outbox"


def _address(address: str, name: str) -> Address:
    user, _, domain = address.partition("@")
    return Address(display_name=clean_header_text(name, 80), username=user, domain=domain)


class Opening(NamedTuple):
    """What a pairing mail shows of a new game: its token, the side to move first, the
    board as text."""

    token: str | None
    first: str | None
    board: str


def pairing_mails(
    config: LeagueConfig,
    round_number: int,
    games: Sequence[tuple[str, Sequence[tuple[str, Sequence[str]]]]],
    byes: Sequence[str],
    bye_scores: bool,
    now: int,
    sender: str,
    openings: Mapping[str, Opening] | None = None,
    keyed: bool = False,
) -> list[EmailMessage]:
    """One message per player of the round: their game (its ID, the seats, their sides, the
    clock, who moves first, the board, the token and how to answer) or their bye. `games`
    holds (game ID, [(address, sides) by seat]); `openings` each game's start; `keyed`: the
    folder holds players.toml, so every move needs `Key:` and `Token:` lines."""
    names = {player.address: player.name for player in config.players}
    league = clean_header_text(config.name, 120)
    messages: list[EmailMessage] = []
    for game, seated in games:
        opening = (openings or {}).get(game)
        for address, sides in dict.fromkeys((address, tuple(sides)) for address, sides in seated):
            say = speaker(config.lang_of(address))
            seats = _seats_text(seated, names, say)
            control = ""
            if config.time_control is not None:
                start = say.instant(now, spoken_instant(now))
                control = say("Clock: {control}, from {start}.\n", control=str(config.time_control), start=start)
            body = say(
                "{league}, round {round}: your game is [{game}] ({name}).\n\n"
                "Seats, in turn order:\n{seats}\n\n"
                "You play {sides}. ",
                league=league,
                round=round_number,
                game=game,
                name=config.game,
                seats=seats,
                sides=say(" and ").join(say.word(side) for side in sides),
            )
            body += control
            if opening is not None:
                body += _opening_text(game, opening, sides, seated, names, keyed, say)
            else:
                body += say("Send your moves by mail with [{game}] in the subject.\n", game=game)
            # one text part, no attachment: every mail program and script reads it as it is;
            # `show` by mail answers with the board as SVG (docs/league.md)
            messages.append(_message(sender, address, names.get(address, address), f"[{game}] {league}", body, now))
    for address in byes:
        say = speaker(config.lang_of(address))
        worth = say("worth 1 point") if bye_scores else say("worth no point (a round robin's bye)")
        body = say(
            "{league}, round {round}: you have a bye this round, {worth}.\n",
            league=league,
            round=round_number,
            worth=worth,
        )
        subject = say("{league}: bye", league=league)
        messages.append(_message(sender, address, names.get(address, address), subject, body, now))
    return messages


def _seats_text(seated: Sequence[tuple[str, Sequence[str]]], names: Mapping[str, str], say: Speaker) -> str:
    return "\n".join(
        f"  {'+'.join(say.word(side) for side in sides)}: {names.get(address, address)} <{address}>"
        for address, sides in seated
    )


def _opening_text(
    game: str,
    opening: Opening,
    sides: Sequence[str],
    seated: Sequence[tuple[str, Sequence[str]]],
    names: Mapping[str, str],
    keyed: bool,
    say: Speaker = ENGLISH,
) -> str:
    """Who moves first, the board, and how to play by mail (docs/league.md, "What players get")."""
    first = ""
    if opening.first is not None and opening.first in sides:
        first = say("You move first ({side}).\n", side=say.word(opening.first))
    elif opening.first is not None:
        holder = next((address for address, held in seated if opening.first in held), None)
        who = names.get(holder, holder) if holder is not None else None
        side = say.word(opening.first)
        first = (
            say("{who} ({side}) moves first.\n", who=who, side=side) if who else say("{side} moves first.\n", side=side)
        )
    lines = [first, opening.board.rstrip("\n"), ""] if opening.board else [first]
    if keyed:
        lines.append(
            say(
                "To play, answer this mail, keeping [{game}] in the Subject, with your moves as plain\n"
                "text in the body. Write these lines above your moves:\n"
                "  Key: your passphrase\n"
                "  Token: {token}\n"
                "(the token changes with every move: each answer quotes the new one).",
                game=game,
                token=opening.token,
            )
        )
    else:
        lines.append(
            say(
                "To play, answer this mail, keeping [{game}] in the Subject, with your moves as plain\n"
                "text in the body. A line\n"
                "  Token: {token}\n"
                "makes sure they are played only on the board shown here.",
                game=game,
                token=opening.token,
            )
        )
    lines.append(say("Send `show` for the board, `moves` for the legal moves, `status` for all your games."))
    lines.append(say(QUEUE_HINT))  # a player who moves later may queue replies from the start (PLAY.md §9)
    return "\n".join(lines) + "\n"


def message(sender: str, address: str, name: str, subject: str, body: str, now: int) -> EmailMessage:
    """One league mail to a player (`tick`'s time-outs, reminders, reveals and digests)."""
    return _message(sender, address, name, subject, body, now)


def _message(sender: str, address: str, name: str, subject: str, body: str, now: int) -> EmailMessage:
    message = EmailMessage(policy=POLICY)
    message["From"] = _address(sender, "referee")
    message["To"] = _address(address, name)
    message["Subject"] = clean_header_text(subject, 300)
    message["Date"] = format_datetime(datetime.fromtimestamp(now, UTC))
    message["Message-ID"] = make_msgid("league", domain=sender.rpartition("@")[2] or "localhost")
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(body)
    return message


def write(folder: Path, messages: Sequence[EmailMessage], now: int | None = None) -> list[Path]:
    """The messages as `.eml` files in DIR/outbox, each written atomically, named by the
    time `now` (the league's clock, `--now`); within the caller's transaction, with what
    they tell."""
    return write_outbox(messages, folder / OUTBOX, write_answer, now)
