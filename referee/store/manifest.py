"""A journal's `commit.json`: the steps of a committed operation, as `journal.commit`
writes them and as recovery trusts them, which is exactly that shape and nothing else
(docs/files.md, "A folder from someone else").

    {"steps": [{"kind": "write", "target": "r1-t1.rgn", "mode": 420, "staged": "0"},
               {"kind": "create", "target": "keys/r1-t1.key", "mode": 384, "staged": "1"},
               {"kind": "append", "target": "league.log", "mode": 416, "line": "...", "at": 1234},
               {"kind": "remove", "target": "r1-t2.rgn", "mode": 0}]}

A target is a path relative to the folder made of plain names (no empty one, no `.`, no
`..`, no NUL, none longer than 255 bytes, at most 16 of them); a step outside the folder
(an `--outbox` elsewhere, a game file that is a link to another folder) also has `root`,
the absolute folder its target is relative to, which recovery uses only where the command
running it trusts that folder (`journal.trust`). `at` is the length the log had before the
append; a line is whole lines (it ends with a newline). Every string is valid UTF-8 with
no surrogate; the file is ASCII JSON, at most 16 MiB."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

COMMIT = "commit.json"
MAX_BYTES = 16 << 20
"""The largest `commit.json` recovery reads: far above any operation's (a `league pair` of
1,000 games writes about 200 KB; 200,000 steps of a short line each, about 15 MB)."""
MAX_PARTS = 16
MAX_NAME = 255
MAX_OFFSET = 1 << 62


class Kind(Enum):
    """What a step does to its target."""

    WRITE = "write"  # replaced by its staged copy (renamed over it)
    CREATE = "create"  # made from its staged copy (linked: never over a file)
    APPEND = "append"  # a line appended to a log
    REMOVE = "remove"  # unlinked


@dataclass(frozen=True)
class Entry:
    """One step of a committed journal."""

    kind: Kind
    parts: tuple[str, ...]
    """The target's names, from the folder (or from `root`) down."""
    mode: int
    staged: str | None = None
    line: bytes | None = None
    at: int | None = None
    root: str | None = None

    @property
    def target(self) -> str:
        return "/".join(self.parts)


class Malformed(ValueError):
    """A `commit.json` that is not one the referee wrote: never applied."""


def encode(entries: Sequence[Entry]) -> bytes:
    steps: list[dict[str, object]] = []
    for entry in entries:
        step: dict[str, object] = {"kind": entry.kind.value, "target": entry.target, "mode": entry.mode}
        if entry.root is not None:
            step["root"] = entry.root
        if entry.kind is Kind.APPEND:
            assert entry.line is not None
            step["line"] = entry.line.decode("utf-8")
            step["at"] = entry.at
        elif entry.kind is not Kind.REMOVE:
            step["staged"] = entry.staged
        steps.append(step)
    return json.dumps({"steps": steps}, ensure_ascii=True, separators=(",", ":")).encode("ascii")


def read(journal_fd: int) -> bytes | None:
    """The bytes of the journal's `commit.json` (None when it has none: never committed),
    opened without following a link or blocking on a pipe, a regular file of at most
    MAX_BYTES (at most that and one byte read). Malformed otherwise."""
    try:
        fd = os.open(COMMIT, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=journal_fd)
    except FileNotFoundError:
        return None
    except OSError as error:
        if error.errno == 40:  # ELOOP
            raise Malformed(f"{COMMIT} is a symbolic link") from None
        raise Malformed(f"{COMMIT} cannot be opened: {error.strerror or error}") from None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise Malformed(f"{COMMIT} is not a regular file")
        if found.st_size > MAX_BYTES:
            raise Malformed(f"{COMMIT} is larger than {MAX_BYTES >> 20} MiB")
        pieces: list[bytes] = []
        left = MAX_BYTES + 1
        while left > 0:
            piece = os.read(fd, min(left, 1 << 20))
            if not piece:
                break
            pieces.append(piece)
            left -= len(piece)
        if left <= 0:
            raise Malformed(f"{COMMIT} is larger than {MAX_BYTES >> 20} MiB")
        return b"".join(pieces)
    finally:
        os.close(fd)


def _constant(name: str) -> object:
    raise Malformed(f"{COMMIT} holds {name}")


def parse(data: bytes) -> tuple[Entry, ...]:
    """The steps of `data`, exactly the shape `encode` writes; Malformed otherwise."""
    try:
        text = data.decode("ascii")
        manifest = json.loads(text, parse_constant=_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as error:
        if isinstance(error, Malformed):
            raise
        raise Malformed(f"{COMMIT} is not ASCII JSON") from None  # (nested too deep: RecursionError)
    if not isinstance(manifest, dict) or set(manifest) != {"steps"} or not isinstance(manifest["steps"], list):
        raise Malformed(f'{COMMIT} is not an object of "steps" only')
    steps: list[object] = manifest["steps"]
    return tuple(_entry(number, step, len(steps)) for number, step in enumerate(steps, start=1))


_KINDS = {kind.value: kind for kind in Kind}
_KEYS = {
    Kind.WRITE: {"kind", "target", "mode", "staged"},
    Kind.CREATE: {"kind", "target", "mode", "staged"},
    Kind.APPEND: {"kind", "target", "mode", "line", "at"},
    Kind.REMOVE: {"kind", "target", "mode"},
}


def _entry(number: int, step: object, count: int) -> Entry:
    where = f"step {number}"
    if not isinstance(step, dict):
        raise Malformed(f"{where} is not an object")
    kind_name = step.get("kind")
    if not isinstance(kind_name, str) or kind_name not in _KINDS:
        raise Malformed(f"{where} has no kind of {', '.join(_KINDS)}")
    kind = _KINDS[kind_name]
    keys = set(step)
    root = step.get("root")
    if root is not None:
        keys.discard("root")
        if not isinstance(root, str) or not _text(root) or not root.startswith("/") or "\0" in root:
            raise Malformed(f"{where}: its root is not an absolute path")
    if keys != _KEYS[kind]:
        raise Malformed(f"{where} ({kind.value}) has not exactly the fields {', '.join(sorted(_KEYS[kind]))}")
    parts = _parts(where, step["target"])
    mode = _integer(where, "mode", step["mode"], 0o7777)
    if kind is Kind.APPEND:
        line = step["line"]
        if not isinstance(line, str) or not _text(line) or not line.endswith("\n"):
            raise Malformed(f"{where}: its line is not UTF-8 text ending with a newline")
        at = _integer(where, "at", step["at"], MAX_OFFSET)
        return Entry(kind, parts, mode, line=line.encode("utf-8"), at=at, root=root)
    if kind is Kind.REMOVE:
        return Entry(kind, parts, mode, root=root)
    staged = step["staged"]
    if not isinstance(staged, str) or not staged.isascii() or not staged.isdigit() or int(staged) >= count:
        raise Malformed(f"{where}: its staged copy is not one of the journal's")
    return Entry(kind, parts, mode, staged=staged, root=root)


def _text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return False
    return True


def _integer(where: str, name: str, value: object, largest: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= largest:
        raise Malformed(f"{where}: its {name} is not a number from 0 to {largest}")
    return value


def _parts(where: str, target: object) -> tuple[str, ...]:
    if not isinstance(target, str) or not _text(target):
        raise Malformed(f"{where}: its target is not UTF-8 text")
    parts = tuple(target.split("/"))
    plain = all(part not in ("", ".", "..") and "\0" not in part and len(part.encode()) <= MAX_NAME for part in parts)
    if not plain or len(parts) > MAX_PARTS:
        raise Malformed(f"{where}: its target {target!r} is not a name inside the folder")
    return parts
