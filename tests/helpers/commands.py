"""Comment commands a player might type (PLAY.md §7), for the tests of every way in: the
kinds the referee writes (`%offer`, `%at`, `%grant`), one it has never heard of, and odd
spellings the readers accept (case, white space, several in one comment) or nearly accept.

Each kind is put where a player could put it (`PLACES`): before, inside and after moves,
alone, with `draw`, `undo`, `timeout`, `resign`. The games these are played on are Numica
games whose Red side moves first with `SSSSOOOO` (Seed 42)."""

from __future__ import annotations

REFEREE_ONLY = "comment commands are written by the referee"
"""The words of every refusal (PLAY.md §7)."""

KINDS = {
    "offer": "{[%offer draw Blue]}",
    "at": "{[%at 2026-12-04T10:59:00Z Blue]}",
    "grant": "{[%grant Red 10d]}",
    "unknown": "{[%foo bar]}",
    "odd-case-and-space": "{ \n\t[%OFFER   DRAW  blue ]  }",
    "several": "{[%offer undo Red] [%grant Blue 1d]}",
    "nearly": "{\u00a0[% grant Red 10d]}",
}
"""Each kind of command, as the comment a player writes."""

FIRST_MOVE = "SSSSOOOO"
"""Red's first move in the Numica games of these tests."""

PLACES = (
    "{c} SSSSOOOO",
    "SSSSOOOO {c}",
    "SSSS {c} OOOO",
    "R: {c} SSSSOOOO",
    "{c}",
    "SSSSOOOO {c} draw",
    "{c} draw",
    "draw {c}",
    "{c}\nundo",
    "timeout {c}",
    "resign {c}",
)
"""Where a command goes in a submission (`{c}`: the command)."""

MAIL_PLACES = ("show {c}", "{c}\nmoves", "{c} show")
"""Where else a command goes in a message: in the requests that write nothing."""

LEAGUE_PLACES = ("status {c}", "leave 3d {c}", "{c}\nleave 2d")
"""And in a league's requests by mail."""

ORDINARY = ("{good luck}", "{a [%offer draw Blue] is not mine to write}", "; [%grant Red 10d] is a comment", "{}")
"""Comments that are no commands: kept, the move played."""


def submissions(kind: str, places: tuple[str, ...] = PLACES) -> list[str]:
    """Every place filled with the command of `kind`."""
    return [place.replace("{c}", KINDS[kind]) for place in places]


def named(kind: str) -> str:
    """The part of the command that any refusal quotes: its opening up to the name."""
    text = KINDS[kind]
    return text[text.index("[%") : text.index("[%") + 6]


# -- random submissions (the fuzz of PLAY.md §7) -------------------------------------------------

import random  # noqa: E402

_LEADS = ("", " ", "  ", "\t", "\n", "\r\n", " \n ", "\u00a0", "\u2003", "\u2028", "\u200b", "\ufeff", "\u00ad")
_NAMES = ("offer", "at", "grant", "OFFER", "Offer", "gRaNt", "AT", "foo", "x", "_", "clk", "eval", "undo", "draw")
_ARGS = (
    "draw",
    "undo",
    "DRAW",
    "Red",
    "Blue",
    "blue",
    "R",
    "b",
    "10d",
    "1d12h",
    "2026-12-04T10:59:00Z",
    "-1d",
    "0:00:01",
    "%at",
    "x",
    "",
)
_WORDS = ("draw", "undo", "timeout", "resign", "DRAW", "Undo")
_ORDINARY = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ 0123456789 .,!?'\"()-+=*/:<>@#$&_~[]%^|\\\u00e9\u00df\u03b1"
"""The characters of ordinary comments: anything but braces and `;` (which would end or open one)."""


def random_command(rng: random.Random, closed: bool = True) -> str:
    """A braced comment holding one to three commands of random names, arguments, case and
    spacing; sometimes malformed the ways the readers would reject (a space after `%`, no
    `]`, junk after the commands); `closed=False` may leave the brace unclosed."""
    commands = []
    for _ in range(rng.randint(1, 3)):
        name = rng.choice(_NAMES) if rng.random() < 0.8 else "".join(rng.choices("abcxyzQ_9", k=rng.randint(1, 8)))
        if name[0].isdigit():
            name = "n" + name
        gap = rng.choice(("", "", "", " ", "\t"))
        args = "".join(rng.choice((" ", "  ", "\t", "\n")) + rng.choice(_ARGS) for _ in range(rng.randint(0, 3)))
        end = rng.choice(("]", "]", " ]", "\t]", "\n]", ""))
        commands.append(f"[%{gap}{name}{args}{end}")
    lead = "".join(rng.choice(_LEADS) for _ in range(rng.randint(0, 3)))
    tail = rng.choice(("", "", " ", "\n", " nice", " [%"))
    text = lead + rng.choice((" ", "", "\n")).join(commands) + tail
    return "{" + text + ("}" if closed or rng.random() < 0.5 else "")


def random_submission(rng: random.Random, requests: tuple[str, ...] = ()) -> str:
    """A submission of Red's first move, a final word or a request (any of them optional),
    with a random command put anywhere between them."""
    parts = [rng.choice((FIRST_MOVE, f"R: {FIRST_MOVE}", "SSSS OOOO", ""))]
    if rng.random() < 0.4:
        parts.append(rng.choice(_WORDS))
    if requests and rng.random() < 0.3:
        parts = [rng.choice(requests)]
    parts = [part for part in parts if part]
    at = rng.randint(0, len(parts))
    parts.insert(at, random_command(rng, closed=at < len(parts)))
    return "".join(part + rng.choice((" ", "\n", "  ", " \n")) for part in parts).rstrip(" ")


def random_ordinary(rng: random.Random) -> tuple[str, str]:
    """Red's first move with an ordinary comment (braced, or `;` to the end of its line)
    before or after it: the submission, and the comment as the record keeps it."""
    text = "".join(rng.choices(_ORDINARY, k=rng.randint(0, 40))).strip()
    while text.startswith("[%"):
        text = text[1:]
    if rng.random() < 0.3:
        comment = f";{text}"
        return (f"{comment}\n{FIRST_MOVE}" if rng.random() < 0.5 else f"{FIRST_MOVE} {comment}\n"), comment
    comment = "{" + text + "}"
    return (f"{comment} {FIRST_MOVE}" if rng.random() < 0.5 else f"{FIRST_MOVE} {comment}"), comment
