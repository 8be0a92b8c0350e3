"""The version, said once: `pyproject.toml`'s `version`, read back from the installed
package's metadata (`importlib.metadata`); from a checkout that is not installed, read from
its pyproject.toml and said as such. This module imports nothing of the referee, so that
`referee --version` starts in a few milliseconds (`referee.__main__` answers it first)."""

from __future__ import annotations


def version_text() -> str:
    """`referee 0.1.0`; from a checkout that is not installed, `referee 0.1.0 (not
    installed)`, or `referee (not installed)` without a pyproject.toml."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"referee {version('referee')}"
    except PackageNotFoundError:
        pass
    try:
        import tomllib
        from pathlib import Path

        pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
        declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
        return f"referee {declared} (not installed)"
    except (OSError, ValueError, KeyError, TypeError):
        return "referee (not installed)"
