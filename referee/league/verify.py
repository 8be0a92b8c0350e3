"""`referee league verify PATH` (LEAGUE.md §6): a season recomputed from its records and
`league.log` alone, and compared with what they say.

Checked, each difference one line: every game legal (check's verdict, adjudications
included: a `%adjudicated` its rule does not give is illegal), every game made by a
pairing line and every pairing line's game present, with the `Round`, `Table` and seats
of its line; each round's pairing as the league's rule gives it from `league.toml` and
the standings before that round (Berger tables, groups, Swiss); every adjudication by the
league's rule and logged; and, once closed, the standings and ratings of the `close` line
and its digest. PATH is the league folder or its public archive (`public_archive.py`), which
reads the same way: players by name."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.judge.core import adjudicated_end
from referee.league.close import ADJUDICATED_EVENT, close_entry, digest
from referee.league.folder import LeagueRefused, read_log, schedule_round
from referee.league.league_toml import CONFIG_FILE, Adjudication, LeagueConfig, LeagueConfigError, load
from referee.league.results import (
    GameResult,
    aliases,
    game_files,
    judge_game,
    renamed_game,
    withdrawal_rounds,
    withdrawn_in,
)
from referee.league.series import FROM_EVENT
from referee.league.standings import Table, standings

FIGURES = ("rank", "points", "mu", "sigma", "rating", "tiebreak")
"""The figures of each player that the `close` line holds and verify compares."""


@dataclass(frozen=True)
class Verified:
    """What verify found: the games and rounds read, the standings' digest, every difference."""

    games: int
    rounds: int
    standings: str
    differences: tuple[str, ...] = field(default=())
    chained: tuple[int, int] = (0, 0)
    """The closed seasons of a `from` line (LEAGUE.md §7): how many it names, how many were checked."""

    @property
    def ok(self) -> bool:
        return not self.differences

    def __repr__(self) -> str:
        return f"Verified({self.games} games, {self.rounds} rounds, {len(self.differences)} differences)"

    def summary(self) -> str:
        named, checked = self.chained
        chain = f"; from {checked} of {named} seasons checked" if named else ""
        return f"verified: {self.games} games, {self.rounds} rounds, standings {self.standings}{chain}"

    def as_json(self) -> dict[str, Any]:
        return {
            "verified": self.ok,
            "games": self.games,
            "rounds": self.rounds,
            "standings": self.standings,
            "differences": list(self.differences),
            "chain": {"seasons": self.chained[0], "checked": self.chained[1]},
        }


def verify(path: Path, chain: Sequence[Path] = (), seen: frozenset[Path] = frozenset()) -> Verified:
    """Verify the league folder `path`, or its archive (a `.zip`); `chain`: the closed
    seasons its `from` line names (folders or archives; else looked for where it says, for a
    folder only: an archive's recorded folders mean nothing where it is unpacked); `seen`:
    the seasons already on the chain being verified (a log naming one of them is a cycle,
    told as a difference, never followed)."""
    if path.is_file():
        from referee.league.public_archive import unpacked

        with tempfile.TemporaryDirectory(prefix="referee-verify-") as scratch, unpacked(path, Path(scratch)) as folder:
            return _verify(folder, chain, seen | {path.resolve()}, recorded=False)
    return _verify(path, chain, seen | {path.resolve()})


class _Season:
    def __init__(self, folder: Path) -> None:
        self.config: LeagueConfig = load(folder)
        self.log = read_log(folder)
        self.renamed = aliases(self.log)
        self.names = {player.address: player.name for player in self.config.players}
        self.numbers = {player.address: player.number for player in self.config.players}
        self.games: dict[str, tuple[GameResult, Any]] = {}
        for round_number, table, game_path in game_files(folder):
            result, replay = judge_game(game_path, store.read_bytes(game_path), round_number, table, game_path.name)
            self.games[result.game] = (renamed_game(result, self.renamed), replay)
        self.lines = self._pairing_lines()
        self.out: list[str] = []

    def _pairing_lines(self) -> dict[int, tuple[int, dict[str, Any]]]:
        """Each round's pairing line (the last for a round: an `unpair` takes one back), with its place in the log."""
        found: dict[int, tuple[int, dict[str, Any]]] = {}
        for index, entry in enumerate(self.log):
            number = entry.get("round")
            if entry.get("event") == "pairing" and isinstance(number, int):
                found[number] = (index, entry)
            elif entry.get("event") == "unpair" and isinstance(number, int):
                found.pop(number, None)
        return found

    def who(self, addresses: Sequence[str]) -> str:
        return " - ".join(self.names.get(address, address) for address in addresses) or "nobody"

    def seats_of(self, item: dict[str, Any]) -> tuple[str, ...]:
        seats = item.get("seats", [])
        return tuple(self.renamed.get(seat, seat) for seat in seats if isinstance(seat, str))

    # -- the checks --------------------------------------------------------------------------

    def legal(self) -> None:
        for name, (game, _) in self.games.items():
            if not game.legal:
                self.out.append(f"{name}: {game.status}: {game.message}")

    def made(self) -> None:
        """Every game made by its round's pairing line, with the tags and seats the line gives."""
        paired: dict[str, tuple[int, tuple[str, ...]]] = {}
        for number, (_, entry) in sorted(self.lines.items()):
            for item in entry.get("games", []):
                if isinstance(item, dict) and isinstance(item.get("game"), str):
                    paired[item["game"]] = (number, self.seats_of(item))
        for name, (number, seats) in paired.items():
            if name not in self.games:
                self.out.append(f"{name}: paired in round {number} ({self.who(seats)}) but its record is missing")
        for name, (game, replay) in self.games.items():
            if name not in paired:
                self.out.append(f"{name}: no pairing line of league.log makes this game")
                continue
            number, seats = paired[name]
            record = replay.record if replay is not None else None
            tags = record.tag_map if record is not None else {}
            want_table = name.rpartition("-t")[2]
            if tags.get("Round") != str(number) or tags.get("Table") != want_table:
                self.out.append(
                    f"{name}: tags Round {tags.get('Round')!r}, Table {tags.get('Table')!r}; "
                    f"its pairing line gives Round {number}, Table {want_table}"
                )
            held = tuple(seat.address for seat in game.seats)
            if game.legal and held != seats:
                self.out.append(f"{name}: seats {self.who(held)}; its pairing line gives {self.who(seats)}")

    def pairings(self) -> None:
        """Each round's pairing line as the rule pairs it from the standings before that round."""
        for number, (index, entry) in sorted(self.lines.items()):
            before = self.log[:index]
            gone = withdrawn_in(before)
            numbers = frozenset(self.numbers[address] for address in gone if address in self.numbers)
            earlier = [game for game, _ in self.games.values() if game.round < number and game.legal]
            try:
                planned = schedule_round(self.config, number, earlier, numbers, withdrawal_rounds(before))
            except LeagueRefused as refused:  # a knockout over (or stuck) before this round
                self.out.append(f"round {number}: league.log pairs a round the rule does not make: {refused}")
                continue
            addresses = {player.number: player.address for player in self.config.players}
            want = [tuple(addresses[seat] for seat in table.seats) for table in planned.tables]
            logged = [
                self.seats_of(item)
                for item in entry.get("games", [])
                if isinstance(item, dict) and isinstance(item.get("game"), str)
            ]
            if logged != want:
                given = "; ".join(self.who(seats) for seats in logged)
                rule = "; ".join(self.who(seats) for seats in want)
                self.out.append(
                    f"round {number}: league.log pairs {given}; the {self.config.pairing.value} rule pairs {rule}"
                )
            byes = sorted(self.renamed.get(bye, bye) for bye in entry.get("byes", []) if isinstance(bye, str))
            want_byes = sorted(addresses[bye] for bye in planned.byes)
            if byes != want_byes:
                self.out.append(
                    f"round {number}: league.log gives a bye to {self.who(byes)}; the rule to {self.who(want_byes)}"
                )

    def adjudications(self) -> None:
        """Every adjudicated game decided by the league's rule, and logged as decided."""
        logged = {
            entry.get("game"): (entry.get("rule"), entry.get("result"))
            for entry in self.log
            if entry.get("event") == ADJUDICATED_EVENT
        }
        rule = self.config.adjudication
        for name, (game, replay) in self.games.items():
            if not game.legal or game.reason != "adjudication":
                continue
            written = _written(replay)
            if written is None:  # pragma: no cover - check gives `adjudication` only with the command
                continue
            if rule is Adjudication.NONE or written[0] != rule.value:
                self.out.append(f"{name}: adjudicated by {written[0]}; league.toml says adjudication = {rule.value!r}")
            if logged.get(name) != written:
                self.out.append(f"{name}: its adjudication ({' '.join(written)}) is not the one league.log records")

    def closed(self, table: Table) -> str:
        """The close's line against the standings the records give; the digest to print."""
        entry = close_entry(self.log)
        found = digest(self.config, table, final=entry is not None)
        if entry is None:
            return found
        if entry.get("standings") != found:
            self.out.append(f"close: league.log's standings {entry.get('standings')}; the records give {found}")
        rows = {row.name: row for row in table.rows}
        from referee.league.standings import row_values

        logged = entry.get("table", [])
        for item in logged if isinstance(logged, list) else []:
            if not isinstance(item, dict):
                continue
            row = rows.get(str(item.get("player")))
            if row is None:
                self.out.append(f"close: league.log lists {item.get('player')!r}, who is no player of the league")
                continue
            values = row_values(row)
            wrong = [key for key in FIGURES if item.get(key) != values[key]]
            if wrong:
                logged_text = ", ".join(f"{key} {item.get(key)}" for key in wrong)
                given = ", ".join(f"{key} {values[key]}" for key in wrong)
                self.out.append(f"close: {row.name}: {logged_text} in league.log; the records give {given}")
        return found


def _written(replay: Any) -> tuple[str, str] | None:
    """The `%adjudicated RULE RESULT` a record holds."""
    record = replay.record if replay is not None else None
    if record is None:
        return None
    for item in record.items:
        text = getattr(item, "text", None)
        if isinstance(text, str) and getattr(item, "braced", False):
            command = adjudicated_end.command_of(text)
            if command is not None and len(command.args) == 2:
                return (command.args[0].lower(), command.args[1])
    return None


def _verify(folder: Path, given: Sequence[Path], seen: frozenset[Path], recorded: bool = True) -> Verified:
    season = _Season(folder)
    checked, differences = chain(folder, season.log, given, seen, recorded)
    season.out.extend(differences)
    season.legal()
    season.made()
    season.pairings()
    season.adjudications()
    log = season.log
    results = [game for game, _ in season.games.values()]
    from referee.league.folder import log_order

    table = standings(season.config, results, log_order(log), withdrawal_rounds(log))
    found = season.closed(table)
    return Verified(
        len(season.games), len(season.lines), found, tuple(season.out), (named_seasons(season.log), checked)
    )


# -- the chain of seasons (LEAGUE.md §7): a `from` line names the closed seasons ----------------------------


def chain(
    folder: Path,
    log: Sequence[dict[str, Any]],
    given: Sequence[Path] = (),
    seen: frozenset[Path] = frozenset(),
    follow_recorded: bool = True,
) -> tuple[int, list[str]]:
    """The `from` line of a season against the closed seasons it names (docs/league.md,
    "A series"): each one looked for among `given` (folders or archives, by league name),
    else at the folder the line records (relative to this one); for each found, its own
    verify must pass and give the digest the line names. Returns how many were checked and
    every difference; a season found nowhere is not checked (and not a difference)."""
    origin = next((entry for entry in log[:1] if entry.get("event") == FROM_EVENT), None)
    if origin is None:
        return 0, []
    named: dict[str, list[Path]] = {}
    for path in given:
        try:
            named.setdefault(_config_of(path).name, []).append(path)
        except (LeagueConfigError, OSError, UsageError):
            continue
    results: dict[Path, Verified] = {}
    checked, out = 0, []
    seasons = origin.get("seasons", [])
    for season in seasons if isinstance(seasons, list) else []:
        if not isinstance(season, dict):
            continue
        league, wanted, recorded = str(season.get("league")), season.get("standings"), season.get("folder")
        paths = list(named.get(league, []))
        if (
            follow_recorded
            and isinstance(recorded, str)
            and not Path(recorded).is_absolute()
            and (folder / recorded / CONFIG_FILE).is_file()
        ):
            paths.append(folder / recorded)
        if not paths:
            continue
        circular = [path for path in paths if path.resolve() in seen]
        if circular:
            out.append(f"from: {league} ({circular[0]}) is a season of this chain already: a cycle, not followed")
            continue
        checked += 1
        for path in paths:
            if path not in results:
                results[path] = verify(path, seen=seen)
        if any(results[path].ok and results[path].standings == wanted for path in paths):
            continue
        path = paths[0]
        result = results[path]
        if not result.ok:
            out.append(f"from: {league} ({path}) does not verify: {len(result.differences)} difference(s)")
        if result.standings != wanted:
            out.append(f"from: {league}: league.log names standings {wanted}; {path} gives {result.standings}")
    return checked, out


def named_seasons(log: Sequence[dict[str, Any]]) -> int:
    """How many closed seasons the `from` line (league.log's first) names."""
    origin = next((entry for entry in log[:1] if entry.get("event") == FROM_EVENT), None)
    seasons = origin.get("seasons") if origin is not None else None
    return len(seasons) if isinstance(seasons, list) else 0


def _config_of(path: Path) -> LeagueConfig:
    if path.is_file():
        import tempfile

        from referee.league.public_archive import unpacked

        with tempfile.TemporaryDirectory(prefix="referee-chain-") as scratch, unpacked(path, Path(scratch)) as opened:
            return load(opened)
    return load(path)
