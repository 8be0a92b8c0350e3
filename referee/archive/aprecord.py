"""AbstractPlay's game record (`APGameRecord`, schema `gamerecord.json` of the
AbstractPlay/recranks repository) read into values, for Pikemen: the only game the two
sites share.

`read_record(value)` takes one decoded JSON value and gives an `APGame`, or raises
`RecordError` naming the first field that is missing or of the wrong kind (by its path,
`header.players[1].name`). Only the fields the import uses are required of it; the
schema's other fields are checked for their kind where they are read and otherwise let be
(docs/archives.md lists every field and what becomes of it).
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

GAME_NAME = "Pikemen"
VARIANT_15 = "15pts"
VARIANT_15_NAMES = frozenset({"15pts", "longer game: 15 points"})
"""The variant's uid, and its English name that gameslib's `getVariants()` writes."""
VARIANT_12_NAMES = frozenset({"default end condition", "default eog"})
"""What gameslib's `getVariants()` writes for a game of the default (12 points): the
default of the variants' group `eog`, by its English name (`variants._default.eog.name` of
gameslib's locales/en/apgames.json), or `Default eog` where no texts are loaded."""
SPECIAL_MOVES = frozenset({"resign", "draw", "timeout", "abandoned"})
RGN_TAGS = "rgn-tags"
"""A header property of records that `referee export abstractplay` writes: the RGN tags
that no `APGameRecord` field holds (the schema lets a header carry more properties)."""
RGN_NOTES = "rgn-notes"
"""A header property of exported records: the glyphs and comments of the RGN record, each
placed after the move entry it follows (`after`: how many entries come before it)."""
SIDE = "side"
"""A player property of exported records: the side (`Red`, `Blue`) the player had."""
TAG_NAME = re.compile(r"[A-Za-z0-9_]{1,64}")


class RecordError(ValueError):
    """A value that is no `APGameRecord` of Pikemen: the path of the field and what is wrong."""


class APPlayer(NamedTuple):
    name: str
    userid: str | None
    is_ai: bool
    score: float | None
    result: int | None
    """AbstractPlay's result number (higher is more winning); None where it wrote null."""


class APMove(NamedTuple):
    """One entry of a round: the seat (0 = first player), the move as written, the round
    (0 = first) and whether it was written as an object (`{"move": ...}`)."""

    seat: int
    text: str
    round: int = 0
    boxed: bool = False

    @property
    def path(self) -> str:
        """Where it stands in the record: `moves[3][1]`, `moves[3][1].move`."""
        return f"moves[{self.round}][{self.seat}]" + (".move" if self.boxed else "")


class Note(NamedTuple):
    """A glyph or a comment of an exported record, after its `after`-th move entry."""

    after: int
    glyph: str | None = None
    comment: str | None = None
    braced: bool = True
    in_turn: bool = True


class APGame(NamedTuple):
    gameid: str | None
    site: str
    event: str | None
    round: str | None
    date_start: str
    date_end: str
    unrated: bool
    target: int
    players: tuple[APPlayer, ...]
    moves: tuple[APMove, ...]
    rgn_tags: tuple[tuple[str, str], ...] | None
    """The tags of a record exported by the referee (`rgn-tags`), or None."""
    notes: tuple[Note, ...] = ()
    """Its glyphs and comments (`rgn-notes`)."""


def read_record(value: object, moves: bool = True) -> APGame:
    """The values of one `APGameRecord` of Pikemen; RecordError for anything else. With
    `moves` false its move entries are neither read nor checked (`APGame.moves` is empty),
    for a caller that reads them itself."""
    record = _object(value, "the record")
    header = _object(_required(record, "header", "the record"), "header")
    game = _object(_required(header, "game", "header"), "header.game")
    name = _string(_required(game, "name", "header.game"), "header.game.name")
    if name.strip().lower() != GAME_NAME.lower():
        raise RecordError(f'header.game.name is "{_shown(name)}": only Pikemen records can be imported')
    target = _target(game.get("variants"))
    site = _object(_required(header, "site", "header"), "header.site")
    players = _players(_required(header, "players", "header"))
    return APGame(
        gameid=_gameid(site.get("gameid")),
        site=_string(_required(site, "name", "header.site"), "header.site.name"),
        event=_optional_string(header, "event", "header"),
        round=_optional_string(header, "round", "header"),
        date_start=_string(_required(header, "date-start", "header"), "header.date-start"),
        date_end=_string(_required(header, "date-end", "header"), "header.date-end"),
        unrated=_optional_bool(header, "unrated", "header"),
        target=target,
        players=players,
        moves=_moves(_required(record, "moves", "the record"), len(players)) if moves else (),
        rgn_tags=_rgn_tags(header.get(RGN_TAGS)),
        notes=_notes(header.get(RGN_NOTES)),
    )


def _target(variants: object) -> int:
    if variants is None:
        return 12
    listed = _list(variants, "header.game.variants")
    target = 12
    for index, variant in enumerate(listed):
        text = _string(variant, f"header.game.variants[{index}]")
        if text.strip().lower() in VARIANT_15_NAMES:
            target = 15
        elif text.strip().lower() not in VARIANT_12_NAMES:
            raise RecordError(f'header.game.variants[{index}] is "{_shown(text)}": Pikemen has only "15pts"')
    return target


def _players(value: object) -> tuple[APPlayer, ...]:
    listed = _list(value, "header.players")
    if len(listed) != 2:
        raise RecordError(f"header.players holds {len(listed)} players: AbstractPlay's Pikemen has 2")
    players = []
    for index, item in enumerate(listed):
        path = f"header.players[{index}]"
        player = _object(item, path)
        userid = player.get("userid")
        score = player.get("score")
        result = player.get("result")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
            raise RecordError(f"{path}.score must be a number")
        if result is not None and (isinstance(result, bool) or not isinstance(result, int)):
            raise RecordError(f"{path}.result must be a whole number")
        players.append(
            APPlayer(
                name=_string(_required(player, "name", path), f"{path}.name"),
                userid=None if userid is None else _string(userid, f"{path}.userid"),
                is_ai=_optional_bool(player, "is_ai", path),
                score=score,
                result=result,
            )
        )
    return tuple(players)


def _moves(value: object, seats: int) -> tuple[APMove, ...]:
    moves = []
    for number, round_value in enumerate(_list(value, "moves")):
        entries = round_value if type(round_value) is list else _list(round_value, f"moves[{number}]")
        if len(entries) > seats:
            raise RecordError(f"moves[{number}] holds {len(entries)} entries for {seats} players")
        for seat, entry in enumerate(entries):
            if type(entry) is str:  # (nearly every entry)
                moves.append(APMove(seat, entry, number))
            elif entry is not None:
                path = f"moves[{number}][{seat}]"
                if isinstance(entry, dict):
                    moves.append(APMove(seat, _string(_required(entry, "move", path), f"{path}.move"), number, True))
                else:
                    moves.append(APMove(seat, _string(entry, path), number))
    return tuple(moves)


def _rgn_tags(value: object) -> tuple[tuple[str, str], ...] | None:
    if value is None:
        return None
    tags = _object(value, f"header.{RGN_TAGS}")
    for name, text in tags.items():
        if not TAG_NAME.fullmatch(name) or name == "Game":
            raise RecordError(f'header.{RGN_TAGS} names a tag "{_shown(name)}" that RGN cannot hold')
        _string(text, f"header.{RGN_TAGS}.{name}")
    return tuple(tags.items())


GLYPHS = frozenset({"!", "?", "!!", "??", "!?", "?!"})


def _notes(value: object) -> tuple[Note, ...]:
    if value is None:
        return ()
    notes = []
    for index, item in enumerate(_list(value, f"header.{RGN_NOTES}")):
        path = f"header.{RGN_NOTES}[{index}]"
        note = _object(item, path)
        after = note.get("after")
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise RecordError(f"{path}.after must be a whole number from 0")
        glyph = _optional_string(note, "glyph", path)
        if glyph is not None and glyph not in GLYPHS:
            raise RecordError(f'{path}.glyph is "{_shown(glyph)}": not a glyph of RGN')
        comment = _optional_string(note, "comment", path)
        if (glyph is None) == (comment is None):
            raise RecordError(f"{path} must hold a glyph or a comment")
        braced = note.get("braced", True)
        in_turn = note.get("turn", True)
        if not isinstance(braced, bool) or not isinstance(in_turn, bool):
            raise RecordError(f"{path}: braced and turn must be true or false")
        notes.append(Note(after, glyph, comment, braced, in_turn))
    return tuple(notes)


def _gameid(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise RecordError("header.site.gameid must be a string or a number")
    return str(value)


def _required(holder: dict[str, Any], key: str, path: str) -> object:
    if key not in holder:
        raise RecordError(f"{path} has no {key!r}")
    return holder[key]


def _object(value: object, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{path} must be a JSON object, not {_kind(value)}")
    return value


def _list(value: object, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{path} must be a JSON array, not {_kind(value)}")
    return value


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{path} must be a string, not {_kind(value)}")
    return value


def _optional_string(holder: dict[str, Any], key: str, path: str) -> str | None:
    value = holder.get(key)
    return None if value is None else _string(value, f"{path}.{key}")


def _optional_bool(holder: dict[str, Any], key: str, path: str) -> bool:
    value = holder.get(key, False)
    if not isinstance(value, bool):
        raise RecordError(f"{path}.{key} must be true or false, not {_kind(value)}")
    return value


def _kind(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}.get(
        type(value), "an object"
    )


def _shown(text: str) -> str:
    """A text from the record as a message may quote it: short, one line, printable."""
    clean = "".join(char if char.isprintable() else " " for char in text)
    return clean if len(clean) <= 40 else clean[:39] + "…"
