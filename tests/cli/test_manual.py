"""The man page: man/referee.1 is what `referee.cli.manual` writes from the command line's
help (so it is current), `man` renders it without a warning, and the wheel installs it
(tests/system/test_install.py)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from referee.cli import manual
from referee.cli.main import app
from referee.cli.tree import command_tree
from tests.conftest import ROOT

PAGE = ROOT / manual.PAGE


def test_the_page_in_the_repository_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == manual.page(), (
        "man/referee.1 is not what the command line's help makes: run python -m referee.cli.manual man/referee.1"
    )


def test_man_renders_every_command_and_option_without_a_warning() -> None:
    if shutil.which("man") is None:
        pytest.skip("man is not installed (apt-get install man-db; .ci/run installs it)")
    env = {**os.environ, "MANWIDTH": "200", "MAN_KEEP_FORMATTING": "", "LC_ALL": "C.UTF-8"}
    done = subprocess.run(["man", "--warnings", "-l", str(PAGE)], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", done.stderr
    text = done.stdout
    assert "REFEREE(1)" in text and "EXIT STATUS" in text and "REFEREE_CONFIG" in text
    for command in command_tree(app).walk()[1:]:
        assert command.usage in text, command.usage
        for option in command.options:
            for name in option.names:
                assert name in text, (command.name, name)


def test_roff_requests_in_help_text_are_escaped() -> None:
    assert manual._escape(".TH x\n'x -y \\z") == "\\&.TH x\n\\&'x \\-y \\ez"
