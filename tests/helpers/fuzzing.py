"""Mutated records for the fuzz test and the fuzz campaign: the conformance records with
bytes flipped, tokens deleted or repeated, another game's `Game` tag, huge numbers, odd
Unicode, unbalanced comments and junk in every tag; and the check that the library gives
each record a verdict (or a ReadCrash, which the referee words as status `error`), never
an exception.

Deterministic: input number N of seed S is always the same bytes, so a crash site found
by the campaign is reproduced with `python tests/tools/fuzz_campaign.py --show S:N`.
"""

from __future__ import annotations

import io
import os
import random
import re
import traceback
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import NamedTuple

from referee.notation.model import ReadCrash
from referee.notation.reader import iter_records

DATA = Path(__file__).resolve().parents[1] / "data" / "conformance"
GAMES = ("nika", "numica", "pikemen", "nieuchess")

HUGE = "9" * 4301
NUMBERS = [HUGE, "1" * 5000, "²", "¹²", "١٢", "１２", "-1", "0", "00", "+3", "1e9", "9" * 30, "3.5", "", " 2 "]
ODD = [
    "\u00a0",
    "\u200b",
    "\u200f",
    "\u202e",
    "\ufeff",
    "İ",
    "ı",
    "ﬁ",
    "ß",
    "K",
    "\u0301",
    "😀",
    "１",
    "²",
    "Ⅻ",
    "\u2028",
    "\x00",
    "\x0c",
    "\x85",
    "\r",
    "\t",
]
JUNK = [
    "{",
    "}",
    ";",
    "{ x",
    "x }",
    "[",
    "]",
    '"',
    "\\",
    ":",
    "+:",
    "!",
    "?!",
    "draw",
    "resign",
    "setup",
    "1.",
    "1...",
    f"{HUGE}.",
    "².",
    "R:",
    "B+:",
    "[Game",
    '[Game "nika"]',
    '[Game ""]',
    '[Seed "x"]',
    "pass",
]
TAGS = [
    "Players",
    "Target",
    "Position",
    "Seed",
    "SeedHash",
    "First",
    "Variant",
    "Tiles",
    "CRT",
    "Result",
    "RedSalt",
    "BlueSalt",
    "Red",
    "Blue",
    "Athens",
]
TAG_JUNK = [
    *NUMBERS,
    *ODD,
    "sha256:" + "0" * 64,
    "sha256:zz",
    "Red",
    "Blue",
    "draw",
    "*",
    "W+B",
    "+",
    "Red+Red",
    "standard",
    "x" * 300,
    "inv:R=²",
    "inv:R=" + HUGE,
    "R=" + HUGE,
    "R=²",
    "a1:" + HUGE,
    "/" * 20,
    "=",
    ":",
    ",",
]


@cache
def corpus() -> dict[str, list[bytes]]:
    """The conformance records of each game, one bytes object per record."""
    from referee.notation.record_splitter import split

    found: dict[str, list[bytes]] = {}
    for game in GAMES:
        files = sorted((DATA / game).glob("*.rgn"))
        if not files:
            raise AssertionError(f"no conformance records in {DATA / game}: see tests/data/conformance/README.md")
        found[game] = [raw.raw for path in files for raw in split(path.read_bytes())]
    return found


def _tokens(text: bytes) -> list[bytes]:
    return re.split(rb"(\s+)", text)


def _flip(rng: random.Random, text: bytes) -> bytes:
    if not text:
        return bytes([rng.randrange(256)])
    where = rng.randrange(len(text))
    return text[:where] + bytes([rng.randrange(256)]) + text[where + 1 :]


def _delete_token(rng: random.Random, text: bytes) -> bytes:
    parts = _tokens(text)
    if len(parts) > 1:
        del parts[rng.randrange(len(parts))]
    return b"".join(parts)


def _repeat_token(rng: random.Random, text: bytes) -> bytes:
    parts = _tokens(text)
    where = rng.randrange(len(parts))
    parts.insert(where, parts[where] * rng.choice([1, 1, 2, 50]))
    return b"".join(parts)


def _other_game(rng: random.Random, text: bytes) -> bytes:
    game = rng.choice([*GAMES, "NIKA", " Numica ", "chess", "", "nika\\"])
    return re.sub(rb'\[Game "[^"\n]*"\]', f'[Game "{game}"]'.encode(), text, count=1)


def _insert(rng: random.Random, text: bytes, choices: list[str]) -> bytes:
    where = rng.randrange(len(text) + 1)
    piece = rng.choice(choices)
    if rng.random() < 0.5:
        piece = rng.choice([" ", "\n", ""]) + piece + rng.choice([" ", "\n", ""])
    return text[:where] + piece.encode("utf-8") + text[where:]


def _replace_token(rng: random.Random, text: bytes, choices: list[str]) -> bytes:
    parts = _tokens(text)
    words = [index for index, part in enumerate(parts) if part.strip()]
    if words:
        where = rng.choice(words)
        piece = rng.choice(choices).encode("utf-8")
        parts[where] = piece if rng.random() < 0.5 else parts[where] + piece
    return b"".join(parts)


def _tag_junk(rng: random.Random, text: bytes) -> bytes:
    name = rng.choice(TAGS)
    value = rng.choice(TAG_JUNK).replace("\\", "\\\\").replace('"', '\\"')
    tag = f'[{name} "{value}"]'.encode()
    if f"[{name} ".encode() in text:
        return re.sub(rf'\[{name} "(?:[^"\\\n]|\\.)*"\]'.encode(), tag.replace(b"\\", b"\\\\"), text, count=1)
    first_end = text.find(b"]") + 1
    return text[:first_end] + b"\n" + tag + text[first_end:]


def _truncate(rng: random.Random, text: bytes) -> bytes:
    return text[: rng.randrange(len(text) + 1)]


def _splice(rng: random.Random, text: bytes, other: bytes) -> bytes:
    cut, at = rng.randrange(len(text) + 1), rng.randrange(len(other) + 1)
    return text[:cut] + rng.choice([b"", b" ", b"\n"]) + other[at:]


def _unicode_case(rng: random.Random, text: bytes) -> bytes:
    decoded = text.decode("utf-8", "replace")
    return (decoded.upper() if rng.random() < 0.5 else decoded.lower()).encode("utf-8")


def mutate(seed: int, number: int) -> bytes:
    """Input `number` of campaign `seed`: one to four mutations of a conformance record
    (or two spliced together)."""
    rng = random.Random(f"{seed}:{number}")
    records = corpus()
    game = rng.choice(GAMES)
    text = rng.choice(records[game])
    for _ in range(rng.choice([1, 1, 2, 3, 4])):
        kind = rng.randrange(13)
        if kind == 0:
            text = _flip(rng, text)
        elif kind == 1:
            text = _delete_token(rng, text)
        elif kind == 2:
            text = _repeat_token(rng, text)
        elif kind == 3:
            text = _other_game(rng, text)
        elif kind == 4:
            text = _insert(rng, text, NUMBERS)
        elif kind == 5:
            text = _replace_token(rng, text, NUMBERS)
        elif kind == 6:
            text = _insert(rng, text, ODD)
        elif kind == 7:
            text = _insert(rng, text, JUNK)
        elif kind == 8:
            text = _replace_token(rng, text, [*JUNK, *ODD])
        elif kind in (9, 10):
            text = _tag_junk(rng, text)
        elif kind == 11:
            text = _truncate(rng, text) if rng.random() < 0.3 else _unicode_case(rng, text)
        else:
            other = rng.choice(records[rng.choice(GAMES)])
            text = _splice(rng, text, other)
    return text


class Crash(NamedTuple):
    """An exception where the library should have given a verdict."""

    stage: str  # read, adjudicate, render
    kind: str  # the exception's type
    where: str  # the innermost file:line
    message: str

    @property
    def site(self) -> str:
        return f"{self.kind} at {self.where} ({self.stage})"


def _where(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    ours = [frame for frame in frames if "site-packages" not in frame.filename] or frames
    frame = ours[-1]
    parent, name = os.path.split(frame.filename)
    return f"{os.path.basename(parent)}/{name}:{frame.lineno}"


def _guard(stage: str, call: Callable[[], object]) -> tuple[object, Crash | None]:
    try:
        return call(), None
    except Exception as error:  # noqa: BLE001 - a crash is what we look for
        return None, Crash(stage, type(error).__name__, _where(error), " ".join(str(error).split())[:200])


def check(data: bytes) -> list[Crash]:
    """Read and judge every record of `data` as the referee does; the crashes met."""
    from referee.judge.core import verdict_words
    from referee.judge.core.adjudicate import adjudicate, dialect_for
    from referee.judge.session import next_actions

    crashes: list[Crash] = []
    results, crash = _guard("read", lambda: list(iter_records(io.BytesIO(data), dialect_for)))
    if crash is not None:
        return [crash]
    assert isinstance(results, list)
    for index, result in enumerate(results, start=1):
        if isinstance(result, ReadCrash):
            crashes.append(Crash("read", result.message.split(":")[0], result.where, result.message))
            continue
        replay, crash = _guard("adjudicate", lambda: adjudicate(result, "fuzz", index))  # noqa: B023
        if crash is not None:
            crashes.append(crash)
            continue
        verdict = replay.verdict  # type: ignore[attr-defined]
        words = verdict_words
        _, crash = _guard("render", lambda: (words.verdict_line(verdict), words.verdict_fields(verdict)))  # noqa: B023
        if crash is not None:
            crashes.append(crash)
        state = replay.state  # type: ignore[attr-defined]
        if state is not None and verdict.status == "ongoing":
            _, crash = _guard("moves", lambda: [str(action) for action in next_actions(state)[:20]])  # noqa: B023
            if crash is not None:
                crashes.append(crash)
    return crashes
