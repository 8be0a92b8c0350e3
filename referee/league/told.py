"""What the game master does with `play` on a league's game is told to its players when
`league.toml` says `tell_players = true` (docs/league.md, "What players get"): `play FILE
...` without `--as` (undo, draw, grant, timeout, a correction) on a file of a league's
folder writes one mail per player of the game into the league's outbox, where
`tick --smtp`, `mail --flush` or any mail program sends it, as the gateway's answers are
sent. A player's own submission entered with `--as` is not mailed: the player sent it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from referee.errors import UsageError
from referee.judge.core.verdict_words import plural
from referee.league.league_toml import CONFIG_FILE, LeagueConfigError, load
from referee.league.notify import message, write
from referee.league.results import GAME_FILE, judge_game, named
from referee.live.mail.mail_errors import DeliveryError
from referee.live.play.result import PlayResult
from referee.speech import rule_text, speaker


def league_lang_of(path: Path) -> Callable[[str], str] | None:
    """The language of each player by address (`LeagueConfig.lang_of`) where `path` is a
    game of a league's folder whose `league.toml` reads; None elsewhere (the new token's
    mail then goes by `players.toml` alone, `referee.live.mail.retoken`)."""
    if GAME_FILE.fullmatch(path.name) is None or not (path.parent / CONFIG_FILE).is_file():
        return None
    try:
        return load(path.parent).lang_of
    except (LeagueConfigError, UsageError, OSError):
        return None


def tell_players(
    path: Path, submitted: str, result: PlayResult, now: int, sender: str, grants: Sequence[str] = ()
) -> str | None:
    """Mail every player of the game what the game master wrote (`submitted`: the moves or
    the word; `grants`, when those are what was written, said in each player's words) and
    the game as it now stands. Returns a line for standard error (where the mails went, or
    why none), or None when the file is no league game."""
    folder = path.parent
    match = GAME_FILE.fullmatch(path.name)
    if match is None or not (folder / CONFIG_FILE).is_file() or not result.written or result.dry_run:
        return None
    try:
        config = load(folder)
        data = path.read_bytes()
    except (LeagueConfigError, UsageError, OSError) as error:  # the move stands; say why nobody was told
        return f"the players were not told: {error}"
    if not config.tell_players:
        return None
    game, _ = judge_game(path, data, int(match.group(1)), int(match.group(2)))
    names = {seat.address: seat.name for seat in game.seats}
    mails = []
    for address in game.addresses:  # each player in their language (docs/languages.md)
        say = speaker(config.lang_of(address))
        what = say("a grant of {grants}", grants=", ".join(grants)) if grants else submitted
        lines = [
            say("{league}, [{game}]: the game master wrote {what}.", league=config.name, game=game.game, what=what),
            "",
        ]
        lines += [named(game, rule_text(event, say), say=say) for event in result.events]
        if result.board:
            lines += ["", result.board.rstrip("\n")]
        if game.finished:
            lines += ["", say("Game over: {result}", result=named(game, say=say))]
        elif result.next:
            lines += ["", named(game, f"next: {result.next}", say=say)]
        body = "\n".join(lines) + "\n"
        subject = say("[{game}] {league}: the game master wrote {what}", game=game.game, league=config.name, what=what)
        mails.append(message(sender, address, names[address], subject, body, now))
    try:
        write(folder, mails, now)
    except DeliveryError as error:
        return f"the players were not told: {error}"
    return f"told {plural(len(mails), 'player')} of {game.game} (mails in {folder / 'outbox'})"
