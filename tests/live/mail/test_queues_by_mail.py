"""Conditional moves by mail (PLAY.md §9): a body whose first word is `if` is a queue (a
write: `Token:` needed where passphrases are kept), `queue` shows it to its sender alone,
`queue clear` removes it; the commitment is told to every player, queued replies are
announced to every player as "(queued)", and a spent queue is told to its side alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.live import mail
from tests.helpers.mail import GM, answers_in_process, message, plain_text, recipients, write_game

ANN, BO = "ann@example.org", "bo@example.org"


class Table:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = write_game(folder, "g1", "pikemen", {"Red": ANN, "Blue": BO}, '[GameId "g1"]')
        self.settings = mail.settings(folder, sender=GM)
        self.outbox = folder / "outbox"

    def send(self, sender: str, body: str, message_id: str | None = None) -> list[tuple[list[str], str]]:
        answers = answers_in_process(self.settings, message(sender, "[g1] my turn", body, message_id=message_id))
        return [(sorted(recipients(answer)), plain_text(answer)) for answer in answers]


def test_a_queue_by_mail_is_committed_to_everyone_played_as_queued_and_shown_to_its_sender_only(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path)
    told = table.send(BO, "if R: f3(N) then B: a4(NE)\nif R: f3(E) then B: a4(E)\n")
    assert len(told) == 1
    to, text = told[0]
    assert to == [ANN, BO]
    assert "Blue has queued replies; commitment sha256:" in text
    assert "a4(NE)" not in text  # the queue itself stays secret
    shown = table.send(BO, "queue")
    assert [to for to, _ in shown] == [[BO]]
    assert "if R: f3(E) then B: a4(E)" in shown[0][1]
    ann_view = table.send(ANN, "queue")
    assert "Red has no queued replies" in ann_view[0][1]
    played = table.send(ANN, "f3(N)")
    everyone = sorted({address for to, _ in played for address in to})
    assert everyone == [ANN, BO]
    moves = [(to, text) for to, text in played if "played in game g1" in text]
    assert sorted(address for to, _ in moves for address in to) == [ANN, BO]
    assert all("Blue plays B: a4(NE) (queued)" in text for _, text in moves)
    notices = [text for to, text in played if "queue is spent" in text]
    assert notices and all(to == [BO] for to, text in played if "queue is spent" in text)
    assert "{[%by-queue Blue]}" in table.path.read_text()


def test_queue_clear_by_mail_and_a_refusal_to_the_sender_alone(tmp_path: Path) -> None:
    table = Table(tmp_path)
    refused = table.send(BO, "if R: f3(N) then R: f3(E)\n")
    assert [to for to, _ in refused] == [[BO]]
    assert "was not stored" in refused[0][1] and "a reply is a turn of Blue's" in refused[0][1]
    table.send(BO, "if R: f3(N) then B: a4(NE)\n")
    cleared = table.send(BO, "queue clear")
    assert cleared[0][0] == [ANN, BO] and "Blue has cleared its queued replies" in cleared[0][1]
    played = table.send(ANN, "f3(N)")
    assert not any("(queued)" in text for _, text in played)
    assert "{[%queued Blue none]}" in table.path.read_text()


def test_a_comment_command_in_a_mailed_queue_is_refused(tmp_path: Path) -> None:
    table = Table(tmp_path)
    told = table.send(BO, "if R: f3(N) then B: a4(NE) {[%by-queue Blue]}\n")
    assert [to for to, _ in told] == [[BO]]
    assert "comment commands are written by the referee" in told[0][1]
    assert not (tmp_path / "g1.rgn.queue").exists()


def test_with_passphrases_a_queue_needs_the_current_token(tmp_path: Path) -> None:
    table = Table(tmp_path)
    from referee.live import mail as gateway

    for address in (ANN, BO):
        gateway.add_player(tmp_path, address, f"secret of {address}", 5)
    told = table.send(BO, f"Key: secret of {BO}\nif R: f3(N) then B: a4(NE)\n")
    assert "carries no Token: line" in told[0][1]
    assert not (tmp_path / "g1.rgn.queue" / "Blue").exists()
    from referee.live.play import token_of
    from referee.live.play.core import read_game, replay_file

    token = token_of(replay_file(table.path, read_game(table.path)))
    told = table.send(BO, f"Key: secret of {BO}\nToken: {token}\nif R: f3(N) then B: a4(NE)\n")
    assert "Blue has queued replies; commitment sha256:" in told[0][1]


def test_a_queue_delivered_twice_is_queued_once(tmp_path: Path) -> None:
    table = Table(tmp_path)
    first = table.send(BO, "if R: f3(N) then B: a4(NE)\n", message_id="<q-1@example.org>")
    assert "Blue has queued replies" in first[0][1]
    again = table.send(BO, "if R: f3(N) then B: a4(NE)\n", message_id="<q-1@example.org>")
    assert [to for to, _ in again] == [[BO]] and again[0][1].startswith("This message")
    stored = json.loads((tmp_path / "g1.rgn.queue" / "Blue").read_text())
    assert len(stored["queues"]) == 1


def test_the_queues_answers_are_in_each_players_language(tmp_path: Path) -> None:
    """Bo reads Spanish (docs/languages.md): the commitment is told to Ann in English and to
    Bo in Spanish; Bo's queue shown, a reply played from it and its spent notice in Spanish."""
    table = Table(tmp_path)
    table.settings = table.settings._replace(langs=((BO, "es"),))
    told = dict((tuple(to), text) for to, text in table.send(BO, "if R: f3(N) then B: a4(NE)\n"))
    assert "Blue has queued replies; commitment sha256:" in told[(ANN,)]
    assert told[(BO,)].startswith("Partida g1: Azul ha dejado respuestas en cola; compromiso sha256:")
    assert "La cola sigue en secreto hasta que termina la partida" in told[(BO,)]
    [(_, shown)] = table.send(BO, "queue")
    assert shown.startswith("Partida g1: Respuestas en cola de Azul (comprometidas;")
    assert "if R: f3(N) then B: a4(NE)" in shown  # the queue as written
    played = table.send(ANN, "f3(N)")
    spanish = [text for to, text in played if to == [BO]]
    assert any("Azul juega B: a4(NE) (en cola)" in text for text in spanish)
    assert any(text.startswith("Partida g1: Azul: su respuesta en cola B: a4(NE) era la última") for text in spanish)
    refused = table.send(BO, "if R: f3(N) then R: f3(E)\n")
    assert refused[0][1].startswith("Su cola para la partida g1 no se guardó: no se escribió nada.")


@pytest.mark.parametrize(
    ("body", "spanish"),
    [
        ("if R: f3(N) if R: f3(E) then B: a4(NE)", 'línea 1 de la cola, col 13: se esperaba "then", se encontró "if"'),
        ("if R: f3(N) then R: f3(E)", "línea 1 de la cola, col 18: una respuesta es un turno de Azul, no de Rojo"),
        ("if R: f3(N)", "línea 1 de la cola, col 12: la línea debe terminar con `then RESPUESTA`"),
        ("if R: f3(N) then", 'línea 1 de la cola, col 13: tras "then" va una respuesta (su turno)'),
        (
            "if f3(N) then B: a4(NE)",
            "línea 1 de la cola, col 4: una condición nombra el bando de cada turno (B: e8-e3(E))",
        ),
        ("if R: f3(N) then B: a4(NE) B: a4(N)", "línea 1 de la cola, col 28: una respuesta es un solo turno"),
        ("if R: f3(N) then B: a4(NE) {x}", "línea 1 de la cola, col 28: una línea de la cola no contiene comentarios"),
        ("if 1. R: f3(N) then B: a4(NE)", "línea 1 de la cola, col 7: una condición se escribe sin números de ronda"),
        (
            "if B: a4(NE) then B: a4(N)",
            "línea 1 de la cola, col 4: una condición contiene turnos de los otros bandos, no de Azul: "
            "los turnos de Azul son sus respuestas",
        ),
        (
            "if R: f3(N) then B: a9(NE)",
            'línea 1 de la cola, col 21: turno 1 Azul, acción 1 "a9(NE)": a9 no está en el tablero',
        ),
        (
            "if R: f3(N) then B: a4(NE)\nif R: f3(N) then B: a4(E)",
            "línea 2 de la cola: da B: a4(E) tras las mismas condiciones que la línea 1, que da B: a4(NE): "
            "una cola da una sola respuesta a cada sucesión de turnos",
        ),
    ],
)
def test_a_queue_lines_fault_is_said_in_the_players_language(tmp_path: Path, body: str, spanish: str) -> None:
    """Why a queue was refused, at its line and column (PLAY.md §9), in Spanish for Bo; the
    queue's own text (`then`, the turns) as written."""
    table = Table(tmp_path)
    table.settings = table.settings._replace(langs=((BO, "es"),))
    [(to, text)] = table.send(BO, body + "\n")
    assert to == [BO]
    head, _, why = text.partition("\n\n")
    assert head == "Su cola para la partida g1 no se guardó: no se escribió nada.", text
    assert why.startswith(spanish) and "queue line" not in why, why


def test_a_comment_command_is_refused_in_the_players_language(tmp_path: Path) -> None:
    """The gateway refuses a comment command before it reads a queue or a move (PLAY.md §7):
    in Spanish for Bo, the command as written (its `|` is no list of alternatives)."""
    table = Table(tmp_path)
    table.settings = table.settings._replace(langs=((BO, "es"),))
    [(_, text)] = table.send(BO, "if R: f3(N) then B: a4(NE) {[%draw-offer Red | Blue]}\n")
    assert (
        "\n{[%draw-offer Red | Blue]} es una orden de comentario, y las órdenes de comentario las escribe el "
        "árbitro: el envío de un jugador nunca contiene ninguna\n" in text
    ), text
