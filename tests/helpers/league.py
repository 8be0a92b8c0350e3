"""One way for a test to set up a league: `make_league(folder, "--game", "nika", names="Ann Bo",
pair_at=START)`.

It runs the commands a game master would (`referee league init`, `league add` for each
player, `league pair`), in-process (or through `run`, e.g. as processes under an injected
fault), and fails the test on any refusal. What `init` has no
option for (`digest`, `leave_days` ...) comes as `extra` lines appended to league.toml before
the players are added. Players are named; each one's address is `name@example.org` in lower
case."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from tests.helpers.cli import invoke

Runner = Callable[[Sequence[str]], tuple[int, str]]
"""Runs `referee ARGS`: its exit code and standard error."""

START = "2026-12-01T12:00:00Z"
"""The instant the set-ups pair their first round at."""
NAMES = "Ann Bo Cy Di"


def address(name: str) -> str:
    """The address a set-up gives the player `name`."""
    return f"{name.lower()}@example.org"


def first(count: int) -> str:
    """The first `count` of NAMES."""
    return " ".join(NAMES.split()[:count])


def numbered(count: int) -> str:
    """`count` players named P1, P2, ... (addresses p1@example.org ...), for tests that need many."""
    return " ".join(f"P{number}" for number in range(1, count + 1))


def _in_process(args: Sequence[str]) -> tuple[int, str]:
    ran = invoke(*args)
    return ran.exit_code, ran.stderr


def season(game: str, per_game: int, control: str | None = None) -> list[str]:
    """The `league init` options of a season of `game` with `per_game` players at a table,
    timed by `control` when given; two rounds where more than two sit at a table (one round
    seats everyone once)."""
    options = ["--game", game, "--players", str(per_game)]
    if control is not None:
        options += ["--time-control", control]
    if per_game > 2:
        options += ["--rounds", "2"]
    return options


def make_league(
    folder: Path,
    *options: str,
    name: str | None = "T",
    names: str = NAMES,
    extra: str = "",
    pair_at: str | None = None,
    clear_outbox: bool = False,
    run: Runner = _in_process,
) -> None:
    """`league init FOLDER --name NAME OPTIONS...` (no `--name` when `name` is None), `extra`
    appended to league.toml, `league add` for each of `names` (space-separated), then `league
    pair --now PAIR_AT` when given; with `clear_outbox`, the mails the pairing wrote are removed
    so a test sees only its own. `run` runs each command (in-process by default)."""
    named_as = [] if name is None else ["--name", name]
    code, err = run(["league", "init", str(folder), *named_as, *options])
    assert code == 0, err
    if extra:
        path = folder / "league.toml"
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    for player in names.split():
        code, err = run(["league", "add", str(folder), address(player), "--name", player])
        assert code == 0, err
    if pair_at is not None:
        code, err = run(["league", "pair", str(folder), "--now", pair_at])
        assert code == 0, err
    if clear_outbox:
        for mail in (folder / "outbox").glob("*.eml"):
            mail.unlink()
