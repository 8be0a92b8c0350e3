"""`referee import abstractplay`: AbstractPlay's Pikemen records as RGN, each replayed
through these rules, with a report of where the two engines disagree.

`import_value(value, source, number)` turns one decoded JSON value into an `Imported`:
the record in canonical form (None when the value is no readable record) and its
`Report`. The mapping of fields to tags and of moves to actions is in docs/archives.md.
"""

from __future__ import annotations

import io
import re
from array import array
from enum import StrEnum
from itertools import chain
from typing import Any, NamedTuple

from referee.archive.aprecord import APGame, APMove, Note, RecordError, read_record
from referee.games.api import RESIGN
from referee.games.pikemen.actions import ACTION_PATTERN, CANONICAL_ACTIONS, canonical_action
from referee.judge.core.adjudicate import Replay, dialect_for
from referee.judge.core.replay_loop import ACTION, END, TURN, open_ended, quick_kinds
from referee.judge.core.verdict_words import describe, verdict_fields
from referee.judge.core.verdicts import Status, Verdict
from referee.notation import writer
from referee.notation.model import Record
from referee.notation.scanned import DRAW, Label

SIDES = ("Red", "Blue")
LABELS = ("R", "B")
_ACTION = re.compile(ACTION_PATTERN, re.IGNORECASE)
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f{}]")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
"""Line breaks and control characters: a tag value from elsewhere holds none (it is quoted
and escaped, so braces are harmless there)."""
CORE_TAGS = frozenset({"Game", "Red", "Blue", "Target"})
"""The tags that an `APGameRecord` field holds alone; the others travel in `rgn-tags`
(Event, Round and Result too, for their place and their words)."""


class ReportStatus(StrEnum):
    AGREES = "agrees"
    DISAGREES = "disagrees"
    ERROR = "error"


class Kind(StrEnum):
    """What a disagreement is about."""

    ILLEGAL = "illegal-move"
    """A move AbstractPlay accepted that these rules call illegal."""
    NOTATION = "not-an-action"
    """A move that is not written in Pikemen's notation at all."""
    RESULT = "result"
    """The result AbstractPlay recorded is not the replay's."""
    SCORE = "score"
    """A final score AbstractPlay recorded is not the replay's."""
    UNPROVEN = "unproven-end"
    """An end (a time-out, an abandoned game) that an untimed record cannot show."""


class Disagreement(NamedTuple):
    kind: Kind
    message: str


class Report(NamedTuple):
    source: str
    record: int
    gameid: str | None
    status: ReportStatus
    message: str
    verdict: Verdict | None = None
    disagreements: tuple[Disagreement, ...] = ()

    def line(self) -> str:
        """The report's one line, as `check` words a verdict's."""
        game = f"APGameId {self.gameid}: " if self.gameid is not None else ""
        return f"{self.source}:{self.record}: {game}{self.status}: {self.message}"

    def fields(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "record": self.record,
            "gameid": self.gameid,
            "status": str(self.status),
            "disagreements": [{"kind": str(kind), "message": message} for kind, message in self.disagreements],
            "verdict": None if self.verdict is None else _verdict_fields(self.verdict),
            "message": self.message,
        }


class Imported(NamedTuple):
    rgn: str | None
    report: Report


def import_value(value: object, source: str, number: int) -> Imported:
    """One JSON value as an RGN record and the report of its replay."""
    quick = _quick(value, source, number)
    if quick is not None:  # (nearly every record)
        return _reported(*quick, [], source, number)
    try:
        game = read_record(value)
    except RecordError as error:
        return Imported(None, Report(source, number, None, ReportStatus.ERROR, f"record {number}: {error}"))
    text, notes = rgn_text(game)
    rgn, replay = _replayed(text, source, number)
    return _reported(game, rgn, replay, notes, source, number)


def _reported(
    game: APGame, rgn: str, replay: Replay | _Quick | None, notes: list[Disagreement], source: str, number: int
) -> Imported:
    """The record and the report of its replay, set against what AbstractPlay recorded."""
    unproven = any(kind is Kind.UNPROVEN for kind, _ in notes)  # (the result cannot be compared then)
    found = list(notes) + ([] if unproven else _compared(game, replay))
    verdict = replay.verdict if replay is not None else None
    said = describe(verdict) if verdict is not None else "not replayed"
    status = ReportStatus.DISAGREES if found else ReportStatus.AGREES
    if any(kind is Kind.ILLEGAL for kind, _ in found):  # (the verdict says it already)
        said += " (AbstractPlay accepted it)"
    message = "; ".join([said] + [message for kind, message in found if kind is not Kind.ILLEGAL])
    return Imported(rgn, Report(source, number, game.gameid, status, message, verdict, tuple(found)))


def rgn_text(game: APGame) -> tuple[str, list[Disagreement]]:
    """The record as RGN text (not yet canonical), and what could not be written as moves."""
    body, notes = _movetext(game)
    return _tag_text(game) + "\n\n" + "\n".join(body) + "\n", notes


def _tag_text(game: APGame) -> str:
    """The record's tag section, without its last newline."""
    return "\n".join(f'[{name} "{writer.escape(_CONTROL.sub(" ", value))}"]' for name, value in _tags(game))


def _read_tags(game: APGame) -> dict[str, str] | None:
    """The tags as the quick reader reads them from `_tag_text` (`notation.reader.tag_section`),
    without the text: each value with no control character (its escapes undone again), the
    names [A-Za-z0-9_] (read_record's `TAG_NAME`); None for a tag repeated."""
    tags = _tags(game)
    read = {name: _CONTROL.sub(" ", value) for name, value in tags}
    return read if len(read) == len(tags) else None


def _tags(game: APGame) -> list[tuple[str, str]]:
    tags: list[tuple[str, str]] = [("Game", "pikemen")]
    tags += [(side, player.name) for side, player in zip(SIDES, game.players, strict=True) if player.name]
    if game.target != 12:
        tags.append(("Target", str(game.target)))
    result = recorded_result(game)
    if game.rgn_tags is not None:  # a record the referee exported: its own tags come back
        return tags + _own_tags(game, game.rgn_tags, result)
    tags.append(("Players", "2"))
    tags += [(name, value) for name, value in (("Event", game.event), ("Round", game.round)) if value is not None]
    tags.append(("Site", game.site))
    if game.gameid is not None:
        tags.append(("APGameId", game.gameid))
    day = _DATE.match(game.date_start)
    if day:
        tags.append(("Date", ".".join(day.groups())))
    tags += [("APStart", game.date_start), ("APEnd", game.date_end)]
    for side, player in zip(SIDES, game.players, strict=True):
        if player.userid is not None:
            tags.append((f"AP{side}Id", player.userid))
        if player.is_ai:
            tags.append((f"AP{side}AI", "true"))
    if game.unrated:
        tags.append(("APUnrated", "true"))
    return tags + [("Result", result)]


def _own_tags(game: APGame, own: tuple[tuple[str, str], ...], result: str) -> list[tuple[str, str]]:
    """An exported record's tags in their order, Event and Round as AbstractPlay's header
    has them now, and its Result as written when it says what AbstractPlay recorded (the
    recorded result in its words when it does not; none when the record claimed none)."""
    header = {"Event": game.event, "Round": game.round}
    tags: list[tuple[str, str]] = []
    claimed = any(name == "Result" for name, _ in own)
    for name, value in own:
        if name in header:
            given = header.pop(name)
            if given is not None:
                tags.append((name, given))
        elif name == "Result":
            if _winners(value) == _winners(result):
                result = value
        elif name not in CORE_TAGS:
            tags.append((name, value))
    tags += [(name, value) for name, value in header.items() if value is not None]
    return tags + ([("Result", result)] if claimed else [])


def _winners(result: str) -> frozenset[str] | None:
    """The sides a Result value names (long names), `draw` and `*` as themselves."""
    words = result.strip().lower()
    if words in ("draw", "*"):
        return frozenset({words})
    named = set()
    for word in words.split("+"):
        side = next((side for side in SIDES if word.strip() in (side.lower(), side[0].lower())), None)
        if side is None:
            return None
        named.add(side)
    return frozenset(named)


def recorded_result(game: APGame) -> str:
    """AbstractPlay's result as a `Result` value: the players with the highest result
    number win; all equal is a draw; a null result (the game not over) is `*`."""
    results = [player.result for player in game.players]
    abandoned = bool(game.moves) and game.moves[-1].text.strip().lower() == "abandoned"
    if abandoned or any(result is None for result in results):
        return "*"
    numbers = [result for result in results if result is not None]
    if len(set(numbers)) == 1:
        return "draw"
    best = max(numbers)
    return "+".join(side for side, result in zip(SIDES, numbers, strict=True) if result == best)


def _movetext(game: APGame) -> tuple[list[str], list[Disagreement]]:
    lines, notes = _move_lines(game.moves)
    return _noted(lines, game.notes), notes


def _move_lines(moves: tuple[APMove, ...]) -> tuple[list[str], list[Disagreement]]:
    """One line per move entry (the last may be a comment holding what cannot be read)."""
    body: list[str] = []
    rounds = 0
    for index, move in enumerate(moves):
        text = move.text
        action = _ACTION.fullmatch(text)
        if action is None:
            text = "".join(text.split())  # (as AbstractPlay reads a move: white space left out)
            action = _ACTION.fullmatch(text)
        label = LABELS[move.seat]
        if move.seat == 0:  # the round's number on its first side's turn, as the canonical form has it
            rounds += 1
            label = f"{rounds}. {label}"
        if action is not None:  # (a piece's action, or resign)
            body.append(f"{label}: {text}")
            continue
        side, word = SIDES[move.seat], text.lower()
        if word == "draw":
            body.append("draw")
        elif word == "timeout":
            body.append(f"{{ AbstractPlay: {side} lost on time }}")
            why = f"AbstractPlay ended the game by {side}'s time-out, which a record without a clock cannot show"
            return body, [Disagreement(Kind.UNPROVEN, why)]
        elif word == "abandoned":
            body.append("{ AbstractPlay: the game was abandoned }")
            return body, [Disagreement(Kind.UNPROVEN, "AbstractPlay recorded the game as abandoned")]
        else:
            rest = " ".join(_clean(later.text) for later in moves[index:])
            body.append(f"{{ AbstractPlay moves from {move.path}, not read: {rest} }}")
            why = f'{move.path} "{_clean(move.text)[:40]}" is no Pikemen action; it and the moves after it are kept'
            why += " in a comment"
            return body, [Disagreement(Kind.NOTATION, why)]
    return body, []


def _noted(lines: list[str], notes: tuple[Note, ...]) -> list[str]:
    """The lines with an exported record's glyphs and comments put back where they stood."""
    if not notes:
        return lines
    before: dict[int, list[str]] = {}
    for note in notes:
        at = min(note.after, len(lines))
        if note.glyph is not None and at > 0 and not lines[at - 1].endswith("}"):
            lines[at - 1] += note.glyph
            continue
        text = _clean(note.comment or "")
        comment = f"{{{text}}}" if note.braced else f";{text}"
        if note.in_turn and at > 0:
            lines[at - 1] += " " + comment + ("\n" if not note.braced else "")
        else:
            before.setdefault(at, []).append(comment + ("" if note.braced else "\n"))
    body: list[str] = []
    for index, line in enumerate(lines):
        body += before.get(index, [])
        body.append(line)
    return body + before.get(len(lines), [])


class _Quick(NamedTuple):
    """A legal record's replay the fused way: its verdict and the state it left."""

    verdict: Verdict
    state: Any


def _quick(value: object, source: str, number: int) -> tuple[APGame, str, _Quick] | None:
    """A legal record whose every move entry is an action written as its canonical text
    (as AbstractPlay writes them), played straight from the decoded JSON as `_fused` plays
    its RGN text: the tags read from their RGN text as the quick reader reads them, the
    move entries turned at once into the quick reader's items and the canonical move text
    (`_quick_moves`), no record of moves built and no move text read again. None for any
    other record (a header not read, an entry of another kind, glyphs or comments to put
    back, a rule broken, anything failing): `import_value` then imports it the detailed
    way, so that its text and report are what that way gives."""
    from referee.games import registry
    from referee.judge.core.adjudicate import legal_verdict, unreadable_result
    from referee.notation.scanned import Body, Scanned

    try:
        game = read_record(value, moves=False)
        if game.notes:
            return None
        played = _quick_moves(value.get("moves"))  # type: ignore[attr-defined]  # (read_record: an object)
        if played is None:
            return None
        tags = _read_tags(game)
        if tags is None:
            return None
        name = tags["Game"]
        items, body, kinds = played
        engine = registry.engine(name)
        state = engine.new_state(tags)
        claimed = tags.get("Result")
        if unreadable_result(name, claimed, state.sides) is not None:
            return None
        renumbered = array("i")
        turns = state.play_steps(items, open_ended(kinds), renumbered)
        verdict = legal_verdict(name, claimed, state, source, number, turns)
        scanned = Scanned(name, tags, items, Body(body, True, True))
        return game, writer.write_scanned(scanned, engine.dialect(), renumbered, "", kinds), _Quick(verdict, state)
    except Exception:  # noqa: BLE001 - a broken rule, a record not as read_record reads it: the detailed way says
        return None


def _quick_moves(moves: object) -> tuple[list[object], list[str], bytes] | None:
    """The move entries, full rounds of two (the last may hold one), each an action
    written as its canonical text (or an object holding one as its `move`) but for a last
    `draw`, as the quick reader reads the lines `_move_lines` writes of them: their items
    (labels, actions, `DRAW`), their canonical text as one part (the entries themselves
    after their labels) and the items' kinds (`referee.judge.core.replay_loop.quick_kinds`);
    None for entries of any other kind. No Python loop over the entries: maps and slices do
    the work."""
    if type(moves) is not list or set(map(type, moves)) - {list}:
        return None
    sizes = list(map(len, moves))
    full = sizes.count(2)
    if full != len(moves) and (full != len(moves) - 1 or sizes[-1] != 1):
        return None
    entries: list[Any] = list(chain.from_iterable(moves))
    drawn = bool(entries) and _drawn(entries[-1])
    if drawn:
        del entries[-1]
    actions: list[object]
    try:
        actions = list(map(CANONICAL_ACTIONS.__getitem__, entries))
    except (KeyError, TypeError):  # an entry not met before or not an action, or an object (unhashable)
        learnt = _learnt(entries)
        if learnt is None:
            return None
        entries, actions = learnt
    count = len(entries)
    labels, heads = _round_heads((count + 1) // 2)
    items: list[object] = [_SECOND_LABEL] * (2 * count)
    items[0::4] = labels
    items[1::2] = actions
    parts = [_SECOND_HEAD] * (2 * count)
    parts[0::4] = heads
    parts[1::2] = entries
    kinds = _PLAIN_KINDS * count if _RESIGN not in entries else quick_kinds(items)
    if drawn:
        items.append(DRAW)
        parts.append(_DRAW_TEXT)
        kinds += END
    return items, ["".join(parts)] if parts else [], kinds


def _drawn(entry: object) -> bool:
    """Whether the entry is `draw` (a draw agreed), as AbstractPlay writes it, or an object holding it."""
    return entry == _DRAW_WORD or (type(entry) is dict and entry.get("move") == _DRAW_WORD)


def _learnt(entries: list[Any]) -> tuple[list[Any], list[object]] | None:
    """`entries`, a move written as an object (`{"move": ..., "result": ...}`, as
    AbstractPlay writes a capture) as its move, and their actions, the texts not met
    before now learnt; None when one is not an action written as its canonical text."""
    if dict in set(map(type, entries)):
        entries = [entry["move"] if type(entry) is dict else entry for entry in entries]
    try:
        return entries, list(map(CANONICAL_ACTIONS.__getitem__, entries))
    except KeyError:
        learnt: list[object] = [CANONICAL_ACTIONS.get(entry) or canonical_action(entry) for entry in entries]
        return None if None in learnt else (entries, learnt)


_DRAW_WORD = "draw"
_DRAW_TEXT = "\n" + _DRAW_WORD
"""A draw's canonical text, on a line of its own."""
_RESIGN = str(RESIGN)
"""The one canonical text of resigning."""
_PLAIN_KINDS = TURN + ACTION
"""The kinds of a label and the action after it."""
_SECOND_LABEL = Label(SIDES[1], False, None)
_SECOND_HEAD = f"\n{LABELS[1]}: "
_HEADS: tuple[list[Label], list[str]] = ([], [])
"""The first side's labels of rounds 1, 2, ... and their canonical text (a newline first),
as many as the longest record has needed, up to `KEPT_HEADS`."""
KEPT_HEADS = 1 << 12


def _round_heads(rounds: int) -> tuple[list[Label], list[str]]:
    """The first side's labels of rounds 1 to `rounds` and their canonical text."""
    labels, heads = _HEADS
    if rounds > len(labels):
        if rounds > KEPT_HEADS:
            return [Label(SIDES[0], False, number) for number in range(1, rounds + 1)], [
                f"\n{number}. {LABELS[0]}: " for number in range(1, rounds + 1)
            ]
        for number in range(len(labels) + 1, rounds + 1):
            labels.append(Label(SIDES[0], False, number))
            heads.append(f"\n{number}. {LABELS[0]}: ")
    return labels[:rounds], heads[:rounds]


def _fused(text: str, source: str, number: int) -> tuple[str, _Quick] | None:
    """A legal record replayed and written as `check` and `format` do it the fused way
    (`referee.judge.fast.fused_check`): read quickly, played on the engine, written from the same
    reading; None when the record is not legal or not read quickly (the detailed path
    then says why)."""
    from referee.games import registry
    from referee.judge.core.adjudicate import legal_verdict, unreadable_result
    from referee.notation.quick import scan

    try:
        scanned = scan(text, dialect_for, keep=True)
        if scanned is None:
            return None
        engine = registry.engine(scanned.game)
        state = engine.new_state(scanned.tags)
        claimed = scanned.tags.get("Result")
        if unreadable_result(scanned.game, claimed, state.sides) is not None:
            return None
        renumbered = array("i")
        kinds = quick_kinds(scanned.items)
        turns = state.play_steps(scanned.items, open_ended(kinds), renumbered)
        verdict = legal_verdict(scanned.game, claimed, state, source, number, turns)
        return writer.write_scanned(scanned, engine.dialect(), renumbered, "", kinds), _Quick(verdict, state)
    except Exception:  # noqa: BLE001 - a broken rule or anything else: the detailed path words it
        return None


def _replayed(text: str, source: str, number: int) -> tuple[str, Replay | _Quick | None]:
    """The record in canonical form and its replay (the text as written when it cannot be
    read): the fused way, else streamed as `format` does (`referee.judge.fast.streamed_verdict`), else the
    full path."""
    from referee.judge.fast.streamed_verdict import lean_replay
    from referee.notation.record_splitter import split

    quick = _fused(text, source, number)
    if quick is not None:
        return quick
    found = split(text.encode("utf-8"))
    if len(found) == 1:
        written = io.BytesIO()
        played = lean_replay(found[0], source, number, canonical=written.write)
        if played is not None:
            if played.verdict.status in (Status.MALFORMED, Status.ERROR):
                return text, played
            return written.getvalue().decode("utf-8"), played
    return _replayed_fully(text, source, number)


def _replayed_fully(text: str, source: str, number: int) -> tuple[str, Replay | None]:
    from referee.judge.core.turn_token import canonical_text
    from referee.judge.session import judge
    from referee.judge.sources.record_sources import Read
    from referee.notation import reader

    results = reader.read(text, dialect_for)
    if len(results) != 1:
        return text, None
    replay = judge(Read(number, results[0]), source)
    record = results[0]
    if not isinstance(record, Record) or replay.verdict.status in (Status.MALFORMED, Status.ERROR):
        return text, replay
    return canonical_text(record, replay), replay


def _compared(game: APGame, replay: Replay | _Quick | None) -> list[Disagreement]:
    """Where the replay and what AbstractPlay recorded differ."""
    if replay is None:
        return []
    verdict = replay.verdict
    if verdict.status is Status.ILLEGAL and verdict.error is not None:
        error = verdict.error
        where = f"turn {error.round} {error.side}" if error.round is not None else f"line {error.line}"
        action = f' "{error.action}"' if error.action else ""
        return [Disagreement(Kind.ILLEGAL, f"{where}{action}: {error.message} (AbstractPlay accepted it)")]
    if verdict.status is not Status.FINISHED and verdict.status is not Status.ONGOING:
        return []
    found = []
    claimed = recorded_result(game)
    if verdict.result_matches is False:
        outcome = verdict.outcome
        given = str(outcome) if outcome is not None else "no result (the game goes on)"
        found.append(Disagreement(Kind.RESULT, f'AbstractPlay recorded "{claimed}"; the replay gives {given}'))
    scores = getattr(replay.state, "scores", None)
    if isinstance(scores, list):
        for side, player, score in zip(SIDES, game.players, scores, strict=False):
            if player.score is not None and player.score != score:
                found.append(
                    Disagreement(
                        Kind.SCORE, f"AbstractPlay recorded {side} {player.score:g} points, the replay {score}"
                    )
                )
    return found


def _clean(text: str) -> str:
    """A text from elsewhere as a tag value or comment may hold it: no line breaks,
    control characters or braces (so no text can end a comment or start a record)."""
    return _UNSAFE.sub(" ", text)


def _verdict_fields(verdict: Verdict) -> dict[str, Any]:
    fields = verdict_fields(verdict)
    return {key: fields[key] for key in ("status", "winners", "draw", "reason", "turns", "to_move", "error")}
