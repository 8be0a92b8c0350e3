"""CI must run the browser tests (issue 19 item 12): the skip message names what is really
missing, and under CI a skipped browser test is a failure, not a quiet skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT
from tests.helpers.browser import missing_browser

SKIPPING = """
import pytest

@pytest.mark.browser
def test_in_the_browser():
    pytest.skip("no /usr/bin/chromedriver (apt-get install chromium-driver)")

def test_elsewhere():
    pytest.skip("not a browser test")
"""


def test_the_skip_message_names_only_what_is_missing(tmp_path: Path) -> None:
    there = tmp_path / "there"
    there.write_text("")
    absent = tmp_path / "absent"
    only_driver = missing_browser(there, absent)
    assert only_driver == f"no {absent} (apt-get install chromium-driver)"
    only_chromium = missing_browser(absent, there)
    assert only_chromium == f"no {absent} (apt-get install chromium)"
    both = missing_browser(absent, absent)
    assert both is not None and "install chromium)" in both and "install chromium-driver)" in both
    assert missing_browser(there, there) is None


def _pytest(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {name: value for name, value in os.environ.items() if name != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "tests.conftest", "-p", "no:cacheprovider", str(folder)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
    )


def test_under_ci_a_skipped_browser_test_fails(tmp_path: Path) -> None:
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "test_skipping.py").write_text(SKIPPING)
    (folder / "pytest.ini").write_text("[pytest]\nmarkers =\n    browser: in a browser\n")
    quiet = _pytest(folder, None)
    assert quiet.returncode == 0, quiet.stdout
    assert "2 skipped" in quiet.stdout
    for value in ("true", "1"):
        ci = _pytest(folder, value)
        assert ci.returncode == 1, ci.stdout
        assert "1 failed" in ci.stdout and "1 skipped" in ci.stdout
        assert "skipped under CI" in ci.stdout and "chromium-driver" in ci.stdout
    assert _pytest(folder, "false").returncode == 0


def _installs(script: str, chromium: Path, driver: Path) -> list[str]:
    """The packages `.ci/run`'s one apt-get run would install, its browser paths set to
    `chromium` and `driver` (the other packages' probes kept as they are)."""
    block = script[script.index("missing=()") : script.index("\nfi\n") + 4]
    block = block.replace("/usr/bin/chromedriver", str(driver)).replace("/usr/bin/chromium", str(chromium))
    install = "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y"
    assert block.count(install) == 1  # (the one install, which the test only echoes)
    block = block.replace(install, "echo")
    assert "/usr/bin/chrom" not in block
    done = subprocess.run(["bash", "-euo", "pipefail", "-c", block], capture_output=True, text=True, check=True)
    return done.stdout.split()


def test_the_ci_script_installs_both_packages_when_either_is_missing(tmp_path: Path) -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert "export CI=true" in script
    there = tmp_path / "there"
    there.write_text("")
    there.chmod(0o755)
    absent = tmp_path / "absent"
    for chromium, driver in ((absent, there), (there, absent), (absent, absent)):
        packages = _installs(script, chromium, driver)
        assert "chromium" in packages and "chromium-driver" in packages
    assert not {"chromium", "chromium-driver"} & set(_installs(script, there, there))
