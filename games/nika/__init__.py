"""Nika: Josh Raab's game of four Greek cities whose phalanxes push and rout."""

from referee.games.nika.engine import ENGINE

__all__ = ["ENGINE"]
