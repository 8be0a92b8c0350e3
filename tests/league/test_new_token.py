"""Issue 45.1: a writing that is not a move changes a game's token and not its board. In
each of the five ways (`league leave`, `leave 2d` by mail, `play --grant`, `league
address`, `league substitute`) the player to move is mailed the new token (naming the
`Key:` line of this keyed league), a reply with it plays, and a reply with the token it
replaced is refused saying what changed, not that the board did."""

from __future__ import annotations

import json
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.helpers.cli import invoke
from tests.helpers.league import START, make_league
from tests.helpers.mail import GM, message, outbox_messages, plain_text

CHANGED_AT = "2026-12-01T13:00:00Z"
REPLY_AT = "2026-12-01T14:00:00Z"
WAYS = ("league-leave", "mail-leave", "play-grant", "address", "substitute")


def _outbox(folder: Path) -> list[EmailMessage]:
    """Every mail in the outbox, which is then emptied."""
    return outbox_messages(folder / "outbox", take=True)


def _to(mail: EmailMessage) -> set[str]:
    return {address.addr_spec for address in mail["To"].addresses}


def _game(path: Path) -> dict[str, object]:
    checked = json.loads(invoke("check", "--json", str(path))[1])
    assert isinstance(checked, dict)
    return checked


def _seats(path: Path) -> dict[str, str]:
    """Side -> address, from the game's side tags."""
    seats = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        for side in ("Red", "Blue"):
            if line.startswith(f'[{side} "'):
                seats[side] = line.split("<")[1].split(">")[0]
    return seats


def _add_key(folder: Path, address: str) -> None:
    code, _, err = invoke("mail", "add-player", str(folder), address, stdin=f"secret of {address}\n")
    assert code == 0, err


def _reply(folder: Path, sender: str, key: str, token: str, moves: str) -> str:
    """The sender's reply to the game's last mail, with the passphrase of `key`; the one answer's text."""
    body = f"Key: secret of {key}\nToken: {token}\n{moves}\n"
    data = message(sender, "Re: [r1-t1] your move", body).as_bytes()
    code, out, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", REPLY_AT, stdin=data)
    assert code == 0 and "Traceback" not in err, out + err
    answers = [mail for mail in _outbox(folder) if sender in _to(mail)]
    assert len(answers) == 1
    return plain_text(answers[0])


@pytest.mark.parametrize("way", WAYS)
def test_the_player_to_move_is_sent_the_new_token_and_the_old_one_is_refused_with_what_changed(
    tmp_path: Path, way: str
) -> None:
    folder = tmp_path / "lg"
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m", names="Ann Bo",
                extra="leave_days = 5\n")  # fmt: skip
    for address in ("ann@example.org", "bo@example.org"):
        _add_key(folder, address)
    assert invoke("league", "pair", str(folder), "--now", START, "--from", GM)[0] == 0
    _outbox(folder)
    game = folder / "r1-t1.rgn"
    before = _game(game)
    old, side_to_move = str(before["token"]), str(before["to_move"])
    seats = _seats(game)
    mover = key = seats[side_to_move]
    other_side = next(side for side in seats if side != side_to_move)
    other = seats[other_side]
    other_name = other.split("@")[0].capitalize()
    mover_name = mover.split("@")[0].capitalize()
    move = invoke("moves", str(game))[1].splitlines()[1].strip()

    if way == "league-leave":
        code, _, err = invoke("league", "leave", str(folder), other, "2d", "--now", CHANGED_AT)
        what = f"the game master granted {other_side} 2d (leave of {other_name})"
    elif way == "mail-leave":
        body = f"Key: secret of {other}\nToken: {old}\nleave 1d\n"
        data = message(other, "[r1-t1] away", body).as_bytes()
        code, _, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", CHANGED_AT, stdin=data)
        what = f"the game master granted {other_side} 1d (leave of {other_name})"
    elif way == "play-grant":
        code, _, err = invoke("play", str(game), "--grant", f"{other_side}=1d", "--now", CHANGED_AT)
        what = f"the game master granted {other_side} 1d"
    elif way == "address":
        code, _, err = invoke("league", "address", str(folder), mover, "new." + mover, "--now", CHANGED_AT)
        what = f"the game master changed {mover_name}'s address to new.{mover}"
        mover = "new." + mover
    else:
        code, _, err = invoke(
            "league", "substitute", str(folder), mover, "gus@example.org", "--name", "Gus", "--now", CHANGED_AT
        )
        what = f"the game master seated Gus <gus@example.org> in place of {mover_name} <{mover}>"
        mover = key = "gus@example.org"
        _add_key(folder, mover)
    assert code == 0, err
    after = _game(game)
    new = str(after["token"])
    assert new != old and after["to_move"] == side_to_move and after["turns"] == before["turns"]

    # the player to move's mailbox: the new token, the board, the Key: and Token: lines
    told = [mail for mail in _outbox(folder) if "your move: the token is now" in str(mail["Subject"])]
    assert [(_to(mail), str(mail["Subject"])) for mail in told] == [
        ({mover}, f"[r1-t1] your move: the token is now {new}")
    ]
    text = plain_text(told[0])
    assert f"\n{what} at 2026-12-01 13:00 UTC.\n" in text, text
    assert "  Key: your passphrase\n" in text and f"  Token: {new}\n" in text
    assert f"the old token ({old}) is refused" in text and f"has a new token, {new}, on the same board" in text

    # the reply written for the old token: refused with the true reason
    refused = _reply(folder, mover, key, old, move)
    assert "was not played" in refused
    assert f"the board is as it was, but {what} at 2026-12-01 13:00 UTC; the token is now {new}" in refused
    assert "the board has changed" not in refused
    assert _game(game)["token"] == new

    # the reply with the new token plays
    played = _reply(folder, mover, key, new, move)
    assert "played in game r1-t1" in played, played
    assert _game(game)["turns"] != before["turns"]


def test_a_stale_token_after_a_move_still_says_the_board_has_changed(tmp_path: Path) -> None:
    """Only a chain of writings that are not moves is explained: after a grant and then a
    move, the token of before the grant names a board that is gone."""
    from referee.live.play import submit
    from referee.notation.timing import parse_instant

    folder = tmp_path / "lg"
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m", names="Ann Bo",
                pair_at=START, clear_outbox=True)  # fmt: skip
    game = folder / "r1-t1.rgn"
    old = str(_game(game)["token"])
    assert invoke("play", str(game), "--grant", "Blue=1d", "--now", CHANGED_AT)[0] == 0
    granted = str(_game(game)["token"])
    refused = submit(game, "resign", expect=old, now=parse_instant(CHANGED_AT))
    assert refused.exit_code == 1 and refused.error is not None
    assert "the board is as it was, but the game master granted Blue 1d at 2026-12-01 13:00 UTC" in refused.error
    move = invoke("moves", str(game))[1].splitlines()[1].strip()
    assert submit(game, move, expect=granted, now=parse_instant(REPLY_AT)).exit_code == 0
    stale = submit(game, "resign", expect=old, now=parse_instant(REPLY_AT))
    assert stale.error is not None and "the board has changed since this move was written" in stale.error
