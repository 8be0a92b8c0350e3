"""Live games: `play` (a game file continued safely) and the mail gateway over it."""
