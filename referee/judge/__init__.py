"""The judging core: one record in; its verdict, its steps, its token and its words out.

Five rooms, each importing only from the rooms listed before it, and `session.py`, the
functions each command calls:

- `sources/`: where records come from (files, standard input, compressed streams, Parquet rows).
- `core/`: one record replayed to its verdict: the verdict's values, the replay and its
  loop, tag values, the clock's walk, the turn token, did-you-mean, the verdict's words.
- `fast/`: the same verdicts without the record model: the fused and the streamed checks.
- `session.py`: what each command does, as values (check, show, moves, format, replay).
- `services/`: what single commands add: a new record, an archive's statistics, random playouts.
- `runners/`: checking many records: in bulk, in parallel, on a Dask cluster, into a Parquet table.
"""
