"""The new token, sent to the player to move (issue 45.1).

A writing that is not a move (a grant: `league leave`, `leave 2d` by mail, `play
--grant`; a salt; a side tag's new address: `league address`, `league substitute`)
changes a game's token and not its board (`referee.live.play.changes`). The player to
move would answer the last mail with a token that is no longer the game's, so each such
writing goes through one of the two entries here, `submitted` (`play`'s writing) and
`retagged` (a new side tag), which write the game and, in the same transaction, mail the
player to move the new token with the board (`announce`: into the folder's outbox, as
every answer waits there for `--smtp` or `mail --flush`), naming the `Key:` line in a
keyed game.

Only in a mail game's folder: one that holds `league.toml`, `players.toml`, `mail.log`
or an outbox; `play --grant` on a game nobody plays by mail sends nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from referee import store
from referee.live import play
from referee.live.mail import compose, delivery, game, players
from referee.live.play.changes import TokenChange, Wording
from referee.live.play.result import PlayResult
from referee.live.play.retag import retag
from referee.speech import DEFAULT, ENGLISH, Speaker, speaker

OUTBOX = "outbox"
MAIL_FOLDER_MARKS = ("league.toml", "players.toml", "mail.log")


def is_mail_folder(folder: Path) -> bool:
    """Whether the games of `folder` are played by mail (the gateway's or a league's)."""
    return any((folder / name).is_file() for name in MAIL_FOLDER_MARKS) or (folder / OUTBOX).is_dir()


LangOf = Callable[[str], str]
"""The language of an address by its folder's configuration (a league's `lang_of`)."""


class Announced(NamedTuple):
    """A writing and the new-token mails it wrote into the outbox."""

    result: PlayResult
    mails: tuple[Path, ...] = ()


def submitted(
    path: Path, moves: str | None, *, sender: str, lang_of: LangOf | None = None, **options: Any
) -> Announced:
    """`play.submit(path, moves, **options)`, and where it wrote a grant or salt alone, the
    new token mailed to the player to move, in the same transaction (all or nothing);
    `lang_of`: see `announce`."""
    target = store.target_of(path)
    if not target.is_file():
        return Announced(play.submit(path, moves, **options))  # its own refusal of a missing file
    with store.transaction(target.parent, options.get("wait", 10.0)):
        result = play.submit(path, moves, **options)
        if result.written and result.retoken is not None:
            return Announced(result, tuple(announce(path, result.retoken, sender, result.retoken.at, lang_of)))
    return Announced(result)


def retagged(
    path: Path,
    old: str,
    tag: str,
    what: Sequence[Wording] | str,
    *,
    sender: str,
    now: int,
    wait: float = 10.0,
    lang_of: LangOf | None = None,
) -> Announced:
    """`retag` (the side tags naming `old` hold `tag`), and the new token mailed to the
    player to move, in the same transaction."""
    with store.transaction(store.target_of(path).parent, wait):
        result = retag(path, old, tag, what, now, wait)
        if result.written and result.retoken is not None:
            return Announced(result, tuple(announce(path, result.retoken, sender, now, lang_of)))
    return Announced(result)


def announce(path: Path, change: TokenChange, sender: str, now: int, lang_of: LangOf | None = None) -> list[Path]:
    """Mail the player to move of the game in `path` its new token (after `change`), the
    board and how to answer; the files written into the outbox (none outside a mail
    game's folder, for a finished game, or a side to move without an address). Each mover
    reads it in the `lang` players.toml gives the address, else in `lang_of(address)` (a
    league's: the player's own, else the league's), else in English."""
    folder = path.parent
    if not is_mail_folder(folder):
        return []
    current = game.open_game(path)  # as the transaction leaves it
    if current.finished or current.to_move is None or current.token is None:
        return []
    movers = tuple((each.address, each.name) for each in current.roster.players if current.to_move in each.sides)
    if not movers:
        return []
    names = {side: each.name or each.address for each in current.roster.players for side in each.sides}
    turn = compose.named_next(current.turn, names)
    keyed = (folder / "players.toml").is_file()
    own = players.load_langs(folder / "players.toml")  # each mover in their language (docs/languages.md)
    messages = []

    def lang(address: str) -> str:
        return own.get(address) or (lang_of(address) if lang_of is not None else DEFAULT)

    for each in dict.fromkeys(lang(address) for address, _ in movers):
        say = speaker(each)
        to = tuple(pair for pair in movers if lang(pair[0]) == each)
        body = new_token_text(change.game, change, turn, current.token, keyed, say)
        subject = say("[{game}] your move: the token is now {token}", game=change.game, token=current.token)
        messages.append(compose.notice(to, subject, body, sender, now))
    return delivery.write_outbox(messages, folder / OUTBOX, delivery.write_answer, now)


def new_token_text(
    game_id: str, change: TokenChange, turn: compose.Turn, token: str, keyed: bool, say: Speaker = ENGLISH
) -> str:
    """The mail of the new token: what changed, the board, who moves, how to answer."""
    lines = [
        say("Game {game_id} has a new token, {token}, on the same board:", game_id=game_id, token=token),
        f"{change.said(say)}.",
        say("A move written for the old token ({old}) is refused: answer with the new one.", old=change.old),
        "",
        *compose.turn_block(turn._replace(verdict="", events=()), say),
        "",
        compose.reply_hint(token, keyed, say),
    ]
    return "\n".join(lines) + "\n"
