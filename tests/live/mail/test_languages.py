"""The gateway answers each player in their own language (issue 49, docs/languages.md):
`lang` per address in players.toml; the notation, tokens and the record stay as written.
A real `referee mail` process on real messages, answers read from the outbox."""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.live.mail.players import hash_passphrase, load_langs, render_keys
from tests.helpers.mail import GM, message, nika_game, outbox_messages, plain_text, run_mail
from tests.helpers.process import run_referee

ANN = "Ann <ann@example.org>"
BO = "Bo <bo@example.org>"
ADDRESSES = ("ann@example.org", "bo@example.org", "cy@example.org", "di@example.org")


def _folder(tmp_path: Path, langs: dict[str, str]) -> Path:
    nika_game(tmp_path)
    keys = {address: hash_passphrase(f"pass-{address[:2]}", b"\0" * 16) for address in ADDRESSES}
    (tmp_path / "players.toml").write_text(render_keys(keys, langs), encoding="utf-8")
    return tmp_path


def _mail(folder: Path, sender: str, body: str, token: str | None = None) -> list[EmailMessage]:
    address = re.search(r"<(.+)>", sender)
    assert address is not None
    lines = [f"Key: pass-{address.group(1)[:2]}"] + ([f"Token: {token}"] if token else []) + [body]
    return _sent(folder, sender, "\n".join(lines) + "\n")


def _sent(folder: Path, sender: str, text: str) -> list[EmailMessage]:
    """A message of TEXT from SENDER through a real `referee mail receive`: the answers it
    caused, taken out of the outbox."""
    done = run_mail(
        message(sender, "[g1] move", text).as_bytes(),
        "receive",
        str(folder),
        "--outbox",
        str(folder / "outbox"),
        "--from",
        GM,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return outbox_messages(folder / "outbox", take=True)


def test_a_spanish_players_refusal_is_in_spanish_with_the_rule_message_and_the_notation_as_written(
    tmp_path: Path,
) -> None:
    folder = _folder(tmp_path, {"ann@example.org": "es"})
    [answer] = _mail(folder, ANN, "d1+d2+d3-W d1-N", "0-b4be799d44")
    text = plain_text(answer)
    assert "Su envío a la partida g1 no se jugó: no se escribió nada." in text
    assert "  d1+d2+d3-W d1-N" in text  # what the player sent, as sent
    assert 'línea 1, col 12: turno 1 Atenas, acción 2 "d1-N": no hay ninguna pieza en d1' in text
    assert "¿Quiso decir: c1-E, c1-W, c1>N?" in text
    assert "siguiente: mueve Ann (Atenas) (token 0-b4be799d44)" in text
    assert "Key: su contraseña" in text
    assert "was not played" not in text and "Did you mean" not in text


def test_a_line_that_is_no_move_is_said_in_spanish(tmp_path: Path) -> None:
    """A submission refused as not RGN at a line (a tag, a stray word): its error line and
    the hint on how to write moves are in Spanish, the player's line as written."""
    folder = _folder(tmp_path, {"ann@example.org": "es"})
    [answer] = _mail(folder, ANN, '[Site "x"]\nd1+d2+d3-W i3-E', "0-b4be799d44")
    text = " ".join(plain_text(answer).split())
    assert "envío: nika: mal formada: línea 1, col 1: se esperaba " in text, text
    assert 'La línea "[Site "x"]" no es una jugada, así que no se jugó nada' in text, text
    words = re.sub(r"`[^`]*`", "", text)  # (the words of a block, `moves:` and `end`, as a player writes them)
    assert not re.search(r"\b(?:malformed|expected|found|line|move|moves|greeting|or|and)\b", words), text


def test_a_submission_that_starts_a_record_is_refused_in_spanish(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"ann@example.org": "es"})
    [answer] = _mail(folder, ANN, 'd1+d2+d3-W i3-E\n[Game "nika"]', "0-b4be799d44")
    text = " ".join(plain_text(answer).split())
    assert 'línea 2, col 1: un envío es texto de jugadas: no puede empezar un registro nuevo con [Game "..."]' in text


def test_one_move_is_told_to_each_player_in_their_language(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"ann@example.org": "es", "cy@example.org": "es"})
    answers = _mail(folder, ANN, "d1+d2+d3-W i3-E", "0-b4be799d44")
    by_reader = {tuple(sorted(re.findall(r"<(.+?)>", str(answer["To"])))): plain_text(answer) for answer in answers}
    assert set(by_reader) == {("bo@example.org",), ("ann@example.org", "cy@example.org"), ("di@example.org",)}
    spanish = by_reader[("ann@example.org", "cy@example.org")]
    assert "Ann (Atenas) jugó en la partida g1:" in spanish
    assert "  d1+d2+d3-W i3-E" in spanish  # the notation is not translated
    assert "g1: en curso: mueve Esparta, ronda 1" in spanish
    assert "Para jugar" not in spanish  # neither Spanish reader is to move
    mover = by_reader[("bo@example.org",)]
    assert "Ann (Athens) played in game g1:" in mover and "To play, answer with your moves" in mover
    assert "Ann (Athens) played in game g1:" in by_reader[("di@example.org",)]


def test_a_wrong_side_and_the_board_request_in_spanish(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"bo@example.org": "es"})
    [refused] = _mail(folder, BO, "a4-S b4-S", "0-b4be799d44")
    assert "le toca mover a Atenas, no a Esparta" in plain_text(refused)
    [shown] = _mail(folder, BO, "mostrar")  # the request word in Spanish (no token needed)
    text = plain_text(shown)
    assert text.startswith("Partida g1:\n\ng1: en curso: mueve Atenas, ronda 1")
    assert "position: W:d1w" in text  # the board and its position, as the engine writes them
    [listed] = _mail(folder, BO, "jugadas")
    assert plain_text(listed).startswith("Partida g1: mueve Atenas: 55 acciones legales\n\nd1-E, d1-W")


def test_not_accepted_is_said_in_spanish(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"ann@example.org": "es"})
    [answer] = _sent(folder, ANN, "Key: wrong\nd1-W\n")
    assert "no fue aceptado: la contraseña no es la de este jugador." in plain_text(answer)


def test_adding_a_players_key_keeps_every_addresss_language(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"ann@example.org": "es"})
    done = run_referee(  # the passphrase on standard input, as the game master gives it
        "mail", "add-player", str(folder), "bo@example.org", input="a new passphrase\n", timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert load_langs(folder / "players.toml") == {"ann@example.org": "es"}


@pytest.mark.parametrize("lang", ["xx", "es\nkey = 1", ""])
def test_a_language_the_file_cannot_hold_is_not_read(tmp_path: Path, lang: str) -> None:
    path = tmp_path / "players.toml"
    path.write_text(f'[players."ann@example.org"]\nkey = "scrypt:00"\nlang = {lang!r}\n'.replace("'", '"'))
    langs = load_langs(path)
    assert langs in ({}, {"ann@example.org": "xx"})  # "xx": well formed, spoken as English (no catalogue)
