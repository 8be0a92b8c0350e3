"""Token changes that are not moves (issue 45.1): a grant, a salt, a side tag's new
address. Each changes the game's token (PLAY.md §2: any change of the record does) while
the board stays as it was, so a player who wrote a move against the old token must be
told why it is refused, and the player to move must be sent the new one.

Every such writing goes through `core.decided` (the one way a game file is changed),
which keeps it here: one JSON line in `DIR/tokens.log` beside the game, written in the
same transaction as the game,

    {"game": "r1-t1", "old": "4-ab12cd34ef", "new": "4-0f1e2d3c4b", "at": "2026-12-04T14:00:00Z",
     "what": "the game master granted Blue 2d (leave of Di)"}

and `stale` is the one refusal of a token that is not the game's: where a chain of these
changes leads from the token written to the game's, it says what changed and when;
otherwise the board has changed. The mail of the new token to the player to move is the
gateway's (`referee.live.mail.retoken`, a floor above), from the `TokenChange` the
writing returns."""

from __future__ import annotations

import errno
import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from referee import store
from referee.notation.timing import TimingError, format_instant, parse_instant, spoken_instant

CHANGES_FILE = "tokens.log"
READ_LIMIT = 1 << 20
"""The most of tokens.log read back (its last MiB): a stale token older than that is
answered as a changed board, which it then almost surely is."""
MAX_WHAT = 300


@dataclass(frozen=True)
class TokenChange:
    """One writing that changed a game's token but not its board."""

    game: str
    """The game file's name without `.rgn`."""
    old: str
    new: str
    what: str
    """What changed, as the refusal says it: `the game master granted Blue 2d`."""
    at: int

    def line(self) -> str:
        entry = {"game": self.game, "old": self.old, "new": self.new, "at": format_instant(self.at), "what": self.what}
        return json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n"

    def said(self) -> str:
        """`the game master granted Blue 2d at 2026-12-04 14:00 UTC`."""
        return f"{self.what} at {spoken_instant(self.at)}"


def change(path: Path, old: str | None, new: str | None, what: str, at: int) -> TokenChange | None:
    """The change of the game in `path` from token `old` to `new`; None when the token did
    not change (or either is unknown)."""
    if old is None or new is None or old == new:
        return None
    text = " ".join(what.split())[:MAX_WHAT]
    return TokenChange(path.name.removesuffix(".rgn"), old, new, text, at)


def note(path: Path, changed: TokenChange) -> None:
    """Keep the change in `tokens.log` beside the game (within the caller's transaction,
    with the game's new text)."""
    store.append(path.parent / CHANGES_FILE, changed.line())


def since(path: Path, token: str, current: str) -> list[TokenChange] | None:
    """The changes that lead from `token` to `current` in the game of `path`, oldest first,
    when every step from one to the other is such a change; None otherwise (a move, or
    anything else, came between)."""
    chain: dict[str, TokenChange] = {}
    game = path.name.removesuffix(".rgn")
    for changed in _read(path.parent / CHANGES_FILE):
        if changed.game == game:
            chain.setdefault(changed.old, changed)  # the first change from a token is the one made
    found: list[TokenChange] = []
    at = token
    while at != current:
        step = chain.get(at)
        if step is None or len(found) > len(chain):
            return None
        found.append(step)
        at = step.new
    return found or None


def stale(path: Path, expect: str, token: str | None, *, wrote: str = "this move") -> str:
    """The refusal of a submission written for token `expect` on a game at `token`: what
    changed since, where only the game master's writings (grants, new addresses, salts)
    did; else that the board has changed."""
    head = f"the game is at token {token}, not {expect}"
    found = since(path, expect, token) if token is not None else None
    if not found:
        return f"{head}: the board has changed since {wrote} was written"
    what = "; then ".join(changed.said() for changed in found)
    return f"{head}: the board is as it was, but {what}; the token is now {token}"


def _read(path: Path) -> list[TokenChange]:
    try:
        data = store.read_bytes(path, _tail)
    except (OSError, ValueError):
        return []
    found: list[TokenChange] = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            entry = json.loads(line)
            at = parse_instant(str(entry["at"]))
            found.append(TokenChange(str(entry["game"]), str(entry["old"]), str(entry["new"]), str(entry["what"]), at))
        except (ValueError, KeyError, TypeError, TimingError):
            continue  # a line cut short, or edited by hand
    return found


def _tail(path: Path) -> bytes:
    """The file's last MiB, from its first whole line: read only from a regular file, never
    through a link, never waiting on a FIFO (a folder from someone else: docs/files.md)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, f"{path.name} is not a regular file")
    with os.fdopen(fd, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > READ_LIMIT:
            file.seek(size - READ_LIMIT)
            file.readline()  # from the first whole line
        return file.read(READ_LIMIT)
