"""One way for a test of a game to judge a record written from its parts:
`judged("nika", "1. W: d1-W", Position="...")`, the tags in the order given."""

from __future__ import annotations

from referee.judge.core.adjudicate import Verdict, adjudicate, read_source


def judged(game: str, movetext: str, **tags: str | None) -> Verdict:
    """The verdict of one record of `game`: its `Game` tag, then `tags` in their order (one
    given None is left out), then `movetext`."""
    head = f'[Game "{game}"]\n' + "".join(f'[{name} "{value}"]\n' for name, value in tags.items() if value is not None)
    (result,) = read_source((head + "\n" + movetext).encode())
    return adjudicate(result).verdict
