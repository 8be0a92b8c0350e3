"""The site's bracket page of a knockout league (LEAGUE.md §7): one column per bracket
round, one box per match or table, its players by seed with their points, who went on and
the champion. Every name goes through `escape` (`bdi`), as on the other pages; no script."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.league.site.escape import bdi, esc
from referee.league.site.pages import Site, layout
from referee.speech import speaker

BRACKET = "bracket.html"
_COLUMNS = "display: flex; flex-wrap: wrap; gap: 14px; align-items: flex-start;"
_MATCH = "background: #fff; border: 1px solid #999; padding: 4px 8px; margin: 0 0 10px 0; list-style: none;"


def bracket_page(site: Site, shown: Mapping[str, Any]) -> str:
    """The page of `shown` (`knockout.bracket_json`): the rounds side by side."""
    say = speaker(site.config.lang)
    columns = []
    for stage in shown.get("rounds", []):
        title = say("Round {round}", round=stage["round"])
        if stage.get("name"):
            title += f" ({stage['name']})"
        heading = f"round-{int(stage['round'])}"
        matches = "".join(_match(site, match, say("bye"), say("goes on")) for match in stage["matches"])
        columns.append(
            f'<section aria-labelledby="{heading}"><h2 id="{heading}">{esc(title)}</h2>'
            f'<ol style="padding: 0; margin: 0;">{matches}</ol></section>'
        )
    champion = shown.get("champion")
    if champion is not None:
        said = say("The champion:")
        text = f"{esc(said)} {bdi(champion)}"
    else:
        text = esc(say("The champion is not known yet."))
    word = say("bracket")
    body = [
        f"<h1>{bdi(site.config.name)}: {esc(word)}</h1>",
        f'<p class="champion">{text}</p>',
        f'<div class="bracket" style="{_COLUMNS}">' + "".join(columns) + "</div>",
    ]
    return layout(site, f"{site.config.name}: {word}", [("index.html", site.config.name)], "\n".join(body))


def _match(site: Site, match: Mapping[str, Any], bye: str, goes_on: str) -> str:
    players: Sequence[str] = match["players"]
    seeds: Sequence[int] = match["seeds"]
    points: Sequence[str] = match["points"] or [""] * len(players)
    winners = set(match["goes_on"])
    lines = []
    for name, seed, got in zip(players, seeds, points, strict=False):
        label = f"{esc(seed)}. {bdi(name)}"
        if match["games"]:
            label += f" {esc(got)}"
        if name in winners and not match["bye"]:
            label = f"<strong>{label}</strong> ({esc(goes_on)})"
        lines.append(f"<div>{label}</div>")
    if match["bye"]:
        lines.append(f"<div>{esc(bye)}</div>")
    return f'<li style="{_MATCH}">' + "".join(lines) + "</li>"
