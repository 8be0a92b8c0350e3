"""Who may play: the players a record names in its side tags, and their passphrases in
`DIR/players.toml` (PLAY.md §5), hashed with scrypt and compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from referee.errors import UsageError
from referee.live.addresses import addresses_in
from referee.live.mail.mail_errors import KeysFileError

SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
_HASH_BYTES = 32
_SALT_BYTES = 16
_ENTRY = re.compile(r"scrypt:([0-9a-f]{16,128}):([0-9a-f]{32,128})")
_TOML_SAFE = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]+")


class Player(NamedTuple):
    """One address a side tag names, with the sides it plays (a player may hold several)."""

    address: str
    name: str
    sides: tuple[str, ...]


class Roster(NamedTuple):
    """The players of one game, in the order of the record's side tags."""

    players: tuple[Player, ...]

    def find(self, address: str | None) -> Player | None:
        """The player with this address (compared case-insensitively), or None: a stranger."""
        if address is None:
            return None
        wanted = address.lower()
        return next((player for player in self.players if player.address == wanted), None)


def roster(side_tags: Iterable[tuple[str, str]]) -> Roster:
    """The players named by (side, tag value) pairs such as ("Red", "Ann <ann@example.org>");
    a tag may name several addresses, separated by commas (a team)."""
    sides: dict[str, list[str]] = {}
    names: dict[str, str] = {}
    for side, value in side_tags:
        for address, name in addresses_in(value):
            names.setdefault(address, name)
            if side not in sides.setdefault(address, []):
                sides[address].append(side)
    return Roster(tuple(Player(address, names[address], tuple(held)) for address, held in sides.items()))


def hash_passphrase(passphrase: str, salt: bytes | None = None) -> str:
    """The `scrypt:<salt hex>:<hash hex>` entry of a passphrase (a fresh random salt unless given)."""
    salt = secrets.token_bytes(_SALT_BYTES) if salt is None else salt
    digest = _scrypt(passphrase, salt, _HASH_BYTES)
    return f"scrypt:{salt.hex()}:{digest.hex()}"


def verify(entry: str | None, passphrase: str | None) -> bool:
    """Whether a passphrase matches a stored entry. The work done is the same whether the
    entry or the passphrase is missing, and the comparison takes constant time."""
    found = _ENTRY.fullmatch(entry or "")
    salt, expected = (bytes.fromhex(found.group(1)), bytes.fromhex(found.group(2))) if found else (b"\0" * 16, b"")
    digest = _scrypt(passphrase or "", salt, len(expected) or _HASH_BYTES)
    return hmac.compare_digest(digest, expected) and found is not None and passphrase is not None


def _scrypt(passphrase: str, salt: bytes, length: int) -> bytes:
    secret = unicodedata.normalize("NFC", passphrase).encode("utf-8")
    return hashlib.scrypt(secret, salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=length)


def load_keys(path: Path) -> dict[str, str] | None:
    """The entries of a players file by address (lower case); None when the file does not exist."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise KeysFileError(f"cannot read {path}: {getattr(error, 'strerror', None) or error}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise KeysFileError(f"{path} is not TOML: {error}") from None
    players = data.get("players", {})
    if not isinstance(players, Mapping):
        raise KeysFileError(f'{path}: "players" must be a table of [players."ADDRESS"] entries')
    keys: dict[str, str] = {}
    for address, entry in players.items():
        key = entry.get("key") if isinstance(entry, Mapping) else None
        if not isinstance(key, str) or not _ENTRY.fullmatch(key):
            raise KeysFileError(
                f'{path}: players."{address}" needs key = "scrypt:<salt hex>:<hash hex>" '
                "(write it with referee mail --add-player)"
            )
        keys[str(address).lower()] = key
    return keys


def load_langs(path: Path) -> dict[str, str]:
    """Each address's language in a players file (`lang = "es"` beside its `key`, issue 49,
    docs/languages.md), lower-case addresses; {} when the file does not exist or is unreadable
    (its keys' errors are `load_keys`'s to report). A language without a catalogue reads as
    English when spoken (referee/speech.py)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    players = data.get("players", {})
    if not isinstance(players, Mapping):
        return {}
    return {
        str(address).lower(): entry["lang"]
        for address, entry in players.items()
        if isinstance(entry, Mapping) and isinstance(entry.get("lang"), str) and _LANG_SAFE.fullmatch(entry["lang"])
    }


_LANG_SAFE = re.compile(r"[A-Za-z]{2,3}([_-][A-Za-z]{2})?")


def render_keys(keys: Mapping[str, str], langs: Mapping[str, str] | None = None) -> str:
    """The players file for these entries, sorted by address (with each address's `lang`, kept)."""
    lines = ["# Players' passphrases for referee mail: scrypt (n=2**14, r=8, p=1) of each passphrase.", ""]
    for address in sorted(keys):
        lines += [f'[players."{address}"]', f'key = "{keys[address]}"']
        lang = (langs or {}).get(address)
        if lang is not None and _LANG_SAFE.fullmatch(lang):
            lines.append(f'lang = "{lang}"')
        lines.append("")
    return "\n".join(lines)


def checked_address(text: str) -> str:
    """An address given on the command line, in lower case; a UsageError unless it is one plain address."""
    found = addresses_in(text)
    address = found[0][0] if len(found) == 1 else ""
    if not address or not _TOML_SAFE.fullmatch(address) or address != text.strip().lower():
        raise UsageError(f'"{text}" is not one e-mail address such as ann@example.org')
    return address


def checked_passphrase(text: str) -> str:
    """The passphrase read from standard input: its first line, without surrounding spaces."""
    lines = text.splitlines()
    passphrase = lines[0].strip() if lines else ""
    if not passphrase:
        raise UsageError("no passphrase on standard input: write it on the first line")
    return passphrase
