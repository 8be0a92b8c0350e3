"""A season's end (LEAGUE.md §6): `league adjudicate` (the game master's decision of one
game, `adjudication = "gm"`) and `league close` (every unfinished game decided by the
league's rule, then the final table).

Each decision is one transaction: the record's `adjudicated {[%adjudicated RULE RESULT]}`
(with its stamp, written through `play`'s safe writing), its `adjudicated` line in
`league.log` and the mails to the game's players. The close itself is one more: its
`close` line (the final table and the SHA-256 of the canonical standings JSON) and every
player's mail with the final table and the champion. A close killed half-way is finished
by the next run: a decided game is finished, so it is not decided again, and the `close`
line is written once; after it every league command that writes refuses (`folder.league_lock`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from fractions import Fraction
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.judge.core import adjudicated_end
from referee.league.folder import LeagueRefused, append_log, league_lock, log_order, read_log
from referee.league.league_toml import Adjudication, LeagueConfig, load
from referee.league.notify import OUTBOX, message, write
from referee.league.points import number_text
from referee.league.refusal import Command
from referee.league.results import (
    GameResult,
    aliases,
    game_files,
    judge_game,
    named,
    renamed_game,
    withdrawal_rounds,
)
from referee.league.standings import Table, as_text, row_values, standings
from referee.notation.timing import format_instant
from referee.speech import N_, speaker

CLOSE_EVENT = "close"
ADJUDICATED_EVENT = "adjudicated"


@dataclass(frozen=True)
class Decided:
    """One game decided: its name, the rule and the result written."""

    game: str
    rule: str
    result: str

    def line(self) -> str:
        return f"adjudicated: {self.game} {self.rule} {self.result}"


@dataclass(frozen=True)
class Closed:
    """What `close` did: the games it decided, the close's log line and the mails queued."""

    decided: tuple[Decided, ...]
    entry: dict[str, Any]
    mails: int = 0
    notices: int = 0
    notes: tuple[str, ...] = field(default=())

    def __repr__(self) -> str:
        return f"Closed({len(self.decided)} decided, {self.entry.get('standings')})"

    def lines(self) -> list[str]:
        out = [decided.line() for decided in self.decided]
        champions = " and ".join(self.entry.get("champions", []))
        out.append(f"closed: champion {champions}; standings {self.entry['standings']}")
        sent = f"; notices: {self.notices} sent" if self.notices else ""
        out.append(f"mails: {self.mails} into the outbox{sent}")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "decided": [{"game": d.game, "rule": d.rule, "result": d.result} for d in self.decided],
            "close": self.entry,
            "mails": self.mails,
            "notices": self.notices,
            "notes": list(self.notes),
        }


def close_entry(log: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The `close` line of league.log, if the season is closed."""
    return next((entry for entry in log if entry.get("event") == CLOSE_EVENT), None)


def canonical(config: LeagueConfig, table: Table, *, final: bool = True) -> dict[str, Any]:
    """The canonical standings: `standings --json`'s object as the close leaves it, without
    the players' addresses (the public archive holds none: its digest must be the same)."""
    rows = []
    for row in table.rows:
        values = row_values(row)
        del values["address"]
        rows.append(values)
    return {
        "league": config.name,
        "game": config.game,
        "tiebreak": table.tiebreak,
        "finished": table.finished,
        "ongoing": table.ongoing,
        "final": final,
        "rows": rows,
    }


def digest(config: LeagueConfig, table: Table, *, final: bool = True) -> str:
    """`sha256:H` of the canonical standings JSON (keys sorted, no spaces)."""
    text = json.dumps(canonical(config, table, final=final), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def close_line(config: LeagueConfig, table: Table, now: int) -> dict[str, Any]:
    """The `close` line: when, the rule, the champions and each player's final figures
    (by name), and the digest of the canonical standings."""
    rows = canonical(config, table)["rows"]
    champions = [row["player"] for row in rows if row["rank"] == 1]
    return {
        "event": CLOSE_EVENT,
        "at": format_instant(now),
        "adjudication": config.adjudication.value,
        "champions": champions,
        "table": [
            {key: row[key] for key in ("rank", "player", "points", "mu", "sigma", "rating", "tiebreak")} for row in rows
        ],
        "standings": digest(config, table),
    }


def _games(folder: Path) -> list[tuple[GameResult, Any]]:
    found = []
    for round_number, table, path in game_files(folder):
        found.append(judge_game(path, store.read_bytes(path), round_number, table))
    return found


def _before_end(config: LeagueConfig, now: int, force: bool, what: str) -> None:
    if force:
        return
    if config.ends is None:
        raise LeagueRefused(
            N_("{league} has no `ends` in league.toml: {command} it early with --force"),
            league=config.name,
            command=Command(what),
        )
    if now < config.ends:
        raise LeagueRefused(
            N_("{league} ends at {ends}, not before: {command} it early with --force"),
            league=config.name,
            ends=format_instant(config.ends),
            command=Command(what),
        )


def _flagged(game: GameResult, replay: Any, now: int) -> str | None:
    """The side of an unfinished timed game whose time has run out by `now` (tick's to time out)."""
    clock = replay.verdict.clock if replay is not None else None
    if clock is None or now < clock.since:
        return None
    flagged: str | None = clock.at(now).flagged
    return flagged


class _Writer:
    def __init__(self, folder: Path, config: LeagueConfig, now: int, sender: str) -> None:
        self.folder, self.config, self.now, self.sender = folder, config, now, sender
        self.names = {player.address: player.name for player in config.players}
        self.mails = 0

    def mail(self, address: str, subject: str, body: str) -> EmailMessage:
        return message(self.sender, address, self.names.get(address, address), subject, body, self.now)

    def decide(self, game: GameResult, replay: Any, rule: Adjudication, given: str | None) -> Decided:
        """Write one decision into its record, log it and tell the game's players: one transaction."""
        from referee.live.play import submit

        state = replay.state if replay is not None else None
        if state is None:  # pragma: no cover - a legal game has a state
            raise LeagueRefused(N_("{game}: cannot be read"), game=game.game)
        try:
            decision = adjudicated_end.decision(state, adjudicated_end.Rule(rule.value), given)
        except adjudicated_end.Refusal as refusal:
            if given is not None:  # the game master's RESULT cannot be read for this game: usage
                raise UsageError(f"RESULT: {game.game}: {refusal}") from None
            # Translators: a league's game, then why the season's end cannot decide it.
            raise LeagueRefused(N_("{game}: {why}"), game=game.game, why=str(refusal)) from None
        text = f"adjudicated {{{adjudicated_end.write_command(decision)}}}"
        path = self.folder / f"{game.game}.rgn"
        with store.transaction(self.folder):
            result = submit(path, text, now=self.now)
            if result.exit_code != 0 or not result.written:
                raise LeagueRefused(
                    N_("{game}: the adjudication was refused: {error}"), game=game.game, error=result.error
                )
            after, _ = judge_game(path, store.read_bytes(path), game.round, game.table)
            mails = []
            for address in game.addresses:  # each player in their language (docs/languages.md)
                say = speaker(self.config.lang_of(address))
                body = say(
                    "{league}, [{game}]: the season's end decided this game (adjudication by {rule}): {result}.\n",
                    league=self.config.name,
                    game=game.game,
                    rule=decision.rule.value,
                    result=named(after, say=say),
                )
                subject = say("[{game}] adjudicated: {result}", game=game.game, result=decision.result)
                mails.append(self.mail(address, subject, body))
            write(self.folder, mails, self.now)
            self.mails += len(mails)
            entry = {
                "event": ADJUDICATED_EVENT,
                "at": format_instant(self.now),
                "game": game.game,
                "rule": decision.rule.value,
                "result": decision.result,
            }
            append_log(self.folder, [entry])
        return Decided(game.game, decision.rule.value, decision.result)


def adjudicate(folder: Path, game_name: str, result: str, now: int, sender: str, force: bool = False) -> Decided:
    """`league adjudicate DIR GAME RESULT`: the game master's decision of one unfinished game
    (`adjudication = "gm"`), written at once. Refused before `ends` unless `force`."""
    with league_lock(folder):
        config = load(folder)
        if config.adjudication is not Adjudication.GM:
            raise LeagueRefused(
                N_(
                    '{league} decides unfinished games by adjudication = "{rule}", '
                    'not by the game master: league adjudicate is for adjudication = "gm"'
                ),
                league=config.name,
                rule=Command(config.adjudication.value),
            )
        _before_end(config, now, force, "adjudicate")
        name = game_name.strip().removesuffix(".rgn")
        found = next(((g, r) for g, r in _games(folder) if g.game == name), None)
        if found is None:
            raise LeagueRefused(N_("{league} has no game {game!r}"), league=config.name, game=game_name)
        game, replay = found
        if not game.legal:
            # Translators: a league's game, its status (illegal, malformed) and what its verdict says.
            raise LeagueRefused(
                N_("{game}: {status}: {message}"), game=game.game, status=game.status, message=game.message
            )
        if game.finished:
            raise LeagueRefused(
                N_("{game} is finished: {result}; there is nothing to decide"), game=game.game, result=named(game)
            )
        flagged = _flagged(game, replay, now)
        if flagged is not None:
            raise LeagueRefused(
                N_("{game}: {side}'s time has run out: run league tick first (a timeout is due)"),
                game=game.game,
                side=flagged,
            )
        writer = _Writer(folder, config, now, sender)
        return writer.decide(game, replay, config.adjudication, result)


def close(folder: Path, now: int, sender: str, force: bool = False) -> Closed:
    """`league close DIR`: decide every unfinished game by the league's rule, then write the
    final table's `close` line and mail every player the table and the champion."""
    with league_lock(folder):
        config = load(folder)
        _before_end(config, now, force, "close")
        games = _games(folder)
        bad = [game.game for game, _ in games if not game.legal]
        if bad:
            raise LeagueRefused(N_("illegal or unreadable games: {games}"), games=", ".join(bad))
        unfinished = [(game, replay) for game, replay in games if not game.finished]
        flagged = [f"{game.game} ({side})" for game, replay in unfinished if (side := _flagged(game, replay, now))]
        if flagged:
            raise LeagueRefused(
                N_("time has run out in {games}: run league tick first (timeouts are due)"), games=", ".join(flagged)
            )
        rule = config.adjudication
        if unfinished and rule is Adjudication.NONE:
            names = ", ".join(game.game for game, _ in unfinished)
            raise LeagueRefused(
                N_('adjudication = "none": the season cannot close while games are unfinished: {games}'), games=names
            )
        if unfinished and rule is Adjudication.GM:
            names = ", ".join(game.game for game, _ in unfinished)
            raise LeagueRefused(
                N_("the game master has not decided {games}: league adjudicate DIR GAME RESULT first"), games=names
            )
        writer = _Writer(folder, config, now, sender)
        decided = tuple(writer.decide(game, replay, rule, None) for game, replay in unfinished)
        log = read_log(folder)
        renamed = aliases(log)
        results = [renamed_game(game, renamed) for game, _ in _games(folder)]
        table = standings(config, results, log_order(log), withdrawal_rounds(log))
        entry = close_line(config, table, now)
        points = table.rows[0].points if table.rows else Fraction(0)
        mails = []
        for player in config.players:  # each player in their language (docs/languages.md)
            say = speaker(config.lang_of(player.address))
            champions = say(" and ").join(entry["champions"])
            title = say("champions") if len(entry["champions"]) > 1 else say("champion")
            number = number_text(points)
            said = say.plural("{count} point", "{count} points", 1 if points == 1 else 2, count=number)
            body = "\n".join(
                [
                    say("{league} is closed: the standings are final.", league=config.name),
                    "",
                    say("The champions: {names}, with {points}.", names=champions, points=said)
                    if len(entry["champions"]) > 1
                    else say("The champion: {names}, with {points}.", names=champions, points=said),
                    "",
                    say("Final standings:"),
                    *as_text(config, table, final=True, say=say),
                    "",
                    say(
                        "Anyone can check them: referee league verify on the league's archive ({standings}).",
                        standings=entry["standings"],
                    ),
                    "",
                ]
            )
            subject = say(
                "{league}: the season is closed, {title} {names}", league=config.name, title=title, names=champions
            )
            mails.append(writer.mail(player.address, subject, body))
        with store.transaction(folder):
            write(folder, mails, now)
            append_log(folder, [entry])
        writer.mails += len(mails)
        from referee.league.tick import send_notices

        notices, notes = send_notices(folder, now, sender)
        return Closed(decided, entry, writer.mails, notices=notices, notes=tuple(notes))


__all__ = ["OUTBOX", "Closed", "Decided", "adjudicate", "close", "close_entry", "digest"]
