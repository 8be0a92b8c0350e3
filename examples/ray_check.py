"""A recipe: check a folder of RGN files with Ray Data (`read_binary_files` and the library
call `referee.judge.runners.batch_check.check_text`), writing `check --json`'s lines.

    pip install 'ray[data]'
    python examples/ray_check.py archive/ verdicts.jsonl

Each file's bytes are cut into records with `notation.stream.split` and each record checked
in Ray's workers; the lines are those of `referee check --json` with Ray's path of each file
as its source, written by this process as they stream back (in no particular order across
files). A file is held whole in a task's memory. Not a dependency of referee: docs/batch.md
says how it was tried.
"""

from __future__ import annotations

import sys
from typing import Any

from referee.judge.core.verdict_words import verdict_json
from referee.judge.runners.batch_check import check_text
from referee.notation.record_splitter import split


def verdicts(row: dict[str, Any]) -> list[dict[str, str]]:
    """The JSON verdict of every record of one file (a row of `path` and `bytes`), in order."""
    return [
        {"line": verdict_json(check_text(raw.raw, row["path"], number, raw.offset, raw.line, raw.column))}
        for number, raw in enumerate(split(row["bytes"]), start=1)
    ]


def main(folder: str, out: str) -> None:
    import ray

    ray.init(num_cpus=2, include_dashboard=False)
    try:
        files = ray.data.read_binary_files(folder, include_paths=True, file_extensions=["rgn"])
        with open(out, "w", encoding="utf-8") as written:
            for row in files.flat_map(verdicts).iter_rows():
                written.write(row["line"] + "\n")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main(*sys.argv[1:3])
