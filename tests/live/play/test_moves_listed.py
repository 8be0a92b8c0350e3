"""Issue 19, items 3 and 4: whatever `referee moves` lists, `play --dry-run` accepts, and
did-you-mean suggests only what `play` accepts at that point."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee.games import registry
from referee.games.randomness import seed_hash
from referee.judge import session
from referee.judge.core.verdicts import Status
from referee.judge.services.random_playout import play
from referee.live.play import submit

BATTLE = re.compile(r"\dx[a-y]")  # an attacker's hex, `x`, a defender's hex
BATTLE_TOKEN = re.compile(r"(?P<base>\S+x[a-y]\d+)(?P<roll>#\d+=\w+)(?P<choice>\([^)\s]*\))?")
POSITION = '[Game "nieuchess"]\n{seed}[Position "R:j20,k21,a1 B:j21,x30 to:R"]\n\n'
SECRET = f'[SeedHash "{seed_hash("k")}"]\n'


def secretly(text: str) -> str:
    """The record with its seed kept secret: `SeedHash` instead of `Seed` (its written
    rolls are then taken as given)."""
    return re.sub(r'\[Seed "([^"]*)"\]', lambda found: f'[SeedHash "{seed_hash(found.group(1))}"]', text)


def cuts(text: str, rng: random.Random) -> list[str]:
    """Ongoing records from a playout: cut between turns, before and after each replacement
    step, and inside battles (before the roll, before the choices)."""
    lines = text.rstrip("\n").split("\n")
    first = next(at for at, line in enumerate(lines) if line and not line.startswith("["))
    found = {"\n".join(lines[:at]) for at in rng.sample(range(first, len(lines) + 1), min(5, len(lines) - first))}
    steps = [at for at, line in enumerate(lines) if "+:" in line][:2]
    found |= {"\n".join(lines[: at + end]) for at in steps for end in (0, 1)}
    battles = [(at, match) for at, line in enumerate(lines) for match in BATTLE_TOKEN.finditer(line)][:3]
    for at, match in battles:
        head = "\n".join(lines[:at]) + "\n" + lines[at][: match.start()]
        found.add(head + match.group("base"))
        if match.group("choice"):
            found.add(head + match.group("base") + match.group("roll"))
    return sorted(record + "\n" for record in found)


def positions() -> list[tuple[str, str]]:
    """(name, record text) of ongoing positions of every game and player count, and of
    Nieuchess with secret dice and with physical dice, from seeded playouts."""
    found = []
    for game, info in registry.GAMES.items():
        for players in tuple(info.sides_by_players) or (None,):
            for seed in range(2):
                text = play(game, players, f"moves-{game}-{players}-{seed}", max_turns=36).text
                rng = random.Random(f"{game}-{players}-{seed}")
                found += [(f"{game}-{players}-{seed}", record) for record in cuts(text, rng)]
                if info.randomness == "dice":
                    found += [(f"{game}-secret-{seed}", secretly(record)) for record in cuts(text, rng)]
    found += [
        ("physical", POSITION.format(seed="")),
        ("physical-roll", POSITION.format(seed="") + "1. R: j20+k21xj21\n"),
        ("secret", POSITION.format(seed=SECRET)),
        ("secret-choice", POSITION.format(seed=SECRET) + "1. R: j20+k21xj21#3=DB2\n"),
        ("known-choice", POSITION.format(seed='[Seed "x"]\n') + "1. R: j20+k21xj21\n"),
    ]
    return found


def test_every_action_moves_lists_is_accepted_by_play(tmp_path: Path) -> None:
    game_file = tmp_path / "game.rgn"
    tried: dict[str, int] = {"step": 0, "part": 0, "battle": 0, "secret battle": 0, "other": 0}
    for name, text in positions():
        game_file.write_text(text, encoding="utf-8")
        listed = session.moves(str(game_file), 1)
        assert isinstance(listed, session.Listed), name
        if listed.verdict.status != Status.ONGOING:
            continue
        secret = "SeedHash" in text
        rng = random.Random(text)
        special = [action for action in listed.actions if re.search(r"\+:|^[(#]", action) or BATTLE.search(action)]
        chosen = rng.sample(listed.actions, min(3, len(listed.actions))) + rng.sample(special, min(4, len(special)))
        for action in chosen:
            if secret:
                assert "#" not in action, (name, action)
            result = submit(game_file, action, dry_run=True)
            assert result.exit_code == 0, (name, text, action, result.error)
            kind = "step" if "+:" in action else "part" if action[0] in "(#" else "other"
            kind = "battle" if BATTLE.search(action) else kind
            tried["secret battle" if secret and kind == "battle" else kind] += 1
    assert all(count > 0 for count in tried.values()), tried


def _listed(game_file: Path, text: str) -> session.Listed:
    """What `referee moves` lists for the record TEXT, written to GAME_FILE."""
    game_file.write_text(text, encoding="utf-8")
    listed = session.moves(str(game_file), 1)
    assert isinstance(listed, session.Listed), text
    return listed


def test_a_replacement_step_is_listed_with_its_label_beside_the_ordinary_turn(tmp_path: Path) -> None:
    game_file = tmp_path / "game.rgn"
    listed = _listed(
        game_file, '[Game "nieuchess"]\n[Seed "s1"]\n[Position "R:a1,m22 B:m15,x30 to:B"]\n\n1. B: x30-x29\n'
    )
    assert listed.actions[:2] == ["R+: g4", "R+: s4"]
    assert "a1-b1" in listed.actions  # the step is optional: the ordinary turn is open too
    assert submit(game_file, "R+: g4", dry_run=True).exit_code == 0


def test_an_open_empty_step_lists_its_placements_with_the_step_label(tmp_path: Path) -> None:
    listed = _listed(
        tmp_path / "game.rgn",
        '[Game "nieuchess"]\n[Seed "s1"]\n[Position "R:a1 B:m15,x30 to:B"]\n\n1. B: x30-x29\nB+:\n',
    )
    assert listed.actions == ["B+: g33", "B+: s33"]


@pytest.mark.parametrize(
    ("ending", "expected"),
    [
        ("", ["j20+k21xj21"]),  # a battle declared bare: the key draws its roll
        ("1. R: j20+k21xj21\n", []),  # its roll awaits the key: nothing to play
        (
            "1. R: j20+k21xj21#3=DB2\n",
            ["(j21-i21-h21)", "(j21-i21-h22)", "(j21-i21-i22)", "(j21-i22-h22)", "(j21-i22-i21)", "(j21-i22-i23)"],
        ),
    ],
)
def test_a_secret_game_lists_no_roll(tmp_path: Path, ending: str, expected: list[str]) -> None:
    listed = _listed(tmp_path / "game.rgn", POSITION.format(seed=SECRET) + ending)
    assert [action for action in listed.actions if BATTLE.search(action) or action.startswith("(")] == expected
    assert not any("#" in action for action in listed.actions)


# -- did-you-mean (item 4) ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "ending", "written", "form"),
    [
        ('[Seed "x"]\n', "1. R: j20+k21xj21\n", "(-j21)", r"\(j21-\w+-\w+\)"),  # used to suggest j20-j15
        ('[Seed "x"]\n', "1. R: j20+k21xj21\n", "#5", r"\(j21-\w+-\w+\)"),
        ('[Seed "x"]\n', "1. R: j20+k21xj21\n", "(j20-j22)", r"\(j21-\w+-\w+\)"),
        (SECRET, "1. R: j20+k21xj21#3=DB2\n", "(j20-j22)", r"\(j21-\w+-\w+\)"),
        (SECRET, "", "j20+k21+a1xj21", r"j20\+k21xj21|j20-\w+"),  # used to suggest j20+k21xj21#6=AE
        ("", "1. R: j20+k21xj21\n", "#7", r"#[1-6]"),  # physical dice: the roll alone
    ],
)
def test_every_suggestion_is_accepted_by_play(tmp_path: Path, seed: str, ending: str, written: str, form: str) -> None:
    game_file = tmp_path / "game.rgn"
    game_file.write_text(POSITION.format(seed=seed) + ending, encoding="utf-8")
    refused = submit(game_file, written, dry_run=True)
    assert refused.exit_code == 1
    assert len(refused.suggestions) == 3, refused.error
    for suggestion in refused.suggestions:
        assert re.fullmatch(form, suggestion), refused.suggestions
        accepted = submit(game_file, suggestion, dry_run=True)
        assert accepted.exit_code == 0, (suggestion, accepted.error)
    if seed == SECRET:
        assert not any("#" in suggestion for suggestion in refused.suggestions)
