"""The harnesses, one per door the referee opens to files and messages from outside, and
where their seeds and kept crashes live (docs/fuzzing.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CORPUS = HERE / "corpus"
CRASHES = HERE / "crashes"


class Harness(NamedTuple):
    module: str
    summary: str
    instrument: tuple[str, ...]
    """The packages whose code guides the fuzzer (Atheris instruments them as they are imported)."""
    extra_seeds: tuple[Path, ...] = ()
    max_len: int = 4096

    @property
    def name(self) -> str:
        return next(name for name, harness in HARNESSES.items() if harness is self)

    @property
    def seeds(self) -> tuple[Path, ...]:
        return (CORPUS / self.name, *self.extra_seeds)

    @property
    def crashes(self) -> Path:
        return CRASHES / self.name


HARNESSES: dict[str, Harness] = {
    "check": Harness(
        "tests.fuzz.check_record",
        "a record file through `check` and `check --json` (batch.check_lines)",
        ("referee",),
        (ROOT / "tests" / "data" / "conformance",),
    ),
    "mail": Harness(
        "tests.fuzz.mail_gateway",
        "a mail message through the gateway of `referee mail` (gateway.handle)",
        ("referee", "email", "authres", "mailparser_reply"),
        max_len=8192,
    ),
    "league": Harness(
        "tests.fuzz.league_folder",
        "a league folder (league.toml, league.log, games, a journal) through `league status` and `league tick`",
        ("referee", "tomllib"),
        max_len=8192,
    ),
    "config": Harness(
        "tests.fuzz.config_file",
        "a configuration file through the loader of referee/cli/config_file.py",
        ("referee", "tomllib"),
        max_len=4096,
    ),
}


def files_in(folder: Path) -> Iterator[Path]:
    """The regular files under a folder, in a stable order (none when it is missing)."""
    if folder.is_dir():
        yield from sorted(path for path in folder.rglob("*") if path.is_file() and not path.name.startswith("."))


def seed_files(harness: Harness) -> list[Path]:
    return [path for folder in harness.seeds for path in files_in(folder)]
