"""`referee new`: a fresh record's tags. It never writes a record that `check` would not
accept: whatever would make it malformed, or its claim wrong, is refused as a usage error
in one line, and what it is about to write is read back and adjudicated first."""

from __future__ import annotations

import re

from referee.errors import UsageError
from referee.games import registry
from referee.games.api import GameInfo, Randomness, SetupError
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.notation import writer
from referee.notation.lexicon import TAG_NAME
from referee.notation.model import Span, Tag

"""The games whose rules let the players choose who moves first (NOTATION.md §2, `First`)."""

GAME_ID = "GameId"
"""The tag that names a game (PLAY.md §2): its turn tokens are then its own."""
MAX_GAME_ID = 200
"""The longest `--id` taken."""

LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")


def _shown(text: str) -> str:
    """Text quoted for a one-line message: characters that are not printable escaped."""
    return '"' + "".join(char if char.isprintable() else f"\\u{ord(char):04x}" for char in text) + '"'


def _one_line(what: str, value: str) -> None:
    if any(char in LINE_BREAKS for char in value):
        raise UsageError(f"{what}: a tag value must stay on one line, not {_shown(value)}")


def _extra_tags(entries: list[str]) -> dict[str, str]:
    """`--tag NAME=VALUE` entries as tags, each name once, each a tag RGN can hold."""
    tags: dict[str, str] = {}
    for entry in entries:
        name, equals, value = entry.partition("=")
        if not equals:
            raise UsageError(f"--tag takes NAME=VALUE, not {_shown(entry)}")
        if re.fullmatch(TAG_NAME, name) is None:
            raise UsageError(f"--tag: a tag name is letters, digits and _ only, not {_shown(name)}")
        if name == "Game":
            raise UsageError("--tag cannot set the Game tag: the game is the command's GAME argument")
        _one_line(f"--tag {name}", value)
        if name in tags:
            raise UsageError(f"--tag {name} is given twice")
        tags[name] = value
    return tags


def _players(info: GameInfo, players: int | None, extra: dict[str, str]) -> int | None:
    """The player count from --players and a `Players` tag, which must agree."""
    if players is not None and players not in info.player_counts:
        raise UsageError(f"{info.name} is played by {info.players_text()} players, not {players}")
    if "Players" not in extra:
        return players
    written = extra.pop("Players").strip()
    if not (written.isascii() and written.isdigit()) or int(written) not in info.player_counts:
        raise UsageError(f"{info.name} is played by {info.players_text()} players, not {_shown(written)}")
    if players is not None and int(written) != players:
        raise UsageError(f"--tag Players={written} contradicts --players {players}")
    return int(written) if len(info.player_counts) > 1 else players


def _seed(info: GameInfo, seed: str | None, extra: dict[str, str]) -> str | None:
    """The seed from --seed and a `Seed` tag, which must agree; a fresh one for a game
    that draws randomness when no Seed, SeedHash or Tiles (Numica: Position) is given."""
    if "Seed" in extra:
        if not extra["Seed"].strip():
            raise UsageError("--tag Seed needs a value (leave it out to draw a fresh random seed)")
        if seed is not None and extra["Seed"] != seed:
            raise UsageError(f"--tag Seed={_shown(extra['Seed'])} contradicts --seed {_shown(seed)}")
        seed = extra.pop("Seed")
    if seed is not None and not seed.strip():
        raise UsageError("--seed needs a value (leave it out to draw a fresh random seed)")
    if seed is not None:
        _one_line("--seed", seed)
    given = {"SeedHash", "Tiles"} | ({"Position"} if info.randomness == Randomness.TILES else set())
    if seed is None and info.randomness is not None and not given & set(extra):
        import secrets

        seed = secrets.token_hex(8)
    return seed


def _game_id(game_id: str | None, extra: dict[str, str]) -> str:
    """The game's `GameId` from --id and a `GameId` tag, which must agree; else a fresh
    one, 16 hex digits from `secrets` (PLAY.md §2: a token names its game)."""
    if GAME_ID in extra:
        if game_id is not None and extra[GAME_ID] != game_id:
            raise UsageError(f"--tag {GAME_ID}={_shown(extra[GAME_ID])} contradicts --id {_shown(game_id)}")
        game_id = extra.pop(GAME_ID)
    if game_id is None:
        import secrets

        return secrets.token_hex(8)
    if not game_id.strip() or len(game_id) > MAX_GAME_ID:
        raise UsageError(f"--id takes 1 to {MAX_GAME_ID} characters, not {_shown(game_id[: MAX_GAME_ID + 1])}")
    if not game_id.isprintable():
        raise UsageError(f"--id: a game's id is printable text on one line, not {_shown(game_id)}")
    return game_id


def _first(info: GameInfo, first: str | None, players: int | None, extra: dict[str, str]) -> str | None:
    """The side that moves first from --first and a `First` tag, which must agree; only
    in games whose rules let the players choose, and a side of the game as set up."""
    if "First" in extra:
        if first is not None and info.side(extra["First"]) != info.side(first):
            raise UsageError(f"--tag First={_shown(extra['First'])} contradicts --first {_shown(first)}")
        first = extra.pop("First")
    if first is None:
        return None
    if not info.first_choice:
        raise UsageError(f"in {info.name} the rules say who moves first: there is no first side to choose")
    side = info.side(first)
    sides = info.sides_for(players or info.player_counts[0])
    if side is None or side not in sides:
        raise UsageError(f"{_shown(first)} is not a side of this {info.name} game: choose one of {', '.join(sides)}")
    return side


def new_record(
    game: str, players: int | None, seed: str | None, first: str | None, tags: list[str], game_id: str | None = None
) -> str:
    """A fresh record's tags; a fresh random seed for games that draw randomness; its
    `GameId` (PLAY.md §2: `game_id`, else 16 hex digits from `secrets`). Raises
    UsageError for anything that would make a record `check` does not accept."""
    info = registry.info(game)
    if info is None:
        raise UsageError(f"unknown game {_shown(game)}: choose one of {', '.join(registry.GAMES)}")
    extra = _extra_tags(tags)
    players = _players(info, players, extra)
    seed = _seed(info, seed, extra)
    side = _first(info, first, players, extra)
    named = _game_id(game_id, extra)
    engine = registry.engine(info.name)
    values = {"Game": info.name, GAME_ID: named, **engine.new_tags(players, seed, side), **extra}
    try:
        engine.new_state(values)
    except SetupError as error:
        culprit = f"the {error.tag} tag" if error.tag else "the tags"
        raise UsageError(f"{culprit} would make the record malformed: {error.message}") from None
    tags_written = [Tag(name, value, Span(1, 1)) for name, value in values.items()]
    text = writer.write_tags(writer.ordered_tags(tags_written, engine.dialect()))
    _self_check(text)
    return text


def _self_check(text: str) -> None:
    """What `new` writes must read back as one legal record whose claim, if any, matches."""
    results = read_source(text.encode("utf-8"))
    if len(results) != 1:
        raise UsageError("the tags would not make exactly one record")
    verdict = adjudicate(results[0]).verdict
    if verdict.error is not None:
        raise UsageError(f"the tags would make the record {verdict.status}: {verdict.error.message}")
    if verdict.result_matches is False:
        raise UsageError(f'the Result tag claims "{verdict.claimed}", which does not match a game not yet played')
