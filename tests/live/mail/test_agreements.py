"""Agreements by mail (PLAY.md §6): a `draw` or `undo` body is an offer of the sender's
first side in turn order, told at once to every player; the draw or the undo happens only
when every player has offered it. Answers are read from the outbox, as the game master's
mail program would collect them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import NamedTuple

from referee.live import mail
from referee.live.mail import game
from tests.helpers.mail import GM, NIKA_PLAYERS, answers_in_process, message, nika_game, plain_text, write_game
from tests.helpers.process import run_referee

EVERYONE = sorted(address.split("<")[1].rstrip(">") for address in NIKA_PLAYERS.values())


class Told(NamedTuple):
    """The answers one message caused, as one: every recipient, and the text. After a move
    or an offer the player to move gets one answer that says how to answer and the others
    another without those lines (PLAY.md §5.1); the text is the first one's."""

    recipients: list[str]
    text: str


class Table:
    """A game folder, its outbox, and the players' messages sent one at a time."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.settings = mail.settings(folder, sender=GM)
        self.outbox = folder / "outbox"

    def send(self, sender: str, body: str, game_id: str = "g1") -> list[Told]:
        """One message in; the answers it caused, taken out of the outbox, told as one."""
        answers = answers_in_process(self.settings, message(sender, f"[{game_id}] my turn", body))
        if not answers:
            return []
        texts = [plain_text(answer) for answer in answers]
        if len(answers) == 2:  # to the player to move, then to the others
            assert "To play, answer" in texts[0] and "To play, answer" not in texts[1]
        to = sorted(address.addr_spec for answer in answers for address in answer["To"].addresses)
        return [Told(to, texts[0])]


def text(answer: Told) -> str:
    return answer.text


def recipients(answer: Told) -> list[str]:
    return answer.recipients


def a_legal_move(path: Path, rng: random.Random) -> tuple[str, str]:
    """The side to move and one of its legal actions, as the gateway lists them."""
    current = game.open_game(path)
    assert current.to_move is not None
    _, actions = game.legal_moves(current)
    return current.to_move, rng.choice([action for action in actions if action != "resign"])


def test_one_players_mail_saying_draw_does_not_end_a_four_player_game(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    table = Table(tmp_path)
    [answer] = table.send(NIKA_PLAYERS["Athens"], "draw")
    assert "game over" not in text(answer)
    assert '[Result "*"]' in path.read_text() and "{[%offer draw Athens]}" in path.read_text()
    assert game.open_game(path).to_move == "Athens"  # the game goes on: nobody moved
    checked = run_referee("check", str(path))
    assert checked.returncode == 0 and "ongoing" in checked.stdout


def test_an_offer_is_told_at_once_to_every_player_with_how_to_answer_it(tmp_path: Path) -> None:
    nika_game(tmp_path)
    table = Table(tmp_path)
    [answer] = table.send(NIKA_PLAYERS["Messene"], "draw\n-- \nCy")  # Messene is not to move
    assert recipients(answer) == EVERYONE
    body = text(answer)
    assert "Cy (Messene) offers a draw in game g1." in body
    assert "To accept, answer with the word `draw` alone. To decline, play any move" in body
    assert "still to agree: Athens, Sparta, Thebes" in body
    assert "next: Ann (Athens) to move" in body  # players by name (PLAY.md §5.1)


def test_moves_then_draw_by_mail_are_played_and_offered_in_one_answer(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    table = Table(tmp_path)
    [answer] = table.send(NIKA_PLAYERS["Athens"], "d1-W d2-W\ndraw\n")
    body = text(answer)
    assert recipients(answer) == EVERYONE
    assert "Ann (Athens) played in game g1:\n\n  d1-W d2-W\n\nAnn (Athens) offers a draw in game g1." in body
    assert "next: Bo (Sparta) to move" in body
    assert path.read_text().rstrip().endswith("1. W: d1-W d2-W {[%offer draw Athens]}")


def test_an_offer_by_mail_is_the_senders_first_side_in_turn_order(tmp_path: Path) -> None:
    ann = "Ann <ann@example.org>"
    sides = {"Messene": ann, "Sparta": "Bo <bo@example.org>", "Athens": ann, "Thebes": "Di <di@example.org>"}
    path = write_game(tmp_path, "g1", "nika", sides, '[Players "4"]')  # Messene's tag first
    table = Table(tmp_path)
    table.send(ann, "d1-W d2-W")
    [answer] = table.send(ann.upper(), "undo")  # Sparta is to move; Ann holds Athens and Messene
    assert "Ann (Athens) offers to take back the last turn" in text(answer)
    assert path.read_text().rstrip().endswith("{[%offer undo Athens]}")
    table.send("Bo <bo@example.org>", "undo")
    [answer] = table.send("Di <di@example.org>", "undo")
    assert "every player agrees to take back the last turn: 1. W: d1-W d2-W" in text(answer)
    assert path.read_text().rstrip().endswith("{undone by agreement: 1. W: d1-W d2-W}")
    assert game.open_game(path).to_move == "Athens"


def test_a_four_player_nika_game_by_mail_drawn_by_agreement_after_a_declined_offer(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    table = Table(tmp_path)
    rng = random.Random("a draw by agreement")
    for _ in range(6):
        side, action = a_legal_move(path, rng)
        [answer] = table.send(NIKA_PLAYERS[side], action)
        assert f"({side}) played in game g1" in text(answer)
    # Bo offers a draw, and Cy joins; neither is to move.
    mover = game.open_game(path).to_move
    assert mover not in ("Sparta", "Messene")
    [offer] = table.send(NIKA_PLAYERS["Sparta"], "draw")
    assert recipients(offer) == EVERYONE and "Bo (Sparta) offers a draw in game g1." in text(offer)
    [joined] = table.send(NIKA_PLAYERS["Messene"], "Draw")
    assert "still to agree: Athens, Thebes" in text(joined)
    # The side to move declines by moving: both offers end.
    side, action = a_legal_move(path, rng)
    [moved] = table.send(NIKA_PLAYERS[side], action)
    assert f"({side}) played in game g1" in text(moved) and "game over" not in text(moved)
    # Offered again, by Di; then accepted by every other player, one message each.
    [again] = table.send(NIKA_PLAYERS["Thebes"], "draw")
    assert "still to agree: Athens, Sparta, Messene" in text(again)
    for city in ("Athens", "Sparta"):
        [answer] = table.send(NIKA_PLAYERS[city], "draw")
        assert "game over" not in text(answer) and recipients(answer) == EVERYONE
    [last] = table.send(NIKA_PLAYERS["Messene"], "draw")
    assert recipients(last) == EVERYONE
    assert "every player agrees to a draw" in text(last) and "game over: draw (agreement)" in text(last)
    record = path.read_text()
    assert '[Result "draw"]' in record
    tail = record.rstrip().splitlines()[-2:]
    assert tail[0].endswith("{[%offer draw Thebes]} {[%offer draw Athens]} {[%offer draw Sparta]}")
    assert tail[1] == "draw"
    assert record.count("[%offer draw Sparta]") == 2 and record.count("[%offer draw Messene]") == 1
    checked = run_referee("check", str(path))
    assert checked.returncode == 0, checked.stdout
    assert "finished: draw (agreement)" in checked.stdout
    # Nothing more is played once the game is over.
    [late] = table.send(NIKA_PLAYERS["Thebes"], "undo")
    assert "was not played" in text(late) and recipients(late) == ["di@example.org"]
