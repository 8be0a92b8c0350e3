"""Checking records in bulk: the pure library call behind `referee check`, and the
parallel check of `referee check --jobs N` (and `--dask`, `referee.judge.runners.dask_check`).

`check_text(text, source, record, offset)` is a pure function from one record's text to
its `Verdict`: module-level, picklable, with picklable arguments and result, so any
engine (multiprocessing, concurrent.futures, Dask, Spark) can map it over records. It
gives exactly the verdict `referee check` gives the same record in its file, when told
where the record stands there (`offset`, `line`, `column`).

`check_lines(names, form, jobs, shard)` is `check` spread over worker processes: the
sources are cut into records in this process (a plain byte scan, `cut`), parts of records
(`parts`, across sources, by count and bytes) are read, replayed and written as `check`'s
lines in the workers (`check_part`, also a pure function of picklable values), and the
lines come back in input order, each part as soon as it and every part before it are
done (`run_parts`, over any engine with a `submit`). At most `4 * jobs` parts are in
flight, so memory is bounded whatever the size of the input. `--shard K/N` keeps every
N-th record of the inputs (`Shard`).
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, NamedTuple, Protocol

from referee.errors import UnreadableError, UsageError
from referee.games import registry
from referee.judge import session
from referee.judge.core import verdicts
from referee.judge.core.verdict_words import verdict_json, verdict_line
from referee.judge.core.verdicts import Problem, ProblemKind, Status, Verdict
from referee.judge.sources import parquet_rows, record_sources
from referee.notation.record_splitter import MAX_RECORD, RawRecord, split

if TYPE_CHECKING:
    from concurrent.futures import Executor


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


class Shard(NamedTuple):
    """`--shard K/N`: the K-th of N parts of the inputs' records (1 <= K <= N)."""

    part: int
    parts: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """`K/N` as a Shard. Raises UsageError unless 1 <= K <= N."""
        index, slash, count = text.partition("/")
        if not slash or not index.strip().isdigit() or not count.strip().isdigit():
            raise UsageError(f"--shard {text}: expected K/N, the K-th of N parts, such as 1/4")
        shard = cls(int(index), int(count))
        if not 1 <= shard.part <= shard.parts:
            raise UsageError(f"--shard {text}: K must be between 1 and N (here N is {shard.parts})")
        return shard

    def holds(self, place: int) -> bool:
        """Whether the record at `place` among all the inputs' records (0 = first) is this shard's."""
        return place % self.parts == self.part - 1


Cut = tuple[str, int, RawRecord]
"""A record cut from its source: the source's name, its place there (1 = first), its bytes."""


def cut(names: list[str], shard: Shard | None = None, max_record: int = MAX_RECORD) -> Iterator[Cut | Problem]:
    """Every record of every source in order, as cut from it (not yet read), and the
    problems of the sources (unreadable, no record) where they occur, as `session.check`
    meets them. With `shard`, only its records: the records of all the sources are counted
    in input order, and the i-th (0 = first) is shard (i mod N) + 1's; a Parquet input
    counts by row groups instead (each row group is one place), so that a shard reads only
    its own row groups. Every shard reports every problem (each shard reads every source)."""
    place = 0
    for name in names:
        found = False
        try:
            if shard is not None and parquet_rows.is_parquet(name):  # split by row groups, not rows
                groups = parquet_rows.row_groups(name)
                held = {group for group in range(len(groups)) if shard.holds(place + group)}
                found, place = sum(groups) > 0, place + len(groups)
                for number, raw in parquet_rows.raw_records(name, max_record, held.__contains__):
                    yield name, number, raw
                if not found:
                    yield session.no_record(name)
                continue
            for number, raw in record_sources.raw_records(name, max_record):
                found = True
                if shard is None or shard.holds(place):
                    yield name, number, raw
                place += 1
        except UnreadableError as error:
            yield Problem(ProblemKind.UNREADABLE, str(error))
            continue
        if not found:
            yield session.no_record(name)


class Form(NamedTuple):
    """What a worker makes of a part's verdicts: the lines `check` prints."""

    json: bool
    """JSON verdicts (with tokens and suggestions), else text lines."""
    quiet: bool = False
    """Lines only for records that are not legal."""
    instant: int | None = None
    """`--as-of`: a timed record's clock as of this instant."""


class Part(NamedTuple):
    """Consecutive records (of one source or several) sent to a worker together."""

    records: list[Cut]
    form: Form


class Checked(NamedTuple):
    """What a worker sends back for a part: the lines to print, and what `check`'s tally
    needs of its verdicts."""

    statuses: dict[Status, int]
    mismatched: int
    """Records whose claimed result does not match."""
    text: str
    """The part's lines, each ending with a newline."""


def check_part(part: Part) -> Checked:
    """A part's records checked, and their lines written, in order (run in a worker)."""
    form = part.form
    statuses: dict[Status, int] = {}
    mismatched = 0
    lines: list[str] = []
    write = verdict_json if form.json else verdict_line
    for name, number, raw in part.records:
        verdict = session.check_raw(raw, name, number, form.json)
        if form.instant is not None:
            verdict = verdicts.verdict_as_of(verdict, form.instant)
        status = verdict.status
        statuses[status] = statuses.get(status, 0) + 1
        if verdict.result_matches is False:
            mismatched += 1
        if not (form.quiet and verdict.legal):
            lines.append(write(verdict))
    return Checked(statuses, mismatched, "".join(line + "\n" for line in lines))


PART_RECORDS = 64
PART_BYTES = 1 << 18
"""The smallest part of `--jobs`: up to 64 records or about 256 KB, some 0.1 s of work on
random records of 360 actions, against well under a millisecond of this process per part.
Larger inputs get larger parts (`sized`)."""
PARTS_PER_WORKER = 8
"""`sized` aims at this many parts per worker: enough that the last parts keep every worker
busy (the tail is at most about one part's work of one worker in 8), few enough that the
per-part cost (this process's, a scheduler's) is spent rarely."""
LARGEST = 4
"""A part is at most this many times the smallest: the parts in flight (`4 * jobs` of them
with `--jobs`, `2 * threads + 2` with `--dask`) hold at most 1 MB (`--jobs`) or 2 MB
(`--dask`) of records each, so this process's memory stays bounded (64 MB of records with
16 workers), whatever the size of the input."""


def sized(names: list[str], workers: int, records: int, size: int) -> tuple[int, int]:
    """The records and bytes of a part for `workers` workers on the sources `names`: the
    smallest (`records`, `size`) scaled up, at most LARGEST times, so that the sources' bytes
    make about PARTS_PER_WORKER parts per worker. Standard input's size is not known in
    advance: with it, the smallest parts. A compressed file counts its compressed bytes (its
    parts come out larger than aimed at, never past LARGEST times)."""
    total = 0
    for name in names:
        if name == "-":
            return records, size
        try:
            total += os.stat(name).st_size
        except OSError:
            continue  # reported where the source is read
    scale = min(float(LARGEST), max(1.0, total / (PARTS_PER_WORKER * max(1, workers)) / size))
    return round(records * scale), round(size * scale)


def parts(items: Iterator[Cut | Problem], form: Form, records: int, size: int) -> Iterator[Part | Problem]:
    """The records in parts of at most `records` records or about `size` bytes (a single
    larger record is a part of its own), across sources; a problem ends the part before it
    and comes after it, in its place."""
    held: list[Cut] = []
    total = 0
    for item in items:
        if isinstance(item, Problem):
            if held:
                yield Part(held, form)
                held, total = [], 0
            yield item
            continue
        held.append(item)
        total += len(item[2].raw)
        if len(held) >= records or total >= size:
            yield Part(held, form)
            held, total = [], 0
    if held:
        yield Part(held, form)


def jobs_for(jobs: int) -> int:
    """The number of worker processes `--jobs N` may start: N, but never more than the
    cores available (PLAY.md §8); 0 is one per core."""
    try:
        cores = max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        cores = max(1, os.cpu_count() or 1)
    return cores if jobs <= 0 else min(jobs, cores)


class Engine(Protocol):
    """Where parts are checked: `submit(part)` gives a future of `check_part(part)`."""

    def submit(self, part: Part) -> Waited: ...


class Waited(Protocol):
    def done(self) -> bool: ...

    def result(self) -> Checked: ...


class _Pool:
    def __init__(self, pool: Executor) -> None:
        self.pool = pool

    def submit(self, part: Part) -> Waited:
        return self.pool.submit(check_part, part)


def check_lines(
    names: list[str], form: Form, jobs: int, shard: Shard | None = None, max_record: int = MAX_RECORD
) -> Iterator[Checked | Problem]:
    """`check`'s lines and tally of the sources (of `shard`'s records), each part as soon
    as it and every part before it are done, with the records checked by `jobs` worker
    processes (0: one per core; 1: this process). The lines are those the verdicts of
    `check_files` give, in the same order."""
    workers = jobs_for(jobs)
    items = cut(names, shard, max_record)
    if workers == 1:  # one record a part: each verdict as soon as its record has arrived
        for part in parts(items, form, 1, PART_BYTES):
            yield part if isinstance(part, Problem) else check_part(part)
        return
    # No more workers than parts of work (PLAY.md §8): the first `workers` parts are cut
    # before any worker starts.
    work = parts(items, form, *sized(names, workers, PART_RECORDS, PART_BYTES))
    ahead: list[Part | Problem] = []
    for item in work:
        ahead.append(item)
        if sum(isinstance(one, Part) for one in ahead) >= workers:
            break
    workers = min(workers, sum(isinstance(one, Part) for one in ahead))
    every = itertools.chain(ahead, work)
    if workers <= 1:  # (then `work` is spent: the whole input was cut)
        for part in every:
            yield part if isinstance(part, Problem) else check_part(part)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor  # only when asked for: it imports multiprocessing

    # fork: a worker starts in a millisecond with the modules this process has imported.
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    if context.get_start_method() == "fork":
        preload()
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        yield from run_parts(_Pool(pool), every, 4 * workers)


def preload() -> None:
    """Import every game's rule engine here, before workers are forked from this process, so
    that they start with them rather than each importing them again (some 0.06 s of CPU time
    per worker: docs/batch.md)."""
    for game in registry.GAMES:
        registry.engine(game)


def run_parts(engine: Engine, work: Iterator[Part | Problem], limit: int) -> Iterator[Checked | Problem]:
    """Each part checked by the engine, at most `limit` parts in flight, the results in
    order as soon as they and every one before them are done.

    Should the engine fail on a part (a worker killed, out of memory), that part and every
    later one are checked in this process instead, so the output is still complete; an
    error of the check itself (such as a `--as-of` before a record's last stamp) is raised
    here, again, by that check."""
    pending: deque[tuple[Part | Problem, Waited | None]] = deque()
    broken = False

    def done(item: Part | Problem, future: Waited | None) -> Checked | Problem:
        nonlocal broken
        if isinstance(item, Problem):
            return item
        if future is not None and not broken:
            try:
                return future.result()
            except Exception:  # noqa: BLE001 - a worker died: check here instead
                broken = True
        return check_part(item)

    for item in work:
        future = None
        if isinstance(item, Part) and not broken:
            try:
                future = engine.submit(item)
            except Exception:  # noqa: BLE001 - the engine is broken
                broken = True
        pending.append((item, future))
        while len(pending) > limit or (pending and _ready(pending[0][1])):
            yield done(*pending.popleft())
    while pending:
        yield done(*pending.popleft())


def _ready(future: Waited | None) -> bool:
    return future is None or future.done()
