"""One package from three folders (docs/architecture.md): referee/, and the top-level
notation/ and games/, installed as referee.notation and referee.games. Every module has one
real file and one import name; pyproject.toml lists every package folder, so that a
checkout without symbolic links builds the whole wheel (tests/system/test_install.py builds it)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

from tests.conftest import ROOT

FOLDERS = {"referee": "referee", "notation": "referee.notation", "games": "referee.games"}


def _package_folders() -> dict[str, str]:
    """Each folder holding an __init__.py, by the import name it has."""
    found = {}
    for top, name in FOLDERS.items():
        for init in sorted((ROOT / top).rglob("__init__.py")):
            parts = init.parent.relative_to(ROOT / top).parts
            found[".".join((name, *parts))] = init.parent.relative_to(ROOT).as_posix()
    return found


def test_no_package_folder_is_a_link_or_holds_one() -> None:
    for top in FOLDERS:
        for path in [ROOT / top, *(ROOT / top).rglob("*")]:
            assert not path.is_symlink(), f"{path.relative_to(ROOT)} is a symbolic link"


def test_pyproject_lists_every_package_folder_and_maps_the_two_at_the_top() -> None:
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert tool["package-dir"] == {"referee.notation": "notation", "referee.games": "games"}
    folders = _package_folders()
    missing = sorted(set(folders) - set(tool["packages"]))
    assert not missing, f"pyproject.toml's packages lacks {missing} (folders {[folders[m] for m in missing]})"
    assert sorted(set(tool["packages"]) - set(folders)) == []


def test_every_module_has_one_import_name() -> None:
    """From the repository's root, as a contributor runs it, import every module by its name
    and try the other name each could be reached by (`games.api` for `referee.games.api`):
    the second is refused, saying which name to use, so no class exists twice."""
    modules = []
    for top, name in FOLDERS.items():
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = path.relative_to(ROOT / top).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            if parts[-1:] != ("__main__",):
                modules.append((".".join((name, *parts)), ".".join((top, *parts)) if top != "referee" else None))
    script = """
import importlib, json, sys
sys.path.insert(0, ".")
answers = []
for name, other in json.loads(sys.argv[1]):
    module = importlib.import_module(name)
    second = None
    if other is not None:
        try:
            importlib.import_module(other)
            second = "imported"
        except ImportError as error:
            second = str(error)
    answers.append([name, module.__file__, second])
print(json.dumps(answers))
"""
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(modules)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    answers = json.loads(done.stdout)
    assert len(answers) == len(modules) > 150
    files = [file for _, file, _ in answers]
    assert len(set(files)) == len(files)
    for name, _file, second in answers:
        if second is not None:
            assert second != "imported" and "import it by that name" in second, (name, second)
    from referee.games import api

    assert sys.modules["referee.games.api"] is api and "games.api" not in sys.modules


def test_no_module_name_twice_but_each_games_own() -> None:
    """A file name says what the file does, once in the package: the only names that repeat
    are the parts every game has in its own folder (games/nika/actions.py, games/pikemen/actions.py)."""
    seen: dict[str, list[str]] = {}
    for top in FOLDERS:
        for path in sorted((ROOT / top).rglob("*.py")):
            inside = path.relative_to(ROOT).parts
            if path.name == "__init__.py" or (top == "games" and len(inside) == 3):
                continue
            seen.setdefault(path.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
