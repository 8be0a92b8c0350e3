"""All or nothing for an operation that writes more than one file: an intent journal.

    with journal.transaction(folder) as tx:     # the folder's lock, what a dead run left first
        journal.write(folder / "r1-t1.rgn", text)          # staged, not yet written
        journal.create(folder / "keys" / "r1-t1.key", seed, 0o600)
        journal.append(folder / "league.log", line)
    # here: committed, applied, the journal gone

Within a transaction, `write`, `create` and `append` only record what the operation will
write (`read_bytes` sees it). When the block ends, the transaction commits, as SQLite's
rollback journal and Maildir's tmp/new do it:

1. every new file's content is written into a journal folder beside the targets
   (`DIR/.journal-XXXXXXXX/0`, `1`, ...) and fsynced, then the list of steps
   (`commit.json`: each target, its staged copy or the line to append) is written to a
   temporary name, fsynced and renamed: that rename is the commit;
2. the steps are applied in order: each staged copy renamed over its target (a file
   created is linked, never replacing another), each line appended to its log;
3. the journal folder is removed.

A transaction with one step needs no journal: the one file is written atomically.

Every command that writes in a folder first holds the folder's lock (`session`: a flock
on the folder itself) and completes what a dead run left (`recover`): a committed journal
is applied again (a staged copy already renamed is skipped, a file already linked with the
same content is kept, a line found at its recorded offset is not appended twice), an
uncommitted one is thrown away, and one that is not exactly what `commit` writes, or asks
for anything outside the folder or through a link, is set aside (`.journal-*.rejected`,
Rejected: exit 2): `referee.store.manifest`, `referee.store.replay`. Answers owed to
players are `.eml` files of the outbox, so a journal rolled forward queues every answer
to every player it was owed to.

A transaction opened inside another joins it (a `play` inside `league tick`'s step): the
inner block's steps are the outer's, dropped again when the inner block raises.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import UsageError
from referee.store import manifest
from referee.store.atomic import append_line, create_atomically, mode_of, write_atomically, write_file
from referee.store.lines import whole_length
from referee.store.lock import folder_locked, keeping_locks, target_of
from referee.store.manifest import COMMIT, Entry, Kind, Malformed
from referee.store.ops import WriteFailed, fsync_folder, make_folders, ops
from referee.store.replay import REJECTED, Refused, Rejected, discard, replay, set_aside, shown

JOURNAL_PREFIX = ".journal-"


@dataclass
class _Step:
    kind: str  # "write", "create", "append" or "remove"
    target: Path
    data: bytes
    mode: int


@dataclass
class Transaction:
    """What one operation will write, in order."""

    folder: Path
    steps: list[_Step] = field(default_factory=list)

    def staged(self, target: Path) -> bytes | None:
        for step in reversed(self.steps):
            if step.target == target and step.kind != "append":
                return step.data
        return None


_held: dict[Path, int] = {}
_active: list[Transaction] = []


def _key(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _target(path: Path) -> Path:
    """The file a step writes: a link resolved, its folder's real path (so that a folder
    named through a link still holds it, as the journal records it)."""
    named = Path(os.path.abspath(target_of(Path(path))))
    return Path(os.path.realpath(named.parent)) / named.name


@contextlib.contextmanager
def session(folder: Path, wait: float = 10.0) -> Iterator[None]:
    """Hold the folder's lock (BusyError after `wait` seconds) and complete or discard what
    a dead run left in it first. Re-entrant: a process holding it takes it again at once."""
    key = _key(folder)
    if key in _held:
        _held[key] += 1
        try:
            yield
        finally:
            _held[key] -= 1
        return
    with folder_locked(key, wait):
        _held[key] = 1
        try:
            recover(key)
            yield
        finally:
            del _held[key]


@contextlib.contextmanager
def transaction(folder: Path, wait: float = 10.0) -> Iterator[Transaction]:
    """Stage the block's writes; commit and apply them when it ends without an exception
    (WriteFailed when a file cannot be written), none of them when it raises."""
    with session(folder, wait):
        if _active:
            outer = _active[-1]
            mark = len(outer.steps)
            try:
                yield outer
            except BaseException:
                del outer.steps[mark:]
                raise
            return
        tx = Transaction(_key(folder))
        # A game lock taken within the transaction (play's, the gateway's) is held until the
        # commit has written the game: PLAY.md §4's lock covers the whole read-check-write.
        with keeping_locks():
            _active.append(tx)
            try:
                yield tx
            finally:
                _active.pop()
            commit(tx)


def active() -> Transaction | None:
    return _active[-1] if _active else None


# -- what an operation writes --------------------------------------------------------------


def write(path: Path, text: str | bytes, mode: int | None = None) -> None:
    """Replace (or make) the file `path`: staged within a transaction, else written
    atomically at once. `mode`: its permission bits (default: kept, or 0644 when new)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    tx = active()
    if tx is None:
        if mode is not None and path.exists():
            os.chmod(target_of(path), mode)
        write_atomically(path, data, mode)
        return
    target = _target(path)
    tx.steps.append(_Step("write", target, data, mode if mode is not None else mode_of(target)))


def create(path: Path, text: str | bytes, mode: int = 0o644) -> None:
    """Make the new file `path`, never over one already there (FileExistsError)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    tx = active()
    if tx is None:
        create_atomically(path, data, mode)
        return
    target = _target(path)
    if os.path.lexists(target) or tx.staged(target) is not None:
        raise FileExistsError(17, "File exists", str(path))
    tx.steps.append(_Step("create", target, data, mode))


def append(path: Path, line: str | bytes) -> None:
    """Append whole lines to a log."""
    data = line.encode("utf-8") if isinstance(line, str) else line
    tx = active()
    if tx is None:
        append_line(path, data)
        return
    tx.steps.append(_Step("append", _log_target(path), data, 0o640))


def _log_target(path: Path) -> Path:
    """The log a step appends to: `path` itself in its folder's real path. Unlike a game
    file's (`_target`), a link there is not followed: an append-only file is never written
    through a link (a folder from someone else: docs/files.md), and the append refuses it."""
    named = Path(os.path.abspath(path))
    return Path(os.path.realpath(named.parent)) / named.name


def remove(path: Path) -> None:
    """Remove the file `path` (a game of a round taken back); nothing when it is not there."""
    tx = active()
    if tx is None:
        if os.path.lexists(path):
            ops().unlink(Path(path))
            fsync_folder(Path(path).parent)
        return
    tx.steps.append(_Step("remove", _target(path), b"", 0))


def read_bytes(path: Path, read: Callable[[Path], bytes] = Path.read_bytes) -> bytes:
    """The file's content as the operation in progress left it (staged, or on disk: read
    by `read`, which a caller that bounds what it reads passes)."""
    tx = active()
    if tx is not None:
        staged = tx.staged(_target(path))
        if staged is not None:
            return staged
    return read(Path(path))


# -- commit, apply, recover -----------------------------------------------------------------


def trust(folder: Path) -> None:
    """Let this process's recovery write in `folder`, outside the folder a journal belongs
    to (`--outbox` elsewhere: the command that names it completes what a dead run owed there)."""
    _trusted.add(str(_key(folder)))


_trusted: set[str] = set()


def _collapsed(steps: list[_Step]) -> list[_Step]:
    """The steps to apply: of several writes of one file, the last (in its place)."""
    last = {step.target: index for index, step in enumerate(steps) if step.kind == "write"}
    return [step for index, step in enumerate(steps) if step.kind != "write" or last[step.target] == index]


def commit(tx: Transaction) -> None:
    steps = _collapsed(tx.steps)
    if not steps:
        return
    if len(steps) == 1:
        step = steps[0]
        if step.kind == "write":
            write_atomically(step.target, step.data, step.mode)
        elif step.kind == "create":
            create_atomically(step.target, step.data, step.mode)
        elif step.kind == "remove":
            remove(step.target)
        else:
            append_line(step.target, step.data)
        return
    folder = tx.folder
    name = f"{JOURNAL_PREFIX}{secrets.token_hex(4)}"
    journal = folder / name
    entries: list[Entry] = []
    ends: dict[Path, int] = {}
    try:
        ops().mkdir(journal, 0o700)
        for index, step in enumerate(steps):
            root, parts = _place(folder, step.target)
            kind = Kind(step.kind)
            if kind is Kind.APPEND:
                at = ends[step.target] if step.target in ends else _whole_length(step.target)
                ends[step.target] = at + len(step.data)
                entries.append(Entry(kind, parts, step.mode, line=step.data, at=at, root=root))
            elif kind is Kind.REMOVE:
                entries.append(Entry(kind, parts, step.mode, root=root))
            else:
                try:
                    write_file(journal / str(index), step.data, step.mode)
                except OSError as error:
                    raise WriteFailed(step.target, error) from None
                entries.append(Entry(kind, parts, step.mode, staged=str(index), root=root))
        write_file(journal / "commit.tmp", manifest.encode(entries), 0o600)
        ops().replace(journal / "commit.tmp", journal / COMMIT)  # the commit
        fsync_folder(journal)
        fsync_folder(folder)
    except BaseException as error:
        _discard_path(journal)
        if isinstance(error, OSError) and not isinstance(error, WriteFailed):
            raise WriteFailed(journal / COMMIT, error) from None
        raise
    roots = {entry.root for entry in entries if entry.root is not None}
    with _opened(folder) as folder_fd, _opened(journal) as journal_fd, _roots(roots) as opened:
        _replay_or_reject(folder, folder_fd, name, journal_fd, entries, opened)


def _place(folder: Path, target: Path) -> tuple[str | None, tuple[str, ...]]:
    """Where a journal records `target`: its names below the folder, or, outside it, the
    absolute folder holding it and its name."""
    try:
        parts = target.relative_to(folder).parts
        root = None
    except ValueError:
        root, parts = str(target.parent), (target.name,)
    for part in (*parts, root or ""):
        try:
            part.encode("utf-8")
        except UnicodeEncodeError:
            raise UsageError(f"cannot write {shown(str(target))}: its name is not UTF-8") from None
    return root, tuple(parts)


def _whole_length(path: Path) -> int:
    """The length of a log's whole lines now (where its next line will start)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return 0
    try:
        return whole_length(fd) if stat.S_ISREG(os.fstat(fd).st_mode) else 0
    finally:
        os.close(fd)


@contextlib.contextmanager
def _opened(folder: Path, follow: bool = True) -> Iterator[int]:
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | (0 if follow else os.O_NOFOLLOW)
    fd = os.open(folder, flags)
    try:
        yield fd
    finally:
        os.close(fd)


@contextlib.contextmanager
def _roots(roots: set[str]) -> Iterator[dict[str, int]]:
    """The trusted folders outside the folder, opened (a missing one: its steps fail)."""
    opened: dict[str, int] = {}
    try:
        for root in sorted(roots):
            with contextlib.suppress(OSError):
                make_folders(Path(root))
            try:
                opened[root] = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            except OSError as error:
                raise WriteFailed(Path(root), error) from None
        yield opened
    finally:
        for fd in opened.values():
            os.close(fd)


def _replay_or_reject(
    folder: Path, folder_fd: int, name: str, journal_fd: int, entries: Sequence[Entry], roots: dict[str, int]
) -> None:
    """Apply a committed journal and remove it; set it aside (Rejected) when a step is refused."""
    try:
        replay(folder, folder_fd, journal_fd, entries, roots)
    except Refused as refused:
        raise Rejected(_aside(folder, folder_fd, name, str(refused))) from None
    discard(folder_fd, name, journal_fd, committed=True)


def _aside(folder: Path, folder_fd: int, name: str, reason: str) -> str:
    """Set the journal aside; the line that says so."""
    journal = shown(str(folder / name))
    try:
        aside = set_aside(folder_fd, name)
    except OSError as error:
        why = error.strerror or error
        return f"{journal} is not a journal of the referee ({reason}): not applied, and it cannot be set aside: {why}"
    return f"{journal} is not a journal of the referee ({reason}): not applied; set aside as {shown(aside)}"


def _discard_path(journal: Path) -> None:
    """Remove a journal this process was writing (a commit that failed)."""
    with contextlib.suppress(OSError):
        names = sorted(os.listdir(journal)) if journal.is_dir() else []
        for name in names:
            ops().unlink(journal / name)
        if journal.is_dir():
            ops().rmdir(journal)


def _names(folder_fd: int) -> list[str]:
    return sorted(
        name for name in os.listdir(folder_fd) if name.startswith(JOURNAL_PREFIX) and not name.endswith(REJECTED)
    )


def pending(folder: Path) -> list[Path]:
    """The journals a dead run left in the folder (whatever they are: recovery checks them)."""
    try:
        with _opened(Path(folder)) as fd:
            return [Path(folder) / name for name in _names(fd)]
    except OSError:
        return []


def settle(folder: Path, wait: float = 10.0) -> None:
    """For a command that only reads: complete (or discard) what a dead run left first,
    under the folder's lock; nothing at all, no lock taken, when it left nothing."""
    if Path(folder).is_dir() and pending(folder):
        with session(folder, wait):
            pass


def recover(folder: Path) -> int:
    """Complete every committed journal of the folder, throw away every uncommitted one,
    set aside every one that is not the referee's (the caller holds the folder's lock);
    the number completed. Rejected, after the others are done, when one was set aside."""
    done, said = 0, []
    with _opened(Path(folder)) as folder_fd:
        for name in _names(folder_fd):
            try:
                if _recover_one(Path(folder), folder_fd, name):
                    done += 1
            except Rejected as rejected:
                said.append(str(rejected))
    if said:
        raise Rejected("; ".join(said))
    return done


def _recover_one(folder: Path, folder_fd: int, name: str) -> bool:
    try:
        journal_fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=folder_fd)
    except FileNotFoundError:
        return False
    except OSError as error:
        found = os.stat(name, dir_fd=folder_fd, follow_symlinks=False).st_mode
        reason = "a symbolic link" if stat.S_ISLNK(found) else "not a folder" if not stat.S_ISDIR(found) else None
        raise Rejected(_aside(folder, folder_fd, name, reason or (error.strerror or str(error)))) from None
    try:
        try:
            data = manifest.read(journal_fd)
            if data is None:  # never committed
                if not discard(folder_fd, name, journal_fd, committed=False):
                    raise Malformed("an uncommitted journal that cannot be removed")
                return False
            entries = manifest.parse(data)
        except Malformed as malformed:
            raise Rejected(_aside(folder, folder_fd, name, str(malformed))) from None
        roots = {entry.root for entry in entries if entry.root is not None}
        untrusted = sorted(roots - _trusted)
        if untrusted:
            reason = f"a step outside the folder, in {shown(untrusted[0])}"
            raise Rejected(_aside(folder, folder_fd, name, reason))
        with _roots(roots) as opened:
            _replay_or_reject(folder, folder_fd, name, journal_fd, entries, opened)
        return True
    finally:
        os.close(journal_fd)
