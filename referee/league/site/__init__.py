"""The league's static web site (LEAGUE.md §5): `build(folder, out)` writes the index with
the standings, a page per round, per game (with its replay page) and per player (with a
rating chart), and an Atom feed of finished games; only pages whose content changed are
written, each atomically. See docs/site.md."""

from referee.league.site.builder import Built, build

__all__ = ["Built", "build"]
