"""Seasons played to their close in a few commands, for the tests of series and knockouts
(LEAGUE.md §7): `play_season(folder, beats)` pairs every round and has the game master
decide every game (`adjudication = "gm"`), the better of each game's players by `beats`
winning (or a draw where `beats` says so), then closes the season."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.helpers.league import address, make_league, run

ENDS = "2026-12-01T00:00:00Z"
"""The season's end the set-ups write: every decision after it needs no --force."""
AT = "2026-12-02T12:00:00Z"
"""The instant the set-ups play at."""
GM = f'adjudication = "gm"\nends = "{ENDS}"\n'

Decide = Callable[[str, list[str]], str | None]
"""Given a game's ID and its players' names by seat: the winner's name, or None for a draw."""


def by_order(names: str) -> Decide:
    """The player earlier in `names` wins every game."""
    order = names.split()

    def decide(game: str, seated: list[str]) -> str | None:
        return min(seated, key=order.index)

    return decide


def new_league(folder: Path, names: str, *options: str, extra: str = "", name: str = "T") -> None:
    make_league(folder, *options, name=name, names=names, extra=GM + extra)


def status(folder: Path) -> dict[str, object]:
    code, out, err = run("league", "status", str(folder), "--json")
    assert code == 0, err
    found: dict[str, object] = json.loads(out)
    return found


def decide_open_games(folder: Path, decide: Decide) -> int:
    """Every unfinished game decided by the game master as `decide` says; how many."""
    count = 0
    for game in status(folder)["games"]:  # type: ignore[attr-defined]
        if game["status"] == "finished":
            continue
        seats = game["seats"]
        winner = decide(game["game"], [seat["name"] for seat in seats])
        result = "draw" if winner is None else "+".join(next(s["sides"] for s in seats if s["name"] == winner))
        code, _, err = run("league", "adjudicate", str(folder), game["game"], result, "--now", AT, "--force")
        assert code == 0, err
        count += 1
    return count


def play_season(folder: Path, decide: Decide, *, close: bool = True) -> None:
    """Pair and decide round after round until `pair` says the season is over, then close."""
    while True:
        decide_open_games(folder, decide)
        code, _, err = run("league", "pair", str(folder), "--now", AT)
        if code != 0:
            assert "is over" in err, err
            break
    if close:
        code, _, err = run("league", "close", str(folder), "--now", AT, "--force")
        assert code == 0, err


def mails_to(folder: Path, name: str) -> list[tuple[str, str]]:
    """(subject, body) of every mail in the folder's outbox to the player `name`."""
    from email import policy
    from email.parser import BytesParser

    found = []
    for path in sorted((folder / "outbox").glob("*.eml")):
        mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        if address(name) in str(mail["To"]):
            body = mail.get_body(("plain",))
            found.append((str(mail["Subject"]), body.get_content() if body is not None else ""))
    return found
