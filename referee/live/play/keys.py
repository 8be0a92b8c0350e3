"""Secret dice (PLAY.md §3): the game master's key file, the `SeedHash` commitment, the
players' salts, `referee new --secret` and `referee reveal`.

The seed is read from the key file and handed around in memory only: no message, no
exception and no output of this package ever quotes it before the reveal.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

from referee import store
from referee.errors import UsageError
from referee.games import registry
from referee.games.api import GameInfo
from referee.games.randomness import effective_seed, record_salts, salt_tag, seed_hash
from referee.judge.sources import record_sources

SEED_BITS = 128


class KeyMismatch(ValueError):
    """The key does not open this game (its hash is not the record's SeedHash): exit 1."""


def read_key(path: Path) -> str:
    """The seed a key file holds: its one line, without the line end."""
    data = record_sources.read_bounded(
        path, record_sources.KEY_BYTES, f"the key file {path}"
    )  # (a FIFO or device: refused)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"the key file {path} is not UTF-8 text") from None
    lines = text.strip().splitlines()  # a final line end or blank line is no part of the seed
    if len(lines) != 1:
        raise UsageError(f"the key file {path} must hold one line, the seed alone")
    return lines[0].strip()


def fresh_seed() -> str:
    """128 bits from the operating system's random source, as 32 hex digits."""
    return secrets.token_hex(SEED_BITS // 8)


def create_key(path: Path, seed: str) -> None:
    """Write `seed` to a new key file, mode 0600; an existing file is never overwritten."""
    try:
        store.create(path, seed + "\n", 0o600)  # never half written; with its game, in a transaction
    except FileExistsError:
        raise UsageError(f"the key file {path} already exists: a key is never overwritten") from None
    except store.WriteFailed as error:
        raise UsageError(f"cannot create the key file {path}: {error.reason}") from None
    except OSError as error:
        raise UsageError(f"cannot create the key file {path}: {error.strerror or error}") from None


def check_key(tags: dict[str, str], seed: str) -> None:
    """The key must be the seed the record's SeedHash commits to."""
    commitment = tags.get("SeedHash")
    if commitment is None:
        raise KeyMismatch("this game has no SeedHash: its dice are not drawn from a secret key")
    if seed_hash(seed) != commitment.strip().lower():
        raise KeyMismatch("the key file does not match this game's SeedHash: it is not this game's key")


def side_of(info: GameInfo, label: str) -> str:
    side = info.side(label.strip())
    if side is None:
        sides = ", ".join(info.sides)
        raise UsageError(f'"{label}" is not a side of {info.name} (the sides are {sides})')
    return side


def parse_salts(info: GameInfo, entries: Sequence[str]) -> list[tuple[str, str]]:
    """`--salt SIDE=TEXT` options as (long side name, text) pairs."""
    found: list[tuple[str, str]] = []
    for entry in entries:
        label, equals, text = entry.partition("=")
        if not equals or not text.strip():
            raise UsageError(f'--salt takes SIDE=TEXT with a non-empty text, not "{entry}"')
        if "\n" in text or "\r" in text:
            raise UsageError("a salt is one line of text")
        found.append((label, text))
    return checked_salts(info, found)


def checked_salts(info: GameInfo, salts: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Salts with their sides resolved to long names, each side at most once."""
    resolved: list[tuple[str, str]] = []
    for label, text in salts:
        side = side_of(info, label)
        if any(side == other for other, _ in resolved):
            raise UsageError(f"{side}'s salt is given twice")
        if not text.strip() or "\n" in text or "\r" in text:
            raise UsageError(f"{side}'s salt must be one non-empty line of text")
        resolved.append((side, text))
    return resolved


def keyed_tags(info: GameInfo, tags: dict[str, str], seed: str) -> dict[str, str]:
    """The tags an engine replays a secret game with when the key is at hand: `Seed` is
    the effective seed (salts folded in), and neither the commitment nor the salts are
    left for the engine to fold in again. Used in memory only, never written."""
    keyed = {name: value for name, value in tags.items() if name != "SeedHash"}
    salts = record_salts(tags, info.sides)
    for side, _ in salts:
        del keyed[salt_tag(side)]
    keyed["Seed"] = effective_seed(seed, salts)
    return keyed


def needs_randomness(info: GameInfo) -> None:
    if info.randomness is None:
        raise UsageError(f"{info.name} draws no dice and deals no tiles: it has no secret to keep")


def game_info(name: str) -> GameInfo:
    info = registry.info(name)
    if info is None:
        raise UsageError(f'unknown game "{name}": choose one of {", ".join(registry.GAMES)}')
    return info
