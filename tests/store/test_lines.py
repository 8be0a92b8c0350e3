"""Append-only files end at a line boundary after any fault (issue 44, item 2;
docs/files.md): a disk that fills up in the middle of an append leaves the bytes that fit,
a kill in the middle of a `write` leaves them too. The next run must leave the log whole
(no line glued to a fragment) and the operation done exactly once: a `league withdraw` not
lost and not mailed twice, a move by mail logged in one five-field `mail.log` line.

Every write of each operation is cut short in turn (`faults.Short`: half its bytes, then
ENOSPC or the process killed), in a forked child running the real command line."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee import store
from referee.store import ops as seam
from referee.store.lines import append_to, whole_length
from tests.helpers import faults
from tests.store.test_faults import OPERATIONS, START, paired, state

WITHDRAW = ["league", "withdraw", "{}", "p1@example.org", "--now", START]


def _args(template: list[str], folder: Path) -> list[str]:
    return [str(folder) if word == "{}" else word for word in template]


def _writes(trace: faults.Ran) -> list[int]:
    return [number for number, call in enumerate(trace.trace, start=1) if call.startswith("write ")]


def _whole_json_lines(path: Path) -> list[dict[str, object]]:
    data = path.read_bytes()
    assert data.endswith(b"\n"), f"{path.name} ends in the middle of a line: {data[-80:]!r}"
    return [json.loads(line) for line in data.splitlines()]  # every line whole: no fragment, no glued line


def _withdraw_args(folder: Path) -> list[str]:
    return _args(WITHDRAW, folder)


def _cut_in_each_write(
    scratch: Path,
    base: Path,
    args: Callable[[Path], list[str]],
    stdin: bytes,
    kind: str,
    log: str,
    codes: tuple[int, ...],
) -> Iterator[tuple[Path, str, faults.Ran]]:
    """The command `args(folder)` run once, counting its writes, on `scratch / "clean"` (a copy
    of `base`), one of its writes to `log`; then once for every write, on a fresh copy of `base`,
    with that write cut short by `kind`. Yields each copy, the words naming the cut, and the cut
    run, its exit status checked (killed, or one of `codes`); the copy is removed after."""
    clean = scratch / "clean"
    shutil.copytree(base, clean, symlinks=True)
    trace = faults.run(args(clean), stdin, faults.Counting())
    assert trace.code == 0, trace.err
    writes = _writes(trace)
    assert any(log in trace.trace[number - 1] for number in writes)
    for k in writes:
        work = scratch / f"{kind}-{k}"
        shutil.copytree(base, work, symlinks=True)
        where = f"{kind} in write {k} ({trace.trace[k - 1]})"
        cut = faults.run(args(work), stdin, faults.Short(k, kind))
        assert cut.code in ((faults.KILLED,) if kind == "kill" else codes), f"{where}: {cut.code} {cut.err}"
        yield work, where, cut
        shutil.rmtree(work)


def _mails(folder: Path) -> int:
    return len(list((folder / "outbox").glob("*.eml")))


@pytest.mark.parametrize("kind", ["enospc", "kill"])
def test_a_withdraw_cut_short_in_any_write_is_logged_once_and_mailed_once(scratch: Path, kind: str) -> None:
    base, clean = scratch / "base", scratch / "clean"
    paired(base, 4)
    for work, where, cut in _cut_in_each_write(scratch, base, _withdraw_args, b"", kind, "league.log", (0, 2)):
        assert "Traceback" not in cut.err, where
        status = faults.run(["league", "status", str(work)])  # the next run, whichever it is
        assert status.code == 0, f"{where}: {status.err}"
        _whole_json_lines(work / "league.log")
        again = faults.run(_args(WITHDRAW, work))  # the game master tries again
        assert again.code == 0 or "already withdrawn" in again.err, f"{where}: {again.err}"
        events = [entry["event"] for entry in _whole_json_lines(work / "league.log")]
        assert events.count("withdraw") == 1, f"{where}: {events}"
        assert _mails(work) == _mails(clean), f"{where}: mailed {_mails(work)} times, not {_mails(clean)}"
        assert faults.snapshot(work) == faults.snapshot(clean), where
        assert faults.journals(work) == [], where


@pytest.mark.parametrize("kind", ["enospc", "kill"])
def test_a_move_by_mail_cut_short_in_any_write_leaves_five_field_lines(scratch: Path, kind: str) -> None:
    [mail] = [operation for operation in OPERATIONS if operation.name == "mail"]
    base, clean = scratch / "base", scratch / "clean"
    base.mkdir()
    mail.setup(base)
    for work, where, _cut in _cut_in_each_write(scratch, base, mail.args, mail.stdin, kind, "mail.log", (0, 75)):
        again = faults.run(mail.args(work), mail.stdin)  # the mail system delivers it again
        assert again.code == 0, f"{where}: {again.err}"
        log = (work / "mail.log").read_bytes()
        assert log.endswith(b"\n"), f"{where}: {log!r}"
        assert all(len(line.split(b" ")) == 5 for line in log.splitlines()), f"{where}: {log!r}"
        assert state(work, mail) == state(clean, mail), where
        assert faults.journals(work) == [], where


def test_a_log_file_cut_short_by_a_kill_is_whole_again_at_the_next_message(scratch: Path) -> None:
    """`--log-file`, appended outside the message's transaction: a fragment a kill left is
    cut before the next line, which is whole."""
    [mail] = [operation for operation in OPERATIONS if operation.name == "mail"]
    work = scratch / "games"
    work.mkdir()
    mail.setup(work)
    log = scratch / "mail.jsonl"
    args = [*mail.args(work), "--log-file", str(log)]
    trace = faults.run(args, mail.stdin, faults.Counting())
    assert trace.code == 0, trace.err
    log.unlink()
    shutil.rmtree(work)
    work.mkdir()
    mail.setup(work)
    k = trace.first(f"write {log}")
    assert faults.run(args, mail.stdin, faults.Short(k, "kill")).code == faults.KILLED
    assert log.read_bytes() and not log.read_bytes().endswith(b"\n")  # the fragment a kill leaves
    again = faults.run(args, mail.stdin)
    assert again.code == 0, again.err
    lines = _whole_json_lines(log)
    assert [line["outcome"] for line in lines] == ["duplicate"]


def _opened(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_APPEND)


def test_a_tail_without_its_end_is_cut_before_the_next_line(tmp_path: Path) -> None:
    path = tmp_path / "some.log"
    path.write_bytes(b"one\ntwo\nthr")
    fd = _opened(path)
    try:
        assert whole_length(fd) == len(b"one\ntwo\n")
        assert append_to(fd, b"three\n")
    finally:
        os.close(fd)
    assert path.read_bytes() == b"one\ntwo\nthree\n"
    path.write_bytes(b"x" * 200_000 + b"\n" + b"y" * 100_000)  # a tail longer than the chunk read back
    fd = _opened(path)
    try:
        assert whole_length(fd) == 200_001
        assert not append_to(fd, b"x" * 10, at=0)  # a journal's line found at its offset: not twice
        assert append_to(fd, b"z\n", at=200_001)  # a journal's line redone: the fragment cut first
    finally:
        os.close(fd)
    assert path.read_bytes() == b"x" * 200_000 + b"\nz\n"


def test_an_append_that_fails_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "some.log"
    path.write_bytes(b"one\n")
    plain = seam.install(faults.Short(2))  # the create is call 1, the write call 2
    try:
        with pytest.raises(store.WriteFailed, match="No space left on device"):
            store.append_line(path, b"two two two\n")
    finally:
        seam.install(plain)
    assert path.read_bytes() == b"one\n"
