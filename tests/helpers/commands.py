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
