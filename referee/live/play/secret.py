"""`referee new --secret` and `referee reveal` (PLAY.md §3)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from referee import store
from referee.errors import UsageError
from referee.games import registry
from referee.games.api import Randomness
from referee.games.randomness import effective_seed, salt_tag, seed_hash
from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.judge.core.turn_token import canonical_text, token_of
from referee.judge.core.verdict_words import verdict_line
from referee.judge.core.verdicts import Status, Verdict, annotated
from referee.live.play import keys
from referee.live.play.core import read_game
from referee.live.play.result import PlayResult
from referee.notation import writer
from referee.notation.model import Record, Tag


def new_secret(fresh_record: str, key: Path, salts: Sequence[str], seed: str) -> str:
    """A fresh record with a secret seed: `fresh_record` is the text `referee new` made
    with `Seed` set to `seed`; the `Seed` becomes a `SeedHash`, the salts are written and,
    for a game that deals tiles, the `Tiles` they deal. Then the key file is created
    (mode 0600, never over an existing file). Returns the record's text."""
    results = read_source(fresh_record.encode("utf-8"))
    record = results[0]
    if not isinstance(record, Record):  # pragma: no cover - `new` writes readable records
        raise UsageError("cannot write a secret seed into this record")
    info = registry.GAMES[record.game]
    keys.needs_randomness(info)
    resolved = keys.parse_salts(info, salts)
    span = record.span
    tags = [tag for tag in record.tags if tag.name != "Seed"]
    tags.append(Tag("SeedHash", seed_hash(seed), span))
    tags += [Tag(salt_tag(side), text, span) for side, text in _in_side_order(info.sides, resolved)]
    if info.randomness == Randomness.TILES:
        values = {tag.name: tag.value for tag in record.tags}
        values["Seed"] = effective_seed(seed, _in_side_order(info.sides, resolved))
        position = registry.engine(record.game).new_state(values).position()
        tiles = next(field for field in position.split() if field.startswith("tiles:"))
        tags.append(Tag("Tiles", tiles.partition(":")[2], span))
    text = writer.write(record._replace(tags=tuple(tags)), registry.engine(record.game).dialect())
    keys.create_key(key, seed)
    return text


def _in_side_order(sides: Sequence[str], salts: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted(salts, key=lambda pair: sides.index(pair[0]))


ONGOING_REVEAL = (
    "the game is ongoing: revealing its seed makes every future die predictable to every player; "
    "reveal it when the game is over, or use --force"
)


def reveal(path: Path, seed: str, wait: float = 10.0, force: bool = False) -> PlayResult:
    """Add the `Seed` tag to a secret game (keeping its `SeedHash`), so that `check`
    verifies the seed, the salts and every roll. The seed is written whatever the
    verdict then says: a roll that does not match is the very thing a reveal exposes.
    An ongoing game is refused (exit 1, nothing written) unless `force`: its future dice
    would be known."""
    path = Path(path)
    with store.transaction(store.target_of(path).parent, wait), store.locked(path, wait):
        results = read_source(read_game(path))
        if len(results) != 1:
            raise UsageError(f"{path} must hold one game, it holds {len(results)}")
        current = adjudicate(results[0], str(path))
        record = current.record
        if record is None:
            verdict = annotated(current.verdict, None)
            line = verdict_line(verdict)
            return PlayResult.of(1, verdict, None, error=line, headline=line)
        tags = record.tag_map
        try:
            keys.check_key(tags, seed)
        except keys.KeyMismatch as error:
            verdict = annotated(current.verdict, token_of(current))
            return PlayResult.of(1, verdict, verdict.token, error=str(error), headline=str(error))
        if "Seed" in tags:
            verdict = annotated(current.verdict, token_of(current))
            return _shown(verdict, current, notice="the seed was already revealed: nothing written")
        if current.verdict.status == Status.ONGOING and not force:
            verdict = annotated(current.verdict, token_of(current))
            return PlayResult.of(1, verdict, verdict.token, error=ONGOING_REVEAL, headline=ONGOING_REVEAL)
        revealed = record._replace(tags=(*record.tags, Tag("Seed", seed, record.span)))
        after = adjudicate(revealed, str(path))
        verdict = annotated(after.verdict, token_of(after))
        text = canonical_text(revealed, after)
        store.write(path, text)
        return dataclasses.replace(_shown(verdict, after, notice="seed revealed"), written=True)


def _shown(verdict: Verdict, replayed: Replay, notice: str) -> PlayResult:
    legal = verdict.status in (Status.FINISHED, Status.ONGOING) and verdict.result_matches is not False
    return PlayResult.shown(0 if legal else 1, verdict, verdict.token, replayed.state, notice=notice)
