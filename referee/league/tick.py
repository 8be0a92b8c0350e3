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
from referee.judge.core.clock_walk import ClockView
from referee.judge.core.verdict_words import plural
from referee.judge.core.verdicts import Status
from referee.league.clinch import CLINCH_EVENT, clinch_text
from referee.league.folder import KEYS_DIR, append_log, league_lock, log_order, read_log, total_rounds
from referee.league.league_toml import Dice, Digest, LeagueConfig, load
from referee.league.notify import OUTBOX, message
from referee.league.ranges import Range
from referee.league.results import (
    GameResult,
    Seat,
    aliases,
    game_files,
    named,
    renamed_game,
    withdrawal_rounds,
    withdrawn_in,
)
from referee.league.tick_mail import Mailer, TickGame, digest_body, news
from referee.live.mail.compose import reply_hint
from referee.live.mail.delivery import Smtp, flush
from referee.live.mail.gateway_values import PLAYERS_FILE
from referee.live.mail.mail_errors import DeliveryError
from referee.live.play import changes
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
    clinches: tuple[dict[str, Any], ...] = ()
    """The clinch notices this run sent (league.log's entries, LEAGUE.md §7), apart from `entries`."""

    def __repr__(self) -> str:
        return f"Ticked({len(self.entries)} entries, {self.sent} sent, {self.queued} queued)"

    def lines(self) -> list[str]:
        out = [_entry_line(entry) for entry in self.entries]
        out += [_entry_line(entry) for entry in self.clinches]
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
            "clinches": list(self.clinches),
            "notices": self.notices,
        }


def _entry_line(entry: dict[str, Any]) -> str:
    event = entry["event"]
    if event == "digest":
        return f"digest: {entry['to']} ({entry['day']})"
    if event == "reminder":
        return f"reminder: {entry['game']} {entry['side']} ({entry['to']}), deadline {entry['deadline']}"
    if event == CLINCH_EVENT:
        return f"clinched: {entry['player']} {entry['what']}"
    if event == "season-over":
        return f"season over: {', '.join(entry.get('champions', []))}"
    if event in ("timeout", "forfeit"):
        return f"{event}: {entry['game']} {entry['side']}"
    if event == "leave" and entry.get("auto"):
        return f"automatic leave: {', '.join(entry.get('games', []))} {entry.get('side')} +{entry.get('duration')}"
    return f"{event}: {entry.get('game', '')}"


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
        games = [TickGame(path, r, t) for r, t, path in game_files(folder)]
        mailer = Mailer(folder, smtp, now)
        names = {player.address: player.name for player in config.players}
        run = _Run(folder, config, now, sender, mailer, log, names, games)
        steps = (run.timeouts, run.forfeits, run.reminders, run.reveals, run.digests, run.clinches, run.season_over)
        for step in (*steps, run.notices):
            step(games)
        mailer.send()
        faulty = tuple(game.result for game in games if not game.result.legal)
        written = tuple(entry for entry in run.written if entry["event"] not in ("season-over", CLINCH_EVENT))
        season = next((entry for entry in run.written if entry["event"] == "season-over"), None)
        clinches = tuple(entry for entry in run.written if entry["event"] == CLINCH_EVENT)
        notes = tuple(run.notes)
        return Ticked(written, mailer.sent, mailer.queued, flushed, notes, faulty, run.sent_notices, season, clinches)


@dataclass
class _Run:
    folder: Path
    config: LeagueConfig
    now: int
    sender: str
    mailer: Mailer
    log: list[dict[str, Any]]
    names: dict[str, str]
    games: list[TickGame]
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

    def _to_all(self, game: TickGame, told: Callable[[Speaker], tuple[str, str]]) -> list[EmailMessage]:
        """To every player of the game, each in their language: `told(say)` gives (subject, body)."""
        mails = []
        for address in game.result.addresses:
            subject, body = told(speaker(self.config.lang_of(address)))
            mails.append(self._mail(address, subject, body))
        return mails

    # (1) time-outs -------------------------------------------------------------------------

    def timeouts(self, games: Sequence[TickGame]) -> None:
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

    def _auto_leave(self, game: TickGame, side: str, clock: ClockView) -> bool:
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
            reason=[changes.wording("automatic-leave", given=f"{side} {text}", player=seat.name)],
            lang_of=self.config.lang_of,
        )
        if result.exit_code != 0 or not result.written:
            self.notes.append(f"{game.name}: the automatic leave of {side} was refused: {result.error}")
            return False
        game.reload()
        left = format_duration(self.config.leave_days * DAY - used - days * DAY)

        def told(say: Speaker) -> tuple[str, str]:
            body = say(
                "{league}, [{game}]: {player} ({side}) ran out of time; instead of a timeout, "
                "{duration} of their leave was granted automatically (leave left: {left}).\n\n",
                league=self.config.name,
                game=game.name,
                player=seat.name,
                side=say.word(side),
                duration=text,
                left=left or say("none"),
            )
            subject = say(
                "[{game}] automatic leave: {side} +{duration}", game=game.name, side=say.word(side), duration=text
            )
            return subject, f"{body}{named(game.result, say=say)}\n"

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

    def _timeout(self, game: TickGame, side: str, clock: ClockView) -> bool:
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
            return subject, f"{body}{named(game.result, say=say)}\n"

        entry = {"event": "timeout", "at": format_instant(self.now), "game": game.name, "side": side}
        self._done(self._to_all(game, told), entry)
        return True

    # (1b) forfeits of withdrawn players ----------------------------------------------------

    def forfeits(self, games: Sequence[TickGame]) -> None:
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
                    say: Speaker, seat: Seat = seat, side: str | None = side, game: TickGame = game
                ) -> tuple[str, str]:
                    body = say(
                        "{league}, [{game}]: {name} has withdrawn from the league, so {side} resigned (forfeit).\n\n",
                        league=self.config.name,
                        game=game.name,
                        name=seat.name,
                        side=say.word(str(side)),
                    )
                    subject = say("[{game}] forfeit: {side}", game=game.name, side=say.word(str(side)))
                    return subject, f"{body}{named(game.result, say=say)}\n"

                entry = {"event": "forfeit", "at": format_instant(self.now), "game": game.name, "side": side}
                self._done(self._to_all(game, told), entry)

    # (2) reminders -------------------------------------------------------------------------

    def reminders(self, games: Sequence[TickGame]) -> None:
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

    def reveals(self, games: Sequence[TickGame]) -> None:
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

                def told(say: Speaker, game: TickGame = game, seed: str = seed) -> tuple[str, str]:
                    body = say(
                        "{league}, [{game}] is over: {result}\n\n"
                        "The secret seed is {seed}\n"
                        "The record, with the seed written into it, is attached as {game}.rgn.\n"
                        "Check every roll with: referee check {game}.rgn\n",
                        league=self.config.name,
                        game=game.name,
                        result=named(game.result, say=say),
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

    def digests(self, games: Sequence[TickGame]) -> None:
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
            fresh = [game for game in mine if news(seen.get(game.name), game)]
            if not fresh:
                continue
            placing = self.placings[1].get(player.address)
            body = digest_body(self.config, self.now, self.keyed, player.address, mine, fresh, seen, placing)
            entry = {
                "event": "digest",
                "at": format_instant(self.now),
                "day": day,
                "to": player.address,
                "games": [game.name for game in fresh],
                "seen": now_seen,
            }
            say = speaker(self.config.lang_of(player.address))
            subject = say("{league}: daily digest {day}", league=self.config.name, day=day)
            self._done([self._mail(player.address, subject, body)], entry)

    @functools.cached_property
    def placings(self) -> tuple[dict[str, str], dict[str, Range], bool]:
        """The players' names (by address), their placing ranges (LEAGUE.md §7) as the games
        stand at this step (after the time-outs and forfeits; points only, no ratings), and
        whether the season is complete (every round paired, every game finished)."""
        from referee.league.ranges import league_ranges
        from referee.league.standings import league_points

        games = self.games
        renamed = aliases(self.log)
        results = [renamed_game(game.result, renamed) for game in games]
        points = league_points(self.config, results, withdrawal_rounds(self.log))
        ranges = league_ranges(self.config, results, points, withdrawn_in(self.log)) or {}
        names = {player.address: player.name for player in self.config.players}
        last = total_rounds(self.config)
        complete = bool(games) and max(game.round_number for game in games) >= last
        return names, ranges, complete and all(game.result.finished for game in games)

    # (4b) clinch notices --------------------------------------------------------------------

    def clinches(self, games: Sequence[TickGame]) -> None:
        """Once per (player, clinch), while the season is not complete (the season-over mail
        tells the end): to every player (docs/league.md, "Clinch notices")."""
        from referee.league import clinch

        names, ranges, complete = self.placings
        if complete or not ranges:
            return
        for found in clinch.due(self.config, names, ranges, self.log):
            mails = []
            for player in self.config.players:
                say = speaker(self.config.lang_of(player.address))
                subject, body = clinch_text(say, self.config, found, ranges[found.address])
                mails.append(self._mail(player.address, subject, body))
            self._done(mails, found.entry(format_instant(self.now)))

    # (5) the season's end ---------------------------------------------------------------------

    def season_over(self, games: Sequence[TickGame]) -> None:
        """Once, when every round is paired and every game finished: the champion, to every
        player, with the final table (docs/league.md)."""
        from referee.league.points import number_text
        from referee.league.standings import as_text, standings

        if any(entry.get("event") == "season-over" for entry in self.log):
            return
        from referee.league.knockout import last_step  # a knockout is over with its final (LEAGUE.md §7)

        last = last_step(self.config, [g.result for g in games], withdrawal_rounds(self.log), total_rounds(self.config))
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
                    *as_text(self.config, table, say=say),
                    "",
                ]
            )
            subject = say(
                "{league}: the season is over, {title} {names}", league=self.config.name, title=title, names=names
            )
            mails.append(self._mail(player.address, subject, body))
        self._done(mails, entry)

    # (6) notices beyond e-mail -------------------------------------------------------------

    def notices(self, games: Sequence[TickGame]) -> None:
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
    games = [TickGame(path, r, t) for r, t, path in game_files(folder)]
    names = {player.address: player.name for player in config.players}
    run = _Run(folder, config, now, sender, Mailer(folder, None, now), log, names, games)
    run.notices(games)
    return run.sent_notices, run.notes
