"""Nieuchess (Avalon Hill, 1961): a hex wargame of zones of control, invasions and combat."""

from referee.games.nieuchess.engine import ENGINE

__all__ = ["ENGINE"]
