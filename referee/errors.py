"""The errors of the command line's own making: each is one line for standard error."""

from __future__ import annotations


class UsageError(ValueError):
    """A command used wrongly (a bad option value, a record that is not there): exit 2."""


class UnreadableError(UsageError):
    """A file, or standard input, that cannot be read: exit 2, and the next file is read."""
