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
same content is kept, a line already in its log is not appended twice), an uncommitted
one is thrown away. Answers owed to players are `.eml` files of the outbox, so a journal
rolled forward queues every answer to every player it was owed to.

A transaction opened inside another joins it (a `play` inside `league tick`'s step): the
inner block's steps are the outer's, dropped again when the inner block raises.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from referee.judge.errors import UsageError
from referee.store.atomic import append_line, create_atomically, mode_of, write_atomically, write_file
from referee.store.lock import folder_locked, keeping_locks, target_of
from referee.store.ops import WriteFailed, fsync_folder, make_folders, ops

JOURNAL_PREFIX = ".journal-"
COMMIT = "commit.json"
_NO_LINKS = (1, 18, 38, 95)  # EPERM, EXDEV, ENOSYS, EOPNOTSUPP: renamed or linked only within one file system


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
    return Path(os.path.abspath(target_of(Path(path))))


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
    tx.steps.append(_Step("append", _target(path), data, 0o640))


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
    journal = folder / f"{JOURNAL_PREFIX}{secrets.token_hex(4)}"
    entries: list[dict[str, object]] = []
    try:
        ops().mkdir(journal, 0o700)
        for index, step in enumerate(steps):
            entry: dict[str, object] = {
                "kind": step.kind,
                "target": os.path.relpath(step.target, folder),
                "mode": step.mode,
            }
            if step.kind == "append":
                entry["line"] = step.data.decode("utf-8", "surrogateescape")
            elif step.kind == "remove":
                pass
            else:
                try:
                    write_file(journal / str(index), step.data, step.mode)
                except OSError as error:
                    raise WriteFailed(step.target, error) from None
                entry["staged"] = str(index)
            entries.append(entry)
        manifest = json.dumps({"steps": entries}, ensure_ascii=True).encode("ascii")
        write_file(journal / "commit.tmp", manifest, 0o600)
        ops().replace(journal / "commit.tmp", journal / COMMIT)  # the commit
        fsync_folder(journal)
        fsync_folder(folder)
    except BaseException as error:
        _discard(journal)
        if isinstance(error, OSError) and not isinstance(error, WriteFailed):
            raise WriteFailed(journal / COMMIT, error) from None
        raise
    _apply(folder, journal, entries, recovering=False)


def _apply(folder: Path, journal: Path, entries: list[dict[str, object]], *, recovering: bool) -> None:
    """Apply the journal's steps in order (again, after a crash: each step is done once),
    then remove the journal. WriteFailed when a target cannot be written: the journal
    stays, committed, and the next command completes it."""
    touched: dict[Path, None] = {}
    for entry in entries:
        target = folder / str(entry["target"])
        kind, mode = entry["kind"], int(str(entry["mode"]))
        try:
            if kind == "append":
                data = str(entry["line"]).encode("utf-8", "surrogateescape")
                if not (recovering and _holds(target, data)):
                    make_folders(target.parent)
                    append_line(target, data)
                continue
            if kind == "remove":
                if os.path.lexists(target):  # not yet removed before a crash
                    ops().unlink(target)
                touched[target.parent] = None
                continue
            staged = journal / str(entry["staged"])
            if kind == "write":
                if not staged.exists():
                    continue  # renamed into place before the crash
                make_folders(target.parent)
                try:
                    ops().replace(staged, target)
                except OSError as error:
                    if error.errno not in _NO_LINKS:
                        raise
                    write_atomically(target, staged.read_bytes(), mode)
                    ops().unlink(staged)
            else:
                make_folders(target.parent)
                try:
                    ops().link(staged, target)
                except FileExistsError:
                    if target.read_bytes() != staged.read_bytes():
                        raise UsageError(
                            f"{target} was made by another command meanwhile: not replaced ({journal} kept)"
                        ) from None
                except OSError as error:
                    if error.errno not in _NO_LINKS:
                        raise
                    create_atomically(target, staged.read_bytes(), mode)
        except OSError as error:
            reason = OSError(error.errno, error.reason) if isinstance(error, WriteFailed) else error
            raise WriteFailed(target, reason, _committed(folder)) from None
        touched[target.parent] = None
    for parent in touched:
        try:
            fsync_folder(parent)
        except OSError as error:
            raise WriteFailed(parent, error, _committed(folder)) from None
    _discard(journal, committed=True)


def _committed(folder: Path) -> str:
    return f" (the operation is recorded: the next command on {folder} completes it)"


def _holds(log: Path, data: bytes) -> bool:
    """Whether a log already holds these lines (appended before a crash)."""
    try:
        text = log.read_bytes()
    except FileNotFoundError:
        return False
    return text.startswith(data) or b"\n" + data in text


def _discard(journal: Path, committed: bool = False) -> None:
    """Remove a journal folder: the commit first (a journal half removed is then one to
    throw away, its steps all applied), then the staged copies. A removal that fails
    leaves the journal for the next command, which finds every step done."""
    with contextlib.suppress(OSError):
        if committed:
            ops().unlink(journal / COMMIT)
            fsync_folder(journal)
        names = sorted(os.listdir(journal)) if journal.is_dir() else []
        for name in names:
            ops().unlink(journal / name)
        if journal.is_dir():
            ops().rmdir(journal)


def pending(folder: Path) -> list[Path]:
    """The journals a dead run left in the folder."""
    try:
        return sorted(path for path in Path(folder).glob(f"{JOURNAL_PREFIX}*") if path.is_dir())
    except OSError:
        return []


def settle(folder: Path, wait: float = 10.0) -> None:
    """For a command that only reads: complete (or discard) what a dead run left first,
    under the folder's lock; nothing at all, no lock taken, when it left nothing."""
    if Path(folder).is_dir() and pending(folder):
        with session(folder, wait):
            pass


def recover(folder: Path) -> int:
    """Complete every committed journal of the folder, throw away every other one (the
    caller holds the folder's lock); the number completed."""
    done = 0
    for journal in pending(folder):
        try:
            manifest = json.loads((journal / COMMIT).read_bytes())
        except FileNotFoundError:
            _discard(journal)
            continue
        except ValueError:
            raise UsageError(f"{journal / COMMIT} cannot be read: remove {journal} by hand") from None
        entries = manifest.get("steps") if isinstance(manifest, dict) else None
        if not isinstance(entries, list) or not all(isinstance(entry, dict) for entry in entries):
            raise UsageError(f"{journal / COMMIT} is not a journal: remove {journal} by hand")
        _apply(Path(folder), journal, entries, recovering=True)
        done += 1
    return done
