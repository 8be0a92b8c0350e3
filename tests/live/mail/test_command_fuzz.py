"""A fuzz of players' messages (PLAY.md §7) through the mail gateway (`referee.live.mail.run`,
what `referee mail` runs): random comment commands put anywhere in a body (with moves,
alone, with `draw`/`undo`/`timeout`/`resign`, in `show` and `moves` requests), keyed or
not, are never accepted: nothing written, one answer to the sender; random ordinary
comments with a legal move are played. Seeded; 500 unkeyed + 100 keyed + 100 ordinary
in the default run, 10,000 + 1,000 + 500 under `-m slow`."""

from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

import pytest

from referee.live import mail
from referee.live.mail import game
from tests.helpers.commands import REFEREE_ONLY, random_ordinary, random_submission
from tests.helpers.mail import GM, message, outbox_messages, write_game

PLAYERS = {"Red": "Ann <ann@example.org>", "Blue": "Bo <bo@example.org>"}


def _folder(folder: Path, keyed: bool) -> tuple[Path, str]:
    folder.mkdir(parents=True, exist_ok=True)
    path = write_game(folder, "n1", "numica", PLAYERS, '[Seed "42"]')
    if keyed:
        mail.add_player(folder, "ann@example.org", "ann words")
        mail.add_player(folder, "bo@example.org", "bo words")
    return path, path.read_text(encoding="utf-8")


def _send(folder: Path, sender: str, body: str, keyed: bool) -> list[str]:
    if keyed:
        token = game.open_game(folder / "n1.rgn").token
        body = f"Key: {sender.split()[0].lower()} words\nToken: {token}\n{body}"
    handled = mail.run(io.BytesIO(message(sender, "[n1] move", body).as_bytes()), mail.settings(folder, sender=GM))
    assert handled.exit_code == 0, handled.notes
    answers = outbox_messages(folder / "outbox")
    shutil.rmtree(folder / "outbox")
    return [answer.get_body(("plain",)).get_content() for answer in answers]  # type: ignore[union-attr]


def _no_command_accepted(folder: Path, cases: int, seed: int, keyed: bool) -> None:
    rng = random.Random(seed)
    path, before = _folder(folder, keyed)
    for _ in range(cases):
        text = random_submission(rng, ("show", "moves", "status", "leave 2d"))
        answers = _send(folder, rng.choice(list(PLAYERS.values())), text, keyed)
        assert len(answers) == 1 and REFEREE_ONLY in answers[0], (text, answers)
        assert path.read_text(encoding="utf-8") == before, text
    outcomes = {line.split()[-1] for line in (folder / "mail.log").read_text(encoding="utf-8").splitlines()}
    assert outcomes == {"refused"}


def _ordinary_comments_played(folder: Path, cases: int, seed: int) -> None:
    rng = random.Random(seed)
    path, before = _folder(folder, keyed=False)
    for _ in range(cases):
        path.write_text(before, encoding="utf-8")
        text, comment = random_ordinary(rng)
        answers = _send(folder, PLAYERS["Red"], text, keyed=False)
        assert answers and all(REFEREE_ONLY not in answer for answer in answers), text
        assert comment in path.read_text(encoding="utf-8"), (text, answers)


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
def test_random_commands_in_messages_are_never_accepted(tmp_path: Path, keyed: bool) -> None:
    _no_command_accepted(tmp_path, 100 if keyed else 500, seed=29 + keyed, keyed=keyed)


def test_random_ordinary_comments_in_messages_are_played(tmp_path: Path) -> None:
    _ordinary_comments_played(tmp_path, 100, seed=29)


@pytest.mark.slow
def test_ten_thousand_random_commands_by_mail_are_never_accepted(tmp_path: Path) -> None:
    _no_command_accepted(tmp_path / "open", 10_000, seed=2029, keyed=False)
    _no_command_accepted(tmp_path / "keyed", 1_000, seed=2030, keyed=True)  # scrypt: 1,000 is minutes
    _ordinary_comments_played(tmp_path / "ordinary", 500, seed=2029)
