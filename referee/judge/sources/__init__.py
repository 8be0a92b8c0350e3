"""Where records come from: a file, standard input, a compressed stream or a Parquet
table, cut into raw records as they arrive (docs/archives.md, docs/bounds.md)."""
