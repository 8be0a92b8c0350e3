"""Checking records in bulk: the pure library call behind `referee check`, and the
parallel check of `referee check --jobs N`.

`check_text(text, source, record, offset)` is a pure function from one record's text to
its `Verdict`: module-level, picklable, with picklable arguments and result, so any
engine (multiprocessing, concurrent.futures, Dask, Spark) can map it over records. It
gives exactly the verdict `referee check` gives the same record in its file, when told
where the record stands there (`offset`, `line`, `column`).

`check_files(names, jobs)` is `session.check` spread over worker processes: the sources
are cut into records in this process (a plain byte scan), chunks of records are read and
replayed in the workers, and the verdicts come back in input order, each chunk as soon as
it and every chunk before it are done. At most `4 * jobs` chunks are in flight, so memory
is bounded whatever the size of the input.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple

from notation.stream import RawRecord, split
from referee.judge import session, sources
from referee.judge.errors import UnreadableError, UsageError
from referee.judge.verdicts import Problem, ProblemKind, Verdict

if TYPE_CHECKING:
    from concurrent.futures import Future


class NoRecordError(UsageError):
    """A text given to `check_text` that holds no record (no `[Game` tag)."""


class SeveralRecordsError(UsageError):
    """A text given to `check_text` that holds more than one record."""


def check_text(
    text: str | bytes,
    source: str = "-",
    record: int = 1,
    offset: int = 0,
    line: int = 1,
    column: int = 1,
    *,
    annotate: bool = True,
) -> Verdict:
    """The verdict of the one record in `text` (str, or bytes as read from a file).

    `source` and `record` name it in the verdict (`record` is its place in its source,
    1 = first); `offset`, `line` and `column` say where `text` starts in its source, so
    that the verdict's `offset` and its error's line and column are those of the source
    (text before the record's `[Game`, such as a mail's greeting, is skipped and counted).
    `annotate` adds the turn token and the did-you-mean suggestions, as `check --json`.

    Raises NoRecordError when `text` holds no record and SeveralRecordsError when it holds
    more than one (cut a file into records first, e.g. with `notation.stream.split`)."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    found = split(data)
    if not found:
        raise NoRecordError(f'{source}: no record found (a record starts with [Game "..."])')
    if len(found) > 1:
        raise SeveralRecordsError(f"{source}: the text holds {len(found)} records, not one (at offsets {_at(found)})")
    raw = found[0]
    # Where the record starts in the source: the text's start plus what precedes the `[Game`.
    start_line = line + raw.line - 1
    start_column = column + raw.column - 1 if raw.line == 1 else raw.column
    placed = RawRecord(offset + raw.offset, start_line, start_column, raw.raw)
    return session.check_raw(placed, source, record, annotate)


def _at(found: list[RawRecord]) -> str:
    shown = ", ".join(str(raw.offset) for raw in found[:5])
    return shown + (", ..." if len(found) > 5 else "")


class _Chunk(NamedTuple):
    """Consecutive records of one source, sent to a worker together."""

    source: str
    first: int
    """The place of the first in its source (1 = first)."""
    records: list[RawRecord]
    annotate: bool


def check_chunk(chunk: _Chunk) -> list[Verdict]:
    """The verdicts of a chunk's records, in order (run in a worker process)."""
    return [
        session.check_raw(raw, chunk.source, number, chunk.annotate)
        for number, raw in enumerate(chunk.records, chunk.first)
    ]


CHUNK_RECORDS = 64
CHUNK_BYTES = 1 << 20


def _chunks(name: str, annotate: bool) -> Iterator[_Chunk | Problem]:
    """A source's records in chunks of at most CHUNK_RECORDS records or about CHUNK_BYTES
    bytes (a single larger record is a chunk of its own), then its problems, as
    `session.check` reports them (unreadable, no record)."""
    records: list[RawRecord] = []
    size, first, number = 0, 1, 0
    try:
        for number, raw in sources.raw_records(name):
            records.append(raw)
            size += len(raw.raw)
            if len(records) >= CHUNK_RECORDS or size >= CHUNK_BYTES:
                yield _Chunk(name, first, records, annotate)
                records, size, first = [], 0, number + 1
    except UnreadableError as error:
        if records:
            yield _Chunk(name, first, records, annotate)
        yield Problem(ProblemKind.UNREADABLE, str(error))
        return
    if records:
        yield _Chunk(name, first, records, annotate)
    if number == 0:
        yield session.no_record(name)


def jobs_for(jobs: int) -> int:
    """The number of worker processes `--jobs N` may start: N, but never more than the
    cores available (PLAY.md §8); 0 is one per core."""
    try:
        cores = max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cores = max(1, os.cpu_count() or 1)
    return cores if jobs <= 0 else min(jobs, cores)


def check_files(names: list[str], jobs: int, annotate: bool = False) -> Iterator[Verdict | Problem]:
    """What `session.check(names, annotate)` yields, in the same order, with the records
    read and replayed by `jobs` worker processes (0: one per core).

    Should a worker die (killed, out of memory), the chunk it held and every later one
    are checked in this process instead, so the output is still complete."""
    workers = jobs_for(jobs)
    if workers == 1:
        yield from session.check(names, annotate=annotate)
        return
    items = (item for name in names for item in _chunks(name, annotate))
    # No more workers than chunks of work: the first `workers` chunks are cut before any starts.
    ahead: list[_Chunk | Problem] = []
    for item in items:
        ahead.append(item)
        if sum(isinstance(one, _Chunk) for one in ahead) >= workers:
            break
    workers = min(workers, sum(isinstance(one, _Chunk) for one in ahead))
    if workers <= 1:  # (then `items` is spent: the whole input was cut)
        for item in ahead:
            yield from [item] if isinstance(item, Problem) else check_chunk(item)
        yield from (one for item in items for one in ([item] if isinstance(item, Problem) else check_chunk(item)))
        return
    from concurrent.futures import ProcessPoolExecutor  # only when asked for: it imports multiprocessing

    pending: deque[tuple[_Chunk | Problem, Future[list[Verdict]] | None]] = deque()
    limit = 4 * workers
    with ProcessPoolExecutor(max_workers=workers) as pool:
        broken = False

        def done(item: _Chunk | Problem, future: Future[list[Verdict]] | None) -> list[Verdict] | list[Problem]:
            nonlocal broken
            if isinstance(item, Problem):
                return [item]
            if future is not None and not broken:
                try:
                    return future.result()
                except Exception:  # noqa: BLE001 - a worker died: check here instead
                    broken = True
            return check_chunk(item)

        for item in itertools.chain(ahead, items):
            future = None
            if isinstance(item, _Chunk) and not broken:
                try:
                    future = pool.submit(check_chunk, item)
                except RuntimeError:  # the pool is broken
                    broken = True
            pending.append((item, future))
            while len(pending) > limit or (pending and _ready(pending[0][1])):
                yield from done(*pending.popleft())
        while pending:
            yield from done(*pending.popleft())


def _ready(future: Future[list[Verdict]] | None) -> bool:
    return future is None or future.done()
