"""`referee export abstractplay`: finished two-player Pikemen records as AbstractPlay's
`APGameRecord` JSON (schema `gamerecord.json` of AbstractPlay/recranks).

`exported(names, instant)` yields, for each record of each source in turn, its JSON line
(bytes), a refusal (`Refused`, one line) or a `Note` (exported, with something to say),
and the sources' problems (`Problem`). `instant` is now (the one clock, `--now`): it
dates `date-generated`, and the game's dates when no tag gives them. The tags no
`APGameRecord` field holds travel in the header's `rgn-tags`, so that importing the
export gives the same record back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from referee.archive.apimport import CORE_TAGS, SIDES
from referee.archive.aprecord import GAME_NAME, RGN_NOTES, RGN_TAGS, SIDE, VARIANT_15
from referee.judge.core.adjudicate import Replay, dialect_for
from referee.judge.core.verdict_words import describe
from referee.judge.core.verdicts import Problem, Status
from referee.notation.model import Comment, Draw, Move, Record, Timeout, Turn
from referee.notation.record_splitter import MAX_RECORD
from referee.notation.timing import format_instant

_DAY = re.compile(r"(\d{4})\.(\d{2})\.(\d{2})")


class Refused(NamedTuple):
    """A record that is not exported, and why: its one line."""

    line: str


class Note(NamedTuple):
    """A record exported with something to say about it: its one line."""

    line: str


def exported(
    names: list[str], instant: int, max_record: int = MAX_RECORD
) -> Iterator[bytes | Refused | Note | Problem]:
    from referee.judge.session import each_record, judge
    from referee.judge.sources.record_sources import Read
    from referee.notation.reader import read_raw

    for item in each_record(names, max_record):
        if isinstance(item, Problem):
            yield item
            continue
        name, number, raw = item
        read = Read(number, read_raw(raw, dialect_for))
        result = read.result
        if not isinstance(result, Record):
            yield Refused(f"{name}:{number}: cannot export: the record is malformed")
            continue
        yield from _one(result, judge(read, name), f"{name}:{number}: {result.game}", instant)


def _one(record: Record, replay: Replay, where: str, instant: int) -> Iterator[bytes | Refused | Note]:
    why = _refusal(record, replay)
    if why is not None:
        yield Refused(f"{where}: cannot export: {why}")
        return
    yield (json.dumps(ap_record(record, replay, instant), ensure_ascii=False) + "\n").encode("utf-8")
    verdict = replay.verdict
    if verdict.result_matches is False and verdict.outcome is not None:
        yield Note(
            f'{where}: exported with the replay\'s result, {verdict.outcome}, not the claimed "{verdict.claimed}"'
        )


def _refusal(record: Record, replay: Replay) -> str | None:
    """Why AbstractPlay cannot take the record, or None."""
    tags = record.tag_map
    verdict = replay.verdict
    if record.game != "pikemen":
        return "AbstractPlay's records are exported for Pikemen only"
    players = tags.get("Players", "2").strip()
    if players != "2":
        return f"a {players}-player game: AbstractPlay plays Pikemen with 2 players only"
    if verdict.status is not Status.FINISHED:
        return f"the game is {verdict.status} ({describe(verdict)}): only finished games are archived"
    if "Position" in tags:
        return "the game starts from a Position: AbstractPlay's Pikemen always starts from the setup"
    if tags.get("First", "Red").strip().lower() not in ("red", "r"):
        return "Blue moves first: AbstractPlay's first player always has Red's setup"
    target = tags.get("Target", "12").strip()
    if target not in ("12", "15"):
        return f"a Target of {target}: AbstractPlay plays to 12 or (variant 15pts) 15 points"
    return None


def ap_record(record: Record, replay: Replay, instant: int) -> dict[str, Any]:
    """The `APGameRecord` of a finished two-player Pikemen record."""
    tags = record.tag_map
    outcome = replay.verdict.outcome
    assert outcome is not None
    now = format_instant(instant)
    start, end = _dates(tags, now)
    header: dict[str, Any] = {
        "game": {"name": GAME_NAME, "variants": [VARIANT_15] if tags.get("Target", "").strip() == "15" else []},
    }
    for name in ("Event", "Round"):
        if name in tags:
            header[name.lower()] = tags[name]
    site: dict[str, Any] = {"name": tags.get("Site", "referee")}
    if "APGameId" in tags:
        site["gameid"] = tags["APGameId"]
    header["site"] = site
    header["date-start"], header["date-end"], header["date-generated"] = start, end, now
    if tags.get("APUnrated") == "true":
        header["unrated"] = True
    scores = getattr(replay.state, "scores", [0, 0])
    players = []
    for seat, side in enumerate(SIDES):
        player: dict[str, Any] = {"name": tags.get(side, ""), SIDE: side}
        if f"AP{side}Id" in tags:
            player["userid"] = tags[f"AP{side}Id"]
        if tags.get(f"AP{side}AI") == "true":
            player["is_ai"] = True
        player["score"] = scores[seat]
        player["result"] = 1 if outcome.draw or side in outcome.winners else 0
        players.append(player)
    header["players"] = players
    header[RGN_TAGS] = {tag.name: tag.value for tag in record.tags if tag.name not in CORE_TAGS}
    notes: list[dict[str, Any]] = []
    moves = _rounds(record, outcome.reason == "time", notes)
    if notes:
        header[RGN_NOTES] = notes
    return {"header": header, "moves": moves}


def _dates(tags: dict[str, str], now: str) -> tuple[str, str]:
    """The game's start and end: AbstractPlay's own (APStart, APEnd), else the Date's day,
    else now."""
    day = _DAY.fullmatch(tags.get("Date", "").strip())
    fallback = f"{day.group(1)}-{day.group(2)}-{day.group(3)}T00:00:00Z" if day else now
    return tags.get("APStart", fallback), tags.get("APEnd", fallback)


def _rounds(record: Record, timed_out: bool, notes: list[dict[str, Any]]) -> list[list[str | None]]:
    """The moves as rounds of one entry per seat (Red, Blue); a draw or a time-out is the
    entry of the side to move. The glyphs and comments go to `notes`."""
    entries: list[tuple[int, str]] = []
    to_move = 0

    def add(seat: int, text: str) -> None:
        entries.append((seat, text))

    def comment(item: Comment, in_turn: bool) -> None:
        notes.append({"after": len(entries), "comment": item.text, "braced": item.braced, "turn": in_turn})

    for item in record.items:
        if isinstance(item, Turn):
            seat = SIDES.index(item.side)
            to_move = 1 - seat
            for part in item.items:
                if isinstance(part, Move):
                    add(seat, str(part.action))
                    if part.glyph:
                        notes.append({"after": len(entries), "glyph": part.glyph})
                elif isinstance(part, Draw):
                    add(to_move, "draw")
                elif isinstance(part, Comment):
                    comment(part, True)
        elif isinstance(item, Draw):
            add(to_move, "draw")
        elif isinstance(item, Timeout) and timed_out:
            add(to_move, "timeout")
        elif isinstance(item, Comment):
            comment(item, False)
    rounds: list[list[str | None]] = []
    last = len(SIDES)
    for seat, text in entries:
        if seat <= last:
            rounds.append([None] * seat)
        rounds[-1].append(text)
        last = seat
    return rounds
