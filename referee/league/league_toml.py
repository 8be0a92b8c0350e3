"""`league.toml`, read strictly (LEAGUE.md §1): every key known, every value checked, and
anything wrong a `LeagueConfigError` naming the key and what is wrong (exit 2).

    config = load(Path("autumn"))           # the folder's league.toml
    config = parse(text, source="league.toml")
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from referee.games import registry
from referee.games.api import GameInfo
from referee.judge.core.verdict_words import plural
from referee.notation.lexicon import TAG_NAME
from referee.notation.timing import TimeControl, TimingError, parse_duration, parse_time_control

CONFIG_FILE = "league.toml"
_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*")
_NAME_FORBIDDEN = set('<>,;"\\@')
RESERVED_TAGS = frozenset(
    {"Game", "Variant", "Players", "First", "Seed", "SeedHash", "Tiles", "Position", "Result"}
    | {"Round", "Table", "TimeControl", "Start"}
)
"""Tags the league writes itself (or the game's setup reads): not settable under [tags]."""


class LeagueConfigError(ValueError):
    """`league.toml` cannot be read or is inconsistent: `key` is the key at fault ("" for
    the whole file), `source` the file."""

    def __init__(self, source: str, key: str, message: str) -> None:
        super().__init__(f"{source}: {key}: {message}" if key else f"{source}: {message}")
        self.source = source
        self.key = key
        self.message = message


class Pairing(StrEnum):
    """How rounds are paired (LEAGUE.md §3)."""

    ROUND_ROBIN = "round-robin"
    DOUBLE_ROUND_ROBIN = "double-round-robin"
    SWISS = "swiss"
    KNOCKOUT = "knockout"


class Seeding(StrEnum):
    """How a knockout's seeds are drawn (LEAGUE.md §7): `league.toml` order, or the ratings
    of a closed league (`league init --from CLOSED` writes the players in that order)."""

    ORDER = "order"
    RATING = "rating"


class Adjudication(StrEnum):
    """How the close decides a game still unfinished (LEAGUE.md §6)."""

    NONE = "none"
    DRAW = "draw"
    SCORE = "score"
    GM = "gm"


class Dice(StrEnum):
    """Whose are the dice: a secret seed kept in `keys/` (`new --secret`) or an open `Seed`."""

    SECRET = "secret"
    OPEN = "open"


class Digest(StrEnum):
    """How players hear of moves: one mail a day, or every move (PLAY.md §5)."""

    DAILY = "daily"
    EVERY_MOVE = "every-move"


@dataclass(frozen=True)
class LeaguePlayer:
    """One player of the league, numbered by its place in `league.toml` (1 = first)."""

    number: int
    name: str
    address: str
    notify: tuple[str, ...] = ()
    """Apprise URLs where this player also gets the league's notices (docs/league.md)."""
    lang: str | None = None
    """The language this player reads (`[[player]] lang = "es"`; None: the league's), docs/languages.md."""

    @property
    def tag(self) -> str:
        """The side-tag value naming this player: `Ann <ann@example.org>` (or, for a name
        that the address parser would otherwise misread, `"Ann: the great" <ann@example.org>`)."""
        return side_tag(self.name, self.address)

    def __repr__(self) -> str:
        return f"LeaguePlayer({self.number}, {self.tag!r})"


@dataclass(frozen=True)
class LeagueConfig:
    """A league's settings and players, as `league.toml` holds them."""

    name: str
    game: str
    players_per_game: int
    pairing: Pairing = Pairing.ROUND_ROBIN
    rounds: int | None = None
    variant: str | None = None
    tags: tuple[tuple[str, str], ...] = ()
    time_control: TimeControl | None = None
    dice: Dice = Dice.SECRET
    reminders: tuple[int, ...] = ()
    digest: Digest = Digest.EVERY_MOVE
    leave_days: int = 0
    players: tuple[LeaguePlayer, ...] = field(default=())
    notify: tuple[str, ...] = ()
    """Apprise URLs that get every notice of the league (docs/league.md, "Notices")."""
    tell_players: bool = False
    """Whether what the game master writes with `play` (no `--as`) on a league's game is
    mailed to its players (docs/league.md, "What players get")."""
    notify_games: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Per game ID (`[notify_games] "r1-t1" = [...]`), Apprise URLs for that game's notices."""
    ends: int | None = None
    """The season's closing instant (LEAGUE.md §6): `league close` before it needs `--force`."""
    adjudication: Adjudication = field(default_factory=lambda: Adjudication.NONE)
    """How `league close` decides an unfinished game (LEAGUE.md §6)."""
    auto_leave: bool = False
    """Whether `tick` spends a flagged player's leave instead of timing them out (LEAGUE.md §6)."""
    lang: str = "en"
    """The league's language (`lang = "es"`): its site, and every player's mail unless the
    player's own `lang` says otherwise (docs/languages.md)."""
    promote: int = 0
    """The top `promote` of this division go up one in `league next` (LEAGUE.md §7); `tick`
    tells a clinched promotion."""
    relegate: int = 0
    """The bottom `relegate` of this division go down one in `league next`; `tick` tells a
    clinched relegation."""
    seeding: Seeding = field(default_factory=lambda: Seeding.ORDER)
    """A knockout's seeds: the players' order in `league.toml` is the seed order either way."""
    match_games: int = 1
    """A two-player knockout's match: this many games, seats alternating."""
    match_games_max: int | None = None
    """A tied match goes on one game at a time up to this many (None: match_games + 2)."""
    advance: int = 1
    """A knockout of 3-4 player games: the top `advance` of each table go on."""

    def lang_of(self, address: str) -> str:
        """The language a player (by address) reads: their own, else the league's."""
        found = self.player(address)
        return found.lang if found is not None and found.lang is not None else self.lang

    def __repr__(self) -> str:
        control = f", time_control={self.time_control}" if self.time_control is not None else ""
        return (
            f"LeagueConfig({self.name!r}, {self.game}, {self.players_per_game} per game, {self.pairing}, "
            f"rounds={self.rounds}{control}, {len(self.players)} players)"
        )

    @property
    def info(self) -> GameInfo:
        found = registry.info(self.game)
        assert found is not None  # checked when read
        return found

    @property
    def is_groups(self) -> bool:
        """A round robin of 3-4 player games: balanced groups, `rounds` rounds."""
        return self.pairing not in (Pairing.SWISS, Pairing.KNOCKOUT) and self.players_per_game > 2

    @property
    def is_knockout(self) -> bool:
        return self.pairing is Pairing.KNOCKOUT

    @property
    def most_match_games(self) -> int:
        """How many games a two-player knockout match may last (`match_games_max`)."""
        return self.match_games_max if self.match_games_max is not None else self.match_games + 2

    def player(self, address: str) -> LeaguePlayer | None:
        wanted = address.lower()
        return next((player for player in self.players if player.address == wanted), None)


KNOWN_KEYS = (
    "name",
    "game",
    "players",
    "variant",
    "tags",
    "time_control",
    "pairing",
    "rounds",
    "dice",
    "reminders",
    "digest",
    "leave_days",
    "notify",
    "notify_games",
    "tell_players",
    "ends",
    "adjudication",
    "auto_leave",
    "lang",
    "promote",
    "relegate",
    "seeding",
    "match_games",
    "match_games_max",
    "advance",
    "player",
)
KNOCKOUT_KEYS = ("seeding", "match_games", "match_games_max", "advance")
"""The keys only a knockout uses (read and checked with any pairing)."""
PLAYER_KEYS = ("name", "address")
PLAYER_OPTIONAL_KEYS = ("notify", "lang")
MAX_NOTIFY_URL = 2000


def load(folder: Path, *, need_players: bool = True) -> LeagueConfig:
    """The league of `folder/league.toml`; `need_players`: refuse fewer players than a game needs."""
    path = folder / CONFIG_FILE
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise LeagueConfigError(str(path), "", "no such file: make it with `referee league init`") from None
    except UnicodeDecodeError:
        raise LeagueConfigError(str(path), "", "not UTF-8 text") from None
    except OSError as error:
        raise LeagueConfigError(str(path), "", f"cannot read it: {error.strerror or error}") from None
    return parse(text, str(path), need_players=need_players)


def parse(text: str, source: str = CONFIG_FILE, *, need_players: bool = True) -> LeagueConfig:
    """Read a `league.toml` text strictly; raises LeagueConfigError naming the key."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LeagueConfigError(source, "", f"not TOML: {error}") from None
    return _Reader(source, data).config(need_players)


class _Reader:
    def __init__(self, source: str, data: dict[str, Any]) -> None:
        self.source = source
        self.data = data

    def fail(self, key: str, message: str) -> LeagueConfigError:
        return LeagueConfigError(self.source, key, message)

    def text(self, key: str, value: object, *, one_line: bool = True) -> str:
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, not {_shown(value)}")
        if one_line and (not value.strip() or not value.isprintable()):
            raise self.fail(key, f"must be one non-empty line of printable text, not {value!r}")
        return value

    def whole(self, key: str, value: object, least: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_shown(value)}")
        if value < least:
            raise self.fail(key, f"must be at least {least}, not {value}")
        return value

    def choice(self, key: str, value: object, kind: type[StrEnum]) -> Any:
        text = self.text(key, value)
        try:
            return kind(text)
        except ValueError:
            allowed = ", ".join(f'"{member.value}"' for member in kind)
            raise self.fail(key, f"must be one of {allowed}, not {text!r}") from None

    def config(self, need_players: bool) -> LeagueConfig:
        data = self.data
        for key in data:
            if key not in KNOWN_KEYS:
                raise self.fail(key, f"unknown key (the keys are {', '.join(KNOWN_KEYS)})")
        for key in ("name", "game", "players"):
            if key not in data:
                raise self.fail(key, "is required")
        name = self.text("name", data["name"])
        info = registry.info(self.text("game", data["game"]))
        if info is None:
            raise self.fail("game", f"unknown game {data['game']!r}: choose one of {', '.join(registry.GAMES)}")
        per_game = self.whole("players", data["players"], 1)
        if per_game not in info.player_counts:
            raise self.fail("players", f"{info.name} is played by {info.players_text()} players, not {per_game}")
        variant = None
        if "variant" in data:
            variant = self.text("variant", data["variant"])
            if variant not in info.variants:
                raise self.fail("variant", f"{info.name} has the variants {', '.join(info.variants)}, not {variant!r}")
        control = None
        if "time_control" in data:
            try:
                control = parse_time_control(self.text("time_control", data["time_control"]).strip())
            except TimingError as error:
                raise self.fail("time_control", str(error)) from None
        pairing = self.choice("pairing", data.get("pairing", "round-robin"), Pairing)
        rounds = self.whole("rounds", data["rounds"], 1) if "rounds" in data else None
        if per_game > 2 and pairing is Pairing.DOUBLE_ROUND_ROBIN:
            raise self.fail("pairing", f'"double-round-robin" is for two-player games, not {per_game} per game')
        if pairing is Pairing.KNOCKOUT and rounds is not None:
            raise self.fail("rounds", "a knockout's rounds follow from its bracket: remove rounds")
        if rounds is None and pairing is not Pairing.KNOCKOUT and (pairing is Pairing.SWISS or per_game > 2):
            raise self.fail("rounds", f"is required with {per_game} players per game and {pairing.value} pairing")
        dice = self.choice("dice", data.get("dice", "secret"), Dice)
        digest = self.choice("digest", data.get("digest", "every-move"), Digest)
        leave_days = self.whole("leave_days", data.get("leave_days", 0), 0)
        players = self.players(data.get("player", []))
        if need_players and len(players) < per_game:
            raise self.fail(
                "player", f"{plural(len(players), 'player')}, fewer than the {per_game} a game of {info.name} needs"
            )
        config = LeagueConfig(
            name=name,
            game=info.name,
            players_per_game=per_game,
            pairing=pairing,
            rounds=rounds,
            variant=variant,
            tags=self.tags(data.get("tags", {}), info),
            time_control=control,
            dice=dice,
            reminders=self.reminders(data.get("reminders", [])),
            digest=digest,
            leave_days=leave_days,
            players=players,
            notify=self.urls("notify", data.get("notify", [])),
            tell_players=self.flag("tell_players", data.get("tell_players", False)),
            notify_games=self.notify_games(data.get("notify_games", {})),
            ends=self.instant("ends", data["ends"]) if "ends" in data else None,
            adjudication=self.adjudication(data.get("adjudication", "none"), info, per_game),
            auto_leave=self.flag("auto_leave", data.get("auto_leave", False)),
            lang=self.lang("lang", data.get("lang", "en")),
            promote=self.whole("promote", data.get("promote", 0), 0),
            relegate=self.whole("relegate", data.get("relegate", 0), 0),
            **self.knockout(data, per_game),
        )
        if need_players and per_game == 2 and pairing is not Pairing.SWISS and rounds is not None:
            from referee.league.pairing import cycle_rounds

            most = cycle_rounds(len(players)) * (2 if pairing is Pairing.DOUBLE_ROUND_ROBIN else 1)
            if rounds > most:
                raise self.fail(
                    "rounds", f"a {pairing.value} of {len(players)} players has {most} rounds, not {rounds}"
                )
        return config

    def knockout(self, data: dict[str, Any], per_game: int) -> dict[str, Any]:
        """The knockout's settings (LEAGUE.md §7), read and checked whatever the pairing
        (only a knockout uses them): `match_games` and `match_games_max` for two-player
        games, `advance` for tables of 3-4."""
        games = self.whole("match_games", data.get("match_games", 1), 1)
        found: dict[str, Any] = {
            "seeding": self.choice("seeding", data.get("seeding", "order"), Seeding),
            "match_games": games,
        }
        if "match_games_max" in data:
            found["match_games_max"] = self.whole("match_games_max", data["match_games_max"], games)
        advance = self.whole("advance", data.get("advance", 1), 1)
        if per_game > 2 and advance >= per_game:
            raise self.fail("advance", f"must be fewer than the {per_game} players of a table, not {advance}")
        found["advance"] = advance
        return found

    def instant(self, key: str, value: object) -> int:
        """An instant: a TOML date-time with its offset, or a string as TIME.md writes one."""
        import datetime

        from referee.notation.timing import parse_instant

        if isinstance(value, datetime.datetime):
            if value.tzinfo is None:
                raise self.fail(key, f"must say its time zone (2027-03-01T00:00:00Z), not {value.isoformat()}")
            return int(value.timestamp())
        try:
            return parse_instant(self.text(key, value).strip())
        except TimingError as error:
            raise self.fail(key, str(error)) from None

    def adjudication(self, value: object, info: GameInfo, per_game: int) -> Adjudication:
        rule: Adjudication = self.choice("adjudication", value, Adjudication)
        if rule is Adjudication.SCORE:
            try:
                state = registry.engine(info.name).new_state({"Game": info.name, "Players": str(per_game)})
                scored = state.adjudication_scores() is not None
            except ValueError:
                scored = False
            if not scored:
                raise self.fail("adjudication", f'"score" is for games with a score, and {info.name} keeps none')
        return rule

    def lang(self, key: str, value: object) -> str:
        """A language this referee speaks (docs/languages.md), as its catalogue names it."""
        from referee import speech

        text = self.text(key, value).strip()
        code = speech.normal(text)
        if not speech.known(code) or code == speech.PSEUDO or (code == speech.DEFAULT and text.lower()[:2] != "en"):
            spoken = ", ".join(f'"{lang}"' for lang in speech.languages())
            raise self.fail(key, f"must be a language this referee speaks ({spoken}), not {text!r}")
        return speech.speaker(code).lang

    def flag(self, key: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {_shown(value)}")
        return value

    def urls(self, key: str, value: object) -> tuple[str, ...]:
        """A list of Apprise URLs (`scheme://...`), each one line of at most MAX_NOTIFY_URL characters."""
        if not isinstance(value, list):
            raise self.fail(key, 'must be a list of notification URLs: ["json://host/path"]')
        urls: list[str] = []
        for item in value:
            if not isinstance(item, str) or "://" not in item or not item.isprintable() or len(item) > MAX_NOTIFY_URL:
                raise self.fail(key, f"not a notification URL such as json://host/path: {_shown(item)}")
            urls.append(item.strip())
        return tuple(urls)

    def notify_games(self, value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
        if not isinstance(value, dict):
            raise self.fail("notify_games", 'must be a table: [notify_games] "r1-t1" = ["json://host/path"]')
        return tuple((str(game), self.urls(f"notify_games.{game}", urls)) for game, urls in value.items())

    def tags(self, value: object, info: GameInfo) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, dict):
            raise self.fail("tags", 'must be a table: [tags] Target = "15"')
        found: list[tuple[str, str]] = []
        for tag, text in value.items():
            key = f"tags.{tag}"
            if re.fullmatch(TAG_NAME, tag) is None:
                raise self.fail(key, "a tag name is letters, digits and _ only")
            if tag in RESERVED_TAGS or info.side(tag) is not None:
                raise self.fail(key, "the league writes this tag itself")
            found.append((tag, self.text(key, text)))
        return tuple(found)

    def reminders(self, value: object) -> tuple[int, ...]:
        if not isinstance(value, list):
            raise self.fail("reminders", f'must be a list of durations such as ["48h", "12h"], not {_shown(value)}')
        found: list[int] = []
        for entry in value:
            try:
                seconds = parse_duration(self.text("reminders", entry).strip())
            except TimingError as error:
                raise self.fail("reminders", str(error)) from None
            if seconds <= 0:
                raise self.fail("reminders", f"a reminder comes some time before a deadline, not {entry!r}")
            if seconds in found:
                raise self.fail("reminders", f"{entry!r} is given twice")
            found.append(seconds)
        return tuple(sorted(found, reverse=True))

    def players(self, value: object) -> tuple[LeaguePlayer, ...]:
        if not isinstance(value, list):
            raise self.fail("player", 'must be [[player]] tables with name = "..." and address = "..."')
        players: list[LeaguePlayer] = []
        for number, entry in enumerate(value, start=1):
            where = f"player[{number}]"
            if not isinstance(entry, dict):
                raise self.fail(where, 'must be a table with name = "..." and address = "..."')
            for key in entry:
                if key not in PLAYER_KEYS + PLAYER_OPTIONAL_KEYS:
                    raise self.fail(f"{where}.{key}", "unknown key (a player has name, address, notify and lang)")
            for key in PLAYER_KEYS:
                if key not in entry:
                    raise self.fail(f"{where}.{key}", "is required")
            name = checked_name(self.text(f"{where}.name", entry["name"]).strip(), self, f"{where}.name")
            address = checked_address(self.text(f"{where}.address", entry["address"]), self, f"{where}.address")
            for other in players:
                if other.address == address:
                    raise self.fail(f"{where}.address", f"{address} is already player {other.number}'s address")
                if other.name.casefold() == name.casefold():
                    raise self.fail(f"{where}.name", f"{name!r} is already player {other.number}'s name")
            notify = self.urls(f"{where}.notify", entry.get("notify", []))
            lang = self.lang(f"{where}.lang", entry["lang"]) if "lang" in entry else None
            players.append(LeaguePlayer(number, name, address, notify, lang))
        return tuple(players)


def side_tag(name: str, address: str) -> str:
    """The side-tag value of a player, `Name <address>`, as the gateway's address parser
    reads it back: the name bare where that reads back as the name, else quoted
    (`"Ann: the great" <address>`: a `:` or `[` would otherwise be read as mail syntax)."""
    bare = f"{name} <{address}>"
    return bare if _reads_back(bare, name, address) else f'"{name}" <{address}>'


def _reads_back(tag: str, name: str, address: str) -> bool:
    from referee.live.addresses import addresses_in

    return addresses_in(tag) == [(address.lower(), name)]


def _balanced(name: str) -> bool:
    depth = 0
    for character in name:
        depth += {"(": 1, ")": -1}.get(character, 0)
        if depth < 0:
            return False
    return depth == 0


def checked_name(name: str, reader: _Reader | None = None, key: str = "--name") -> str:
    """A player's name as it can stand in a side tag `Name <address>`: one line, no mail
    syntax that would break the tag (`< > , ; " \\ @`, a parenthesis that does not close),
    and read back unchanged from the tag by the gateway's address parser (else the
    player's moves would be dropped as a stranger's)."""
    bad = sorted(set(name) & _NAME_FORBIDDEN)
    message = ""
    if not name or not name.isprintable() or bad or len(name) > 60:
        message = f"a player's name is one line of at most 60 characters without {' '.join(sorted(_NAME_FORBIDDEN))}"
    elif not _balanced(name):
        message = "a player's name may hold parentheses only in pairs, ( then ): a mail comment that does not close"
    elif not _reads_back(side_tag(name, "player@example.org"), name, "player@example.org"):
        message = "a player's name must read back unchanged from its side tag Name <address>"
    if message:
        message = f"{message}, not {name!r}"
        raise reader.fail(key, message) if reader else LeagueConfigError(CONFIG_FILE, key, message)
    return name


def checked_address(text: str, reader: _Reader | None = None, key: str = "ADDRESS") -> str:
    """One plain e-mail address, in lower case."""
    address = text.strip().lower()
    if _ADDRESS.fullmatch(address) is None or len(address) > 254:
        message = f"not one e-mail address such as ann@example.org: {text!r}"
        raise reader.fail(key, message) if reader else LeagueConfigError(CONFIG_FILE, key, message)
    return address


def _shown(value: object) -> str:
    kind = {bool: "a boolean", int: "a number", float: "a number", list: "a list", dict: "a table"}.get(type(value))
    return kind or repr(value)
