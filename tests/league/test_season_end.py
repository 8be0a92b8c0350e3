"""A season's end (LEAGUE.md §6): `league close` decides every unfinished game by the
league's rule into its record, `league adjudicate` for `gm`, the standings become final,
the close's digest in league.log, the champion's mail, and every writing command refused
afterwards; `league verify` on the folder and on its public archive, and each tamper it
must find; automatic leave in `tick`."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from referee.judge.core.adjudicate import adjudicate, read_source
from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.league import START, address, adjudicated, make_league, season
from tests.helpers.league import log as _log
from tests.helpers.league import run as _run

ENDS = "2027-03-01T00:00:00Z"
AFTER = "2027-03-02T00:00:00Z"


def _league(folder: Path, rule: str, names: str = "Ann Bo Cy Di", control: str = "100d+1d") -> None:
    adjudicated(folder, rule, control=control, names=names, extra=f'ends = "{ENDS}"\n')


def _verdict(path: Path):  # type: ignore[no-untyped-def]
    return adjudicate(read_source(path.read_bytes())[0]).verdict


def test_close_is_refused_before_ends_and_draws_every_unfinished_game_with_force(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "draw")
    code, _, err = _run("league", "close", str(folder), "--now", "2026-12-05T00:00:00Z")
    assert code == 1 and "ends at 2027-03-01T00:00:00Z" in err and "--force" in err
    assert not (folder / "r1-t1.rgn").read_text(encoding="utf-8").count("adjudicated")
    code, out, err = _run("league", "close", str(folder), "--now", "2026-12-05T00:00:00Z", "--force")
    assert code == 0, err
    assert "adjudicated: r1-t1 draw draw" in out and "adjudicated: r1-t2 draw draw" in out
    for game in ("r1-t1", "r1-t2"):
        text = (folder / f"{game}.rgn").read_text(encoding="utf-8")
        assert "adjudicated\n{[%adjudicated draw draw]}\n{[%at 2026-12-05T00:00:00Z Red]}" in text
        verdict = _verdict(folder / f"{game}.rgn")
        assert verdict.status == "finished" and verdict.outcome is not None
        assert verdict.outcome.reason == "adjudication" and verdict.outcome.draw
    events = [entry["event"] for entry in _log(folder)]
    assert events == ["pairing", "adjudicated", "adjudicated", "close"]
    close = _log(folder)[-1]
    assert str(close["standings"]).startswith("sha256:") and close["champions"] == ["Ann", "Bo", "Cy", "Di"]


def test_after_the_close_every_writing_command_refuses_and_the_standings_are_final(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "draw")
    assert "provisional" in _run("league", "standings", str(folder))[1].splitlines()[0]
    assert json.loads(_run("league", "standings", str(folder), "--json")[1])["final"] is False
    assert _run("league", "close", str(folder), "--now", AFTER)[0] == 0
    for command in (
        ("pair", str(folder), "--now", AFTER),
        ("tick", str(folder), "--now", AFTER),
        ("leave", str(folder), address("Ann"), "1d", "--now", AFTER),
        ("close", str(folder), "--now", AFTER),
    ):
        code, _, err = _run("league", *command)
        assert code == 1 and "the season is closed" in err, command
        assert len(err.strip().splitlines()) == 1
    code, out, _ = _run("league", "standings", str(folder))
    assert code == 0 and out.splitlines()[0].endswith("; final")
    assert json.loads(_run("league", "standings", str(folder), "--json")[1])["final"] is True
    csv = _run("league", "standings", str(folder), "--csv")[1]
    assert csv.splitlines()[0].endswith(",standing") and csv.splitlines()[1].endswith(",final")
    assert _run("league", "status", str(folder))[0] == 0


def test_the_close_mails_every_player_the_final_table_and_the_champion(tmp_path: Path) -> None:
    from email import policy
    from email.parser import BytesParser

    folder = tmp_path / "lg"
    _league(folder, "gm", names="Ann Bo")
    for path in (folder / "outbox").glob("*.eml"):
        path.unlink()
    code, _, err = _run("league", "close", str(folder), "--now", AFTER)
    assert code == 1 and "the game master has not decided r1-t1" in err
    code, out, err = _run("league", "adjudicate", str(folder), "r1-t1", "Blue", "--now", AFTER)
    assert code == 0, err
    assert out.strip() == "adjudicated: r1-t1 gm Blue"
    code, out, err = _run("league", "close", str(folder), "--now", AFTER)
    assert code == 0, err
    mails = [BytesParser(policy=policy.default).parsebytes(p.read_bytes()) for p in (folder / "outbox").glob("*.eml")]
    closing = [mail for mail in mails if "the season is closed" in str(mail["Subject"])]
    assert sorted(str(mail["To"]) for mail in closing) == ["Ann <ann@example.org>", "Bo <bo@example.org>"]
    seat = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    winner = "Bo" if '[Blue "Bo' in seat else "Ann"
    for mail in closing:
        assert f"champion {winner}" in str(mail["Subject"])
        body = mail.get_body(("plain",))
        assert body is not None and "Final standings:" in body.get_content()


def test_adjudicate_is_for_gm_leagues_and_none_refuses_the_close_naming_the_games(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "none")
    code, _, err = _run("league", "adjudicate", str(folder), "r1-t1", "Red", "--now", AFTER)
    assert code == 1 and 'adjudication = "none"' in err
    code, _, err = _run("league", "close", str(folder), "--now", AFTER)
    assert code == 1 and "r1-t1, r1-t2" in err
    assert [entry["event"] for entry in _log(folder)] == ["pairing"]


def test_a_flagged_side_is_timed_out_by_tick_before_the_close_decides(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "draw", names="Ann Bo", control="7d+1d")
    code, _, err = _run("league", "close", str(folder), "--now", AFTER)
    assert code == 1 and "time has run out in r1-t1 (Red): run league tick first" in err
    assert _run("league", "tick", str(folder), "--now", AFTER)[0] == 0
    code, out, err = _run("league", "close", str(folder), "--now", AFTER)
    assert code == 0, err
    assert "adjudicated" not in out  # the timeout finished it: nothing left to decide
    assert _verdict(folder / "r1-t1.rgn").outcome.reason == "time"


def test_score_is_refused_for_a_game_without_a_score(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    code, _, err = _run("league", "init", str(folder), "--game", "nika", "--players", "2")
    assert code == 0, err
    config = folder / "league.toml"
    config.write_text(config.read_text(encoding="utf-8") + 'adjudication = "score"\n', encoding="utf-8")
    code, _, err = _run("league", "add", str(folder), "ann@example.org", "--name", "Ann")
    assert code == 2 and "adjudication" in err and "keeps none" in err


def test_score_decides_pikemen_by_the_scores(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "score", names="Ann Bo")
    # Blue's pikeman takes one on g4: Blue leads 1-0 when the season ends.
    moves = ["g1(W)", "d7(SE)", "h2(SW)", "b6(NE)", "e2(NW)", "c8(NW)", "f1(N)", "a4(SE)", "g4(W)", "d7xg4(S)"]
    for hour, move in enumerate(moves, start=1):
        result = submit(folder / "r1-t1.rgn", move, now=parse_instant(START) + 3600 * hour)
        assert result.exit_code == 0, result.error
    code, out, err = _run("league", "close", str(folder), "--now", AFTER)
    assert code == 0, err
    assert "adjudicated: r1-t1 score Blue" in out
    verdict = _verdict(folder / "r1-t1.rgn")
    assert verdict.status == "finished" and verdict.outcome is not None
    assert verdict.outcome.reason == "adjudication" and verdict.outcome.winners == ("Blue",)
    record = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    tampered = tmp_path / "draw.rgn"
    tampered.write_text(record.replace("%adjudicated score Blue", "%adjudicated score draw"), encoding="utf-8")
    found = _verdict(tampered)
    assert found.status == "illegal" and found.error is not None
    assert "adjudication by score gives Blue (Red 0, Blue 1), not draw" in found.error.message


# -- verify ------------------------------------------------------------------------------------


def _closed_season(tmp_path: Path) -> Path:
    folder = tmp_path / "lg"
    _league(folder, "draw")
    assert _run("league", "close", str(folder), "--now", AFTER)[0] == 0
    return folder


def _copy(folder: Path, tmp_path: Path, name: str) -> Path:
    copy = tmp_path / name
    shutil.copytree(folder, copy)
    return copy


def test_verify_passes_on_the_folder_and_on_its_archive(tmp_path: Path) -> None:
    folder = _closed_season(tmp_path)
    code, out, err = _run("league", "verify", str(folder))
    assert code == 0, out + err
    digest = str(_log(folder)[-1]["standings"])
    assert out.strip() == f"verified: 2 games, 1 rounds, standings {digest}"
    site = tmp_path / "site"
    assert _run("league", "site", str(folder), "-o", str(site))[0] == 0
    archive = site / "league-archive.zip"
    assert 'href="league-archive.zip"' in (site / "index.html").read_text(encoding="utf-8")
    with zipfile.ZipFile(archive) as opened:
        names = sorted(opened.namelist())
        assert names == ["league.log", "league.toml", "r1-t1.rgn", "r1-t2.rgn"]
        for name in names:
            assert b"@" not in opened.read(name), name
    code, out, err = _run("league", "verify", str(archive))
    assert code == 0, out + err
    assert out.strip() == f"verified: 2 games, 1 rounds, standings {digest}"


def _tampered(folder: Path, tmp_path: Path, tamper: str) -> Path:
    copy = _copy(folder, tmp_path, tamper)
    log = copy / "league.log"
    if tamper == "result":
        path = copy / "r1-t1.rgn"
        path.write_text(path.read_text(encoding="utf-8").replace('[Result "draw"]', '[Result "Red"]'), encoding="utf-8")
    elif tamper == "added":
        shutil.copy(copy / "r1-t1.rgn", copy / "r2-t1.rgn")
    elif tamper == "removed":
        (copy / "r1-t2.rgn").unlink()
    elif tamper == "pairing":
        text = log.read_text(encoding="utf-8")
        log.write_text(text.replace('"di@example.org"]', '"cy@example.org"]', 1), encoding="utf-8")
    elif tamper == "rating":
        lines = log.read_text(encoding="utf-8").splitlines()
        close = json.loads(lines[-1])
        close["table"][0]["rating"] = close["table"][0]["rating"] + 1
        log.write_text("\n".join([*lines[:-1], json.dumps(close)]) + "\n", encoding="utf-8")
    elif tamper == "adjudication":
        path = copy / "r1-t1.rgn"
        text = path.read_text(encoding="utf-8").replace("%adjudicated draw draw", "%adjudicated draw Red")
        path.write_text(text, encoding="utf-8")
    return copy


@pytest.mark.parametrize(
    ("tamper", "line"),
    [
        ("result", "r1-t1: illegal: its Result tag claims 'Red', which does not match"),
        ("added", "r2-t1: no pairing line of league.log makes this game"),
        ("removed", "r1-t2: paired in round 1"),
        ("pairing", "round 1: league.log pairs"),
        ("rating", "close: Ann: rating"),
        ("adjudication", "r1-t1: illegal: adjudication by draw gives a draw, not Red"),
    ],
)
def test_verify_finds_each_tamper(tmp_path: Path, tamper: str, line: str) -> None:
    folder = _closed_season(tmp_path)
    copy = _tampered(folder, tmp_path, tamper)
    code, out, err = _run("league", "verify", str(copy))
    assert code == 1, out
    assert any(found.startswith(line) for found in out.splitlines()), out
    assert "difference" in err


def test_verify_finds_a_swiss_round_re_paired_by_hand(tmp_path: Path) -> None:
    folder = tmp_path / "sw"
    make_league(folder, *season("pikemen", 2, pairing="swiss", rounds=2), names="Ann Bo Cy Di", pair_at=START)
    assert _run("league", "verify", str(folder))[0] == 0
    log = folder / "league.log"
    entry = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    first, second = entry["games"]
    first["seats"][1], second["seats"][1] = second["seats"][1], first["seats"][1]
    log.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    for item in entry["games"]:  # and the records to match: only the rule can tell
        path = folder / f"{item['game']}.rgn"
        text = path.read_text(encoding="utf-8")
        names = {address(n): n for n in ("Ann", "Bo", "Cy", "Di")}
        blue = item["seats"][1]
        head, _, rest = text.partition('[Blue "')
        _, _, rest = rest.partition('"]')
        path.write_text(f'{head}[Blue "{names[blue]} <{blue}>"]{rest}', encoding="utf-8")
    code, out, _ = _run("league", "verify", str(folder))
    assert code == 1
    assert [line for line in out.splitlines() if line.startswith("round 1: league.log pairs")], out
    assert not [line for line in out.splitlines() if "seats" in line], out


# -- automatic leave ---------------------------------------------------------------------------


def test_auto_leave_grants_whole_days_instead_of_the_timeout_while_the_allowance_lasts(tmp_path: Path) -> None:
    folder = tmp_path / "al"
    extra = "auto_leave = true\nleave_days = 3\n"
    options = season("pikemen", 2, "1d+0m")
    make_league(folder, *options, names="Ann Bo", extra=extra, pair_at="2026-12-01T00:00:00Z", clear_outbox=True)
    code, out, err = _run("league", "tick", str(folder), "--now", "2026-12-02T12:00:00Z")
    assert code == 0, err
    assert "automatic leave: r1-t1 Red +2d" in out  # 12h late: 2 days leave it a day and a half
    record = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    assert "{[%grant Red 2d] [%at 2026-12-02T12:00:00Z Red]}" in record and "timeout" not in record
    leave = _log(folder)[-1]
    assert leave["event"] == "leave" and leave["auto"] is True and leave["duration"] == "2d"
    mails = [p.read_text(encoding="utf-8") for p in (folder / "outbox").glob("*.eml")]
    told = sorted(mail.split("To: ")[1].split("\n")[0] for mail in mails if "automatic leave: Red +2d" in mail)
    assert told == ["Ann <ann@example.org>", "Bo <bo@example.org>"]  # every player of the game
    assert _run("league", "tick", str(folder), "--now", "2026-12-02T12:00:00Z")[1].startswith("tick: 0 done")
    # Flagged again 2.5 days late: 4 days would be needed, 1 is left: the timeout.
    code, out, _ = _run("league", "tick", str(folder), "--now", "2026-12-06T12:00:00Z")
    assert "timeout: r1-t1 Red" in out


def test_the_close_sends_its_notice_to_the_league_targets(tmp_path: Path) -> None:
    pytest.importorskip("apprise", reason="the optional extra `notify` (Apprise) is not installed")
    from tests.helpers.notices import Receiver

    server = Receiver()
    try:
        folder = tmp_path / "lg"
        target = f"json://127.0.0.1:{server.port}/league"
        extra = f'adjudication = "draw"\nnotify = ["{target}"]\n'
        make_league(folder, "--game", "pikemen", "--players", "2", names="Ann Bo", extra=extra, pair_at=START)
        code, out, err = _run("league", "close", str(folder), "--now", AFTER, "--force")
        assert code == 0, err
        posts = server.take()
        closing = [body for _, body in posts if "the season is closed" in str(body.get("title"))]
        assert len(closing) == 1
        assert "Champion: Ann, Bo." in str(closing[0].get("message"))
        assert "notices:" in out.splitlines()[-1]
        assert [entry["key"] for entry in _log(folder) if entry["event"] == "notice"].count("close") == 1
    finally:
        server.server.shutdown()
        server.server.server_close()
