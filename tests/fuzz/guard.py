"""What every harness shares: `Defect`, the one exception a harness raises of its own, and
`Sandbox`, a temporary folder that the code under test may write in and nowhere else.

A harness's `TestOneInput(data)` returns for everything the door documents (a verdict, a
usage error, a refusal) and raises for a real defect: any other exception escapes as it
is (a traceback), and what the referee would turn into exit 3 or an "internal error" is a
`Defect`. The fuzzer (`python -m tests.fuzz`) and the crash replay (tests/fuzz/test_crashes.py)
both treat any exception out of `TestOneInput` as a crash.

`Sandbox` holds a Python audit hook (PEP 578) while a harness runs: a file written, created,
removed, renamed, linked or made a folder outside the sandbox raises `Escape` *before* it
happens. A hostile folder (a journal naming `../x`) can then never touch this machine's
files during a fuzzing run, and the attempt itself is reported as the defect it is. The
network is cut off the same way: a connection or a name look-up fails as if refused."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path


class Defect(AssertionError):
    """A real defect found by a harness: what the referee would word as exit 3, a traceback
    or an internal error, or a broken promise of its door (two answers that should agree)."""


class Escape(Defect):
    """The code under test wrote (or removed, renamed, linked) outside its sandbox."""


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_PATH_EVENTS = {
    # event: the indexes of its path arguments, and of the matching dir_fd arguments
    "os.remove": ((0, 1),),
    "os.rmdir": ((0, 1),),
    "os.mkdir": ((0, 2),),
    "os.rename": ((0, 2), (1, 3)),
    "os.link": ((0, 2), (1, 3)),
    "os.symlink": ((1, 2),),
    "os.truncate": ((0, None),),
    "os.chmod": ((0, 2),),
    "os.chown": ((0, 3),),
    "os.utime": ((0, 4),),
    "shutil.rmtree": ((0, 1),),
    "shutil.copyfile": ((1, None),),
    "shutil.move": ((0, None), (1, None)),
}
_armed: list[Path] = []
_hooked = [False]


def _where(path: object, dir_fd: object) -> str | None:
    """The absolute, normalised path an event names (None: a descriptor, not a path)."""
    if isinstance(path, int):
        return None
    text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    if not os.path.isabs(text):
        if isinstance(dir_fd, int):
            try:
                base = os.readlink(f"/proc/self/fd/{dir_fd}")
            except OSError:
                return None
        else:
            base = os.getcwd()
        text = os.path.join(base, text)
    return os.path.normpath(text)


def _relative_name(path: object) -> bool:
    return isinstance(path, (str, bytes)) and not os.path.isabs(os.fsdecode(path))


def _inside(text: str, root: Path) -> bool:
    return text == str(root) or text.startswith(str(root) + os.sep)


_NETWORK = {"socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.sendto"}


def _hook(event: str, args: tuple[object, ...]) -> None:
    if not _armed:
        return
    root = _armed[-1]
    if event in _NETWORK:
        # No network in a run (a league.toml's `notify` URL, a host in a message): as if
        # there were none, which the code under test must take in its stride.
        raise ConnectionRefusedError(f"{event}: no network while fuzzing")
    if event == "open":
        path, mode, flags = (args + (None, None, None))[:3]
        writes = (isinstance(flags, int) and flags & _WRITE_FLAGS) or (
            isinstance(mode, str) and any(letter in mode for letter in "wax+")
        )
        if writes and _relative_name(path):
            # Python's `open` audit event names no dir_fd: a relative path may be relative to a
            # folder's descriptor (the store works so since issue 44), so it cannot be placed;
            # a relative path that climbs (`..`) is an escape wherever it starts.
            if ".." in os.fsdecode(path).split(os.sep):  # type: ignore[arg-type]
                _armed.clear()
                raise Escape(f"{event} of a path that climbs, outside the sandbox {root}: {path!r}")
            return
        named = [(path, None)] if writes else []
    elif event in _PATH_EVENTS:
        named = [(args[at], args[fd] if fd is not None and fd < len(args) else None) for at, fd in _PATH_EVENTS[event]]
    else:
        return
    for path, dir_fd in named:
        where = _where(path, dir_fd)
        if where is not None and not _inside(where, root):
            _armed.clear()  # reported once: the harness's clean-up may run
            raise Escape(f"{event} outside the sandbox {root}: {where}")


def scratch() -> str | None:
    """Where the sandboxes go: REFEREE_FUZZ_TMP, else /dev/shm (memory: writing the input
    file there costs microseconds, on an overlay file system milliseconds), else the usual
    temporary folder."""
    chosen = os.environ.get("REFEREE_FUZZ_TMP")
    if chosen:
        return chosen
    return "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


class Sandbox:
    """A temporary folder, and the guard that keeps every write of the code under test in it
    (`with sandbox.guarded(): ...`)."""

    def __init__(self, name: str) -> None:
        self.root = Path(tempfile.mkdtemp(prefix=f"referee-fuzz-{name}-", dir=scratch())).resolve()
        atexit.register(self.remove)
        if not _hooked[0]:
            sys.addaudithook(_hook)
            _hooked[0] = True

    def guarded(self, root: Path | None = None) -> _Guarded:
        """Writes allowed only under `root` (a folder of the sandbox; default: all of it)."""
        return _Guarded((root or self.root).resolve())

    def clear(self, folder: Path) -> None:
        """Empty `folder` (inside the sandbox), keeping the folder itself."""
        for entry in os.scandir(folder):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


class _Guarded:
    def __init__(self, root: Path) -> None:
        self.root = root

    def __enter__(self) -> None:
        _armed.append(self.root)

    def __exit__(self, *_: object) -> None:
        if _armed:
            _armed.pop()
