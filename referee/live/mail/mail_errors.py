"""The gateway's own errors; usage (exit 2) and busy (exit 75) are the referee's
(`referee.errors`)."""

from __future__ import annotations

from referee.errors import UsageError


class KeysFileError(UsageError):
    """`players.toml` cannot be read or does not hold what it should."""


class DeliveryError(ValueError):
    """An answer could not be sent or written: exit status 75 (the answer is kept in the outbox)."""
