"""Every operation that writes, all or nothing, proven by fault injection at every call
(docs/files.md): for each operation, a clean run counts the calls it makes on the seam
(`referee.store.ops`); then, for every k from 1 to that count, a fresh copy of the folder
runs the operation with the k-th call failing (ENOSPC, EIO) or the process killed there
(a forked child, `os._exit(137)`). After each fault:

- the command failed loudly (exit 2, 75 for `mail`; one line, no traceback), or, when
  it exits 0, the folder is already as the clean run left it;
- once recovered (what every command does first), the folder is either as it was or as
  the clean run left it, nothing between (a `tick`, whose steps are logged one by one,
  may stop between two steps);
- a rerun (the same command, or, once the operation is complete, none; for `mail` the
  mail system's redelivery of the same message) leaves the folder exactly as the clean
  run did: games, ledger, logs, and the set of answers each player received.

Each kind of fault at every k is in the `slow` run; the default run covers every k with
ENOSPC and kills at every fourth k."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import pytest

from referee import store
from tests.helpers import faults
from tests.helpers.league import make_league, numbered
from tests.helpers.mail import GM, NIKA_PLAYERS, message, nika_game

START = "2026-12-01T12:00:00Z"
LATER = "2026-12-04T12:00:00Z"
NOW = "2026-12-01T12:00:00Z"


def cli(*args: str, stdin: bytes = b"") -> faults.Ran:
    ran = faults.run(list(args), stdin)
    assert ran.code in (0, 1), ran.err
    return ran


def league(folder: Path, players: int, extra: str = "", timed: bool = False) -> None:
    """A two-player Pikemen league of P1..Pn set up by real processes (`faults.run`)."""
    options = ["--game", "pikemen", "--players", "2", *(["--time-control", "1d+0m"] if timed else [])]
    make_league(folder, *options, name="Fall", names=numbered(players), extra=extra, run=_processes)


def _processes(args: Sequence[str]) -> tuple[int, str]:
    ran = faults.run(list(args))
    return ran.code, ran.err


def paired(folder: Path, players: int, extra: str = "") -> None:
    league(folder, players, extra, timed=True)
    cli("league", "pair", str(folder), "--now", START, "--from", GM)


class Operation(NamedTuple):
    name: str
    setup: Callable[[Path], None]
    args: Callable[[Path], list[str]]
    stdin: bytes = b""
    steps: bool = False
    """Logged step by step (`tick`): it may stop between two steps."""
    mail: bool = False
    """The gateway: exit 75 on a fault; its rerun is the redelivery of the same message."""


def _mail_message() -> bytes:
    return message(NIKA_PLAYERS["Athens"], "[g1] move", "d1+d2+d3-W i3-E\n", message_id="<m1@example.org>").as_bytes()


def _reveal_setup(folder: Path) -> None:
    made = cli("new", "nieuchess", "--secret", str(folder / "g.key"))
    # a finished game: an ongoing one's seed is revealed only with --force
    (folder / "g.rgn").write_text(made.out + "\nR: resign\n", encoding="utf-8")


def _page_setup(folder: Path) -> None:
    (folder / "g.rgn").write_text('[Game "pikemen"]\n\nR: h4(SE)\nB: c6(E) {a note}\nR: h4(S)\n', encoding="utf-8")
    (folder / "g.html").write_text("the old page\n", encoding="utf-8")


OPERATIONS = [
    Operation(
        "pair",
        lambda folder: league(folder, 6),
        lambda folder: ["league", "pair", str(folder), "--now", START, "--from", GM],
    ),
    Operation(
        "tick",
        lambda folder: paired(folder, 4, 'digest = "every-move"\n'),
        lambda folder: ["league", "tick", str(folder), "--now", LATER, "--from", GM],
        steps=True,
    ),
    Operation(
        "leave",
        lambda folder: paired(folder, 4, "leave_days = 5\n"),
        lambda folder: ["league", "leave", str(folder), "p1@example.org", "1d", "--now", START],
    ),
    Operation(
        "add",
        lambda folder: league(folder, 2),
        lambda folder: ["league", "add", str(folder), "eve@example.org", "--name", "Eve", "--key"],
        stdin=b"correct horse battery\n",
    ),
    Operation(
        "mail",
        lambda folder: nika_game(folder) and None,
        lambda folder: ["mail", "receive", str(folder), "--from", GM, "--now", NOW],
        stdin=_mail_message(),
        mail=True,
    ),
    Operation(
        "play",
        lambda folder: nika_game(folder) and None,
        lambda folder: ["play", str(folder / "g1.rgn"), "d1+d2+d3-W i3-E"],
    ),
    Operation(
        "reveal",
        _reveal_setup,
        lambda folder: ["reveal", str(folder / "g.rgn"), "--seed-file", str(folder / "g.key")],
    ),
    Operation(
        "page",
        _page_setup,
        lambda folder: ["replay", "--html", "-o", str(folder / "g.html"), str(folder / "g.rgn")],
    ),
]

_SCRYPT = re.compile(rb"scrypt:[0-9a-f]+:[0-9a-f]+")


def state(folder: Path, operation: Operation) -> dict[str, object]:
    seen = faults.snapshot(folder, drop_repeats=operation.mail)
    if "players.toml" in seen:  # a passphrase's hash has a fresh salt each time
        seen["players.toml"] = _SCRYPT.sub(b"scrypt:*", seen["players.toml"])  # type: ignore[arg-type]
    if "g.html" in seen:  # a page names its record by its path
        seen["g.html"] = seen["g.html"].replace(str(folder).encode(), b"FOLDER")  # type: ignore[union-attr]
    return seen


class Prepared(NamedTuple):
    base: Path
    before: dict[str, object]
    after: dict[str, object]
    calls: int


def prepare(tmp_path: Path, operation: Operation) -> Prepared:
    base = tmp_path / "base"
    base.mkdir()
    operation.setup(base)
    clean = tmp_path / "clean"
    shutil.copytree(base, clean, symlinks=True)
    ran = faults.run(operation.args(clean), operation.stdin)
    assert ran.code == 0, ran.err
    assert faults.journals(clean) == []
    before, after = state(base, operation), state(clean, operation)
    assert before != after
    return Prepared(base, before, after, ran.calls)


def inject(tmp_path: Path, operation: Operation, prepared: Prepared, k: int, kind: str) -> None:
    work = tmp_path / f"{kind}-{k}"
    shutil.copytree(prepared.base, work, symlinks=True)
    args = operation.args(work)
    ran = faults.run(args, operation.stdin, faults.Faulty(k, kind))
    where = f"{operation.name}, {kind} at call {k} of {prepared.calls}"
    if kind == "kill":
        assert ran.code == faults.KILLED, f"{where}: {ran.code} {ran.err}"
    else:
        assert "Traceback" not in ran.err, f"{where}: {ran.err}"
        failed = 75 if operation.mail else 2
        assert ran.code in (0, failed), f"{where}: exit {ran.code}: {ran.err}"
        if ran.code:
            lines = [line for line in ran.err.splitlines() if "cannot" in line or "No space" in line]
            assert lines and all(str(work) in line for line in lines), f"{where}: the file is not named: {ran.err}"
        else:
            assert state(work, operation) == prepared.after, f"{where}: exit 0 and not done"
    with store.session(work):  # what every command does first: complete or discard
        pass
    recovered = state(work, operation)
    if not operation.steps:
        assert recovered in (prepared.before, prepared.after), f"{where}: left half done"
    if operation.mail or operation.steps or recovered == prepared.before:
        again = faults.run(args, operation.stdin)
        assert again.code == 0, f"{where}, then again: {again.err}"
    assert state(work, operation) == prepared.after, f"{where}: not as the clean run left it"
    assert faults.journals(work) == [], where
    shutil.rmtree(work)


def _sweep(tmp_path: Path, operation: Operation, kinds: tuple[str, ...], stride: int) -> int:
    prepared = prepare(tmp_path, operation)
    assert prepared.calls > 0
    for kind in kinds:
        step = stride if kind == "kill" else 1
        for k in range(1, prepared.calls + 1, step):
            inject(tmp_path, operation, prepared, k, kind)
    return prepared.calls


@pytest.mark.parametrize("operation", OPERATIONS, ids=[operation.name for operation in OPERATIONS])
def test_every_call_fails_with_a_full_disk_and_kills_at_every_fourth(scratch: Path, operation: Operation) -> None:
    _sweep(scratch, operation, ("enospc", "kill"), 4)


@pytest.mark.slow
@pytest.mark.parametrize("operation", OPERATIONS, ids=[operation.name for operation in OPERATIONS])
def test_every_call_fails_every_way(scratch: Path, operation: Operation) -> None:
    _sweep(scratch, operation, faults.KINDS, 1)
