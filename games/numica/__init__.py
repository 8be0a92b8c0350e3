"""Numica: Lloyd Krassner's game where the tile under a piece decides how it moves."""

from referee.games.numica.state import ENGINE

__all__ = ["ENGINE"]
