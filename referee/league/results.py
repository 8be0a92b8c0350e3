"""A league's games read from their files alone (LEAGUE.md §1, §4): each `rR-tT.rgn` is
checked by the referee's own adjudication, and what the league needs is kept: the round
and table, the players by seat, the status, the placings of a finished game as teams of
players, and the instant of its last stamp.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.errors import UsageError
from referee.games import registry, seats
from referee.games.api import Event, GameInfo
from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.judge.core.verdicts import Status
from referee.judge.sources import record_sources
from referee.live.addresses import addresses_in
from referee.notation.comment_commands import CommandSyntaxError, read_commands
from referee.notation.model import Comment, Record, Turn
from referee.notation.timing import TimingError, parse_instant
from referee.speech import DEFAULT, ENGLISH, Speaker

GAME_FILE = re.compile(r"r([1-9][0-9]{0,3})-t([1-9][0-9]{0,3})\.rgn")


def game_id(round_number: int, table: int) -> str:
    return f"r{round_number}-t{table}"


@dataclass(frozen=True)
class Seat:
    """One seat of a game: the sides it holds and its player (address, name)."""

    sides: tuple[str, ...]
    address: str
    name: str

    def __repr__(self) -> str:
        return f"Seat({'+'.join(self.sides)}: {self.name} <{self.address}>)"


@dataclass(frozen=True)
class GameResult:
    """One game file as the league reads it.

    `status` is the verdict's (finished, ongoing, illegal, malformed, error); `teams` are
    the rated teams (player addresses) and `places` their places (1 = first, equal = tied),
    both empty unless finished; `finished_at` is the instant of the last stamp (None when
    the record has none); `deadline` the instant the side to move runs out of time (TIME.md
    §3, None when the game is untimed or awaits nobody); `timeouts` the addresses whose side
    lost on time (a `timeout` in the record, also one after which the game went on);
    `message` the verdict text after its status."""

    game: str
    round: int
    table: int
    status: Status
    seats: tuple[Seat, ...]
    message: str
    to_move: str | None = None
    winners: tuple[str, ...] = ()
    reason: str | None = None
    teams: tuple[tuple[str, ...], ...] = ()
    places: tuple[int, ...] = ()
    finished_at: int | None = None
    timeouts: tuple[str, ...] = ()
    deadline: int | None = None
    left: tuple[str, ...] = ()
    """The sides that left the game before its end, in the order they left (Pikemen with
    3-4 players: a resignation, a last piece lost, a time-out)."""

    def __repr__(self) -> str:
        return f"GameResult({self.game}: {self.status}, {'; '.join(map(repr, self.seats))})"

    @property
    def finished(self) -> bool:
        return self.status == Status.FINISHED

    @property
    def legal(self) -> bool:
        return self.status in (Status.FINISHED, Status.ONGOING)

    @property
    def addresses(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(seat.address for seat in self.seats))

    def player_of(self, side: str | None) -> Seat | None:
        return next((seat for seat in self.seats if side in seat.sides), None)


def game_files(folder: Path) -> list[tuple[int, int, Path]]:
    """The folder's game files `rR-tT.rgn` as (round, table, path), by round then table."""
    found: list[tuple[int, int, Path]] = []
    for path in folder.iterdir():
        match = GAME_FILE.fullmatch(path.name)
        if match is not None and path.is_file():
            found.append((int(match.group(1)), int(match.group(2)), path))
    return sorted(found)


def read_games(folder: Path) -> Iterator[GameResult]:
    """The league's games as read from their files; a finished game played under an
    address that `league address` or `league substitute` replaced is read as the new
    address's (league.log's `address` entries), so the seat keeps its results."""
    renamed = aliases(_log(folder))
    for round_number, table, path in game_files(folder):
        game = read_game(path, round_number, table)
        yield renamed_game(game, renamed) if renamed else game


LOG_NAME = "league.log"


def _log(folder: Path) -> list[dict[str, Any]]:
    try:
        text = (folder / LOG_NAME).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return log_entries(text)


def log_entries(text: str) -> list[dict[str, Any]]:
    """The entries of a league's log (`league.log`: a JSON object a line), a line that is
    not one passed over."""
    entries = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
    return entries


def aliases(log: Sequence[dict[str, Any]]) -> dict[str, str]:
    """Old address -> the address that now holds its seat, from `address` entries in order
    (a chain a -> b -> c reads a as c)."""
    found: dict[str, str] = {}
    for entry in log:
        old, new = entry.get("old"), entry.get("new")
        if entry.get("event") == "address" and isinstance(old, str) and isinstance(new, str):
            found = {key: (new if value == old else value) for key, value in found.items()}
            found[old] = new
    return found


def withdrawn_in(log: Sequence[dict[str, Any]]) -> set[str]:
    """The addresses of the players who have withdrawn (league.log's `withdraw` entries)."""
    renamed = aliases(log)
    return {
        renamed.get(entry["address"], entry["address"])
        for entry in log
        if entry.get("event") == "withdraw" and isinstance(entry.get("address"), str)
    }


def withdrawal_rounds(log: Sequence[dict[str, Any]]) -> dict[str, int]:
    """A withdrawn player's address -> the first round paired after it withdrew (from
    which it has no bye): the log's pairing entries before the withdrawal, plus one."""
    renamed = aliases(log)
    last = 0
    found: dict[str, int] = {}
    for entry in log:
        if entry.get("event") == "pairing" and isinstance(entry.get("round"), int):
            last = max(last, entry["round"])
        elif entry.get("event") == "unpair" and isinstance(entry.get("round"), int):
            last = min(last, entry["round"] - 1)
        elif entry.get("event") == "withdraw" and isinstance(entry.get("address"), str):
            found.setdefault(renamed.get(entry["address"], entry["address"]), last + 1)
    return found


def renamed_game(game: GameResult, renamed: Mapping[str, str]) -> GameResult:
    def one(address: str) -> str:
        return renamed.get(address, address)

    return dataclasses.replace(
        game,
        seats=tuple(dataclasses.replace(seat, address=one(seat.address)) for seat in game.seats),
        teams=tuple(tuple(one(address) for address in team) for team in game.teams),
        timeouts=tuple(one(address) for address in game.timeouts),
    )


def read_game(path: Path, round_number: int, table: int) -> GameResult:
    """Check one game file and read what the league needs from it."""
    name = path.name.removesuffix(".rgn")
    try:
        data = record_sources.read_bounded(path, record_sources.MAX_RECORD, "it")
    except UsageError as error:
        return GameResult(name, round_number, table, Status.ERROR, (), str(error))
    return judge_game(path, data, round_number, table)[0]


def judge_game(
    path: Path, data: bytes, round_number: int, table: int, source: str | None = None
) -> tuple[GameResult, Replay | None]:
    """What the league reads from one game file's bytes, and the replay it was read from
    (None when the file does not hold one record): the site draws its pages from both.
    `source` names the file in the verdict's words (default: `path`)."""
    name = path.name.removesuffix(".rgn")
    results = read_source(data)
    if len(results) != 1:
        message = f"holds {len(results)} records, not one"
        return GameResult(name, round_number, table, Status.MALFORMED, (), message), None
    replay = adjudicate(results[0], source or str(path), keep_steps=True)
    return _read_replay(name, round_number, table, replay), replay


def _read_replay(name: str, round_number: int, table: int, replay: Replay) -> GameResult:
    verdict = replay.verdict
    message = verdict.error.message if verdict.error is not None else ""
    record = replay.record
    if record is None or not verdict.legal:
        status = verdict.status if verdict.status != Status.FINISHED else Status.ILLEGAL
        message = message or f"its Result tag claims {verdict.claimed!r}, which does not match"
        return GameResult(name, round_number, table, status, _seats(record) if record else (), message)
    game_seats = _in_seat_order(record, _seats(record), round_number)
    ongoing = verdict.ongoing
    clock = verdict.clock
    base = GameResult(
        name,
        round_number,
        table,
        verdict.status,
        game_seats,
        str(verdict.outcome) if verdict.outcome is not None else f"{ongoing.to_move if ongoing else '?'} to move",
        to_move=ongoing.to_move if ongoing is not None else None,
        finished_at=last_stamp(record),
        timeouts=_timed_out(game_seats, replay),
        deadline=clock.deadline if clock is not None and verdict.outcome is None else None,
        left=_left(replay),
    )
    if verdict.outcome is None:
        return base
    return _finished(base, record, replay)


def _timed_out(game_seats: tuple[Seat, ...], replay: Replay) -> tuple[str, ...]:
    """The players whose side lost on time, by the record's `timeout`s (TIME.md §4)."""
    out = {side for _, side, _ in replay.timeouts}
    return tuple(dict.fromkeys(seat.address for seat in game_seats if out & set(seat.sides)))


def _left(replay: Replay) -> tuple[str, ...]:
    """The sides that left before the end, in order: by an action of theirs or another's
    (a resignation, a capture), or by a `timeout` after which the game went on (Pikemen
    with 3-4 players), which is no step of the replay but stands between two of them."""
    timeouts = list(replay.timeouts)
    sequence: list[tuple[str, tuple[Event, ...]]] = []
    for index, played in enumerate(replay.steps):
        while timeouts and timeouts[0][0] <= index:
            _, side, events = timeouts.pop(0)
            sequence.append((side, events))
        sequence.append((played.turn.side, played.events))
    sequence += [(side, events) for _, side, events in timeouts]
    return seats.leavers(sequence)


def _finished(base: GameResult, record: Record, replay: Replay) -> GameResult:
    info = registry.GAMES[record.game]
    outcome = replay.verdict.outcome
    assert outcome is not None
    sides = tuple(side for seat in base.seats for side in seat.sides)
    side_places = seats.placings(info, _in_turn_order(info, sides), outcome.winners, base.left, replay.state)
    place_of = {side: index for index, group in enumerate(side_places, start=1) for side in group}
    teams: list[tuple[str, ...]] = []
    places: list[int] = []
    for alliance in seats.alliances(info):
        held = [side for side in alliance if side in place_of]
        if not held:
            continue
        # an alliance's cities share their place (Nika); a game without alliances has one side each
        members = tuple(dict.fromkeys(seat.address for seat in base.seats if set(seat.sides) & set(held)))
        teams.append(members)
        places.append(min(place_of[side] for side in held))
    return GameResult(
        base.game,
        base.round,
        base.table,
        base.status,
        base.seats,
        base.message,
        winners=outcome.winners,
        reason=str(outcome.reason),
        teams=tuple(teams),
        places=tuple(places),
        finished_at=base.finished_at,
        timeouts=base.timeouts,
        left=base.left,
    )


def _in_turn_order(info: GameInfo, sides: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(side for side in info.sides if side in sides)


def _seats(record: Record) -> tuple[Seat, ...]:
    """The players by seat: the side tags in turn order, a player holding several sides
    (Nika with 2 or 3 players) seated once, at the first of them."""
    info = registry.GAMES[record.game]
    tags = record.tag_map
    found: list[Seat] = []
    for side in info.sides:
        value = tags.get(side)
        if value is None:
            continue
        named = addresses_in(value)
        if not named:
            continue
        address, name = named[0]
        held = next((index for index, seat in enumerate(found) if seat.address == address), None)
        if held is None:
            found.append(Seat((side,), address, name or address))
        else:
            seat = found[held]
            found[held] = Seat((*seat.sides, side), seat.address, seat.name)
    return tuple(found)


def _in_seat_order(record: Record, found: tuple[Seat, ...], round_number: int) -> tuple[Seat, ...]:
    """The seats in the league's seat order (Nika with 3 players: the holder of two cities
    is seat 1, whichever alliance it holds), when the sides are held as a league seats them."""
    info = registry.GAMES[record.game]
    if len(found) not in info.player_counts:
        return found
    order = seats.seat_sides(info, len(found), round_number)
    held = {seat.sides: seat for seat in found}
    if set(held) != set(order):
        return found  # a record seated otherwise (by hand): its turn order stands
    return tuple(held[sides] for sides in order)


def last_stamp(record: Record) -> int | None:
    """The instant of the record's last `{[%at TIME SIDE]}` stamp, or None."""
    last: int | None = None
    for comment in _comments(record):
        try:
            commands = read_commands(comment.text)
        except CommandSyntaxError:
            continue
        for command in commands:
            if command.name == "at" and command.args:
                try:
                    last = parse_instant(command.args[0])
                except TimingError:
                    continue
    return last


def _comments(record: Record) -> Iterator[Comment]:
    for item in record.items:
        if isinstance(item, Comment) and item.braced:
            yield item
        elif isinstance(item, Turn):
            yield from (part for part in item.items if isinstance(part, Comment) and part.braced)


def named(result: GameResult, text: str | None = None, say: Speaker = ENGLISH) -> str:
    """`text` (the game's message by default) with every side named by its player, as the
    league's mails say it: "Ann (Blue) wins (resignation)"; a player holding several sides
    is named once for them ("Ann (Athens, Messene) win"). In the speaker's language
    (docs/languages.md): the words and the side names said again ("Ann (Atenas, Mesene)
    ganan"), the outcome's reason a code as `--json` writes it."""
    text = result.message if text is None else text
    english = say.lang == DEFAULT
    if not english:
        from referee.spoken_lines import next_line, verdict_words

        text = next_line(text, say) if text.startswith(("next: ", "game over: ")) else verdict_words(text, say)
    sides = {say.word(side): seat for seat in result.seats for side in seat.sides}
    if not sides:
        return text
    pattern = re.compile(r"(?<!\w)(" + "|".join(sorted(map(re.escape, sides), key=len, reverse=True)) + r")(?!\w)")
    text = pattern.sub(lambda found: f"{sides[found.group(1)].name} ({found.group(1)})", text)
    joints = (" and ", ", ", "+") if english else (say(" and "), ", ", "+")
    for seat in result.seats:
        for joint in joints if len(seat.sides) > 1 else ():
            for a, b in itertools.permutations(map(say.word, seat.sides), 2):
                text = text.replace(f"{seat.name} ({a}){joint}{seat.name} ({b})", f"{seat.name} ({a}, {b})")
    return text


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def placing(result: GameResult, address: str) -> str | None:
    """A player's place in a finished game of more than two teams, "3rd of 4" ("shared 2nd
    of 4" on a tie); None for two teams or a player not placed (win, draw, loss say it)."""
    if not result.finished or len(result.teams) <= 2:
        return None
    for team, place in zip(result.teams, result.places, strict=True):
        if address in team:
            shared = "shared " if result.places.count(place) > 1 else ""
            return f"{shared}{ordinal(place)} of {len(result.teams)}"
    return None
