"""Installing it as a user would: `python -m build` makes a wheel and an sdist that `twine
check` passes; the wheel, installed into a fresh virtual environment (its dependencies from
the package index), runs the README's first command and brings the man page; `pipx install .`
and `uv tool install .` (the README's other ways) work from the unpacked sdist.

Each build runs on a copy of the checkout, so that no build/ or *.egg-info is left in it.
About 20 s with a warm package cache; pipx and uv are skipped, saying so, where they are not
installed (.ci/run installs both)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers.process import REFEREE

pytestmark = pytest.mark.install  # run apart: python -m pytest -m install (.ci/run does)

IGNORED = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", ".venv", ".mypy_cache"
)


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment without this checkout on the path: only the installed package may answer."""
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(extra)
    return env


def _run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{args}: {done.stdout}\n{done.stderr}"
    return done  # type: ignore[no-any-return]


def _readme_command() -> str:
    """The `referee ...` part of the README's first command (`python -m pip install . && referee ...`)."""
    block = re.search(r"```sh\n(.*?)\n", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert block is not None
    install, _, command = block.group(1).partition(" && ")
    assert install == "python -m pip install ." and command.startswith("referee "), block.group(1)
    return command


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    for module in ("build", "twine"):
        try:
            __import__(module)
        except ImportError:
            pytest.skip(f"{module} is not installed (pip install '.[test]' installs it)")
    where = tmp_path_factory.mktemp("install")
    source = where / "source"
    shutil.copytree(ROOT, source, ignore=IGNORED)
    dist = where / "dist"
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], env=_clean_env())
    wheels, sdists = sorted(dist.glob("*.whl")), sorted(dist.glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(dist.iterdir())
    return {"where": where, "source": source, "wheel": wheels[0], "sdist": sdists[0]}


def _version() -> str:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert isinstance(version, str)
    return version


def test_twine_check_passes_the_wheel_and_the_sdist(built: dict[str, Path]) -> None:
    done = _run([sys.executable, "-m", "twine", "check", "--strict", str(built["wheel"]), str(built["sdist"])])
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_the_wheel_holds_the_man_page_and_the_sdist_the_sources(built: dict[str, Path]) -> None:
    names = zipfile.ZipFile(built["wheel"]).namelist()
    assert f"referee-{_version()}.data/data/share/man/man1/referee.1" in names
    assert "referee/pictures/page.js" in names
    assert "referee/locale/es/LC_MESSAGES/referee.mo" in names  # the catalogues speak Spanish (docs/languages.md)
    sdist = tarfile.open(built["sdist"]).getnames()
    top = f"referee-{_version()}"
    for path in ("man/referee.1", "README.md", "pyproject.toml", "examples/nika-won.rgn"):
        assert f"{top}/{path}" in sdist, path


def _top_level_packages(wheel: Path) -> set[str]:
    return {
        name.split("/")[0]
        for name in zipfile.ZipFile(wheel).namelist()
        if name.endswith(".py") and "/" in name and ".dist-info/" not in name and ".data/" not in name
    }


def _wheel_path(source: Path) -> str:
    """Where a source file of the checkout lands in the wheel: notation/ and games/ as the
    packages referee.notation and referee.games (pyproject.toml's package-dir), referee/ as itself."""
    top, _, rest = source.as_posix().partition("/")
    return f"referee/{top}/{rest}" if top in ("notation", "games") else f"{top}/{rest}"


def test_the_wheel_holds_every_module_and_data_file_of_the_packages(built: dict[str, Path]) -> None:
    names = set(zipfile.ZipFile(built["wheel"]).namelist())
    for top in ("referee", "notation", "games"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                shipped = _wheel_path(path.relative_to(ROOT))
                assert shipped in names, f"{path.relative_to(ROOT)} is not in the wheel (as {shipped})"


def test_the_wheel_adds_exactly_one_top_level_import_package(built: dict[str, Path]) -> None:
    assert _top_level_packages(built["wheel"]) == {"referee"}


def test_a_fresh_venv_installs_the_wheel_and_runs_the_readmes_first_command(built: dict[str, Path]) -> None:
    venv = built["where"] / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], env=_clean_env())
    bin_folder = venv / "bin"
    _run([str(bin_folder / "python"), "-m", "pip", "install", "--quiet", str(built["wheel"])], env=_clean_env())
    env = _clean_env(PATH=f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}")
    done = _run(["bash", "-c", _readme_command()], cwd=built["source"], env=env)
    assert done.stderr == ""
    files = sorted(str(path.relative_to(built["source"])) for path in (built["source"] / "examples").glob("*.rgn"))
    checkout = _run([*REFEREE, "check", *files], cwd=built["source"])
    assert done.stdout == checkout.stdout and len(files) > 5
    version = _run(["referee", "--version"], env=env, cwd=built["where"])
    assert version.stdout == f"referee {_version()}\n"
    where = _run(
        [str(bin_folder / "python"), "-c", "import referee; print(referee.__file__)"], env=env, cwd=built["where"]
    )
    assert where.stdout.startswith(str(venv)), where.stdout
    page = venv / "share" / "man" / "man1" / "referee.1"
    assert page.read_text(encoding="utf-8") == (ROOT / "man" / "referee.1").read_text(encoding="utf-8")


def _unpacked_sdist(built: dict[str, Path], name: str) -> Path:
    folder = built["where"] / name
    with tarfile.open(built["sdist"]) as sdist:
        sdist.extractall(folder, filter="data")
    return folder / f"referee-{_version()}"


def test_pipx_install_dot(built: dict[str, Path]) -> None:
    pipx = shutil.which("pipx")
    if pipx is None:
        pytest.skip("pipx is not installed (pip install pipx; .ci/run installs it)")
    home = built["where"] / "pipx"
    env = _clean_env(PIPX_HOME=str(home), PIPX_BIN_DIR=str(home / "bin"), PIPX_MAN_DIR=str(home / "man"))
    _run([pipx, "install", "."], cwd=_unpacked_sdist(built, "for-pipx"), env=env)
    done = _run(
        ["bash", "-c", _readme_command()], cwd=built["source"], env={**env, "PATH": f"{home / 'bin'}:/usr/bin:/bin"}
    )
    assert "nika: finished" in done.stdout
    assert (home / "man" / "man1" / "referee.1").is_file()  # pipx links the wheel's man page


def test_uv_tool_install_dot(built: dict[str, Path]) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed (pip install uv; .ci/run installs it)")
    home = built["where"] / "uv"
    env = _clean_env(UV_TOOL_DIR=str(home / "tools"), UV_TOOL_BIN_DIR=str(home / "bin"))
    _run([uv, "tool", "install", "."], cwd=_unpacked_sdist(built, "for-uv"), env=env)
    done = _run(
        ["bash", "-c", _readme_command()], cwd=built["source"], env={**env, "PATH": f"{home / 'bin'}:/usr/bin:/bin"}
    )
    assert "nika: finished" in done.stdout


def _man_command() -> str:
    """docs/packaging.md's way to read the man page from a checkout."""
    found = re.search(r"`(man \./man/referee\.1)`", (ROOT / "docs" / "packaging.md").read_text(encoding="utf-8"))
    assert found is not None, "docs/packaging.md lost the man command of a checkout"
    return found.group(1)


def test_the_man_page_reads_from_the_checkout_as_the_docs_say() -> None:
    """An editable install has no man page (below): the docs' command reads the checkout's."""
    if shutil.which("man") is None:
        pytest.skip("man is not installed (Debian's man-db)")
    done = subprocess.run(
        ["bash", "-c", _man_command()],
        cwd=ROOT,
        env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "100"},
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "referee league tick" in done.stdout and "REFEREE_CONFIG" in done.stdout


@pytest.mark.slow
def test_an_editable_install_removes_the_man_page_that_an_install_put_there(tmp_path: Path) -> None:
    """What the README's two commands do in a fresh venv: `pip install .` puts the man page
    in share/man/man1, `pip install -e .` over it takes it away and brings none (so the docs
    say `man ./man/referee.1`). About 60 s: two installs."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=IGNORED, symlinks=True)
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], env=_clean_env())
    python = str(venv / "bin" / "python")
    page = venv / "share" / "man" / "man1" / "referee.1"
    _run([python, "-m", "pip", "install", "--quiet", str(source)], env=_clean_env())
    assert page.is_file()
    _run([python, "-m", "pip", "install", "--quiet", "-e", str(source)], env=_clean_env())
    assert not page.exists()


def _guide_install() -> str:
    """docs/guide/mail.md's first command for a mailbox at a provider: the install with IMAP."""
    text = (ROOT / "docs" / "guide" / "mail.md").read_text(encoding="utf-8")
    found = re.search(r"```sh\n(pipx install [^\n#]*?)\s*(?:#[^\n]*)?\n", text)
    assert found is not None, "docs/guide/mail.md lost its install command"
    return found.group(1)


def test_the_mail_guides_install_with_imap_works_from_a_checkout(built: dict[str, Path]) -> None:
    """`pipx install '.[imap]'` (not `pip install --user 'referee[imap]'`, refused in a venv
    and under PEP 668, and naming a distribution no index has): `referee` lands where the
    cron line names it (PIPX_BIN_DIR, ~/.local/bin by default), its environment holds
    IMAPClient, and `mail --imap` goes past the import to ask for its password."""
    pipx = shutil.which("pipx")
    if pipx is None:
        pytest.skip("pipx is not installed (pip install pipx; .ci/run installs it)")
    command = _guide_install()
    assert command == "pipx install '.[imap]'", command
    home = built["where"] / "pipx-imap"
    env = _clean_env(PIPX_HOME=str(home), PIPX_BIN_DIR=str(home / "bin"), PIPX_MAN_DIR=str(home / "man"))
    _run(["bash", "-c", command], cwd=_unpacked_sdist(built, "for-pipx-imap"), env=env)
    referee = home / "bin" / "referee"
    python = home / "venvs" / "referee" / "bin" / "python"
    _run([str(python), "-c", "import imapclient"], cwd=built["where"], env=env)
    done = subprocess.run(
        [str(referee), "mail", "imap", str(built["where"]), "imap://gm@127.0.0.1:9/INBOX"],
        cwd=built["where"],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 2 and "needs a password" in done.stderr and "IMAPClient" not in done.stderr, done.stderr
    assert (home / "man" / "man1" / "referee.1").is_file()


def test_the_unpacked_sdists_own_tests_pass_there(built: dict[str, Path]) -> None:
    """The sdist holds notation/ and games/ at its top as the checkout does: the tests that
    read them (the pictures' board data, the one import name of every module) pass from it,
    finding its own packages, not this checkout's."""
    where = built["where"] / "unpacked-sdist"
    with tarfile.open(built["sdist"]) as archive:
        archive.extractall(where, filter="data")
    (top,) = where.iterdir()
    tests = ["tests/pictures/test_pictures.py", "tests/system/test_packaging.py"]
    done = _run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], cwd=top, env=_clean_env())
    assert " passed" in done.stdout and "failed" not in done.stdout, done.stdout
    probe = "import referee.games.api as api; print(api.__file__)"
    shown = _run([sys.executable, "-c", probe], cwd=top, env=_clean_env())
    assert shown.stdout.strip() == str(top / "games" / "api.py")
