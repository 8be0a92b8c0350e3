"""The gateway's errors, split by cause; each is a ValueError worded for a game master."""

from __future__ import annotations


class MailUsageError(ValueError):
    """A bad option, an unreadable game folder or game file: exit status 2."""


class KeysFileError(MailUsageError):
    """`players.toml` cannot be read or does not hold what it should."""


class BusyError(ValueError):
    """The game (or the folder's message ledger) stayed locked: exit status 75, the MTA retries."""


class DeliveryError(ValueError):
    """An answer could not be sent or written: exit status 75 (the answer is kept in the outbox)."""
