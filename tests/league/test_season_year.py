"""The whole year of issue 47: a 6-player timed league with `auto_leave`, a leave taken
automatically, two games unfinished at `ends` decided by the league's rule (`draw`,
`score` on Pikemen, `gm`), the close, the champion's mail, the public archive, and
`verify` passing on it and failing on each tampered copy."""

from __future__ import annotations

import json
import shutil
import zipfile
from email import policy
from email.parser import BytesParser
from pathlib import Path

import pytest

from referee.live.play import submit
from referee.notation.timing import format_instant, parse_instant
from tests.helpers.league import log as _log
from tests.helpers.league import make_league
from tests.helpers.league import run as _run

NAMES = "Ann Bo Cy Di Ed Flo"
START = "2026-12-01T12:00:00Z"
ENDS = "2026-12-14T00:00:00Z"
DAY = 86_400


def _play(path: Path, move: str, at: int) -> None:
    result = submit(path, move, now=at)
    assert result.exit_code == 0, (path.name, move, result.error)


def _season(tmp_path: Path, rule: str) -> tuple[Path, int]:
    """Rounds 1-4 played out (a resignation in each game, one of them after an automatic
    leave), round 5 with one game finished and two unfinished; the instant reached."""
    folder = tmp_path / rule
    extra = f'auto_leave = true\nleave_days = 10\nadjudication = "{rule}"\nends = "{ENDS}"\n'
    make_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "5d+1d", names=NAMES, extra=extra)
    now = parse_instant(START)
    for number in range(1, 6):
        code, _, err = _run("league", "pair", str(folder), "--now", format_instant(now))
        assert code == 0, err
        games = sorted(folder.glob(f"r{number}-t*.rgn"))
        if number == 2:  # round 2's Reds are away: their clocks run out, tick spends their leave
            now += 6 * DAY
            code, out, err = _run("league", "tick", str(folder), "--now", format_instant(now))
            assert code == 0, err
            assert "automatic leave: r2-t1 Red +2d" in out
        now += 3600
        for game in games[: 1 if number == 5 else None]:
            _play(game, "resign" if number % 2 else "g1(W)", now)
            if number % 2 == 0:
                _play(game, "resign", now + 60)
        now += DAY
    if rule == "score":  # Blue takes a piece in r5-t2 and leads when the season ends
        moves = ["g1(W)", "d7(SE)", "h2(SW)", "b6(NE)", "e2(NW)", "c8(NW)", "f1(N)", "a4(SE)", "g4(W)", "d7xg4(S)"]
        for move in moves:
            _play(folder / "r5-t2.rgn", move, now)
            now += 600
    return folder, now


def _tamper(folder: Path, tmp_path: Path, tamper: str) -> Path:
    copy = tmp_path / f"tampered-{tamper}"
    shutil.copytree(folder, copy)
    log = copy / "league.log"
    if tamper == "result":
        path = copy / "r1-t1.rgn"
        text = path.read_text(encoding="utf-8")
        claim = text.split('[Result "')[1].split('"')[0]
        other = "Red" if claim == "Blue" else "Blue"
        path.write_text(text.replace(f'[Result "{claim}"]', f'[Result "{other}"]'), encoding="utf-8")
    elif tamper == "added":
        shutil.copy(copy / "r1-t1.rgn", copy / "r6-t1.rgn")
    elif tamper == "removed":
        (copy / "r3-t2.rgn").unlink()
    elif tamper == "pairing":
        lines = log.read_text(encoding="utf-8").splitlines()
        for index, line in enumerate(lines):
            entry = json.loads(line)
            if entry.get("event") == "pairing" and entry["round"] == 4:
                entry["games"][0]["seats"].reverse()
                lines[index] = json.dumps(entry)
        log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    elif tamper == "rating":
        lines = log.read_text(encoding="utf-8").splitlines()
        close = json.loads(lines[-1])
        assert close["event"] == "close"
        close["table"][2]["rating"] = round(close["table"][2]["rating"] + 0.5, 4)
        log.write_text("\n".join([*lines[:-1], json.dumps(close)]) + "\n", encoding="utf-8")
    elif tamper == "adjudication":
        path = copy / "r5-t3.rgn"
        text = path.read_text(encoding="utf-8")
        written = text.split("[%adjudicated ")[1].split("]")[0]
        rule, result = written.split()
        wrong = "Red" if result != "Red" else "Blue"
        if rule == "gm":  # any result is the game master's: a rule the league does not have is wrong
            path.write_text(text.replace(f"%adjudicated {written}", f"%adjudicated draw {wrong}"), encoding="utf-8")
        else:
            path.write_text(text.replace(f"%adjudicated {written}", f"%adjudicated {rule} {wrong}"), encoding="utf-8")
    return copy


@pytest.mark.parametrize("rule", ["draw", "score", "gm"])
def test_the_whole_year_to_a_verified_archive(tmp_path: Path, rule: str) -> None:
    folder, now = _season(tmp_path, rule)
    leaves = [entry for entry in _log(folder) if entry["event"] == "leave"]
    assert leaves and all(entry["auto"] is True for entry in leaves)  # round 2: every Red was away
    assert ["r2-t1"] in [entry["games"] for entry in leaves] and all(entry["duration"] == "2d" for entry in leaves)
    end = format_instant(parse_instant(ENDS) - 3 * DAY)
    code, _, err = _run("league", "close", str(folder), "--now", end)
    assert code == 1 and "ends at 2026-12-14T00:00:00Z" in err
    code, _, err = _run("league", "tick", str(folder), "--now", ENDS)  # the last flags, timed out or on leave
    assert code == 0, err
    unfinished = [
        game for game in ("r5-t2", "r5-t3") if "adjudicated" not in (folder / f"{game}.rgn").read_text(encoding="utf-8")
    ]
    status = json.loads(_run("league", "status", str(folder), "--json")[1])
    still = [game["game"] for game in status["games"] if game["status"] == "ongoing"]
    if rule == "gm":
        code, _, err = _run("league", "close", str(folder), "--now", ENDS)
        assert code == 1 and "the game master has not decided" in err
        for game in still:
            code, out, err = _run("league", "adjudicate", str(folder), game, "Red", "--now", ENDS)
            assert code == 0 and out.strip() == f"adjudicated: {game} gm Red", err
    code, out, err = _run("league", "close", str(folder), "--now", ENDS)
    assert code == 0, err
    decided = [entry for entry in _log(folder) if entry["event"] == "adjudicated"]
    assert sorted(entry["game"] for entry in decided) == sorted(still) and unfinished
    if rule == "draw":
        assert all(entry["result"] == "draw" for entry in decided)
    if rule == "score" and "r5-t2" in still:
        assert next(entry for entry in decided if entry["game"] == "r5-t2")["result"] == "Blue"
    close = _log(folder)[-1]
    assert close["event"] == "close"
    champion = close["champions"][0]
    mails = [BytesParser(policy=policy.default).parsebytes(p.read_bytes()) for p in (folder / "outbox").glob("*.eml")]
    closing = [mail for mail in mails if "the season is closed" in str(mail["Subject"])]
    assert len(closing) == 6 and all(f"champion {champion}" in str(mail["Subject"]) for mail in closing)
    site = tmp_path / f"site-{rule}"
    assert _run("league", "site", str(folder), "-o", str(site))[0] == 0
    archive = site / "league-archive.zip"
    with zipfile.ZipFile(archive) as opened:
        assert not [name for name in opened.namelist() if name.startswith(("keys", "outbox", "players"))]
        assert all(b"@example.org" not in opened.read(name) for name in opened.namelist())
    code, out, err = _run("league", "verify", str(archive))
    assert code == 0, out + err
    assert out.strip() == f"verified: 15 games, 5 rounds, standings {close['standings']}"
    wanted = {
        "result": "r1-t1: illegal: its Result tag claims",
        "added": "r6-t1: no pairing line of league.log makes this game",
        "removed": "r3-t2: paired in round 3",
        "pairing": "round 4: league.log pairs",
        "rating": "close: ",
        "adjudication": "r5-t3: ",
    }
    for tamper, line in wanted.items():
        copy = _tamper(folder, tmp_path, tamper)
        code, out, _ = _run("league", "verify", str(copy))
        assert code == 1 and any(found.startswith(line) for found in out.splitlines()), (tamper, out)
