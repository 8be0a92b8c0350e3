"""Pikemen: Jacob Davenport's Icehouse game where pikemen charge and capture by size."""

from games.pikemen.state import ENGINE

__all__ = ["ENGINE"]
