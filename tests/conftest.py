"""Shared fixtures: where the contract's conformance records live.

The tests read the in-repo copy under `tests/data/conformance/` (see its README); when
`../shared/conformance` is beside the checkout, `tests/judge/test_conformance.py` checks that
the copy is identical to it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.cli.config_file import SETTINGS

pytest_plugins = ("tests.helpers.mail", "tests.helpers.imap", "tests.helpers.notices", "tests.helpers.browser")
"""The fixtures every folder may ask for by name: `smtp` (a real SMTP server on the loopback),
`dovecot` (a throwaway IMAP server), `receiver` (a web hook for the league's notices) and
`browser` (headless Chromium), each defined once in its helper module."""

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
SHARED_CONFORMANCE = SHARED / "conformance"
CONFORMANCE = ROOT / "tests" / "data" / "conformance"
CONFORMANCE_GAMES = tuple(sorted(folder.name for folder in CONFORMANCE.iterdir() if folder.is_dir()))
"""The games the conformance copy holds records of (a test checks: every game of the registry)."""
EXAMPLES = ROOT / "examples"

# No test reads the developer's own ~/.config/referee/config.toml or REFEREE_GAMES ...: the
# configuration file's tests (tests/cli/test_config.py) name theirs. The processes that tests
# start inherit this.
os.environ["REFEREE_CONFIG"] = ""
for _setting in SETTINGS:
    os.environ.pop(_setting.variable, None)


WORKERS_PER_CORE = 2
"""`-n auto` starts this many workers a core. The default run waits more than it computes
(servers starting, lock waits, browsers, processes it starts and reads): on the 2-core
machine it used about 730 CPU seconds in a 922-second run of two workers, 40 % of what two
cores give (2026-12-04, docs/tests.md); a second worker a core fills the waits."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """What `-n auto` means (pytest-xdist's hook): `WORKERS_PER_CORE` workers for each core this
    process may run on; where `PYTEST_XDIST_AUTO_NUM_WORKERS` is set, pytest-xdist reads it."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return WORKERS_PER_CORE * len(os.sched_getaffinity(0))


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    """A folder for the fault-injection tests: in memory (tmpfs) where there is one, else
    the test's `tmp_path` (tests/helpers/faults.py `scratch` says why). The helper is imported
    here, not at the top: importing it loads every game's engine."""
    from tests.helpers import faults

    with faults.scratch(tmp_path) as folder:
        yield folder


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


def in_ci() -> bool:
    """True under continuous integration (`CI` set and not false, as `.ci/run` and the
    usual CI services set it)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Under CI a skipped browser test, or a skipped test that needs a system part (marked
    `needs_system`: Dovecot), is a failure: CI must run them, never skip them quietly for
    want of Chromium, its driver or a server."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if not (report.skipped and in_ci()):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    if item.get_closest_marker("browser") is not None:
        report.outcome = "failed"
        report.longrepr = f"a browser test was skipped under CI ({reason}): install chromium and chromium-driver"
    elif item.get_closest_marker("needs_system") is not None:
        report.outcome = "failed"
        report.longrepr = f"a test that needs a system part was skipped under CI ({reason}): .ci/run installs it"
