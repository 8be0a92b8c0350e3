"""Checking many records: `referee check` in bulk and with `--jobs N`, on a Dask cluster
(`--dask`), and the verdicts as a Parquet table (`--parquet`)."""
