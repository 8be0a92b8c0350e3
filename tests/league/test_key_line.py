"""Issue 45.4: in a keyed league (players.toml) every "your move" text names the `Key:`
line beside `Token:` (the answers explained `Token:` alone, and a player who followed them
was refused): the pairing mail, the gateway's answers (accepted, shown, refused), the
reminder, the daily digest, `status` by mail. The new-token mail: test_new_token.py."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import invoke
from tests.helpers.league import START, Mail, make_league, outbox
from tests.helpers.mail import GM, message

KEY_LINE = "  Key: your passphrase\n"


def _outbox(folder: Path) -> list[Mail]:
    """(recipients, subject, text) of every mail in the outbox, which is then emptied."""
    return outbox(folder, empty=True)


def _mail(folder: Path, sender: str, body: str, now: str) -> list[Mail]:
    data = message(sender, "[r1-t1] my move", f"Key: secret of {sender}\n{body}\n").as_bytes()
    code, out, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", now, stdin=data)
    assert code == 0 and "Traceback" not in err, out + err
    return _outbox(folder)


def _token(path: Path) -> str:
    return str(json.loads(invoke("check", "--json", str(path))[1])["token"])


def test_every_your_move_text_of_a_keyed_league_names_the_key_line(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    extra = 'digest = "daily"\nreminders = ["48h"]\n'
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m", names="Ann Bo", extra=extra)
    for address in ("ann@example.org", "bo@example.org"):
        code, _, err = invoke("mail", "add-player", str(folder), address, stdin=f"secret of {address}\n")
        assert code == 0, err
    assert invoke("league", "pair", str(folder), "--now", START, "--from", GM)[0] == 0
    game = folder / "r1-t1.rgn"
    pairing = _outbox(folder)
    assert len(pairing) == 2 and all(KEY_LINE in text and "  Token: " in text for _, _, text in pairing)
    checked = json.loads(invoke("check", "--json", str(game))[1])
    seats = {line.split()[0][1:]: line.split("<")[1].split(">")[0] for line in game.read_text().splitlines()
             if line.startswith(("[Red ", "[Blue "))}  # fmt: skip
    first, second = seats[checked["to_move"]], next(a for s, a in seats.items() if s != checked["to_move"])
    move = invoke("moves", str(game))[1].splitlines()[1].strip()

    # accepted: the answer to the player now to move says how to answer, Key: included
    answers = _mail(folder, first, f"Token: {_token(game)}\n{move}", "2026-12-01T13:00:00Z")
    to_mover = [text for to, _, text in answers if second in to]
    assert len(to_mover) == 1 and KEY_LINE in to_mover[0] and f"  Token: {_token(game)}\n" in to_mover[0]
    # shown, and refused, to the player to move
    (shown,) = _mail(folder, second, "show", "2026-12-01T13:10:00Z")
    assert KEY_LINE in shown[2] and f"  Token: {_token(game)}\n" in shown[2]
    (refused,) = _mail(folder, second, f"Token: {_token(game)}\nz9(N)", "2026-12-01T13:20:00Z")
    assert "was not played" in refused[2] and KEY_LINE in refused[2]
    # status by mail
    (status,) = _mail(folder, second, "status", "2026-12-01T13:30:00Z")
    assert ": your move" in status[2] and KEY_LINE in status[2]

    # the reminder (less than 48h left) and the daily digest
    code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-03T14:00:00Z", "--from", GM)
    assert code == 0, err
    mails = _outbox(folder)
    reminders = [text for to, subject, text in mails if "reminder" in subject and second in to]
    digests = [text for to, subject, text in mails if "digest" in subject and second in to]
    assert len(reminders) == 1 and KEY_LINE in reminders[0] and f"  Token: {_token(game)}\n" in reminders[0]
    assert len(digests) == 1 and "Your move:" in digests[0] and KEY_LINE in digests[0]
