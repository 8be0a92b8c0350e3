"""`mypy --strict` over the one package `referee`, read from its three folders.

mypy finds a module by its folder, and knows nothing of pyproject.toml's `package-dir`
(notation/ is referee.notation, games/ is referee.games: docs/architecture.md). So this
gives mypy every file with the name it is imported by, through mypy's own build API, with
the options of `mypy --strict` and pyproject.toml's [tool.mypy]; the messages name the
real files (games/api.py:12: ...). Run from the repository's root: `python .ci/typecheck.py`;
exit 1 when mypy finds an error, as mypy itself does."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from mypy import build
from mypy.errors import CompileError
from mypy.main import process_options
from mypy.modulefinder import BuildSource

FOLDERS = (("referee", "referee"), ("notation", "referee.notation"), ("games", "referee.games"))


def sources(root: Path) -> list[BuildSource]:
    found = []
    for top, name in FOLDERS:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root / top).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            found.append(BuildSource(str(path.relative_to(root)), ".".join((name, *parts)), None))
    return found


def main() -> int:
    root = Path(__file__).resolve().parents[1]
    os.chdir(root)  # the messages name files relative to the root, as `mypy referee` does
    _, options = process_options(["--strict", "--config-file", str(root / "pyproject.toml"), "-c", "pass"])
    try:
        result = build.build(sources(root), options)
    except CompileError as error:
        print("\n".join(error.messages))
        return 2
    for line in result.errors:
        print(line)
    files = len({line.split(":")[0] for line in result.errors})
    count = len(sources(root))
    if result.errors:
        print(f"Found {len(result.errors)} errors in {files} files (checked {count} source files)")
        return 1
    print(f"Success: no issues found in {count} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
