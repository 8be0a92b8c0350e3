"""Every console example in the README and in docs/ is real output: each `$ command` of a
```console block is run, as a reader would type it, and what it prints is compared with what
the page shows.

How a page's examples are run:
- The blocks of one page run in order in one fresh folder holding a copy of `examples/`, so a
  later block sees the files an earlier one wrote (the league's walk-through does).
- A comment on a line just before a block steers it: `<!-- console: from FOLDER -->` copies
  FOLDER's files (a path in the repository) into the run folder first, and `<!-- console: not
  run (REASON) -->` leaves the block out, saying why (timings, a fresh secret, a mail server).
- In the expected output a line `...` or `[board]` stands for any lines (none or more) up to
  the next line shown, and `…` within a line for any text (what a fresh secret or a die
  makes differ from run to run); everything else is compared exactly, standard error
  included. Commands run under `bash -o pipefail`, so `referee ... | head -1` has referee's
  exit status.
- `# exit N` after a command says its exit status; a command without one may exit as it will.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
DIRECTIVE = re.compile(r"<!--\s*console:\s*(.*?)\s*-->")
EXIT = re.compile(r"#\s*exit\s+(\d+)\b")
ANY = ("...", "[board]")


class Command(NamedTuple):
    text: str
    expected: list[str]
    exit_code: int | None


class Block(NamedTuple):
    page: Path
    line: int
    commands: list[Command]
    source: str | None
    skip: str | None


def blocks(page: Path) -> list[Block]:
    """The console blocks of a page, each with its commands and what they print."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```console":
            index += 1
            continue
        start = index
        steer = [DIRECTIVE.search(line) for line in lines[max(0, start - 2) : start]]
        said = [match.group(1) for match in steer if match]
        source = next((text[len("from ") :].strip() for text in said if text.startswith("from ")), None)
        skip = next((text for text in said if text.startswith("not run")), None)
        index += 1
        commands: list[Command] = []
        while index < len(lines) and lines[index].strip() != "```":
            line = lines[index]
            if line.startswith("$ "):
                code = EXIT.search(line)
                commands.append(Command(line[2:], [], int(code.group(1)) if code else None))
            elif commands:
                commands[-1].expected.append(line)
            index += 1
        found.append(Block(page, start + 1, commands, source, skip))
        index += 1
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the printed lines are the shown ones, `...` and `[board]` standing for any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head in ANY:
        return any(matches(rest, actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and _same_line(head, actual[0]) and matches(rest, actual[1:])


def _same_line(shown: str, printed: str) -> bool:
    if "…" not in shown:
        return shown == printed
    return re.fullmatch(".*".join(re.escape(part) for part in shown.split("…")), printed) is not None


def _environment(bin_folder: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("REFEREE_", "PYTEST_"))}
    env.update(PATH=f"{bin_folder}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT), LC_ALL="C.UTF-8", TZ="UTC")
    env.pop("COLUMNS", None)
    return env


def _referee_on_path(folder: Path) -> Path:
    """A `referee` command running this checkout with this interpreter, first on PATH."""
    folder.mkdir()
    script = folder / "referee"
    script.write_text(f"#!{sys.executable}\nimport sys\n\nfrom referee.cli import main\n\nsys.exit(main())\n")
    script.chmod(0o755)
    return folder


def run_page(page: Path, tmp_path: Path) -> list[str]:
    """Run a page's examples; the differences found, one text each."""
    env = _environment(_referee_on_path(tmp_path / "bin"))
    here = tmp_path / "run"
    shutil.copytree(ROOT / "examples", here / "examples", ignore=shutil.ignore_patterns("__pycache__"))
    problems: list[str] = []
    for block in blocks(page):
        if block.skip:
            continue
        if block.source:
            shutil.copytree(ROOT / block.source, here, dirs_exist_ok=True)
        for command in block.commands:
            done = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command.text],
                cwd=here,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=120,
            )
            actual = done.stdout.splitlines()
            shown_as = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page.name
            where = f"{shown_as}:{block.line}: $ {command.text}"
            if command.exit_code is not None and done.returncode != command.exit_code:
                problems.append(f"{where}\n  exit {done.returncode}, the page says {command.exit_code}")
            if not matches(command.expected, actual):
                shown = "\n".join(f"  | {line}" for line in command.expected)
                printed = "\n".join(f"  > {line}" for line in actual)
                problems.append(f"{where}\n  the page shows:\n{shown}\n  it prints:\n{printed}")
    return problems


def test_the_matcher_lets_dots_and_boards_stand_for_any_lines() -> None:
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert matches(["a", "[board]", "z"], ["a", "z"])
    assert not matches(["a", "z"], ["a", "b", "z"])
    assert not matches(["a", "..."], ["b"])
    assert matches(["..."], [])
    assert matches(["token 1-…, die …"], ["token 1-0123456789, die 6"])
    assert not matches(["token 1-…, die …"], ["token 2-0123456789, die 6"])


def test_a_page_that_lies_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ referee check examples/nika-won.rgn\nexamples/nika-won.rgn:1: nika: finished: a lie\n```\n"
        "<!-- console: not run (a timing) -->\n```console\n$ false\nnever compared\n```\n"
    )
    found = [block.skip for block in blocks(page)]
    assert found == [None, "not run (a timing)"]
    (problem,) = run_page(page, tmp_path)
    assert "a lie" in problem and "Athens+Messene win" in problem


@pytest.mark.parametrize("page", [page for page in PAGES if blocks(page)], ids=lambda page: page.name)
def test_every_console_example_prints_what_the_page_shows(page: Path, tmp_path: Path) -> None:
    problems = run_page(page, tmp_path)
    assert not problems, "\n\n".join(problems)
