"""A player's rating after each of their finished games, as a small inline SVG chart: one
point (a circle with a `<title>`) per game, joined by a line; no script, no font file."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.league.site.escape import esc

WIDTH = 360
HEIGHT = 150
PAD_LEFT = 40
PAD = 12


@dataclass(frozen=True)
class Point:
    """The rating (mu - 3 sigma) of a player just after one game."""

    game: str
    rating: float

    def __repr__(self) -> str:
        return f"Point({self.game}: {self.rating:.2f})"


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rating_chart(points: Sequence[Point], start: float = 0.0) -> str:
    """The chart as an `<svg>` element (for inline HTML): the starting rating at the left,
    then a point per game. Empty text when there is no point."""
    if not points:
        return ""
    values = [start, *(point.rating for point in points)]
    low, high = min(values), max(values)
    if high - low < 1.0:
        low, high = low - 0.5, high + 0.5
    inner_w = WIDTH - PAD_LEFT - PAD
    inner_h = HEIGHT - 2 * PAD

    def x(index: int) -> float:
        return PAD_LEFT + inner_w * index / max(1, len(values) - 1)

    def y(value: float) -> float:
        return PAD + inner_h * (high - value) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="rating after each game">',
        f'<rect x="{PAD_LEFT}" y="{PAD}" width="{inner_w}" height="{inner_h}" fill="#fff" stroke="#ccc"/>',
        f'<text x="{PAD_LEFT - 4}" y="{PAD + 4}" text-anchor="end" font-size="10">{_fmt(high)}</text>',
        f'<text x="{PAD_LEFT - 4}" y="{PAD + inner_h}" text-anchor="end" font-size="10">{_fmt(low)}</text>',
        f'<polyline points="{line}" fill="none" stroke="#3060c0" stroke-width="1.5"/>',
        f'<circle class="start" cx="{x(0):.1f}" cy="{y(start):.1f}" r="2" fill="#999"/>',
    ]
    for index, point in enumerate(points, start=1):
        parts.append(
            f'<circle class="point" data-game="{esc(point.game)}" data-rating="{point.rating:.4f}" '
            f'cx="{x(index):.1f}" cy="{y(point.rating):.1f}" r="3.5" fill="#3060c0">'
            f"<title>{esc(point.game)}: {point.rating:.2f}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
