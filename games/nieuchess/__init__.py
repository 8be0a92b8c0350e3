"""Nieuchess (Avalon Hill, 1961): a hex wargame of zones of control, invasions and combat."""

from games.nieuchess.engine import ENGINE

__all__ = ["ENGINE"]
