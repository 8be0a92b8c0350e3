"""Pikemen: Jacob Davenport's Icehouse game where pikemen charge and capture by size."""

from referee.games.pikemen.state import ENGINE

__all__ = ["ENGINE"]
