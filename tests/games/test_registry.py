"""The registry holds facts about games only (OpenSpiel's rule): nothing in `games/` names the
tool above it, not even as a string that the import graph cannot see."""

from __future__ import annotations

import re
from pathlib import Path

from referee.games import registry

GAMES_PACKAGE = Path(registry.__file__).resolve().parent


def test_no_game_fact_names_the_tool() -> None:
    for info in registry.GAMES.values():
        for field, value in info._asdict().items():
            assert "referee" not in repr(value).lower(), (info.name, field, value)  # engine: ".nika"


def test_no_module_of_games_names_a_module_of_referee() -> None:
    # referee.games and referee.notation are this package and the one below it; any other
    # module of referee is the tool above.
    naming = re.compile(r"""(["']|\bimport |\bfrom )referee\.(?!games\b|notation\b)|\bfrom referee import""")
    offenders = [
        f"{path.relative_to(GAMES_PACKAGE.parent)}:{number}"
        for path in sorted(GAMES_PACKAGE.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if naming.search(line)
    ]
    assert offenders == []
