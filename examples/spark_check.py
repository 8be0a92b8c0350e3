"""A recipe: check a folder of RGN files with PySpark (Spark's `binaryFile` source and the
library call `referee.judge.runners.batch_check.check_text`), writing `check --json`'s lines.

    pip install pyspark            # and a Java runtime; referee importable by Spark's workers
    python examples/spark_check.py archive/ verdicts/

Each file's bytes are cut into records with `notation.stream.split` and each record checked
in Spark's Python workers; the lines are those of `referee check --json` with Spark's name
for each file as its source (`file:/...`), written as Spark's text output (`verdicts/part-*`,
in no particular order across files). A file is held whole in a task's memory. Not a
dependency of referee: docs/batch.md says how it was tried.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from referee.judge.core.verdict_words import verdict_json
from referee.judge.runners.batch_check import check_text
from referee.notation.record_splitter import split


def verdicts(path: str, content: bytes) -> Iterator[str]:
    """The JSON verdict of every record of one file, in order."""
    for number, raw in enumerate(split(content), start=1):
        yield verdict_json(check_text(raw.raw, path, number, raw.offset, raw.line, raw.column))


def main(folder: str, out: str) -> None:
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[2]").appName("referee-check").getOrCreate()
    try:
        files = (
            spark.read.format("binaryFile")
            .option("pathGlobFilter", "*.rgn")
            .option("recursiveFileLookup", "true")
            .load(folder)
        )
        lines = files.select("path", "content").rdd.flatMap(lambda row: verdicts(row.path, bytes(row.content)))
        lines.saveAsTextFile(out)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:3])
