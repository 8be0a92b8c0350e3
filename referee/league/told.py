"""What the game master does with `play` on a league's game is told to its players when
`league.toml` says `tell_players = true` (docs/league.md, "What players get"): `play FILE
...` without `--as` (undo, draw, grant, timeout, a correction) on a file of a league's
folder writes one mail per player of the game into the league's outbox, where
`tick --smtp`, `mail --flush` or any mail program sends it, as the gateway's answers are
sent. A player's own submission entered with `--as` is not mailed: the player sent it."""

from __future__ import annotations

from pathlib import Path

from referee.errors import UsageError
from referee.judge.core.verdict_words import plural
from referee.league.league_toml import CONFIG_FILE, LeagueConfigError, load
from referee.league.notify import message, write
from referee.league.results import GAME_FILE, judge_game, named
from referee.live.mail.mail_errors import DeliveryError
from referee.live.play.result import PlayResult


def tell_players(path: Path, submitted: str, result: PlayResult, now: int, sender: str) -> str | None:
    """Mail every player of the game what the game master wrote (`submitted`: the moves or
    the word, or the grants) and the game as it now stands. Returns a line for standard
    error (where the mails went, or why none), or None when the file is no league game."""
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
    lines = [f"{config.name}, [{game.game}]: the game master wrote {submitted}.", ""]
    lines += [named(game, event) for event in result.events]
    if result.board:
        lines += ["", result.board.rstrip("\n")]
    if game.finished:
        lines += ["", f"Game over: {named(game)}"]
    elif result.next:
        lines += ["", f"next: {named(game, result.next)}"]
    body = "\n".join(lines) + "\n"
    subject = f"[{game.game}] {config.name}: the game master wrote {submitted}"
    mails = [message(sender, address, names[address], subject, body, now) for address in game.addresses]
    try:
        write(folder, mails, now)
    except DeliveryError as error:
        return f"the players were not told: {error}"
    return f"told {plural(len(mails), 'player')} of {game.game} (mails in {folder / 'outbox'})"
