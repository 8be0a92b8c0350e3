"""Rule engines, one package per game, behind one small API (games.api)."""

if __name__ != "referee.games":  # pragma: no cover - the message is the point (tests/system/test_packaging.py)
    raise ImportError(
        f"games/ is the package referee.games: import it by that name, not as {__name__!r} (docs/architecture.md)"
    )
