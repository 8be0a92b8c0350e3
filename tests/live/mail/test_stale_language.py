"""Issue 49: a stale token's refusal tells a Spanish player why, in Spanish: what the game
master changed since (a grant, a leave, a new address), said from the kind and parameters
tokens.log keeps, with its instant as Spanish writes dates; or that the board has changed.
For a move, an offer, a leave and a queue, by mail, in a league whose `lang` is Spanish."""

from __future__ import annotations

import json
import re
from email.message import EmailMessage
from pathlib import Path

from tests.helpers.cli import invoke
from tests.helpers.league import START, make_league
from tests.helpers.mail import GM, message, outbox_messages, plain_text

CHANGED_AT = "2026-12-01T13:00:00Z"
REPLY_AT = "2026-12-01T14:00:00Z"
CHANGED_ES = "1 dic 2026, 13:00:00 UTC"
ENGLISH = re.compile(r"\b(?:the|board|granted|leave|token is now|changed since|written|at)\b")


def _league(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "lg"
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m", names="Ann Bo",
                extra='leave_days = 5\nlang = "es"\n')  # fmt: skip
    for address in ("ann@example.org", "bo@example.org"):
        code, _, err = invoke("mail", "add-player", str(folder), address, stdin=f"secret of {address}\n")
        assert code == 0, err
    assert invoke("league", "pair", str(folder), "--now", START, "--from", GM)[0] == 0
    _outbox(folder)
    return folder, folder / "r1-t1.rgn"


def _outbox(folder: Path) -> list[EmailMessage]:
    return outbox_messages(folder / "outbox", take=True)


def _game(path: Path) -> dict[str, str]:
    checked = json.loads(invoke("check", "--json", str(path))[1])
    return {"token": str(checked["token"]), "to_move": str(checked["to_move"])}


def _seat(path: Path, side: str) -> str:
    found = re.search(rf'^\[{side} "[^"<]*<([^>]+)>"\]$', path.read_text(encoding="utf-8"), re.MULTILINE)
    assert found is not None
    return found.group(1)


def _players(game: Path) -> tuple[str, str, str, str]:
    """The game's token now, the side not to move, and the addresses of the player to move
    and of the other."""
    before = _game(game)
    old, mover_side = before["token"], before["to_move"]
    other_side = "Blue" if mover_side == "Red" else "Red"
    return old, other_side, _seat(game, mover_side), _seat(game, other_side)


def _reply(folder: Path, sender: str, token: str, body: str) -> str:
    """The one answer to `sender`'s message of `body` written for `token`."""
    data = message(sender, "Re: [r1-t1] your move", f"Key: secret of {sender}\nToken: {token}\n{body}\n").as_bytes()
    code, out, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", REPLY_AT, stdin=data)
    assert code == 0 and "Traceback" not in err, out + err
    answers = [mail for mail in _outbox(folder) if sender in {a.addr_spec for a in mail["To"].addresses}]
    assert len(answers) == 1
    return plain_text(answers[0])


def _why(text: str, head: str, end: str = ".\n") -> str:
    """The explanation of the refusal: from `head` to `end` (its line's, or its sentence's)."""
    start = text.index(head)
    return text[start : text.index(end, start)]


def test_a_spanish_players_stale_move_leave_and_queue_are_told_of_the_grant_in_spanish(tmp_path: Path) -> None:
    folder, game = _league(tmp_path)
    old, other_side, mover, other = _players(game)
    code, _, err = invoke("play", str(game), "--grant", f"{other_side}=1d", "--now", CHANGED_AT)
    assert code == 0, err
    new = _game(game)["token"]
    other_es = {"Red": "Rojo", "Blue": "Azul"}[other_side]
    granted = f"el director de juego concedió {other_es} 1d el {CHANGED_ES}"
    _outbox(folder)
    move = invoke("moves", str(game))[1].splitlines()[1].strip()

    refused = _reply(folder, mover, old, move)
    why = _why(refused, f"la partida está en el token {new}, no en {old}: ", "\n")
    assert why.endswith(f": el tablero está como estaba, pero {granted}; el token es ahora {new}"), refused
    assert not ENGLISH.search(why), why

    offer = _reply(folder, mover, old, "draw")  # an offer: refused by `play` as "this"
    why = _why(offer, f"la partida está en el token {new}, no en {old}: ", "\n")
    assert why.endswith(f": el tablero está como estaba, pero {granted}; el token es ahora {new}"), offer

    leave = _reply(folder, other, old, "ausencia 1d")
    why = _why(leave, f"Lleva el token {old}, que no es el actual (")
    assert why.endswith(f"(el tablero está como estaba, pero {granted}; el token es ahora {new})"), leave
    assert not ENGLISH.search(why), why

    queue = _reply(folder, other, old, "queue clear")
    why = _why(queue, f"Lleva el token {old}, que no es el actual (")
    assert why.endswith(f"(el tablero está como estaba, pero {granted}; el token es ahora {new})"), queue
    assert not ENGLISH.search(why), why
    assert _game(game)["token"] == new  # nothing was written


def test_a_spanish_players_stale_move_leave_and_queue_after_a_move_say_the_board_has_changed(tmp_path: Path) -> None:
    folder, game = _league(tmp_path)
    old, other_side, mover, other = _players(game)
    move = invoke("moves", str(game))[1].splitlines()[1].strip()
    assert "se jugó" in _reply(folder, mover, old, move) or _game(game)["token"] != old
    new = _game(game)["token"]
    assert new != old
    reply = invoke("moves", str(game))[1].splitlines()[1].strip()

    refused = _reply(folder, other, old, reply)
    changed = "el tablero ha cambiado desde que se escribió esta jugada"
    assert f"la partida está en el token {new}, no en {old}: {changed}" in refused, refused
    leave = _reply(folder, mover, old, "ausencia 1d")
    assert f"Lleva el token {old}, que no es el actual (el tablero ha cambiado desde que se escribió)." in leave, leave
    queue = _reply(folder, mover, old, "queue clear")
    assert f"Lleva el token {old}, que no es el actual (el tablero ha cambiado desde que se escribió)." in queue, queue
    for text in (refused, leave, queue):
        assert "the board has changed" not in text and "was written" not in text


def test_a_leave_is_told_in_spanish_with_the_new_token_and_in_the_stale_moves_refusal(tmp_path: Path) -> None:
    folder, game = _league(tmp_path)
    old, other_side, mover, other = _players(game)
    code, _, err = invoke("league", "leave", str(folder), other, "2d", "--now", CHANGED_AT)
    assert code == 0, err
    new = _game(game)["token"]
    other_es, name = {"Red": "Rojo", "Blue": "Azul"}[other_side], other.split("@")[0].capitalize()
    granted = f"el director de juego concedió {other_es} 2d (ausencia de {name}) el {CHANGED_ES}"
    [told] = [mail for mail in _outbox(folder) if mover in {a.addr_spec for a in mail["To"].addresses}]
    assert f"\n{granted}.\n" in plain_text(told), plain_text(told)  # the new token's mail, in the league's language
    move = invoke("moves", str(game))[1].splitlines()[1].strip()
    refused = _reply(folder, mover, old, move)
    assert f"no en {old}: el tablero está como estaba, pero {granted}; el token es ahora {new}\n" in refused, refused


def test_a_queue_without_passphrases_is_refused_by_play_for_its_stale_token_in_spanish(tmp_path: Path) -> None:
    """Where no passphrases are kept the gateway does not check the token itself: `play`
    refuses the queue, and its refusal is said in the player's language."""
    folder = tmp_path / "lg"
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m", names="Ann Bo",
                extra='lang = "es"\n', pair_at=START, clear_outbox=True)  # fmt: skip
    game = folder / "r1-t1.rgn"
    old, other_side, _, other = _players(game)
    assert invoke("play", str(game), "--grant", f"{other_side}=1d", "--now", CHANGED_AT)[0] == 0
    _outbox(folder)
    new = _game(game)["token"]
    other_es = {"Red": "Rojo", "Blue": "Azul"}[other_side]
    data = message(other, "Re: [r1-t1] your move", f"Token: {old}\nqueue clear\n").as_bytes()
    code, out, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", REPLY_AT, stdin=data)
    assert code == 0 and "Traceback" not in err, out + err
    [answer] = [mail for mail in _outbox(folder) if other in {a.addr_spec for a in mail["To"].addresses}]
    text = plain_text(answer)
    assert (
        f"la partida está en el token {new}, no en {old}: el tablero está como estaba, pero el director de juego"
        f" concedió {other_es} 1d el {CHANGED_ES}; el token es ahora {new}\n"
    ) in text, text
