"""Only the referee writes comment commands (PLAY.md §7), in a league's mail too: a
player's message holding one, with moves, alone, with `draw`/`undo`/`timeout`/`resign`,
in `show`, `moves`, `status` and `leave` requests, keyed or not, is refused whole with one
answer to the sender naming it; nothing is written (no move, no leave granted)."""

from __future__ import annotations

import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.live.mail import game
from tests.helpers.cli import invoke
from tests.helpers.commands import KINDS, LEAGUE_PLACES, MAIL_PLACES, PLACES, REFEREE_ONLY, named, submissions
from tests.helpers.mail import GM, message, outbox_messages, plain_text, recipients
from tests.helpers.sweep import WHOLE

START = "2026-12-01T12:00:00Z"
NOW = "2026-12-01T13:00:00Z"
ADDRESSES = {"Ann": "ann@example.org", "Bo": "bo@example.org"}


# The shared `invoke` with the interleaved output: these tests look for a refusal wherever the
# command writes it.
def _run(*args: str, data: bytes | None = None) -> tuple[int, str]:
    result = invoke(*args, stdin=data)
    return result.exit_code, result.output


# Not tests.helpers.league's make_league: each player's key is added (`mail add-player`) as
# the player joins, and the game the tests play is returned.
def _league(folder: Path, keyed: bool) -> Path:
    options = ["--game", "numica", "--players", "2", "--time-control", "3d+0m", "--name", "Autumn"]
    assert _run("league", "init", str(folder), *options)[0] == 0
    for name, address in ADDRESSES.items():
        assert _run("league", "add", str(folder), address, "--name", name)[0] == 0
        if keyed:
            code, out = _run("mail", "add-player", str(folder), address, data=f"{name} words".encode())
            assert code == 0, out
    assert _run("league", "pair", str(folder), "--now", START)[0] == 0
    for path in (folder / "outbox").glob("*.eml"):
        path.unlink()
    return folder / "r1-t1.rgn"


def _mover(path: Path) -> tuple[str, str]:
    """The name and address of the player to move."""
    current = game.open_game(path)
    side = current.to_move
    player = next(each for each in current.roster.players if side in each.sides)
    name = next(name for name, address in ADDRESSES.items() if address == player.address)
    return name, player.address


def _send(folder: Path, path: Path, sender: str, name: str, body: str, keyed: bool) -> list[EmailMessage]:
    if keyed:
        body = f"Key: {name} words\nToken: {game.open_game(path).token}\n{body}"
    data = message(f"{name} <{sender}>", "[r1-t1] my turn", body).as_bytes()
    code, out = _run("mail", "receive", str(folder), "--from", GM, "--now", NOW, data=data)
    assert code == 0, out
    return outbox_messages(folder / "outbox", take=True)


def _places(kind: str, keyed: bool) -> tuple[str, ...]:
    """Where the test puts the command of `kind`: every place of a league's requests, and a
    third of the places a game's message has (tests/live/mail/test_referee_commands.py puts
    each kind in every one), a different third for each kind and keyed or not, so that every
    place is met keyed and unkeyed; REFEREE_WHOLE_SWEEPS=1: every place for every kind (each
    message is a `mail receive`, 35 to 75 ms)."""
    others = PLACES + MAIL_PLACES
    if WHOLE:
        return others + LEAGUE_PLACES
    start = (sorted(KINDS).index(kind) + keyed) % 3
    return others[start::3] + LEAGUE_PLACES


@pytest.fixture(scope="module")
def leagues(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """The league of each test, keyed and not, made once for the module (`_league`) and
    copied by each test (it names no path of its own)."""
    made = tmp_path_factory.mktemp("leagues")
    return {keyed: _league(made / f"lg-{int(keyed)}", keyed).parent for keyed in (False, True)}


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_league_players_message_holding_a_command_is_refused(
    tmp_path: Path, leagues: dict[bool, Path], kind: str, keyed: bool
) -> None:
    folder = tmp_path / "lg"
    shutil.copytree(leagues[keyed], folder, symlinks=True)
    path = folder / "r1-t1.rgn"
    name, address = _mover(path)
    before = path.read_text(encoding="utf-8")
    texts = submissions(kind, _places(kind, keyed))
    for text in texts:
        answers = _send(folder, path, address, name, text + "\n", keyed)
        assert len(answers) == 1, text
        assert recipients(answers[0]) == [address]
        told = plain_text(answers[0])
        assert REFEREE_ONLY in told and named(kind) in told, (text, told)
        assert path.read_text(encoding="utf-8") == before, text
    outcomes = [line.split()[-1] for line in (folder / "mail.log").read_text(encoding="utf-8").splitlines()]
    assert outcomes == ["refused"] * len(texts)
