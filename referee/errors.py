"""The referee's one error vocabulary, raised by the library and turned into an exit status
at the command line's boundary only (`referee.cli.exits`, `referee.cli.entry`).

Every error the referee reports is a `ValueError` that says, in one line, what is wrong
with what the user gave; the rules' own refusals (`games.api.RuleError`), notation errors
(`notation.NotationError`) and submission refusals (exit 1) are values of the verdicts,
not these, and a file the referee could not write is an `OSError` (`WriteFailed`), which
the store raises and the boundary names in one line."""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitStatus(IntEnum):
    """NOTATION.md §8 and PLAY.md §1: the process's exit status."""

    OK = 0
    REJECTED = 1
    USAGE = 2
    ERROR = 3
    BUSY = 75
    """`EX_TEMPFAIL`: nothing was done, try again later (mail transfer agents retry)."""


class UsageError(ValueError):
    """A command used wrongly (a bad option value, a record that is not there, a folder or
    file that cannot be used): exit status 2."""


class UnreadableError(UsageError):
    """A file, or standard input, that cannot be read: exit 2, and the next file is read."""


class BusyError(ValueError):
    """A game file (or a folder's ledger) stayed locked by another process: nothing was
    done; exit status 75, try again later."""


class WriteFailed(OSError):
    """A file the referee could not write (a full disk, an I/O error): its message names
    the file, in one line ("cannot write DIR/mail.log: No space left on device"). Raised by
    the store (`referee.store.ops`: every write goes through it); exit status 2."""

    def __init__(self, path: Path | str, error: OSError, note: str = "") -> None:
        reason = error.strerror or str(error) or type(error).__name__
        super().__init__(error.errno, f"cannot write {path}: {reason}{note}")
        self.path = Path(path)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.strerror)
