"""One way for a test to play moves on a record in-process: `play(path, "d1-W d2-W")`.

`submit` is what `referee play` runs; tests call it with a short lock wait (5 s) and, where a
clock matters, the instant as text (`play(path, "resign", "2026-12-01T12:00:00Z")`). Any other
option of `submit` passes through (`as_side="Red"`, `claim=...`)."""

from __future__ import annotations

from pathlib import Path

from referee.live.play import PlayResult, submit
from referee.notation.timing import parse_instant


def play(path: Path, moves: str | None, now: str | None = None, **options: object) -> PlayResult:
    """Play `moves` (None: only look) on the record at `path`, at `now` when given."""
    if now is not None:
        options["now"] = parse_instant(now)
    return submit(path, moves, wait=5, **options)  # type: ignore[arg-type]
