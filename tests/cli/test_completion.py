"""`referee completion bash|zsh|fish`: static scripts, sourced in real shells, that complete
commands, options and values found on disk without ever running referee."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from referee.cli.main import app
from referee.cli.tree import command_tree
from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee

PIKEMEN = EXAMPLES / "pikemen-2p-finished.rgn"


def _script(shell: str, folder: Path) -> Path:
    made = run_referee("completion", shell)
    assert made.returncode == 0, made.stderr
    path = folder / f"referee.{shell}"
    path.write_text(made.stdout)
    return path


@pytest.fixture
def trap(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An environment whose `referee` only leaves a mark: a completion that ran it would show."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    mark = tmp_path / "referee-was-run"
    fake = bin_folder / "referee"
    fake.write_text(f"#!/bin/sh\ntouch {mark}\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    env = {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    return env, mark


def _bash(script: Path, words: list[str], cwd: Path, env: dict[str, str]) -> list[str]:
    """COMPREPLY after completing the last of `words` (bash arrays as the shell builds them)."""
    quoted = " ".join("'" + word.replace("'", "'\\''") + "'" for word in words)
    command = (
        f"source {script}; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; "
        'COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; _referee; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=cwd, env=env, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_bash_completes_commands_options_and_values_without_running_referee(
    tmp_path: Path, trap: tuple[dict[str, str], Path]
) -> None:
    env, mark = trap
    script = _script("bash", tmp_path)
    (tmp_path / "autumn").mkdir()
    (tmp_path / "autumn" / "league.toml").write_text("")
    (tmp_path / "attic").mkdir()
    shutil.copy(PIKEMEN, tmp_path / "game.rgn")
    (tmp_path / "notes.txt").write_text("")

    assert _bash(script, ["referee", "ch"], tmp_path, env) == ["check"]
    assert _bash(script, ["referee", "league", "t"], tmp_path, env) == ["tick"]
    assert sorted(_bash(script, ["referee", "check", "--js"], tmp_path, env)) == ["--json"]
    assert "--smtp-user" in _bash(script, ["referee", "mail", "receive", "--smtp"], tmp_path, env)
    # the value of an option: here a folder
    assert _bash(script, ["referee", "mail", "receive", "a"], tmp_path, env) == ["attic", "autumn"]
    # positional FILE: folders and *.rgn files, not other files
    assert sorted(_bash(script, ["referee", "check", ""], tmp_path, env)) == ["attic", "autumn", "bin", "game.rgn"]
    # a league command's DIR: the folders that hold league.toml
    assert _bash(script, ["referee", "league", "status", "a"], tmp_path, env) == ["autumn"]
    # the sides of the game that the record's [Game tag names, and the game names
    assert _bash(script, ["referee", "play", "game.rgn", "--as", ""], tmp_path, env) == [
        "Red",
        "Yellow",
        "Blue",
        "Green",
    ]
    assert _bash(script, ["referee", "play", "game.rgn", "--salt", "Y"], tmp_path, env) == ["Yellow="]
    assert _bash(script, ["referee", "new", "nika", "--first", "S"], tmp_path, env) == ["Sparta"]
    assert sorted(_bash(script, ["referee", "new", "n"], tmp_path, env)) == ["nieuchess", "nika", "numica"]
    assert _bash(script, ["referee", "league", "init", "x", "--pairing", "s"], tmp_path, env) == ["swiss"]
    # an option's value is not a command or an argument: after `--wait 3`, FILE comes first
    assert _bash(script, ["referee", "play", "--wait", "3", "g"], tmp_path, env) == ["game.rgn"]
    # no record named: every game's sides, each once
    assert _bash(script, ["referee", "play", "--as", "R"], tmp_path, env) == ["Red"]
    assert not mark.exists(), "a Tab ran referee"


def test_the_scripts_hold_every_command_and_option_of_the_command_line(tmp_path: Path) -> None:
    texts = {shell: _script(shell, tmp_path).read_text() for shell in ("bash", "zsh", "fish")}
    for command in command_tree(app).walk():
        for shell in ("bash", "zsh"):
            assert f"'{command.name}'" in texts[shell], (shell, command.name)
        for option in command.options:
            for name in option.names:
                assert name in texts["bash"] and name in texts["zsh"], (command.name, name)
                fish_flag = f"-l '{name[2:]}'" if name.startswith("--") else f"-s '{name[1:]}'"
                assert fish_flag in texts["fish"], (command.name, name)


def _need(shell: str) -> str:
    found = shutil.which(shell)
    if found is None:
        pytest.skip(f"{shell} is not installed (apt-get install {shell}; .ci/run installs it)")
    return found


def _valid_script(shell: str, folder: Path) -> tuple[str, Path]:
    """The installed `shell` (the test skipped without it) and its completion script in
    `folder`, which the shell reads without a syntax error (`-n`)."""
    found = _need(shell)
    script = _script(shell, folder)
    syntax = subprocess.run([found, "-n", str(script)], capture_output=True, text=True, check=False)
    assert syntax.returncode == 0, syntax.stderr
    return found, script


def test_zsh_script_is_valid_and_completes_a_command_and_an_option(
    tmp_path: Path, trap: tuple[dict[str, str], Path]
) -> None:
    zsh, script = _valid_script("zsh", tmp_path)
    env, mark = trap
    # compadd and _files are the completion system's; here they print what they were given
    stubs = 'compdef() { :; }; compadd() { print -r -- "$@"; }; _files() { print -r -- _files "$@"; }'

    def complete(words: list[str]) -> str:
        command = f"{stubs}; source {script}; words=({' '.join(words)} ''); CURRENT=${{#words}}; PREFIX=''; _referee"
        done = subprocess.run([zsh, "-fc", command], capture_output=True, text=True, cwd=EXAMPLES, env=env, check=False)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout

    assert "check" in complete(["referee"]).split()
    assert "tick" in complete(["referee", "league"]).split()
    assert complete(["referee", "play", PIKEMEN.name, "--as"]).split() == ["--", "Red", "Yellow", "Blue", "Green"]
    assert not mark.exists()


def test_fish_script_is_valid_and_completes_a_command_and_an_option(
    tmp_path: Path, trap: tuple[dict[str, str], Path]
) -> None:
    fish, script = _valid_script("fish", tmp_path)
    env, mark = trap

    def complete(line: str) -> list[str]:
        command = f"source {script}; complete -C '{line}'"
        done = subprocess.run(
            [fish, "--no-config", "-c", command], capture_output=True, text=True, cwd=EXAMPLES, env=env, check=False
        )
        assert done.returncode == 0, done.stderr
        return [row.split("\t")[0] for row in done.stdout.splitlines()]

    assert complete("referee ch") == ["check"]
    assert complete("referee check --js") == ["--json"]
    assert complete(f"referee play {PIKEMEN.name} --as ") == ["Blue", "Green", "Red", "Yellow"]
    assert "nika-won.rgn" in complete("referee check nika")
    assert not mark.exists()


def test_an_unknown_shell_is_a_usage_error() -> None:
    done = run_referee("completion", "ksh")
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1 and "bash" in done.stderr
