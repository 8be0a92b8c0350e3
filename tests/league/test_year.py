"""The game master's whole year (docs/league.md, "The game master's year"): a 6-player
Swiss league from `init` to the champion's notice, with a withdrawal, a substitution and a
notice target; every player's mailbox (the outbox, collected after each step) holds what
the docs say it does, and the target got the season's notices."""

from __future__ import annotations

import json
from collections import defaultdict
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from referee.live.play import submit
from referee.notation.timing import format_instant, parse_instant
from tests.helpers.cli import invoke
from tests.helpers.notices import Receiver

pytest.importorskip("apprise", reason="the optional extra `notify` (Apprise) is not installed")
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


# The shared `invoke`, and no run of the year may end in a Python traceback.
def _run(*args: str) -> tuple[int, str, str]:
    result = invoke(*args)
    assert "Traceback" not in result.stderr
    return result.exit_code, result.stdout, result.stderr


class Mailboxes:
    """Every player's mails, taken from the outbox after each step."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.boxes: dict[str, list[tuple[str, str]]] = defaultdict(list)

    def collect(self) -> dict[str, list[tuple[str, str]]]:
        new: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for path in sorted((self.folder / "outbox").glob("*.eml")):
            mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            assert isinstance(mail, EmailMessage)
            body = mail.get_body(("plain",))
            assert body is not None
            to = mail["To"].addresses[0].addr_spec
            new[to].append((str(mail["Subject"]), body.get_content()))
            self.boxes[to].append((str(mail["Subject"]), body.get_content()))
            path.unlink()
        return new


def _address(name: str) -> str:
    return f"{name.lower()}@example.org"


def test_a_season_from_init_to_the_champions_notice(tmp_path: Path, receiver: Receiver) -> None:
    folder = tmp_path / "autumn"
    clock = parse_instant("2026-12-01T12:00:00Z")

    def at(hours: float) -> str:
        return format_instant(clock + int(hours * 3600))

    options = ("--game", "nika", "--players", "2", "--pairing", "swiss", "--rounds", "3", "--time-control", "3d+0m")
    assert _run("league", "init", str(folder), "--name", "Autumn", *options)[0] == 0
    for name in NAMES:
        assert _run("league", "add", str(folder), _address(name), "--name", name)[0] == 0
    path = folder / "league.toml"
    target = f"json://127.0.0.1:{receiver.port}/autumn"
    head, _, players = path.read_text(encoding="utf-8").partition("\n[[player]]")
    path.write_text(f'{head}\nnotify = ["{target}"]\n\n[[player]]{players}', encoding="utf-8")
    boxes = Mailboxes(folder)
    hours = 0.0

    def play_round(number: int) -> list[dict[str, object]]:
        nonlocal hours
        code, out, err = _run("league", "pair", str(folder), "--now", at(hours), "--json")
        assert code == 0, err
        paired = json.loads(out)
        new = boxes.collect()
        for game in paired["games"]:
            token = json.loads(_run("check", "--json", str(folder / f"{game['game']}.rgn"))[1])["token"]
            for seat, address in enumerate(game["seats"]):
                [(subject, body)] = new[address]
                assert subject == f"[{game['game']}] Autumn"
                assert f"Token: {token}" in body and f"keeping [{game['game']}] in the Subject" in body
                assert ("You move first (Athens)." in body) == (seat == 0)
        for bye in paired["byes"]:
            [(subject, body)] = new[bye]
            assert subject == "Autumn: bye" and "worth 1 point" in body
        hours += 1
        for game in paired["games"]:  # the first seat resigns
            done = submit(folder / f"{game['game']}.rgn", "resign", now=parse_instant(at(hours)))
            assert done.exit_code == 0, done.error
        hours += 1
        ticked = json.loads(_run("league", "tick", str(folder), "--now", at(hours), "--json")[1])
        assert ticked["entries"] == []
        return paired["games"]

    play_round(1)
    # Flo withdraws between rounds: told, and paired no more
    code, _, err = _run("league", "withdraw", str(folder), _address("Flo"), "--now", at(hours))
    assert code == 0, err
    assert [subject for subject, _ in boxes.collect()[_address("Flo")]] == ["Autumn: Flo has withdrawn"]
    games = play_round(2)
    assert all(_address("Flo") not in game["seats"] for game in games)  # type: ignore[operator]
    # Bo hands his seat to Gus before round 3
    code, _, err = _run("league", "substitute", str(folder), _address("Bo"), _address("Gus"), "--name", "Gus")
    assert code == 0, err
    told = boxes.collect()
    assert {address for address in told} == {_address("Bo"), _address("Gus")}  # no game is ongoing
    assert all("Gus <gus@example.org> substitutes for Bo" in subject for mails in told.values() for subject, _ in mails)
    standings = json.loads(_run("league", "standings", str(folder), "--json")[1])
    gus = next(row for row in standings["rows"] if row["address"] == _address("Gus"))
    assert gus["games"] == 2, "the seat keeps Bo's results"
    play_round(3)
    boxes.collect()
    # the season is over: the last tick told every player the champion, once
    standings = json.loads(_run("league", "standings", str(folder), "--json")[1])
    champion = standings["rows"][0]["player"]
    everyone = [_address(name) for name in (*NAMES, "Gus") if name != "Bo"]
    for address in everyone:
        notices = [subject for subject, _ in boxes.boxes[address] if "season is over" in subject]
        assert notices == [f"Autumn: the season is over, champion {champion}"], address
    assert not [s for s, _ in boxes.boxes[_address("Bo")] if "season is over" in s]
    assert _run("league", "tick", str(folder), "--now", at(hours + 1))[0] == 0 and boxes.collect() == {}
    # every mailbox, as the docs' table says: pairings (or byes) for each round played, the
    # roster mails, the champion
    for address, mails in boxes.boxes.items():
        subjects = [subject for subject, _ in mails]
        rounds = [s for s in subjects if s.endswith("] Autumn") or s == "Autumn: bye"]
        expected = {_address("Flo"): 1, _address("Gus"): 1, _address("Bo"): 2}.get(address, 3)
        assert len(rounds) == expected, (address, subjects)
    # the notice target: each round's pairings, turns and results, and the season's end
    titles = [str(payload["title"]) for _, payload in receiver.take()]
    assert titles.count("Autumn: the season is over") == 1
    assert sum(title.endswith("paired") for title in titles) == 3 + 2 + 2
    assert sum(title.endswith("over") and "[" in title for title in titles) == 7
