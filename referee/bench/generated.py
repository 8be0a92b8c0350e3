"""The corpora `referee bench` times, at every size, and the cache that keeps them.

Size N of a game and shape is the seeded random playouts of at least N times the 1x
actions, every record distinct: records `{seed}-{game}-0`, `-1`, ... played one after the
other until the size's actions are made, so a smaller size is the start of a larger one
and every size is the same on every run (RANDOM.md's streams). Issue 52: the 10x file was
the 1x records ten times over, which let the reader's and engines' caches learn each
record once and flattered the larger sizes. The python-chess PGN beside each size is made
the same way: random games from one seeded chooser, as many plies as the size's actions.

Playing them is slow (Nieuchess: about a millisecond per action), so each corpus is kept
in a cache folder (`cache_folder()`: `$XDG_CACHE_HOME/referee/bench`, else
`~/.cache/referee/bench`), one file per game, shape, seed, 1x actions and size, named by a
digest of its key. The key holds `GENERATOR` and a digest of the sources that play and
write the records (the game's package, the common game modules, the notation, the
playouts and the shapes), so a change to any of them plays the corpora afresh rather
than reading stale ones; the PGN's key holds python-chess's version. An entry is written
to a temporary file in the folder and renamed into place once whole: a run cut short
leaves no entry, and a file whose header does not match its key or length is not read.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from referee.bench.corpora import Tally, shaped_play

GENERATOR = "1"
"""The version of the generators' own logic (size N from distinct records, the PGN's
games): bump it when a change makes the same key give other bytes in a way the sources'
digest would not see."""

CHESS_GENERATOR = "1"
"""The version of `chess_pgns`' logic, in the PGN's key beside python-chess's version."""

PROGRESS_EVERY = 2.0
"""Seconds between two progress lines while a corpus is played (none for a shorter one)."""

Progress = Callable[[str], None]
Key = tuple[str | int, ...]


class Corpus(NamedTuple):
    """A bench corpus at one size: the file's bytes, its records and actions, the share of
    each action kind (most common first) and the share of turns that are replacement steps."""

    data: bytes
    records: int
    actions: int
    kinds: dict[str, float]
    steps: float


def to_stderr(line: str) -> None:
    """The default progress: a line on standard error."""
    print(line, file=sys.stderr, flush=True)


def cache_folder() -> Path:
    """`$XDG_CACHE_HOME/referee/bench` (an absolute XDG_CACHE_HOME only, as the XDG base
    directory specification asks), else `~/.cache/referee/bench`."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "referee" / "bench"


class Store:
    """Generated corpora kept in a folder; with no folder, nothing is read or kept."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def _path(self, label: str, key: Key) -> Path:
        assert self.folder is not None
        digest = hashlib.sha256(json.dumps(list(key)).encode("utf-8")).hexdigest()[:20]
        return self.folder / f"{label}-{digest}.corpus"

    def get(self, label: str, key: Key) -> tuple[dict[str, Any], bytes] | None:
        """The entry's facts and bytes, or None when there is none (or it is not whole)."""
        if self.folder is None:
            return None
        try:
            with self._path(label, key).open("rb") as stream:
                header = json.loads(stream.readline())
                data = stream.read()
        except (OSError, ValueError):
            return None
        if not isinstance(header, dict) or header.get("key") != list(key) or header.get("bytes") != len(data):
            return None
        facts = header.get("facts")
        return (facts, data) if isinstance(facts, dict) else None

    def put(self, label: str, key: Key, facts: dict[str, Any], data: bytes) -> None:
        """Keep an entry: written to a temporary file beside it, renamed into place once whole."""
        if self.folder is None:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        header = json.dumps({"key": list(key), "bytes": len(data), "facts": facts}).encode("utf-8")
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=f".{label}-", suffix=".part")
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(header + b"\n")
                stream.write(data)
            os.replace(temporary, self._path(label, key))
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self._prune(label, self._path(label, key))

    def _prune(self, label: str, kept: Path) -> None:
        """The cache stays bounded: one entry per label (the game, shape and size; the one
        just kept), and no temporary file of that label left by a run killed while writing
        (one older than `STALE_PART` seconds: a younger one may be another run's, being written)."""
        assert self.folder is not None
        now = time.time()
        for path in self.folder.glob(f"{label}-*.corpus"):
            if path != kept:
                path.unlink(missing_ok=True)
        for path in self.folder.glob(f".{label}-*.part"):
            try:
                if now - path.stat().st_mtime > STALE_PART:
                    path.unlink(missing_ok=True)
            except OSError:
                continue


STALE_PART = 3600
"""How old (seconds) a temporary file of the cache is when it is taken as a killed run's."""


def sources_digest(game: str) -> str:
    """A digest of the sources that play and write a game's records: the game's package,
    the common game modules, the notation package, the playouts and the bench's shapes."""
    import referee.bench.corpora as shapes
    import referee.games as games
    import referee.judge.services.random_playout as playout
    import referee.notation as notation

    games_folder = Path(games.__path__[0])
    files = [*games_folder.glob("*.py"), *(games_folder / game).glob("*.py")]
    files += [*Path(notation.__path__[0]).glob("*.py"), Path(playout.__file__), Path(shapes.__file__)]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


class _Paced:
    """Whether a progress line is due: at most one every `every` seconds, the first after
    as long (a short generation says nothing)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.last = time.monotonic()

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last < self.every:
            return False
        self.last = now
        return True


def play_sizes(
    name: str, actions: int, seed: str, shape: str, sizes: Iterable[int], progress: Progress, every: float
) -> dict[int, Corpus]:
    """Each size's corpus, played in one pass: records until the largest size's actions are
    made, each size the records up to the first that brings it to its actions."""
    wanted = sorted(set(sizes))
    paced = _Paced(every)
    texts: list[str] = []
    tally = Tally()
    made = 0
    found: dict[int, Corpus] = {}
    goal = actions * wanted[-1]
    for size in wanted:
        while made < actions * size:
            played = shaped_play(name, None, f"{seed}-{name}-{len(texts)}", shape)
            texts.append(played.text)
            made += played.actions
            tally.add(played)
            if paced.due():
                progress(f"referee bench: playing {name} {shape} records: {made:,} of {goal:,} actions")
        kinds, steps = tally.shares()
        found[size] = Corpus(("\n".join(texts) + "\n").encode("utf-8"), len(texts), made, kinds, steps)
    return found


def corpora(
    name: str,
    actions: int,
    seed: str,
    shape: str,
    sizes: Iterable[int],
    store: Store,
    progress: Progress = to_stderr,
    every: float = PROGRESS_EVERY,
) -> dict[int, Corpus]:
    """Each size's corpus of a game and shape, from the cache where it is kept, else played
    (all the sizes missing in one pass) and kept."""
    wanted = sorted(set(sizes))
    digest = sources_digest(name) if store.folder is not None else ""
    keys = {size: (GENERATOR, digest, name, shape, seed, actions, size) for size in wanted}
    labels = {size: f"{name}-{shape}-{size}x" for size in wanted}
    found: dict[int, Corpus] = {}
    for size in wanted:
        entry = store.get(labels[size], keys[size])
        if entry is not None:
            facts, data = entry
            try:
                found[size] = Corpus(
                    data, int(facts["records"]), int(facts["actions"]), dict(facts["kinds"]), float(facts["steps"])
                )
            except (KeyError, TypeError, ValueError):  # not an entry this version wrote: played again
                pass
    missing = [size for size in wanted if size not in found]
    if missing:
        for size, corpus in play_sizes(name, actions, seed, shape, missing, progress, every).items():
            facts = {"records": corpus.records, "actions": corpus.actions, "kinds": corpus.kinds, "steps": corpus.steps}
            store.put(labels[size], keys[size], facts, corpus.data)
            found[size] = corpus
    return {size: found[size] for size in wanted}


def _chess_games(seed: str) -> Iterator[tuple[list[Any], str]]:
    """Random chess games from one seeded chooser, each to its end or 160 plies: the
    moves of each and its PGN."""
    import random

    import chess
    import chess.pgn

    chooser = random.Random(seed)
    while True:
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 160:
            board.push(chooser.choice(list(board.legal_moves)))
        yield board.move_stack, str(chess.pgn.Game.from_board(board))


def _pgn_of(moves: list[Any]) -> str:
    """The PGN of a game of these moves (a game cut short)."""
    import chess
    import chess.pgn

    board = chess.Board()
    for move in moves:
        board.push(move)
    return str(chess.pgn.Game.from_board(board))


def chess_pgns(
    plies: Iterable[int], seed: str, progress: Progress = to_stderr, every: float = PROGRESS_EVERY
) -> dict[int, tuple[str, int]]:
    """For each ply count, random chess games made by python-chess (seeded) of that many
    plies in all, the last game cut short where needed: the PGN and its plies. A smaller
    count's games are the start of a larger one's; each is the PGN `chess_pgn` gives."""
    wanted = sorted(set(plies))
    paced = _Paced(every)
    games = _chess_games(seed)
    played: list[list[Any]] = []
    texts: list[str] = []
    made = 0
    found: dict[int, tuple[str, int]] = {}
    for count in wanted:
        while made < count:
            moves, text = next(games)
            played.append(moves)
            texts.append(text)
            made += len(moves)
            if paced.due():
                progress(f"referee bench: playing python-chess games: {made:,} of {wanted[-1]:,} plies")
        whole, total = 0, 0
        while total + len(played[whole]) <= count:
            total += len(played[whole])
            whole += 1
            if whole == len(played):
                break
        cut = [_pgn_of(played[whole][: count - total])] if total < count else []
        found[count] = ("\n\n".join([*texts[:whole], *cut]) + "\n", count)
    return found


def chess_pgn(plies: int, seed: str) -> tuple[str, int]:
    """Random chess games made by python-chess (seeded), of `plies` plies in all (at least):
    the PGN and its number of plies."""
    return chess_pgns([plies], seed)[plies]


def pgns(
    plies: Iterable[int], seed: str, store: Store, progress: Progress = to_stderr, every: float = PROGRESS_EVERY
) -> dict[int, tuple[str, int]]:
    """`chess_pgns`, each ply count's PGN from the cache where it is kept, else made (all
    the counts missing in one pass) and kept."""
    from importlib.metadata import version

    wanted = sorted(set(plies))
    made_by = version("chess")  # python-chess's distribution
    keys = {count: ("chess", CHESS_GENERATOR, made_by, seed, count) for count in wanted}
    found: dict[int, tuple[str, int]] = {}
    for count in wanted:
        entry = store.get(f"chess-{count}", keys[count])
        if entry is not None and entry[0].get("plies") == count:
            found[count] = (entry[1].decode("utf-8"), count)
    missing = [count for count in wanted if count not in found]
    if missing:
        for count, (text, made) in chess_pgns(missing, seed, progress, every).items():
            store.put(f"chess-{count}", keys[count], {"plies": made}, text.encode("utf-8"))
            found[count] = (text, made)
    return {count: found[count] for count in wanted}
