"""`referee bench`: the referee's speed and memory beside python-chess (and pgn-extract), on
corpora of every shape (docs/bench.md); a thin command over `referee.bench`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated

import typer

from referee.cli.app import app, err, fail_usage, game_name, out
from referee.errors import UsageError


@app.command(short_help="Actions checked per second beside python-chess, peak memory.")
def bench(
    names: Annotated[
        list[str] | None, typer.Argument(help="Games to measure (default: all).", metavar="GAME...")
    ] = None,
    actions: Annotated[
        int, typer.Option("--actions", min=1, help="Size 1x: random records of at least N actions per game.")
    ] = 50_000,
    runs: Annotated[int, typer.Option("--runs", min=1, help="Processes timed per figure (the best counts).")] = 3,
    sizes: Annotated[
        str,
        typer.Option(
            "--sizes",
            help="The multiples of size 1x to measure, e.g. 1,10,100: size N is N times the actions, distinct records.",
        ),
    ] = "1,10",
    seed: Annotated[str, typer.Option("--seed", help="Seed of the random playouts.")] = "bench",
    no_cache: Annotated[
        bool,
        typer.Option(
            "--no-cache",
            help="Play every corpus afresh, neither reading nor keeping the generated records "
            "(kept by default in $XDG_CACHE_HOME/referee/bench, else ~/.cache/referee/bench).",
        ),
    ] = False,
    shape: Annotated[
        str,
        typer.Option(
            "--shape",
            help="How the records are played and written, one shape or several separated by commas: "
            "purposeful (as people play: advances, pushes, captures, battles), short (uniform random play, "
            "moves in destination form) or long (uniform, Nieuchess moves hex by hex, long turns, every roll "
            "written). Default: purposeful,short (--in-process: the first).",
        ),
    ] = "purposeful,short",
    in_process: Annotated[
        bool,
        typer.Option("--in-process", help="Instead, time reading and checking inside one process, per player count."),
    ] = False,
    records: Annotated[
        int, typer.Option("--records", min=1, help="With --in-process: random records per game and player count.")
    ] = 20,
    startup: Annotated[
        int, typer.Option("--startup", min=0, help="Instead, time start-up over N runs against a bare Typer app.")
    ] = 0,
    cluster: Annotated[
        int,
        typer.Option(
            "--cluster",
            min=0,
            metavar="RECORDS",
            help="Instead, time `referee check --json` on a folder of RECORDS random records: one process, "
            "then --jobs N and --dask local:N for each N of --workers (docs/bench.md).",
        ),
    ] = 0,
    workers: Annotated[
        str, typer.Option("--workers", metavar="N,...", help="With --cluster: the worker counts to time.")
    ] = "1,2",
    imap: Annotated[
        str | None,
        typer.Option(
            "--imap",
            metavar="URL",
            help="Instead, time one `referee mail --imap` pass over a flood of strangers' messages put into this "
            "throwaway mailbox (the password from REFEREE_IMAP_PASSWORD; docs/mail.md).",
        ),
    ] = None,
    flood: Annotated[
        int, typer.Option("--flood", min=1, metavar="N", help="With --imap: the strangers' messages.")
    ] = 5000,
    archives: Annotated[
        int,
        typer.Option(
            "--archives",
            min=0,
            metavar="RECORDS",
            help="Instead, time `import abstractplay` of RECORDS Pikemen records and `check` of their Parquet "
            "table beside `check` of their RGN text (CPU seconds, docs/bench.md).",
        ),
    ] = 0,
    queues: Annotated[
        bool,
        typer.Option(
            "--queues",
            help="Instead, time what conditional moves cost: the look every write makes beside a whole `play`, "
            "a 64 KB queue checked at submission, a `play` that triggers a queued reply (docs/bench.md).",
        ),
    ] = False,
    memory: Annotated[
        float,
        typer.Option(
            "--memory",
            min=0,
            metavar="SCALE",
            help="Instead, time `referee check` and its peak memory on large inputs (SCALE 1: a 50 MB file, "
            "a 10 MB tag, 200,000 comment lines, a 100,000-turn game, then one large record per path: "
            "1,000,000 turns legal, illegal, mistyped and --json, a 10 MB line, a 50 MB tag, a 2,000,000-action turn).",
        ),
    ] = 0,
) -> None:
    """Measure what users run: whole `referee check` processes on random records at sizes
    1x and 10x (each size distinct records: 10x is ten times the actions, not 1x repeated),
    actions per second and peak memory, beside python-chess reading and validating as many
    plies of its own random games. The records are played once and kept in a cache
    (progress on stderr while they are played); --no-cache plays them afresh.

    The ratio is ours over python-chess's, shown beside the goal. python-chess comes with
    the bench extra: pip install '.[bench]' in the checkout. Example: referee bench nika   |
    referee bench --actions 2000   |   referee bench nieuchess --shape long   |   referee bench --startup 21   |
    referee bench --memory 0.2   |   referee bench --cluster 3000 --workers 1,2   |
    referee bench --imap imap://gm@127.0.0.1:1143/INBOX --flood 5000   |
    referee bench --archives 2000   |   referee bench --queues
    """
    from referee.bench import corpora as benchmark

    try:
        chosen = [game_name(name) for name in names or []]
        shapes = benchmark.read_shapes(shape)
        rows: Iterable[str]
        if imap is not None:
            from referee.bench.imap_bench import flood as flooded

            rows = flooded(imap, flood).rows()
        elif queues:
            from referee.bench import queue_bench

            rows = queue_bench.rows(runs)
        elif archives:
            from referee.bench import archives as archived

            rows = archived.compare(archives, runs, seed)
        elif cluster:
            from referee.bench import cluster_bench as scaling

            rows = scaling.compare(cluster, scaling.read_workers(workers), runs, seed)
        elif memory:
            rows = benchmark.memory(memory, command=True)
        elif startup:
            rows = benchmark.startup(startup)
        elif in_process:
            rows = benchmark.run(chosen or None, records, seed, shapes[0])
        else:
            from referee.bench import chess as bench_chess

            if not bench_chess.has_chess():
                err(
                    "referee bench: python-chess is not installed, so its figures are left out: "
                    "pip install '.[bench]' in the checkout"
                )
            scales = bench_chess.read_sizes(sizes)
            rows = bench_chess.compare(chosen or None, actions, seed, runs, scales, shapes, not no_cache, err)
        for row in rows:
            out(row)
    except UsageError as error:
        fail_usage(error)
