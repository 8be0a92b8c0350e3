"""`referee league tick`: the league's periodic job (LEAGUE.md §3).

Under the league's lock, in this order, each step logged in `league.log` once it has
succeeded: the outbox flushed (with `--smtp`); (1) a `timeout` for every flagged side,
answered to every player of the game; (2) reminders to the side to move; (3) the seeds of
finished secret games revealed and mailed; (4) the daily digest. What `league.log`
already holds is never done again, so a second run at the same `--now` does nothing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.judge.core.adjudicate import Replay
from referee.judge.core.clock_walk import ClockView
from referee.judge.core.turn_token import token_of
from referee.judge.core.verdict_words import plural
from referee.judge.core.verdicts import Status
from referee.league.folder import KEYS_DIR, append_log, league_lock, log_order, read_log, total_rounds
from referee.league.league_toml import Dice, Digest, LeagueConfig, load
from referee.league.notify import OUTBOX, message, write
from referee.league.results import (
    GameResult,
    Seat,
    aliases,
    game_files,
    judge_game,
    named,
    renamed_game,
    withdrawal_rounds,
    withdrawn_in,
)
from referee.live.mail.compose import QUEUE_HINT, games_hint, reply_hint
from referee.live.mail.delivery import Smtp, flush
from referee.live.mail.gateway import PLAYERS_FILE
from referee.live.mail.mail_errors import DeliveryError
from referee.notation.timing import format_duration, format_instant, spoken_instant
from referee.speech import Speaker, speaker

DAY = 86_400


@dataclass(frozen=True)
class Ticked:
    """What one `tick` did: the log entries it wrote (in order), the mails it sent or left
    in the outbox, notes on what it could not do (a key that is missing), and the games
    it found illegal or malformed (left alone; the command names them and exits 1)."""

    entries: tuple[dict[str, Any], ...] = ()
    sent: int = 0
    queued: int = 0
    flushed: int = 0
    notes: tuple[str, ...] = field(default=())
    faulty: tuple[GameResult, ...] = field(default=())
    notices: int = 0
    """Notices sent to Apprise targets (docs/league.md, "Notices"); failures are in `notes`."""
    season_over: dict[str, Any] | None = None
    """The season-over notice this run sent (league.log's entry), apart from `entries`,
    which are the four steps of LEAGUE.md §3."""

    def __repr__(self) -> str:
        return f"Ticked({len(self.entries)} entries, {self.sent} sent, {self.queued} queued)"

    def lines(self) -> list[str]:
        out = [_entry_line(entry) for entry in self.entries]
        if self.season_over is not None:
            out.append(_entry_line(self.season_over))
        flushed = f", {self.flushed} flushed from the outbox" if self.flushed else ""
        flushed += f"; notices: {self.notices} sent" if self.notices else ""
        out.append(f"tick: {len(self.entries)} done; mails: {self.sent} sent, {self.queued} into the outbox{flushed}")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "entries": list(self.entries),
            "sent": self.sent,
            "queued": self.queued,
            "flushed": self.flushed,
            "notes": list(self.notes),
            "season_over": self.season_over,
            "notices": self.notices,
        }


def _entry_line(entry: dict[str, Any]) -> str:
    event = entry["event"]
    if event == "digest":
        return f"digest: {entry['to']} ({entry['day']})"
    if event == "reminder":
        return f"reminder: {entry['game']} {entry['side']} ({entry['to']}), deadline {entry['deadline']}"
    if event == "season-over":
        return f"season over: {', '.join(entry.get('champions', []))}"
    if event in ("timeout", "forfeit"):
        return f"{event}: {entry['game']} {entry['side']}"
    if event == "leave" and entry.get("auto"):
        return f"automatic leave: {', '.join(entry.get('games', []))} {entry.get('side')} +{entry.get('duration')}"
    return f"{event}: {entry.get('game', '')}"


class _Mailer:
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


class _Game:
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


def tick(folder: Path, now: int, sender: str, smtp: Smtp | None = None) -> Ticked:
    """Run the periodic job once at `now` (LEAGUE.md §3)."""
    with league_lock(folder):
        config = load(folder)
        flushed = 0
        if smtp is not None:
            try:
                flushed = flush(folder / OUTBOX, smtp).sent
            except DeliveryError:
                pass  # the server is down: this run's mails wait in the outbox too
        log = read_log(folder)
        games = [_Game(path, r, t) for r, t, path in game_files(folder)]
        mailer = _Mailer(folder, smtp, now)
        names = {player.address: player.name for player in config.players}
        run = _Run(folder, config, now, sender, mailer, log, names)
        for step in (run.timeouts, run.forfeits, run.reminders, run.reveals, run.digests, run.season_over, run.notices):
            step(games)
        mailer.send()
        faulty = tuple(game.result for game in games if not game.result.legal)
        written = tuple(entry for entry in run.written if entry["event"] != "season-over")
        season = next((entry for entry in run.written if entry["event"] == "season-over"), None)
        return Ticked(written, mailer.sent, mailer.queued, flushed, tuple(run.notes), faulty, run.sent_notices, season)


@dataclass
class _Run:
    folder: Path
    config: LeagueConfig
    now: int
    sender: str
    mailer: _Mailer
    log: list[dict[str, Any]]
    names: dict[str, str]
    written: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sent_notices: int = 0

    @functools.cached_property
    def keyed(self) -> bool:
        """The league keeps passphrases: every "your move" text names the Key: line."""
        return (self.folder / PLAYERS_FILE).is_file()

    def _done(self, messages: Sequence[EmailMessage], entry: dict[str, Any]) -> None:
        """One step: its mails and its log entry, in one transaction with what the step
        wrote in a game (the caller's, which this joins); WriteFailed when it cannot be
        written: then none of it is, and the next tick does it again."""
        with store.transaction(self.folder):
            self.mailer.deliver(messages)
            append_log(self.folder, [entry])
        self.log.append(entry)
        self.written.append(entry)

    def _mail(self, address: str, subject: str, body: str) -> EmailMessage:
        name = self.names.get(address, address)
        return message(self.sender, address, name, subject, body, self.now)

    def _to_all(self, game: _Game, told: Callable[[Speaker], tuple[str, str]]) -> list[EmailMessage]:
        """To every player of the game, each in their language: `told(say)` gives (subject, body)."""
        mails = []
        for address in game.result.addresses:
            subject, body = told(speaker(self.config.lang_of(address)))
            mails.append(self._mail(address, subject, body))
        return mails

    # (1) time-outs -------------------------------------------------------------------------

    def timeouts(self, games: Sequence[_Game]) -> None:
        for game in games:
            for _ in range(8):  # each time-out may start another side's clock (Pikemen 3-4)
                clock = game.clock_at(self.now)
                if clock is None or game.result.status != Status.ONGOING or clock.flagged is None:
                    break
                side = clock.flagged
                with store.transaction(self.folder):  # the timeout, its notices and its log line
                    if not self._timeout(game, side, clock):
                        break
                game.reload()

    def _auto_leave(self, game: _Game, side: str, clock: ClockView) -> bool:
        """With `auto_leave` (LEAGUE.md §6): instead of the time-out, a grant of the fewest
        whole days that leave the side at least a day as of now, charged to the player's
        leave; False when the allowance cannot cover it (the time-out is then due)."""
        from referee.league.leave import used_leave
        from referee.live.mail.retoken import submitted

        seat = game.result.player_of(side)
        if not self.config.auto_leave or seat is None:
            return False
        short = DAY - clock.remaining(side)  # the time the side lacks to hold a day
        days = max(1, -(-short // DAY))
        used = used_leave(self.log, seat.address)
        if used + days * DAY > self.config.leave_days * DAY:
            return False
        text = format_duration(days * DAY)
        result, _ = submitted(
            game.path,
            None,
            sender=self.sender,
            now=self.now,
            grants=[f"{side}={text}"],
            reason=f"the game master granted {side} {text} (automatic leave of {seat.name})",
        )
        if result.exit_code != 0 or not result.written:
            self.notes.append(f"{game.name}: the automatic leave of {side} was refused: {result.error}")
            return False
        game.reload()
        left = format_duration(self.config.leave_days * DAY - used - days * DAY) or "none"

        def told(say: Speaker) -> tuple[str, str]:
            body = say(
                "{league}, [{game}]: {player} ({side}) ran out of time; instead of a timeout, "
                "{duration} of their leave was granted automatically (leave left: {left}).\n\n",
                league=self.config.name,
                game=game.name,
                player=seat.name,
                side=say.word(side),
                duration=text,
                left=left,
            )
            subject = say(
                "[{game}] automatic leave: {side} +{duration}", game=game.name, side=say.word(side), duration=text
            )
            return subject, f"{body}{named(game.result)}\n"

        entry = {
            "event": "leave",
            "at": format_instant(self.now),
            "player": seat.address,
            "duration": text,
            "games": [game.name],
            "side": side,
            "auto": True,
        }
        self._done(self._to_all(game, told), entry)
        return True

    def _timeout(self, game: _Game, side: str, clock: ClockView) -> bool:
        from referee.live.play import submit

        if self._auto_leave(game, side, clock):
            return True
        result = submit(game.path, "timeout", now=self.now)
        if result.exit_code != 0 or not result.written:
            self.notes.append(f"{game.name}: the timeout of {side} was refused: {result.error}")
            return False
        game.reload()
        seat = game.result.player_of(side)
        deadline = clock.deadline if clock.deadline is not None else self.now

        def told(say: Speaker) -> tuple[str, str]:
            who = f"{seat.name} ({say.word(side)})" if seat is not None else say.word(side)
            body = say(
                "{league}, [{game}]: {who} ran out of time at {deadline}; the timeout was written at {now}.\n\n",
                league=self.config.name,
                game=game.name,
                who=who,
                deadline=say.instant(deadline, spoken_instant(deadline)),
                now=say.instant(self.now, spoken_instant(self.now)),
            )
            subject = say("[{game}] timeout: {side}", game=game.name, side=say.word(side))
            return subject, f"{body}{named(game.result)}\n"

        entry = {"event": "timeout", "at": format_instant(self.now), "game": game.name, "side": side}
        self._done(self._to_all(game, told), entry)
        return True

    # (1b) forfeits of withdrawn players ----------------------------------------------------

    def forfeits(self, games: Sequence[_Game]) -> None:
        """`resign` for a withdrawn player's side whose move has come (docs/league.md, "The roster")."""
        from referee.league.roster import forfeit

        gone = withdrawn_in(self.log)
        if not gone:
            return
        for game in games:
            for _ in range(4):  # Pikemen 3-4: the next side to move may be theirs too
                seat = game.result.player_of(game.result.to_move) if game.result.status == Status.ONGOING else None
                if seat is None or seat.address not in gone:
                    break
                side = game.result.to_move
                done = forfeit(game.path, game.result, seat.address, self.now)
                if done is None or "refused" in done:
                    self.notes.append(done or f"{game.name}: no forfeit written")
                    break
                game.reload()

                def told(
                    say: Speaker, seat: Seat = seat, side: str | None = side, game: _Game = game
                ) -> tuple[str, str]:
                    body = say(
                        "{league}, [{game}]: {name} has withdrawn from the league, so {side} resigned (forfeit).\n\n",
                        league=self.config.name,
                        game=game.name,
                        name=seat.name,
                        side=say.word(str(side)),
                    )
                    subject = say("[{game}] forfeit: {side}", game=game.name, side=say.word(str(side)))
                    return subject, f"{body}{named(game.result)}\n"

                entry = {"event": "forfeit", "at": format_instant(self.now), "game": game.name, "side": side}
                self._done(self._to_all(game, told), entry)

    # (2) reminders -------------------------------------------------------------------------

    def reminders(self, games: Sequence[_Game]) -> None:
        thresholds = sorted(self.config.reminders)
        if not thresholds:
            return
        sent = {
            (entry.get("game"), entry.get("side"), entry.get("deadline"), entry.get("threshold"))
            for entry in self.log
            if entry.get("event") == "reminder"
        }
        for game in games:
            clock = game.clock_at(self.now)
            if clock is None or clock.running is None or clock.flagged is not None or clock.deadline is None:
                continue
            remaining = clock.remaining(clock.running)
            passed = [threshold for threshold in thresholds if remaining <= threshold]
            if not passed:
                continue
            threshold = format_duration(passed[0])
            deadline = format_instant(clock.deadline)
            if (game.name, clock.running, deadline, threshold) in sent:
                continue
            seat = game.result.player_of(clock.running)
            if seat is None:
                continue
            say = speaker(self.config.lang_of(seat.address))
            body = say(
                "{league}, [{game}]: {name}, {side} is to move; "
                "your time runs out at {deadline} (less than {threshold} from now).\n",
                league=self.config.name,
                game=game.name,
                name=seat.name,
                side=say.word(clock.running),
                deadline=say.instant(clock.deadline, spoken_instant(clock.deadline)),
                threshold=threshold,
            )
            body += f"\n{reply_hint(game.token or '', self.keyed, say)}\n"
            entry = {
                "event": "reminder",
                "at": format_instant(self.now),
                "game": game.name,
                "side": clock.running,
                "to": seat.address,
                "deadline": deadline,
                "threshold": threshold,
            }
            subject = say("[{game}] reminder: your move", game=game.name)
            self._done([self._mail(seat.address, subject, body)], entry)

    # (3) reveals ---------------------------------------------------------------------------

    def reveals(self, games: Sequence[_Game]) -> None:
        from referee.live.play.keys import read_key
        from referee.live.play.secret import reveal

        if self.config.dice is not Dice.SECRET:
            return
        for game in games:
            record = game.replay.record if game.replay is not None else None
            if not game.result.finished or record is None:
                continue
            tags = record.tag_map
            if "SeedHash" not in tags or "Seed" in tags:
                continue
            key = self.folder / KEYS_DIR / f"{game.name}.key"
            try:
                seed = read_key(key)
            except UsageError as error:
                self.notes.append(f"{game.name}: cannot reveal its seed: {error}")
                continue
            with store.transaction(self.folder):  # the seed written, mailed and logged together
                result = reveal(game.path, seed)
                if not result.written:
                    self.notes.append(f"{game.name}: the seed was not revealed: {result.error or result.notice}")
                    continue
                game.reload()

                def told(say: Speaker, game: _Game = game, seed: str = seed) -> tuple[str, str]:
                    body = say(
                        "{league}, [{game}] is over: {result}\n\n"
                        "The secret seed is {seed}\n"
                        "The record, with the seed written into it, is attached as {game}.rgn.\n"
                        "Check every roll with: referee check {game}.rgn\n",
                        league=self.config.name,
                        game=game.name,
                        result=named(game.result),
                        seed=seed,
                    )
                    return say("[{game}] seed revealed", game=game.name), body

                entry = {"event": "reveal", "at": format_instant(self.now), "game": game.name}
                mails = self._to_all(game, told)
                record_text = store.read_bytes(game.path).decode("utf-8")  # as this transaction wrote it
                for mail in mails:
                    mail.add_attachment(record_text, filename=f"{game.name}.rgn")
                self._done(mails, entry)
            game.reload()

    # (4) digests ---------------------------------------------------------------------------

    def digests(self, games: Sequence[_Game]) -> None:
        if self.config.digest is not Digest.DAILY:
            return
        day = format_instant(self.now - self.now % DAY)[:10]
        last: dict[str, dict[str, Any]] = {}
        for entry in self.log:
            if entry.get("event") == "digest" and isinstance(entry.get("to"), str):
                last[entry["to"]] = entry
        for player in self.config.players:
            previous = last.get(player.address)
            if previous is not None and previous.get("day") == day:
                continue
            seen: dict[str, Any] = previous.get("seen", {}) if previous is not None else {}
            mine = [game for game in games if player.address in game.result.addresses and game.result.legal]
            now_seen = {game.name: [game.steps, game.token] for game in mine}
            news = [game for game in mine if _news(seen.get(game.name), game)]
            if not news:
                continue
            body = self._digest_body(player.address, mine, news, seen)
            entry = {
                "event": "digest",
                "at": format_instant(self.now),
                "day": day,
                "to": player.address,
                "games": [game.name for game in news],
                "seen": now_seen,
            }
            say = speaker(self.config.lang_of(player.address))
            subject = say("{league}: daily digest {day}", league=self.config.name, day=day)
            self._done([self._mail(player.address, subject, body)], entry)

    def _digest_body(self, address: str, mine: Sequence[_Game], news: Sequence[_Game], seen: dict[str, Any]) -> str:
        say = speaker(self.config.lang_of(address))
        when = say.instant(self.now, spoken_instant(self.now))
        lines = [say("{league}: your games on {when}.", league=self.config.name, when=when), ""]
        to_move = [game for game in mine if game.result.status == Status.ONGOING and _holds(game, address)]
        if to_move:
            lines.append(say("Your move:"))
            for game in to_move:
                clock = game.clock_at(self.now)
                deadline = ""
                if clock and clock.deadline:
                    due = say.instant(clock.deadline, spoken_instant(clock.deadline))
                    deadline = say(", deadline {deadline}", deadline=due)
                side = say.word(str(game.result.to_move))
                token = say("; token {token}", token=game.token)
                lines.append(f"  [{game.name}] {side}{deadline}{token}")
            lines += ["", games_hint(say), ""] if self.keyed else ["", say(QUEUE_HINT), ""]
        moved = [game for game in news if game not in to_move and game.replay is not None]
        if moved:
            lines.append(say("Moves played:"))
            for game in moved:
                before = seen.get(game.name, [0])[0]
                steps = game.replay.steps if game.replay is not None else []
                start = before if isinstance(before, int) and 0 <= before <= len(steps) else 0
                played = [f"{step.turn.side}: {step.move.text}" for step in steps[start:]]  # the notation
                lines.append(f"  [{game.name}] " + ("; ".join(played) if played else say("nothing new")))
            lines.append("")
        ended = [game for game in news if game.result.finished]
        if ended:
            lines.append(say("Results:"))
            lines += [f"  [{game.name}] {named(game.result)}" for game in ended]
            lines.append("")
        return "\n".join(lines)

    # (5) the season's end ---------------------------------------------------------------------

    def season_over(self, games: Sequence[_Game]) -> None:
        """Once, when every round is paired and every game finished: the champion, to every
        player, with the final table (docs/league.md)."""
        from referee.league.standings import as_text, number_text, standings

        if any(entry.get("event") == "season-over" for entry in self.log):
            return
        last = total_rounds(self.config)
        if not games or max(game.round_number for game in games) < last:
            return
        if not all(game.result.finished for game in games):
            return
        renamed = aliases(self.log)
        results = [renamed_game(game.result, renamed) for game in games]
        table = standings(self.config, results, log_order(self.log), withdrawal_rounds(self.log))
        champions = [row for row in table.rows if row.rank == 1]
        if not champions:  # pragma: no cover - a league has players
            return
        entry = {
            "event": "season-over",
            "at": format_instant(self.now),
            "champions": [row.address for row in champions],
        }
        mails = []
        for player in self.config.players:  # each player in their language (docs/languages.md)
            say = speaker(self.config.lang_of(player.address))
            names = say(" and ").join(row.name for row in champions)
            title = say("champions") if len(champions) > 1 else say("champion")
            played = say("its one round is played") if last == 1 else say("all {count} rounds are played", count=last)
            number = number_text(champions[0].points)
            points = say.plural("{count} point", "{count} points", 1 if champions[0].points == 1 else 2, count=number)
            body = "\n".join(
                [
                    say("{league} is over: {played}.", league=self.config.name, played=played),
                    "",
                    say("The champions: {names}, with {points}.", names=names, points=points)
                    if len(champions) > 1
                    else say("The champion: {names}, with {points}.", names=names, points=points),
                    "",
                    say("Final standings:"),
                    *as_text(self.config, table),
                    "",
                ]
            )
            subject = say(
                "{league}: the season is over, {title} {names}", league=self.config.name, title=title, names=names
            )
            mails.append(self._mail(player.address, subject, body))
        self._done(mails, entry)

    # (6) notices beyond e-mail -------------------------------------------------------------

    def notices(self, games: Sequence[_Game]) -> None:
        """Every notice due to an Apprise target, once per (event, target); a failure is
        logged and left for the next tick (docs/league.md, "Notices")."""
        from referee.league import notices as told

        config = self.config
        if not (config.notify or config.notify_games or any(player.notify for player in config.players)):
            return
        renamed = aliases(self.log)
        state = [(renamed_game(game.result, renamed), game.token) for game in games]
        pending = told.due(told.events(config, state, self.log), self.log)
        if not pending:
            return
        send = told.apprise_sender()
        if send is None:
            missing = "Apprise is missing (pip install '.[notify]' in the checkout)"
            self.notes.append(f"{plural(len(pending), 'notice')} not sent: {missing}")
            return
        for notice, url in pending:
            failed = send(url, notice.title, notice.body)
            entry = {
                "event": "notice" if failed is None else "notice-failed",
                "at": format_instant(self.now),
                "key": notice.key,
                "target": told.target_id(url),
            }
            if failed is not None:
                entry["error"] = failed[:200]
                self.notes.append(f"notice {notice.key} to target {entry['target']} failed: {failed[:200]}")
            else:
                self.sent_notices += 1
            append_log(self.folder, [entry])
            self.log.append(entry)


def send_notices(folder: Path, now: int, sender: str) -> tuple[int, list[str]]:
    """The notices due to Apprise targets now, sent as `tick`'s last step sends them (the
    caller holds the league's lock): `league close` tells the season's end this way, since
    no tick runs after it. The count sent and the notes of what failed."""
    config = load(folder)
    log = read_log(folder)
    games = [_Game(path, r, t) for r, t, path in game_files(folder)]
    names = {player.address: player.name for player in config.players}
    run = _Run(folder, config, now, sender, _Mailer(folder, None, now), log, names)
    run.notices(games)
    return run.sent_notices, run.notes


def _news(seen: object, game: _Game) -> bool:
    """Whether a game changed since the player's last digest (a game never seen: once it
    holds a move or has ended; a game just paired was told in its pairing mail)."""
    if isinstance(seen, list) and len(seen) == 2:
        return bool(seen[1] != game.token)
    return game.steps > 0 or game.result.finished


def _holds(game: _Game, address: str) -> bool:
    seat = game.result.player_of(game.result.to_move)
    return seat is not None and seat.address == address
