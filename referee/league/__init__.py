"""Leagues (LEAGUE.md): a season of games run from one folder."""
