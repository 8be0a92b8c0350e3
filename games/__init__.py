"""Rule engines, one package per game, behind one small API (games.api)."""
