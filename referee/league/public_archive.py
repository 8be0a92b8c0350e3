"""The public archive of a season, `league-archive.zip` (LEAGUE.md §6): what any player
needs to check the season with `referee league verify`, and nothing private.

It holds `league.toml` (the league's settings, players by name: no address, no notice
URL), `league.log` (every address replaced by its player's name) and every record with
its side tags reduced to the name; no keys, no passphrases, no outbox, no mail log. The
zip is the same bytes for the same season (fixed entry times, sorted names), so the site
rewrites it only when the season changed.

`unpacked` turns an archive back into a league folder that the league's code reads: each
player gets a stand-in address, `player-N@archive.invalid`, wherever the archive names
them by name. The digest of the standings never holds an address, so it is the same."""

from __future__ import annotations

import contextlib
import io
import json
import re
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.league.folder import LOG_FILE, read_log
from referee.league.league_toml import CONFIG_FILE, LeagueConfig, load, side_tag
from referee.league.results import game_files
from referee.store.ops import make_folders

ARCHIVE = "league-archive.zip"
MAX_ARCHIVE = 256 * 1024 * 1024
"""The most bytes `verify` reads from an archive, all entries together."""
ADDRESSED = ("seats", "byes", "player", "address", "to", "old", "new", "champions")
"""The log fields that hold players' addresses (alone or in a list)."""
_WHEN = (2000, 1, 1, 0, 0, 0)
_GAME = re.compile(r"r[0-9]+-t[0-9]+\.rgn")


def _toml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def public_toml(config: LeagueConfig) -> str:
    """`league.toml` as the archive holds it: the settings verify needs, players by name."""
    from referee.notation.timing import format_duration, format_instant

    lines = [
        f"name = {_toml_string(config.name)}",
        f"game = {_toml_string(config.game)}",
        f"players = {config.players_per_game}",
        f"pairing = {_toml_string(config.pairing.value)}",
        f"dice = {_toml_string(config.dice.value)}",
        f"digest = {_toml_string(config.digest.value)}",
        f"leave_days = {config.leave_days}",
        f"adjudication = {_toml_string(config.adjudication.value)}",
        f"auto_leave = {'true' if config.auto_leave else 'false'}",
    ]
    if config.rounds is not None:
        lines.append(f"rounds = {config.rounds}")
    if config.variant is not None:
        lines.append(f"variant = {_toml_string(config.variant)}")
    if config.time_control is not None:
        lines.append(f"time_control = {_toml_string(str(config.time_control))}")
    if config.ends is not None:
        lines.append(f"ends = {_toml_string(format_instant(config.ends))}")
    if config.reminders:
        lines.append("reminders = [" + ", ".join(_toml_string(format_duration(r)) for r in config.reminders) + "]")
    if config.tags:
        lines.append("\n[tags]")
        lines += [f"{name} = {_toml_string(value)}" for name, value in config.tags]
    for player in config.players:
        lines.append(f"\n[[player]]\nname = {_toml_string(player.name)}")
    return "\n".join(lines) + "\n"


def _swap(value: Any, table: dict[str, str]) -> Any:
    if isinstance(value, str):
        return table.get(value, value)
    if isinstance(value, list):
        return [_swap(item, table) for item in value]
    if isinstance(value, dict):
        return {key: _swap(item, table) for key, item in value.items()}
    return value


def _log_text(entries: list[dict[str, Any]], table: dict[str, str], fields: tuple[str, ...] = ADDRESSED) -> str:
    """The log's lines with the values of `fields` (and each pairing game's seats) swapped by `table`."""
    out = []
    for entry in entries:
        swapped = {key: (_swap(value, table) if key in fields else value) for key, value in entry.items()}
        if isinstance(entry.get("games"), list):  # pairing lines: each game's seats
            swapped["games"] = [
                {**item, "seats": _swap(item.get("seats", []), table)} if isinstance(item, dict) else item
                for item in entry["games"]
            ]
        out.append(json.dumps(swapped, ensure_ascii=False, sort_keys=True))
    return "".join(line + "\n" for line in out)


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _record_text(data: bytes, tags: dict[str, str]) -> bytes:
    """A record with each player's side-tag value replaced (`tags`: old value -> new)."""
    text = data.decode("utf-8", "replace")
    for old, new in tags.items():
        text = text.replace(f" {_quoted(old)}]", f" {_quoted(new)}]")
    return text.encode("utf-8")


def packed(folder: Path) -> bytes:
    """The archive's bytes for the league in `folder`."""
    config = load(folder)
    names = {player.address: player.name for player in config.players}
    for entry in read_log(folder):  # a substituted player's old address: their name too
        if entry.get("event") == "address" and isinstance(entry.get("old"), str):
            names.setdefault(entry["old"], str(entry.get("name") or entry["old"]))
    tags = {side_tag(player.name, player.address): player.name for player in config.players}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:

        def put(name: str, data: bytes) -> None:
            info = zipfile.ZipInfo(name, _WHEN)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)

        put(CONFIG_FILE, public_toml(config).encode("utf-8"))
        put(LOG_FILE, _log_text(read_log(folder), names).encode("utf-8"))
        for _, _, path in sorted(game_files(folder), key=lambda item: item[2].name):
            put(path.name, _record_text(store.read_bytes(path), tags))
    return buffer.getvalue()


@contextlib.contextmanager
def unpacked(path: Path, scratch: Path) -> Iterator[Path]:
    """The archive at `path` as a league folder under `scratch` (stand-in addresses)."""
    import tomllib

    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as error:
        raise UsageError(f"{path}: not a league archive (a zip file): {error}") from None
    folder = scratch / "league"
    make_folders(folder)
    with archive:
        wanted = {CONFIG_FILE, LOG_FILE}
        members = [info for info in archive.infolist() if info.filename in wanted or _GAME.fullmatch(info.filename)]
        if sum(info.file_size for info in members) > MAX_ARCHIVE:
            raise UsageError(f"{path}: more than {MAX_ARCHIVE} bytes unpacked: not read")
        if CONFIG_FILE not in {info.filename for info in members}:
            raise UsageError(f"{path}: no {CONFIG_FILE} in the archive")
        try:
            data = {info.filename: archive.read(info) for info in members}
            settings = tomllib.loads(data[CONFIG_FILE].decode("utf-8"))
        except (OSError, zipfile.BadZipFile, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise UsageError(f"{path}: cannot read the archive: {error}") from None
    players = settings.get("player", [])
    table: dict[str, str] = {}
    tags: dict[str, str] = {}
    toml = data[CONFIG_FILE].decode("utf-8")
    for number, player in enumerate(players if isinstance(players, list) else [], start=1):
        name = player.get("name") if isinstance(player, dict) else None
        if not isinstance(name, str):
            continue
        stand_in = f"player-{number}@archive.invalid"
        table[name] = stand_in
        tags[name] = side_tag(name, stand_in)
    lines = toml.split("\n")
    out: list[str] = []
    count = 0
    for line in lines:
        out.append(line)
        if line.startswith("name = ") and out[-2:-1] == ["[[player]]"]:
            count += 1
            out.append(f'address = "player-{count}@archive.invalid"')
    store.replace_atomically(folder / CONFIG_FILE, "\n".join(out))
    entries = []
    for raw in data.get(LOG_FILE, b"").decode("utf-8", "replace").splitlines():
        try:
            entries.append(json.loads(raw))
        except ValueError:
            continue
    back = [entry for entry in entries if isinstance(entry, dict)]
    # The close's champions are names already (they were never addresses): kept as they are.
    kept = tuple(name for name in ADDRESSED if name != "champions")
    store.replace_atomically(folder / LOG_FILE, _log_text(back, table, kept))
    for name, content in data.items():
        if _GAME.fullmatch(name):
            store.replace_atomically(folder / name, _record_text(content, tags))
    yield folder


__all__ = ["ARCHIVE", "packed", "public_toml", "unpacked"]
