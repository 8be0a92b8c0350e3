"""One version string: pyproject.toml's, read back through the package's metadata, shown by
`referee --version` without importing the commands."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

from tests.conftest import ROOT


def _declared() -> str:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert isinstance(version, str)
    return version


def test_version_is_pyprojects_and_imports_no_command() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "referee", "--version"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout in (f"referee {_declared()}\n", f"referee {_declared()} (not installed)\n")
    imported = set(re.findall(r"\|\s+([\w.]+)$", done.stderr, re.MULTILINE))
    assert "referee.version" in imported
    heavy = ("typer", "click", "referee.cli", "referee.judge", "referee.games", "referee.notation", "games", "notation")
    loaded = sorted(
        name
        for name in imported
        if name.startswith(heavy) and name.split(".")[0] in ("typer", "click", "referee", "games", "notation")
    )
    assert loaded == [], loaded


def test_no_second_version_string_in_the_code() -> None:
    declared = re.escape(_declared())
    for folder in ("referee", "games", "notation"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "__version__" not in text, path
            assert not re.search(rf"[\"']{declared}[\"']", text), path


def test_the_changelog_keeps_an_unreleased_section() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n")
    assert "## [Unreleased]" in text and f"## [{_declared()}]" in text
