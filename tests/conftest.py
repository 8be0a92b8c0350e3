"""Shared fixtures: where the contract's conformance records live.

The tests read the in-repo copy under `tests/data/conformance/` (see its README); when
`../shared/conformance` is beside the checkout, `tests/test_conformance.py` checks that
the copy is identical to it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHARED_CONFORMANCE = SHARED / "conformance"
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
CONFORMANCE_GAMES = tuple(sorted(folder.name for folder in CONFORMANCE.iterdir() if folder.is_dir()))
"""The games the conformance copy holds records of (a test checks: every game of the registry)."""
EXAMPLES = ROOT / "examples"


class MissingTestData(AssertionError):
    """The in-repo test data is missing: a failure, never a skip."""


def conformance_folder(game: str) -> Path:
    """The in-repo folder of a game's conformance records; fails loudly when it is missing."""
    folder = CONFORMANCE / game
    if not (folder / "expected.jsonl").is_file() or not any(folder.glob("*.rgn")):
        raise MissingTestData(
            f"{folder} is missing or holds no records: the conformance records are part of the "
            "repository (tests/data/conformance/README.md says how to refresh them)"
        )
    return folder
