"""Token changes that are not moves (issue 45.1): a grant, a salt, a side tag's new
address. Each changes the game's token (PLAY.md §2: any change of the record does) while
the board stays as it was, so a player who wrote a move against the old token must be
told why it is refused, and the player to move must be sent the new one.

Every such writing goes through `core.decided` (the one way a game file is changed),
which keeps it here: one JSON line in `DIR/tokens.log` beside the game, written in the
same transaction as the game,

    {"game": "r1-t1", "old": "4-ab12cd34ef", "new": "4-0f1e2d3c4b", "at": "2026-12-04T14:00:00Z",
     "what": "the game master granted Blue 2d (leave of Di)",
     "said": [{"kind": "leave", "given": "Blue 2d", "player": "Di"}]}

where `what` is the English and `said` the same change as a kind of `KINDS` and its
parameters, so that a player reads it in the player's language (issue 49); a line without
`said` (written before), or with a kind this referee does not know, is said in its English.
`stale` is the one refusal of a token that is not the game's: where a chain of these
changes leads from the token written to the game's, it says what changed and when;
otherwise the board has changed. The mail of the new token to the player to move is the
gateway's (`referee.live.mail.retoken`, a floor above), from the `TokenChange` the
writing returns."""

from __future__ import annotations

import errno
import json
import os
import stat
import string
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee import store
from referee.notation.timing import TimingError, format_instant, parse_instant, spoken_instant
from referee.speech import DEFAULT, ENGLISH, N_, Speaker

CHANGES_FILE = "tokens.log"
READ_LIMIT = 1 << 20
"""The most of tokens.log read back (its last MiB): a stale token older than that is
answered as a changed board, which it then almost surely is."""
MAX_WHAT = 300
MAX_PARTS = 8
"""The most parts a change's `said` holds (a change of several kinds at once); a line with
more is said in its English."""

KINDS = {
    "grant": N_("the game master granted {given}"),
    "leave": N_("the game master granted {given} (leave of {player})"),
    "automatic-leave": N_("the game master granted {given} (automatic leave of {player})"),
    "salt": N_("{side}'s salt was written"),
    "seated": N_("the game master seated {tag} in place of {was}"),
    "address": N_("the game master changed {player}'s address to {address}"),
}
"""Each kind of token change, and its words: `given` is a list of grants (`Blue 2d, Red
1d`), `side` a side's name (both said in the reader's words); the rest as written."""
BOARD_CHANGED = {
    "this move": N_("the board has changed since this move was written"),
    "this": N_("the board has changed since this was written"),
    "it": N_("the board has changed since it was written"),
}
"""What was written against a stale token, as the refusal names it, and its words."""


@dataclass(frozen=True)
class Wording:
    """One part of a token change said by its kind (`KINDS`) and parameters."""

    kind: str
    params: tuple[tuple[str, str], ...]

    def english(self) -> str:
        return KINDS[self.kind].format(**dict(self.params))

    def said(self, say: Speaker) -> str:
        params = dict(self.params)
        if "side" in params:
            params["side"] = say.word(params["side"])
        if "given" in params:
            params["given"] = ", ".join(_grant(each, say) for each in params["given"].split(", "))
        return say(KINDS[self.kind], **params)


def wording(kind: str, **params: str) -> Wording:
    """`wording("grant", given="Blue 2d")`: a part of a change, of a kind of `KINDS`."""
    if kind not in KINDS or set(params) != _placeholders(KINDS[kind]):
        raise ValueError(f"not a token change's wording: {kind} {sorted(params)}")
    return Wording(kind, tuple(sorted(params.items())))


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
    parts: tuple[Wording, ...] = ()
    """The same, part by part (joined by `and`), to say it in another language; none: the
    English `what` is all there is (a line of tokens.log written before issue 49)."""

    def line(self) -> str:
        entry: dict[str, object] = {
            "game": self.game,
            "old": self.old,
            "new": self.new,
            "at": format_instant(self.at),
            "what": self.what,
        }
        if self.parts:
            entry["said"] = [{"kind": part.kind, **dict(part.params)} for part in self.parts]
        return json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n"

    def said(self, say: Speaker = ENGLISH) -> str:
        """`the game master granted Blue 2d at 2026-12-04 14:00 UTC`, in `say`'s language
        (the stored English where the line has no parts)."""
        what = self.what
        if self.parts and say.lang != DEFAULT:
            what = self.parts[0].said(say)
            for part in self.parts[1:]:
                what = say("{first} and {second}", first=what, second=part.said(say))
        return say("{what} at {instant}", what=what, instant=say.instant(self.at, spoken_instant(self.at)))


def change(path: Path, old: str | None, new: str | None, what: str | Sequence[Wording], at: int) -> TokenChange | None:
    """The change of the game in `path` from token `old` to `new`, said by `what` (its
    English, or its parts); None when the token did not change (or either is unknown)."""
    if old is None or new is None or old == new:
        return None
    parts = () if isinstance(what, str) else tuple(what)
    english = what if isinstance(what, str) else " and ".join(part.english() for part in parts)
    text = " ".join(english.split())[:MAX_WHAT]
    return TokenChange(path.name.removesuffix(".rgn"), old, new, text, at, parts if text == english else ())


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


def stale(path: Path, expect: str, token: str | None, *, wrote: str = "this move", say: Speaker = ENGLISH) -> str:
    """The refusal of a submission written for token `expect` on a game at `token`: what
    changed since, where only the game master's writings (grants, new addresses, salts)
    did; else that the board has changed (`wrote`: a key of BOARD_CHANGED)."""
    why = explained(path, expect, token, wrote=wrote, say=say)
    return say("the game is at token {token}, not {expect}: {why}", token=token, expect=expect, why=why)


def explained(path: Path, expect: str, token: str | None, *, wrote: str = "this move", say: Speaker = ENGLISH) -> str:
    """Why token `expect` is not the game's `token`, as `stale` says it after its colon:
    `the board has changed since it was written`, or what changed since and when."""
    found = since(path, expect, token) if token is not None else None
    if not found:
        return say(BOARD_CHANGED[wrote])
    what = found[0].said(say)
    for changed in found[1:]:
        what = say("{before}; then {after}", before=what, after=changed.said(say))
    return say("the board is as it was, but {what}; the token is now {token}", what=what, token=token)


def said_again(path: Path, expect: str | None, token: str | None, text: str, say: Speaker) -> str:
    """A refusal `text` of `play` (English) in `say`'s language where it is the refusal of
    the stale token `expect` on the game at `token`; any other text as it is."""
    if expect is None or token is None or expect.strip() == token or say.lang == DEFAULT:
        return text
    for wrote in ("this move", "this"):
        if text == stale(path, expect.strip(), token, wrote=wrote):
            return stale(path, expect.strip(), token, wrote=wrote, say=say)
    return text


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
            what = _bounded(str(entry["what"]))
            changed = TokenChange(str(entry["game"]), str(entry["old"]), str(entry["new"]), what, at, _parts(entry))
        except (ValueError, KeyError, TypeError, TimingError):
            continue  # a line cut short, or edited by hand
        found.append(changed)
    return found


def _parts(entry: dict[str, object]) -> tuple[Wording, ...]:
    """The parts of a line's `said`; none where it has none (a line written before issue
    49) or any part is not one this referee knows: the line is then said in its English."""
    said = entry.get("said")
    if not isinstance(said, list) or len(said) > MAX_PARTS:
        return ()
    parts = []
    for part in said:
        if not isinstance(part, dict) or not all(isinstance(value, str) for value in part.values()):
            return ()
        params = {str(name): _bounded(str(value)) for name, value in part.items() if name != "kind"}
        try:
            parts.append(wording(str(part.get("kind")), **params))
        except ValueError:
            return ()
    return tuple(parts)


def _bounded(text: str) -> str:
    """A text read back from `tokens.log` (a file of the folder, hostile until known), as its
    writer keeps one: on one line, at most `MAX_WHAT` characters."""
    return " ".join(text.split())[:MAX_WHAT]


def _grant(text: str, say: Speaker) -> str:
    """`Blue 2d` in the reader's words (the side's name said, the duration the notation's)."""
    side, _, duration = text.rpartition(" ")
    return f"{say.word(side)} {duration}" if side else text


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


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
