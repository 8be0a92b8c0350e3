"""Check a folder of RGN files on a Dask cluster and write the verdicts as JSON Lines.

    pip install 'referee[dask]'
    python examples/dask_check.py league/                      # a LocalCluster on this machine
    python examples/dask_check.py league/ --address tcp://scheduler:8786 -o verdicts.jsonl

The files (`*.rgn` in the folder and below, in sorted order) are cut into records here,
with `notation.stream.raw_records`; each record is checked on a worker by the library call
`referee.judge.batch.check_text`, a pure function of the record's text and its place. The lines
written are byte for byte those of `referee check --json` on the same files in the same
order; a file with no record is said on standard error, as `check` does. Workers need
`referee` installed. At most `--in-flight` records are sent before their verdicts are
written, so memory stays bounded on any archive.

Exit status: 0 when every record is legal, 1 otherwise, 2 for a usage error (no such
folder, a cluster that cannot be reached).
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from notation.stream import raw_records
from referee.judge.batch import check_text
from referee.judge.words import verdict_json


def records(folder: Path) -> Iterator[tuple[str, int, Any]]:
    """(file name, record number, RawRecord) of every record of every file, in order;
    files with no record are said on standard error."""
    for path in sorted(folder.rglob("*.rgn")):
        name = str(path)
        count = 0
        with path.open("rb") as stream:
            for count, raw in enumerate(raw_records(stream), start=1):
                yield name, count, raw
        if count == 0:
            print(f'referee: {name}: no record found (a record starts with [Game "..."])', file=sys.stderr)


def check_folder(client: Any, folder: Path, out: IO[str], in_flight: int = 2048) -> bool:
    """Check every record of `folder` on the client's cluster and write one JSON verdict
    per line to `out`, in input order. True when every record is legal."""
    pending: deque[Any] = deque()
    legal = True

    def write_oldest() -> None:
        nonlocal legal
        verdict = pending.popleft().result()
        legal = legal and verdict.legal
        out.write(verdict_json(verdict) + "\n")

    for name, number, raw in records(folder):
        # pure=False: two identical records (same text and place) are still two tasks.
        future = client.submit(check_text, raw.raw, name, number, raw.offset, raw.line, raw.column, pure=False)
        pending.append(future)
        while len(pending) > in_flight:
            write_oldest()
    while pending:
        write_oldest()
    return legal


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check a folder of RGN files on a Dask cluster (JSON Lines).")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--address", help="The scheduler's address (default: start a LocalCluster here).")
    parser.add_argument("--workers", type=int, default=2, help="Worker processes of the LocalCluster (default 2).")
    parser.add_argument("--output", "-o", type=Path, help="The JSON Lines file to write (default: standard output).")
    parser.add_argument("--in-flight", type=int, default=2048, help="Records sent ahead of the output (default 2048).")
    options = parser.parse_args(argv)
    if not options.folder.is_dir():
        print(f"dask_check: {options.folder} is not a folder", file=sys.stderr)
        return 2
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        print("dask_check: Dask is not installed: pip install 'referee[dask]'", file=sys.stderr)
        return 2
    try:
        if options.address:
            client = Client(options.address, timeout="20s")
            cluster = None
        else:
            cluster = LocalCluster(n_workers=options.workers, threads_per_worker=1, processes=True)
            client = Client(cluster)
    except OSError as error:
        print(f"dask_check: cannot reach the cluster: {error}", file=sys.stderr)
        return 2
    try:
        if options.output is None:
            legal = check_folder(client, options.folder, sys.stdout, options.in_flight)
        else:
            with options.output.open("w", encoding="utf-8") as out:
                legal = check_folder(client, options.folder, out, options.in_flight)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return 0 if legal else 1


if __name__ == "__main__":
    sys.exit(main())
