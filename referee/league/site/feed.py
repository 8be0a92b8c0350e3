"""The Atom feed of finished games (RFC 4287): one entry per finished game, newest first.

The site has no address of its own (it may be read from `file://`), so links are relative
(resolved against the feed's own address) and ids are `urn:uuid:` names derived from the
league's name and the game's (the same game keeps its id from build to build)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from referee.league.site.escape import esc
from referee.notation.timing import format_instant

FEED_FILE = "feed.xml"
_SPACE = uuid.UUID("6f1b7b2e-5d0c-4f55-9a43-2f1d1f0c9a11")


@dataclass(frozen=True)
class Entry:
    """One finished game in the feed."""

    game: str
    title: str
    summary: str
    page: str
    updated: int

    def __repr__(self) -> str:
        return f"Entry({self.game}: {self.title!r})"


def _id(*names: str) -> str:
    return f"urn:uuid:{uuid.uuid5(_SPACE, chr(31).join(names))}"


def atom(league: str, entries: Sequence[Entry], fallback: int) -> str:
    """The feed as XML text; `fallback` is its `updated` instant when no game is finished."""
    ordered = sorted(entries, key=lambda entry: (-entry.updated, entry.game))
    updated = max((entry.updated for entry in entries), default=fallback)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        f"<id>{_id('league', league)}</id>",
        f"<title>{esc(league)}: results</title>",
        f"<updated>{format_instant(updated)}</updated>",
        "<author><name>referee league site</name></author>",
        f'<link rel="self" href="{FEED_FILE}"/>',
        '<link rel="alternate" type="text/html" href="index.html"/>',
    ]
    for entry in ordered:
        lines += [
            "<entry>",
            f"<id>{_id('game', league, entry.game)}</id>",
            f"<title>{esc(entry.title)}</title>",
            f"<updated>{format_instant(entry.updated)}</updated>",
            f'<link rel="alternate" type="text/html" href="{esc(entry.page)}"/>',
            f"<summary>{esc(entry.summary)}</summary>",
            "</entry>",
        ]
    lines.append("</feed>")
    return "\n".join(lines) + "\n"
