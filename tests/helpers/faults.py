"""Fault injection for the referee's writes, as SQLite tests its I/O errors: the k-th call
on the file-operations seam (`referee.store.ops`: every create, write, fsync, rename,
link, unlink, mkdir and rmdir) fails with ENOSPC or EIO, or the process dies there
(`os._exit(137)`, as a SIGKILL leaves it: no cleanup, no flush).

Every command runs in a forked child (`run`), so that a kill is a real process's death
and the parent, pytest, lives on; the child runs the real command line
(`referee.cli.entry.run`) with its standard streams on files."""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import tempfile
from collections.abc import Iterator, Sequence
from email import policy
from email.parser import BytesParser
from pathlib import Path
from typing import NamedTuple

from referee.store import ops as seam


def _warm() -> None:
    """Import once, in the parent, what the commands import lazily, and load every game's
    engine: each forked child then starts with them (a kill test runs hundreds of them)."""
    import importlib

    from referee.games import registry

    for name in (
        "referee.cli.main",
        "referee.cli.play_commands",
        "referee.cli.league",
        "referee.league.tick",
        "referee.league.leave",
        "referee.league.mailing",
        "referee.league.standings",
        "referee.live.mail.gateway",
        "referee.live.play.secret",
        "referee.judge.services.new_record",
        "referee.pictures",
    ):
        importlib.import_module(name)
    for game in registry.GAMES:
        registry.engine(game)


_warm()

KINDS = ("enospc", "eio", "kill")
KILLED = 137


class Counting(seam.FileOps):
    """The plain operations, counted, and what each one was (for the report)."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.names: dict[int, str] = {}

    def _count(self, what: str) -> None:
        self.calls.append(what)

    def create(self, path: Path | str, flags: int, mode: int, *, dir_fd: int | None = None) -> int:
        self._count(f"create {_at(path, dir_fd)}")
        fd = super().create(path, flags, mode, **_given(dir_fd=dir_fd))
        self.names[fd] = _at(path, dir_fd)
        return fd

    def write(self, fd: int, data: bytes | memoryview) -> int:
        self._count(f"write {self.names.get(fd, fd)}")
        return super().write(fd, data)

    def fsync(self, fd: int) -> None:
        self._count(f"fsync {self.names.get(fd, 'a folder')}")
        super().fsync(fd)

    def truncate(self, fd: int, length: int) -> None:
        self._count(f"truncate {self.names.get(fd, fd)} {length}")
        super().truncate(fd, length)

    def replace(
        self, source: Path | str, target: Path | str, *, src_dir_fd: int | None = None, dst_dir_fd: int | None = None
    ) -> None:
        self._count(f"rename {_at(source, src_dir_fd)} {_at(target, dst_dir_fd)}")
        super().replace(source, target, **_given(src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd))

    def link(
        self, source: Path | str, target: Path | str, *, src_dir_fd: int | None = None, dst_dir_fd: int | None = None
    ) -> None:
        self._count(f"link {_at(source, src_dir_fd)} {_at(target, dst_dir_fd)}")
        super().link(source, target, **_given(src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd))

    def unlink(self, path: Path | str, *, dir_fd: int | None = None) -> None:
        self._count(f"unlink {_at(path, dir_fd)}")
        super().unlink(path, **_given(dir_fd=dir_fd))

    def mkdir(self, path: Path | str, mode: int, *, dir_fd: int | None = None) -> None:
        self._count(f"mkdir {_at(path, dir_fd)}")
        super().mkdir(path, mode, **_given(dir_fd=dir_fd))

    def rmdir(self, path: Path | str, *, dir_fd: int | None = None) -> None:
        self._count(f"rmdir {_at(path, dir_fd)}")
        super().rmdir(path, **_given(dir_fd=dir_fd))


def _given(**descriptors: int | None) -> dict[str, int]:
    """The folder descriptors a call was given (none: the plain call, by path)."""
    return {name: fd for name, fd in descriptors.items() if fd is not None}


def _named(fd: int) -> str | None:
    """The path an open descriptor names (Linux), for the report."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return None


def _at(path: Path | str, dir_fd: int | None) -> str:
    """A name relative to an open folder, as the path it stands for."""
    folder = _named(dir_fd) if dir_fd is not None else None
    return str(path) if folder is None else os.path.join(folder, path)


class Faulty(Counting):
    """Fails the k-th call (1-based): ENOSPC, EIO, or the process killed there."""

    def __init__(self, k: int, kind: str) -> None:
        super().__init__()
        self.k, self.kind = k, kind

    def _count(self, what: str) -> None:
        super()._count(what)
        if len(self.calls) != self.k:
            return
        if self.kind == "kill":
            os._exit(KILLED)
        code = errno.ENOSPC if self.kind == "enospc" else errno.EIO
        raise OSError(code, os.strerror(code))


class Short(Counting):
    """The k-th call, when it is a write, writes only the first half of its bytes, as a disk
    that fills up in the middle of a write leaves them (the bytes that fit are in the file),
    then either returns that count (`enospc`: every later write fails with ENOSPC) or
    kills the process there (`kill`: nothing cleans up after it)."""

    def __init__(self, k: int, kind: str = "enospc") -> None:
        super().__init__()
        self.k, self.kind = k, kind

    def write(self, fd: int, data: bytes | memoryview) -> int:
        self._count(f"write {self.names.get(fd, fd)}")
        if len(self.calls) < self.k:
            return os.write(fd, data)
        if len(self.calls) > self.k:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        written = os.write(fd, bytes(data)[: len(data) // 2])
        if self.kind == "kill":
            os._exit(KILLED)
        return written


class Ran(NamedTuple):
    code: int
    out: str
    err: str
    trace: tuple[str, ...]
    """The calls made on the seam, in order ("rename A B", "write FILE", ...)."""

    @property
    def calls(self) -> int:
        return len(self.trace)

    def first(self, pattern: str, nth: int = 1) -> int:
        """The number (1-based) of the nth call whose text holds `pattern`."""
        found = [number for number, call in enumerate(self.trace, start=1) if pattern in call]
        assert len(found) >= nth, f"no call {nth} with {pattern!r} in {self.trace}"
        return found[nth - 1]


def run(args: Sequence[str], stdin: bytes = b"", ops: Counting | None = None) -> Ran:
    """`referee ARGS` in a forked child, with `ops` in force (counting only when None)."""
    counting = ops if ops is not None else Counting()
    with tempfile.TemporaryDirectory() as scratch:
        files = [Path(scratch) / name for name in ("in", "out", "err", "calls")]
        files[0].write_bytes(stdin)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 3
            try:
                code = _child(list(args), files, counting)
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        trace = tuple(files[3].read_text().splitlines()) if files[3].exists() else ()
        return Ran(code, files[1].read_text(errors="replace"), files[2].read_text(errors="replace"), trace)


def _child(args: list[str], files: list[Path], counting: Counting) -> int:
    for fd, path, mode in ((0, files[0], os.O_RDONLY), (1, files[1], os.O_WRONLY), (2, files[2], os.O_WRONLY)):
        opened = os.open(path, mode | (os.O_CREAT | os.O_TRUNC if fd else 0), 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - the child's whole life
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    from referee.cli.entry import run as entry
    from referee.cli.main import app

    seam.install(counting)
    try:
        code = entry(app, args)
    finally:
        seam.install(seam.FileOps())
        sys.stdout.flush()
        sys.stderr.flush()
    files[3].write_text("".join(call.replace("\n", " ") + "\n" for call in counting.calls))
    return code


# -- what a folder holds, to compare ------------------------------------------------------------


def snapshot(folder: Path, *, drop_repeats: bool = False) -> dict[str, object]:
    """The folder as a player or the game master sees it: every file's content (locks,
    stale temporary files and journals left out, which nothing reads), the outbox as the
    set of answers each player received (Message-ID, Date and file names aside), and
    `mail.log` as its lines. `drop_repeats`: without the answers to a message delivered
    twice ("reached game ... before") and their `duplicate` log lines, which a redelivery
    after a crash adds and which say so."""
    seen: dict[str, object] = {}
    answers: set[tuple[str, str, str]] = set()
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or path.name.endswith(".lock") or ".tmp-" in path.name:
            continue
        if any(part.startswith(".journal-") for part in relative.parts):
            continue
        if relative.parts[0] == "outbox" and path.suffix == ".eml":
            message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            body = message.get_body(("plain",))
            text = body.get_content() if body is not None else ""
            if drop_repeats and "before and was" in text:
                continue
            for to in str(message["To"]).split(","):
                answers.add((to.strip(), str(message["Subject"]), text))
            continue
        data = path.read_bytes()
        if drop_repeats and path.name == "mail.log":
            data = b"".join(line for line in data.splitlines(keepends=True) if not line.endswith(b" duplicate\n"))
        seen[str(relative)] = data
    seen["answers"] = answers
    return seen


def journals(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob(".journal-*"))


@contextlib.contextmanager
def scratch(fallback: Path) -> Iterator[Path]:
    """A folder in memory (tmpfs) where there is one, else `fallback`: an fsync costs
    nothing there, and a kill, unlike a power cut, does not depend on what reached the disk."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield fallback
        return
    with tempfile.TemporaryDirectory(dir=shm, prefix="referee-faults-") as folder:
        yield Path(folder)
