"""Every crash the fuzzers ever found (tests/fuzz/crashes/HARNESS/*), replayed through its
harness in the default run, and every seed (tests/fuzz/corpus/HARNESS/*) too: each must now
pass through without a defect. A crash whose fix belongs to another part still being changed
is listed in KNOWN, with its defect, and expected to fail (strict: once fixed, the mark must go).

Adding a crash: docs/fuzzing.md ("A crash found")."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.fuzz.harnesses import HARNESSES, files_in

KNOWN: dict[str, str] = {
    # "HARNESS/FILE": "the defect, where it is, what will fix it",
}


@pytest.fixture(autouse=True)
def _journals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The league harness writes an input's journal (left out of fuzzing runs on main: issue 44)."""
    monkeypatch.setenv("REFEREE_FUZZ_JOURNALS", "1")


def _harness(name: str) -> Callable[[bytes], None]:
    module = importlib.import_module(HARNESSES[name].module)
    test_one_input: Callable[[bytes], None] = module.TestOneInput
    return test_one_input


def _cases(kind: str) -> list[object]:
    cases: list[object] = []
    for name, harness in HARNESSES.items():
        folder = harness.crashes if kind == "crashes" else harness.seeds[0]
        for path in files_in(folder):
            key = f"{name}/{path.relative_to(folder)}"
            marks = [pytest.mark.xfail(reason=KNOWN[key], strict=True)] if key in KNOWN else []
            cases.append(pytest.param(name, path, id=key, marks=marks))
    return cases


@pytest.mark.parametrize(("harness", "path"), _cases("crashes"))
def test_a_crash_found_once_is_handled_now(harness: str, path: Path) -> None:
    _harness(harness)(path.read_bytes())


@pytest.mark.parametrize(("harness", "path"), _cases("seeds"))
def test_every_seed_passes_its_harness(harness: str, path: Path) -> None:
    _harness(harness)(path.read_bytes())


def test_every_known_crash_is_a_file() -> None:
    kept = {
        f"{name}/{path.relative_to(harness.crashes)}"
        for name, harness in HARNESSES.items()
        for path in files_in(harness.crashes)
    }
    assert set(KNOWN) <= kept, set(KNOWN) - kept


def test_every_harness_has_seeds_and_a_crashes_folder() -> None:
    for name, harness in HARNESSES.items():
        assert list(files_in(harness.seeds[0])), f"no seeds for {name}"
        assert harness.crashes.is_dir(), f"no {harness.crashes}"
