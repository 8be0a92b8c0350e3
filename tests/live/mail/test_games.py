"""Whole games played by mail from the first move to the last: a four-player Nika game and
a Nieuchess game with secret dice drawn from the game master's key (`--keys`). Every
move is a real message answered through a real SMTP server; the players choose among the
legal moves the gateway itself lists (`moves`), at random from a fixed seed, and the game
ends when a player resigns after a bounded number of messages."""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from pathlib import Path

from referee.games.randomness import seed_hash
from referee.judge import session
from referee.live import mail
from referee.live.mail import game
from referee.live.play.keys import create_key
from tests.helpers.mail import (
    GM,
    NIKA_PLAYERS,
    SmtpServer,
    message,
    nika_game,
    run_mail,
    write_game,
)
from tests.helpers.process import run_referee


def _send(settings: mail.Settings, server: SmtpServer, sender: str, game_id: str, body: str) -> str:
    """One message in, the answers out to every player (the one to move alone told how to
    answer, PLAY.md §5.1); returns the text the other players got."""
    handled = mail.run(io.BytesIO(message(sender, f"[{game_id}] my turn", body).as_bytes()), settings)
    assert handled.exit_code == 0, handled.notes
    received = [answer for answer in server.take() if "played in game" in answer.text]
    assert received, "no answer"
    players = game.open_game(settings.games / f"{game_id}.rgn").roster.players
    assert sorted(address for answer in received for address in answer.recipients) == sorted(
        player.address for player in players
    )
    for answer in received:
        assert ("To play, answer" in answer.text) == (len(received) == 2 and answer is received[0]), answer.text
    return received[-1].text


def _choose(path: Path, rng: random.Random) -> tuple[str, str, str]:
    """The side to act, what it may do (the kind of thing), and a move it chooses, as a player writes it."""
    current = game.open_game(path)
    assert current.to_move is not None
    _, actions = game.legal_moves(current)
    actions = [action for action in actions if action != "resign"]
    assert actions, f"{current.to_move} has nothing to play"
    battles = [action for action in actions if re.search(r"\dx[a-y]|^\(", action)]
    action = rng.choice(battles if battles and rng.random() < 0.8 else actions)
    # `moves` lists each action as `play` accepts it (issue 19): a replacement pawn with
    # its step label, an awaited choice alone (PLAY.md §1.5), a battle bare (the key draws the die).
    if "+:" in action:
        return current.to_move, "step", action
    if action.startswith("("):
        return current.to_move, "choice", action
    if re.search(r"\dx[a-y]", action):
        return current.to_move, "battle", action
    return current.to_move, "move", action


def test_a_four_player_nika_game_by_mail_from_start_to_resignation(tmp_path: Path, smtp: SmtpServer) -> None:
    path = nika_game(tmp_path, "nika-1")
    settings = mail.settings(tmp_path, smtp=smtp.address, sender=GM)
    rng = random.Random("nika by mail")
    written: list[str] = []
    for _ in range(24):
        side, _, action = _choose(path, rng)
        text = _send(settings, smtp, NIKA_PLAYERS[side], "nika-1", action)
        written.append(action)
        assert f"({side}) played in game nika-1" in text
    resigning = game.open_game(path).to_move
    assert resigning is not None
    last = _send(settings, smtp, NIKA_PLAYERS[resigning], "nika-1", "resign\n-- \nwell played")
    assert "game over:" in last and "(resignation)" in last
    record = path.read_text()
    team = {
        "Athens": "Sparta+Thebes",
        "Sparta": "Athens+Messene",
        "Messene": "Sparta+Thebes",
        "Thebes": "Athens+Messene",
    }
    assert f'[Result "{team[resigning]}"]' in record
    assert all(action in record for action in written)
    checked = run_referee("check", str(path))
    assert checked.returncode == 0 and "finished" in checked.stdout
    assert len((tmp_path / "mail-ledger.tsv").read_text().splitlines()) == 25


def test_a_nieuchess_game_with_secret_dice_by_mail_then_revealed(tmp_path: Path, smtp: SmtpServer) -> None:
    games, keys = tmp_path / "games", tmp_path / "keys"
    games.mkdir()
    keys.mkdir()
    sides = {"Red": "Ann <ann@example.org>", "Blue": "Bo <bo@example.org>"}
    # What `referee new nieuchess --secret KEYS/n1.key` makes, with a fixed seed instead of a
    # fresh one so that the dice, and so the game, are the same on every run.
    seed = "a3c1e5f0b2d4968778695a4b3c2d1e0f"
    create_key(keys / "n1.key", seed)
    path = write_game(games, "n1", "nieuchess", sides, f'[SeedHash "{seed_hash(seed)}"]')
    settings = mail.settings(games, smtp=smtp.address, keys=keys, sender=GM)
    rng = random.Random("nieuchess by mail 6")  # a seed whose game has battles and a retreat choice early
    kinds: list[str] = []
    while kinds.count("battle") < 2 or "choice" not in kinds:
        assert len(kinds) < 100, f"no battle and retreat choice within 100 messages: {Counter(kinds)}"
        side, kind, action = _choose(path, rng)
        if kind == "battle" and "battle" not in kinds:
            # A player may not write the die of a keyed game: it would probe the secret stream.
            probe = message(sides[side], "[n1]", f"{action}#1 {{ is it a 1? }}")
            assert mail.run(io.BytesIO(probe.as_bytes()), settings).exit_code == 0
            [refusal] = smtp.take()
            assert "dice are drawn by the game master's key" in refusal.text
            assert "of the seed" not in refusal.text and "#1" not in path.read_text()
        if kind == "battle" and "battle" not in kinds:
            # The first battle goes through `referee mail --keys KEYS` as the MTA runs it.
            args = ["receive", str(games), "--keys", str(keys), "--smtp", smtp.address, "--from", GM]
            done = run_mail(message(sides[side], "[n1]", action).as_bytes(), *args)
            assert done.returncode == 0 and done.stderr == "", done.stderr
            text = smtp.take()[-1].text
            assert f"{action}#" in path.read_text()  # the die and its result written on the battle
        else:
            text = _send(settings, smtp, sides[side], "n1", action)
        kinds.append(kind)
        assert seed not in text
        if kind == "battle":
            assert "die" in text, text  # the roll drawn at once from the key, among the events
    while session.show(str(path), 1, None).verdict.pending is not None:  # battles due are fought first
        side, _, action = _choose(path, rng)
        _send(settings, smtp, sides[side], "n1", action)
    resigning = game.open_game(path).to_move
    assert resigning is not None
    handled = mail.run(io.BytesIO(message(sides[resigning], "[n1] I give up", "resign").as_bytes()), settings)
    assert handled.exit_code == 0, handled.notes
    *played, revealed = smtp.take()
    assert all("game over:" in answer.text and seed not in answer.text for answer in played)
    # PLAY.md §5.1: the game over, the gateway reveals the seed and sends it to every player.
    assert sorted(revealed.recipients) == ["ann@example.org", "bo@example.org"]
    assert f"Seed: {seed}" in revealed.text and "referee check n1.rgn" in revealed.text
    [record] = [part for part in revealed.message.iter_attachments() if part.get_filename() == "n1.rgn"]
    assert f'[Seed "{seed}"]' in record.get_content() and f'[Seed "{seed}"]' in path.read_text()
    # Never twice: another message to the finished game reveals nothing more.
    mail.run(io.BytesIO(message(sides[resigning], "[n1]", "resign").as_bytes()), settings)
    assert [answer for answer in smtp.take() if "Seed:" in answer.text] == []
    assert path.read_text().count("[Seed ") == 1
    checked = run_referee("check", str(path))
    assert checked.returncode == 0, checked.stdout
    assert "finished" in checked.stdout and "rolls taken as written" not in checked.stdout
