"""AbstractPlay game records built field by field from its schema (tests/data/abstractplay),
as gameslib's `genRecord()` writes them for Pikemen, and the schema's validator."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "abstractplay" / "gamerecord.json"

EVERY_FORM = (
    "f3(NW) b6(N) h5(SW) a4(SE) g2(NW) b5(W) f3-d5(SW) d7(NW) d5-a2 a4-b3(W) g2xc6(NE) c8(NE) c6xd7(N) "
    "b3-a3(NW) f1(N) b5(N) d1(N) a3(N) d1-d3(S) a5(S) d3-d2(NE) a3-a4(W) d2-f4(S) b5(U) f2(E) b7(NE) "
    "f4-f3(NE) b7(W) f2-g2(NE) b6(E) f1-f2(S) e8(N) f2-f1(SW) b6-e6(S) h5(N) e6xe2(SW) h5-h7(W) e2(U) "
    "h7-g7 d8(NW) d7xd8(W) e2(E) d8xc8(SW) e2xg2 c8xb7(NE) e8(U) f3(SE) a4(U) f3xg2(NW) c7(S) g7xc7(U)"
).split()
"""A game to 12 points that holds every move form (a turn, a charge and a capture, each
with and without a new facing): Red wins 13 to 3 with its 51st move."""
TO_FIFTEEN = EVERY_FORM + "a7(N) h1(SE) a8(NW) f1(NE) b8(NW) g1(NW) a6(E) g1xa7(S)".split()
"""The same game played on to 15 points (variant 15pts): Red wins 16 to 3."""


@cache
def validator() -> Any:
    import jsonschema

    return jsonschema.Draft7Validator(json.loads(SCHEMA.read_text()), format_checker=jsonschema.FormatChecker())


def rounds(moves: list[str], deltas: dict[int, int] | None = None) -> list[list[Any]]:
    """The moves as AbstractPlay's rounds (Red, Blue); a move whose index is in `deltas`
    is written as an object with its deltaScore result, as gameslib writes a capture."""
    entries: list[Any] = []
    for index, move in enumerate(moves):
        delta = (deltas or {}).get(index)
        entries.append(move if delta is None else {"move": move, "result": [{"type": "deltaScore", "delta": delta}]})
    return [entries[start : start + 2] for start in range(0, len(entries), 2)]


def record(
    moves: list[str],
    *,
    results: tuple[int, int] = (1, 0),
    scores: tuple[int, int] | None = (13, 3),
    variants: list[str] | None = None,
    names: tuple[str, str] = ("Ann", "Bo"),
    gameid: str = "5f1c2b9e-0d3a-4c57-9a1e-2b7d8e6f4a10",
    event: str | None = None,
) -> dict[str, Any]:
    """One APGameRecord of Pikemen, valid against the schema (checked)."""
    players = []
    for seat, name in enumerate(names):
        player: dict[str, Any] = {"name": name, "userid": f"user-{seat + 1}", "is_ai": False, "result": results[seat]}
        if scores is not None:
            player["score"] = scores[seat]
        players.append(player)
    header: dict[str, Any] = {
        "game": {"name": "Pikemen", "variants": variants or []},
        "site": {"name": "Abstract Play", "gameid": gameid},
        "date-start": "2024-03-02T18:04:11.120Z",
        "date-end": "2024-03-09T07:55:40.002Z",
        "date-generated": "2024-03-10T00:00:00.000Z",
        "players": players,
    }
    if event is not None:
        header["event"], header["round"] = event, "1"
    value = {"header": header, "moves": rounds(moves)}
    validator().validate(value)
    return value


def lines(*values: Any) -> str:
    """JSON Lines of the values (a string is written as it is: a broken line)."""
    return "".join((value if isinstance(value, str) else json.dumps(value)) + "\n" for value in values)
