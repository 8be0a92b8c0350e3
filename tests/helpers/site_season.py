"""A generated league season for the site's tests and benchmark: a two-player Pikemen round
robin whose games are played with random legal turns (`referee.judge.services.random_playout`, seeded)
submitted one by one through `play`, most of them ended by a resignation or a draw, the
last game left ongoing. Also what the tests of the pages' languages share: a Spanish
season, and the words a text in the pseudo-language `qps` says outside its brackets."""

from __future__ import annotations

import re
from pathlib import Path

from referee.judge.services.random_playout import play
from referee.league import folder as league
from referee.live.play import submit

NOW = 1796126400  # 2026-12-01T12:00:00Z


def write_league(folder: Path, names: list[tuple[str, str]], head: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    text = head or 'name = "Autumn 2026"\ngame = "pikemen"\nplayers = 2\n'
    text += "".join(f"\n[[player]]\nname = {_toml(n)}\naddress = {_toml(a)}\n" for n, a in names)
    (folder / "league.toml").write_text(text, encoding="utf-8")
    return folder


def spanish_season(folder: Path, name: str, players: str) -> Path:
    """A league named `name` with `lang = "es"` of `players` (space-separated, each at
    name@example.org in lower case), two rounds of it played as `season` plays them."""
    head = f'name = {_toml(name)}\ngame = "pikemen"\nplayers = 2\nlang = "es"\n'
    folder = write_league(folder, [(player, f"{player.lower()}@example.org") for player in players.split()], head)
    season(folder, 2)
    return folder


def outside_brackets(text: str) -> list[str]:
    """The words of `text` outside every ⟦...⟧ of the pseudo-language `qps` (nested ones too)."""
    while True:
        cut = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if cut == text:
            return re.findall(r"[A-Za-z]{2,}", text)
        text = cut


def _toml(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def play_game(path: Path, seed: str, turns: int, end: str | None) -> None:
    """Submit the first `turns` turns of a seeded random playout, then `end` (resign, draw)."""
    played = play("pikemen", 2, seed, max_turns=turns)
    for turn in played.record.turns:
        done = submit(path, " ".join(move.text for move in turn.moves))
        assert done.exit_code == 0, done.text()
    if end is not None and played.state.outcome() is None:
        for word in end.split(","):
            done = submit(path, word)
            assert done.exit_code == 0, done.text()


def one_move(path: Path) -> str:
    """A legal move (not a resignation) for the side to move in an ongoing game: submitted, and returned."""
    from referee.games.api import Resign
    from referee.judge.core.adjudicate import adjudicate, read_source

    state = adjudicate(read_source(path.read_bytes())[0], path.name, keep_steps=True).state
    assert state is not None
    state.end_turn()
    label = state.next_turn()
    assert label is not None
    state.begin_turn(label[0], label[1], None)
    move = next(str(action) for action in state.legal_actions() if not isinstance(action, Resign))
    done = submit(path, move)
    assert done.exit_code == 0, done.text()
    return move


def season(folder: Path, rounds: int, turns: int = 6, ongoing: int = 1) -> list[Path]:
    """Pair and play `rounds` rounds; the last `ongoing` games are left unfinished."""
    made: list[Path] = []
    for number in range(1, rounds + 1):
        paired = league.pair(folder, NOW + number * 86400)
        for index, (game, _) in enumerate(paired.games):
            path = folder / f"{game}.rgn"
            last_round = number == rounds and index >= len(paired.games) - ongoing
            end = None if last_round else ("draw" if (number + index) % 4 == 0 else "resign")
            play_game(path, f"{game}-{number}", turns + (number + index) % 5, end)
            made.append(path)
    return made
