"""Small helpers for wording messages."""

from __future__ import annotations


def plural(count: int, noun: str, many: str | None = None) -> str:
    """`1 record`, `2 records`; `many` for irregular plurals."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"
