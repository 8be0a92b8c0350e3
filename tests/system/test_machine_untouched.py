"""A plain `python -m pytest` leaves the machine as it found it: no test installs a package or
adds, changes or removes a system user (a package into a throwaway virtual environment the
test makes and removes is its own business). `.ci/run` installs the packages and
`.ci/prepare-system` makes the users; a test that lacks them skips saying which (a failure
under `CI=true`)."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
CHANGES_THE_MACHINE = re.compile(
    r"""["'](apt-get|apt|dpkg|useradd|userdel|usermod|adduser|deluser|groupadd|groupdel)["']"""
)
"""A system package manager or user tool named as a command. (pip into a throwaway venv that
the test makes and removes is allowed: it leaves the machine's own Python alone.)"""


def test_no_test_runs_a_package_manager_or_changes_system_users() -> None:
    offenders = []
    for path in sorted(TESTS.rglob("*.py")):
        if path == Path(__file__).resolve():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CHANGES_THE_MACHINE.search(line):
                offenders.append(f"{path.relative_to(TESTS.parent)}:{number}: {line.strip()}")
    assert offenders == [], "\n".join(offenders)


def test_the_pattern_finds_what_it_looks_for() -> None:
    manager = "apt" + "-get"  # (spelled apart, so that this test is no finding of its own)
    assert CHANGES_THE_MACHINE.search(f'subprocess.run(["{manager}", "install", "-y", "exim4"])')
    assert CHANGES_THE_MACHINE.search("subprocess.run(['useradd', '-m', name])")
    assert not CHANGES_THE_MACHINE.search('"no chromedriver (apt-get install chromium-driver)"')
