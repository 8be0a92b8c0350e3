"""What `league tick` (referee/league/tick.py) works with: the mailer that queues each
step's mails in the outbox, the games as tick reads them, and the daily digest's text."""

from __future__ import annotations

from collections.abc import Sequence
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from referee import store
from referee.judge.core.adjudicate import Replay
from referee.judge.core.clock_walk import ClockView
from referee.judge.core.turn_token import token_of
from referee.judge.core.verdicts import Status
from referee.league.league_toml import LeagueConfig
from referee.league.notify import OUTBOX, write
from referee.league.ranges import Range
from referee.league.results import GameResult, judge_game, named
from referee.live.mail.compose import QUEUE_HINT, games_hint
from referee.live.mail.delivery import Smtp, flush
from referee.live.mail.mail_errors import DeliveryError
from referee.notation.timing import spoken_instant
from referee.speech import Speaker, speaker


class Mailer:
    """Queues one step's mails in the outbox, within the step's transaction (with the
    step's log entry and what it wrote); with `--smtp`, `send` sends the outbox at the end."""

    def __init__(self, folder: Path, smtp: Smtp | None, now: int) -> None:
        self.folder, self.smtp, self.now = folder, smtp, now
        self.sent = self.queued = 0

    def deliver(self, messages: Sequence[EmailMessage]) -> None:
        if messages:
            write(self.folder, messages, self.now)
            self.queued += len(messages)

    def send(self) -> None:
        """With `--smtp`: send what this run queued (and anything still waiting)."""
        if self.smtp is None or not self.queued:
            return
        try:
            flushed = flush(self.folder / OUTBOX, self.smtp).sent
        except DeliveryError:
            return  # the server is down: the mails wait in the outbox for the next flush
        self.sent = min(flushed, self.queued)
        self.queued -= self.sent


class TickGame:
    """One game as `tick` reads it: its league reading, its replay and its players."""

    def __init__(self, path: Path, round_number: int, table: int) -> None:
        self.path = path
        self.name = path.name.removesuffix(".rgn")
        self.round_number, self.table = round_number, table
        self.reload()

    def reload(self) -> None:
        self.result: GameResult
        self.replay: Replay | None
        data = store.read_bytes(self.path)  # as the step in progress left it
        self.result, self.replay = judge_game(self.path, data, self.round_number, self.table)

    def clock_at(self, now: int) -> ClockView | None:
        verdict = self.replay.verdict if self.replay is not None else None
        if verdict is None or verdict.clock is None or not self.result.legal or now < verdict.clock.since:
            return None
        return verdict.clock.at(now)

    @property
    def token(self) -> str | None:
        return token_of(self.replay) if self.replay is not None else None

    @property
    def steps(self) -> int:
        return len(self.replay.steps) if self.replay is not None else 0


def digest_body(
    config: LeagueConfig,
    now: int,
    keyed: bool,
    address: str,
    mine: Sequence[TickGame],
    news: Sequence[TickGame],
    seen: dict[str, Any],
    placing: Range | None = None,
) -> str:
    """The text of `address`'s daily digest: their games to move in, the moves played since
    `seen` (the games' steps and tokens at their last digest), the results, and their
    placing range (LEAGUE.md §7)."""
    say = speaker(config.lang_of(address))
    when = say.instant(now, spoken_instant(now))
    lines = [say("{league}: your games on {when}.", league=config.name, when=when), ""]
    to_move = [game for game in mine if game.result.status == Status.ONGOING and holds(game, address)]
    if to_move:
        lines.append(say("Your move:"))
        for game in to_move:
            clock = game.clock_at(now)
            deadline = ""
            if clock and clock.deadline:
                due = say.instant(clock.deadline, spoken_instant(clock.deadline))
                deadline = say(", deadline {deadline}", deadline=due)
            side = say.word(str(game.result.to_move))
            token = say("; token {token}", token=game.token)
            lines.append(f"  [{game.name}] {side}{deadline}{token}")
        lines += ["", games_hint(say), ""] if keyed else ["", say(QUEUE_HINT), ""]
    moved = [game for game in news if game not in to_move and game.replay is not None]
    if moved:
        lines.append(say("Moves played:"))
        for game in moved:
            before = seen.get(game.name, [0])[0]
            steps = game.replay.steps if game.replay is not None else []
            start = before if isinstance(before, int) and 0 <= before <= len(steps) else 0
            played = [f"{say.word(step.turn.side)}: {step.move.text}" for step in steps[start:]]  # the moves as written
            lines.append(f"  [{game.name}] " + ("; ".join(played) if played else say("nothing new")))
        lines.append("")
    ended = [game for game in news if game.result.finished]
    if ended:
        lines.append(say("Results:"))
        lines += [f"  [{game.name}] {named(game.result, say=say)}" for game in ended]
        lines.append("")
    if placing is not None:
        lines += [placing_line(say, placing), ""]
    return "\n".join(lines)


def placing_line(say: Speaker, placing: Range) -> str:
    """A player's placing range as the digest says it."""
    if placing.best == placing.worst:
        said = say("Your final place on points is settled: {place}.", place=placing.best)
    else:
        said = say("Your final place on points can still be {best} to {worst}.", best=placing.best, worst=placing.worst)
    if not placing.exact:
        said += " " + say("(Safe bounds: too many results are still to come to try every outcome.)")
    return said


def news(seen: object, game: TickGame) -> bool:
    """Whether a game changed since the player's last digest (a game never seen: once it
    holds a move or has ended; a game just paired was told in its pairing mail)."""
    if isinstance(seen, list) and len(seen) == 2:
        return bool(seen[1] != game.token)
    return game.steps > 0 or game.result.finished


def holds(game: TickGame, address: str) -> bool:
    seat = game.result.player_of(game.result.to_move)
    return seat is not None and seat.address == address
