"""`referee league init/add/pair/status/standings` (LEAGUE.md §2-3): what they write, what
they refuse, and their exit statuses (0 done, 1 refused or a game illegal, 2 usage, 75 busy)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.core.turn_token import token_of
from referee.live.mail.players import load_keys, verify
from referee.live.play import submit
from referee.notation.timing import parse_instant
from referee.store import locked
from tests.helpers.cli import invoke, invoker

NOW = "2026-12-01T12:00:00Z"
PLAYED = parse_instant(NOW) + 3600  # the games are timed: moves come after their Start (TIME.md)


_run = invoker("league")


def _new_league(folder: Path, *options: str, players: int = 4) -> None:
    code, out, err = _run("init", str(folder), *options)
    assert code == 0, err
    for index in range(players):
        name = "Ann Bo Cy Di Ed Flo Gus Hal".split()[index]
        code, out, err = _run("add", str(folder), f"{name.lower()}@example.org", "--name", name)
        assert code == 0, err
        assert out == f"added player {index + 1}: {name} <{name.lower()}@example.org>\n"


def test_init_writes_a_league_it_can_read_and_never_overwrites(tmp_path: Path) -> None:
    folder = tmp_path / "autumn"
    code, out, _ = _run("init", str(folder), "--game", "Pikemen", "--players", "3", "--rounds", "4",
                        "--time-control", "7d+1d/14d", "--name", "Autumn 2026")  # fmt: skip
    assert code == 0 and "wrote" in out
    text = (folder / "league.toml").read_text(encoding="utf-8")
    assert 'name = "Autumn 2026"\ngame = "pikemen"\nplayers = 3\ntime_control = "7d+1d/14d"' in text
    before = text
    code, _, err = _run("init", str(folder), "--game", "nika", "--players", "2")
    assert code == 2 and "already exists: init never overwrites a league" in err
    assert (folder / "league.toml").read_text(encoding="utf-8") == before


@pytest.mark.parametrize(("game", "players"), [("nieuchess", "2"), ("pikemen", "4")])
def test_init_writes_every_setting_commented_and_each_one_reads_when_set(
    tmp_path: Path, game: str, players: str
) -> None:
    import tomllib

    from referee.league.league_toml import KNOWN_KEYS, load, parse

    folder = tmp_path / "league"
    assert _run("init", str(folder), "--game", game, "--players", players, "--rounds", "3")[0] == 0
    text = (folder / "league.toml").read_text(encoding="utf-8")
    active = tomllib.loads(text)
    commented = [line for line in text.splitlines() if line.startswith("# ") and " = " in line.split("  #")[0]]
    named = {line[2:].split(" = ")[0].split("  #")[0] for line in commented}
    for key in KNOWN_KEYS:
        described = key == "player" and "appends a player table" in text
        assert key in active or key in named or f"[{key}]" in text or described, f"{key} not written"
    plain = load(folder, need_players=False)
    assert (plain.digest.value, plain.leave_days, plain.reminders) == ("every-move", 0, ())
    head, _, _ = text.partition("\n\n# The players")
    for line in commented:  # each setting, uncommented alone, reads: the defaults shown are the defaults
        if line.startswith(("# name", "# address", "# Target", '# "r1-t1"')):
            continue
        setting = line[2:].split("  #")[0]
        changed = parse(head.replace(line, setting) + "\n", need_players=False)
        if setting.split(" = ")[0] in ("digest", "leave_days", "reminders"):
            assert changed == plain, setting
    tagged = parse(head.replace("# [tags]", "[tags]").replace('# Target = "15"', 'Target = "15"'), need_players=False)
    assert tagged.tags == (("Target", "15"),)
    games = parse(
        head.replace("# [notify_games]", "[notify_games]").replace('# "r1-t1"', '"r1-t1"'), need_players=False
    )
    assert games.notify_games == (("r1-t1", ("ntfy://ntfy.sh/my-topic",)),)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--game", "chess", "--players", "2"], "game: unknown game 'chess'"),
        (["--game", "numica", "--players", "4"], "players: numica is played by 2 players, not 4"),
        (["--game", "nika", "--players", "3"], "rounds: is required"),
        (["--game", "nika", "--players", "2", "--time-control", "forever"], "time_control: not a time control"),
        (["--game", "nika", "--players", "2", "--pairing", "cup"], "pairing: must be one of"),
    ],
)
def test_init_refuses_what_league_toml_would_refuse(tmp_path: Path, options: list[str], message: str) -> None:
    code, _, err = _run("init", str(tmp_path / "x"), *options)
    assert code == 2 and message in err and err.count("\n") == 1
    assert not (tmp_path / "x" / "league.toml").exists()


def test_add_checks_the_player_and_keeps_a_passphrase_hashed(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    _new_league(folder, "--game", "nika", "--players", "2", players=1)
    code, _, err = _run("add", str(folder), "bo@example.org", "--name", "Bo", "--key", stdin="correct horse\n")
    assert code == 0, err
    keys = load_keys(folder / "players.toml")
    assert keys is not None and verify(keys["bo@example.org"], "correct horse")
    assert stat.S_IMODE((folder / "players.toml").stat().st_mode) == 0o600
    assert "correct horse" not in (folder / "players.toml").read_text(encoding="utf-8")
    code, _, err = _run("add", str(folder), "ann@example.org", "--name", "Annie")
    assert code == 2 and "player[3].address: ann@example.org is already player 1's address" in err
    code, _, err = _run("add", str(folder), "not-an-address", "--name", "X")
    assert code == 2 and "not one e-mail address" in err
    code, _, err = _run("add", str(folder), "x@example.org", "--name", "X <y@z.org>")
    assert code == 2 and "a player's name is one line" in err
    assert (folder / "league.toml").read_text(encoding="utf-8").count("[[player]]") == 2
    code, _, err = _run("add", str(tmp_path / "nowhere"), "x@example.org", "--name", "X")
    assert code == 2 and "league.toml: no such file" in err


def test_pair_writes_the_games_and_refuses_while_a_round_is_being_played(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    _new_league(folder, "--game", "nika", "--players", "2", "--time-control", "3d+1d/7d")
    code, out, err = _run("pair", str(folder), "--now", NOW)
    assert code == 0, err
    assert out.splitlines()[:3] == ["club: round 1 paired", "r1-t1: Ann - Di", "r1-t2: Bo - Cy"]
    record = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    for tag in (
        '[Athens "Ann <ann@example.org>"]',
        '[Sparta "Di <di@example.org>"]',
        '[Messene "Ann <ann@example.org>"]',
        '[Thebes "Di <di@example.org>"]',
        '[Round "1"]',
        '[Table "1"]',
        '[TimeControl "3d+1d/7d"]',
        f'[Start "{NOW}"]',
    ):
        assert tag in record
    (verdict,) = [adjudicate(result).verdict for result in read_source(record.encode())]
    assert verdict.status == "ongoing"
    log = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert log == [
        {
            "event": "pairing",
            "at": NOW,
            "round": 1,
            "games": [
                {"game": "r1-t1", "seats": ["ann@example.org", "di@example.org"]},
                {"game": "r1-t2", "seats": ["bo@example.org", "cy@example.org"]},
            ],
            "byes": [],
            "bye_scores": False,
        }
    ]
    assert submit(folder / "r1-t1.rgn", "resign", now=PLAYED).exit_code == 0
    code, _, err = _run("pair", str(folder), "--now", NOW)
    assert code == 1 and "round 1 is still being played: r1-t2 not finished" in err
    assert not (folder / "r2-t1.rgn").exists()
    code, _, err = _run("add", str(folder), "late@example.org", "--name", "Late")
    assert code == 1 and "the season has begun" in err
    assert submit(folder / "r1-t2.rgn", "draw", now=PLAYED).exit_code == 0
    code, out, _ = _run("pair", str(folder), "--now", "2026-12-08T12:00:00Z")
    assert code == 0 and out.splitlines()[1:-1] == ["r2-t1: Di - Cy", "r2-t2: Ann - Bo"]
    assert '[Start "2026-12-08T12:00:00Z"]' in (folder / "r2-t1.rgn").read_text(encoding="utf-8")
    code, _, err = _run("pair", str(folder), "--now", "yesterday")
    assert code == 2 and "--now: not an instant" in err


def test_secret_dice_keep_their_keys_in_keys_mode_0600(tmp_path: Path) -> None:
    folder = tmp_path / "hex"
    _new_league(folder, "--game", "nieuchess", "--players", "2", players=2)
    code, out, err = _run("pair", str(folder), "--now", NOW)
    assert code == 0, err
    key = folder / "keys" / "r1-t1.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    seed = key.read_text(encoding="utf-8").strip()
    record = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    assert "[SeedHash " in record and "[Seed " not in record
    assert seed not in record and seed not in out and seed not in err
    assert seed not in (folder / "league.log").read_text(encoding="utf-8")
    code, out, err = _run("status", str(folder), "--json")
    assert code == 0 and seed not in out + err


def test_open_dice_write_a_seed(tmp_path: Path) -> None:
    folder = tmp_path / "open"
    folder.mkdir()
    (folder / "league.toml").write_text(
        'name = "Open"\ngame = "numica"\nplayers = 2\ndice = "open"\n[tags]\nEvent = "Club night"\nSite = "x"\n'
        '[[player]]\nname = "A"\naddress = "a@x.org"\n[[player]]\nname = "B"\naddress = "b@x.org"\n',
        encoding="utf-8",
    )
    assert _run("pair", str(folder), "--now", NOW)[0] == 0
    record = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    assert "[Seed " in record and not (folder / "keys").exists()
    assert '[Event "Club night"]' in record and '[Site "x"]' in record and '[Event "Open"]' not in record
    assert '[GameId "Open/r1-t1"]' in record  # PLAY.md §2: the league's name and the game's


def test_status_lists_every_game_and_names_an_illegal_one(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    _new_league(folder, "--game", "pikemen", "--players", "2", players=2)
    assert _run("pair", str(folder), "--now", NOW)[0] == 0
    code, out, _ = _run("status", str(folder))
    assert code == 0
    assert out.splitlines() == ["club: pikemen, round 1 of 1", "r1-t1: Red Ann, Blue Bo: Red (Ann) to move"]
    code, out, _ = _run("status", str(folder), "--json")
    status = json.loads(out)
    assert status["round"] == 1 and status["games"][0]["to_move_player"] == "ann@example.org"
    assert [seat["sides"] for seat in status["games"][0]["seats"]] == [["Red"], ["Blue"]]
    with (folder / "r1-t1.rgn").open("a", encoding="utf-8") as record:
        record.write("\n1. R: e1xe5\n")
    code, out, err = _run("status", str(folder))
    assert code == 1 and "r1-t1: illegal:" in err
    code, out, err = _run("standings", str(folder))
    assert code == 1 and "r1-t1: illegal:" in err and "Ann" in out
    code, out, err = _run("pair", str(folder), "--now", NOW)
    assert code == 1 and "r1-t1" in err


def test_a_busy_league_exits_75(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.league import folder as league

    folder = tmp_path / "club"
    _new_league(folder, "--game", "nika", "--players", "2", players=2)
    monkeypatch.setattr(league, "LOCK_WAIT", 0.1)
    with locked(folder / "league"):  # another league command holds DIR/league.lock
        code, _, err = _run("pair", str(folder), "--now", NOW)
    assert code == 75 and "busy" in err
    assert not (folder / "r1-t1.rgn").exists()


def test_swiss_pairs_round_two_by_points_then_rating(tmp_path: Path) -> None:
    folder = tmp_path / "swiss"
    _new_league(folder, "--game", "nika", "--players", "2", "--pairing", "swiss", "--rounds", "2", players=5)
    code, out, _ = _run("pair", str(folder), "--now", NOW)
    # round 1 in league.toml order; the fifth player is left over with a bye worth a point
    assert code == 0 and out.splitlines()[1:-1] == ["r1-t1: Ann - Bo", "r1-t2: Cy - Di", "bye: Ed"]
    assert submit(folder / "r1-t1.rgn", "resign", now=PLAYED).exit_code == 0  # Ann resigns: Bo wins
    assert submit(folder / "r1-t2.rgn", "resign", now=PLAYED).exit_code == 0  # Cy resigns: Di wins
    code, out, _ = _run("pair", str(folder), "--now", NOW)
    # Bo, Di and Ed have 1 point: Bo and Di won a rated game, Ed's bye changed no rating,
    # so Bo and Di rate above Ed; Bo before Di by league.toml order. Bo has not met Di.
    # Neither has sat first: the order gives Bo seat 1. Then Ed meets Ann (Cy is left over).
    assert code == 0 and out.splitlines()[1:-1] == ["r2-t1: Bo - Di", "r2-t2: Ed - Ann", "bye: Cy"]


def _sides_named(record: str, sides: dict[str, str]) -> None:
    """Each side's tag in `record` names the player of its address (named as `_new_league` names them)."""
    for side, address in sides.items():
        assert f'[{side} "{address.split("@")[0].title()} <{address}>"]' in record, side


def test_nika_with_three_players_alternates_the_alliance_of_seat_one(tmp_path: Path) -> None:
    folder = tmp_path / "nika3"
    _new_league(folder, "--game", "nika", "--players", "3", "--rounds", "2", players=3)
    paired = json.loads(_run("pair", str(folder), "--now", NOW, "--json")[1])
    first, second, third = paired["games"][0]["seats"]
    record = (folder / "r1-t1.rgn").read_text(encoding="utf-8")
    _sides_named(record, {"Athens": first, "Messene": first, "Sparta": second, "Thebes": third})
    assert submit(folder / "r1-t1.rgn", "resign", now=PLAYED).exit_code == 0
    paired = json.loads(_run("pair", str(folder), "--now", NOW, "--json")[1])
    first, second, third = paired["games"][0]["seats"]
    record = (folder / "r2-t1.rgn").read_text(encoding="utf-8")
    _sides_named(record, {"Sparta": first, "Thebes": first, "Athens": second, "Messene": third})
    assert '[Players "3"]' in record
    code, out, _ = _run("status", str(folder), "--json")
    seated = json.loads(out)["games"][1]["seats"]
    assert [seat["address"] for seat in seated] == [first, second, third], "players by seat"
    assert [seat["sides"] for seat in seated] == [["Sparta", "Thebes"], ["Athens"], ["Messene"]]


def test_pair_writes_each_player_a_mail_in_the_outbox(tmp_path: Path) -> None:
    from email import message_from_bytes, policy

    folder = tmp_path / "club"
    _new_league(folder, "--game", "nika", "--players", "2", "--time-control", "3d/move", players=3)
    code, out, err = _run("pair", str(folder), "--now", NOW, "--from", "gm@example.org", "--json")
    assert code == 0, err
    paired = json.loads(out)
    mails = [message_from_bytes(Path(path).read_bytes(), policy=policy.default) for path in paired["mails"]]
    assert sorted(Path(path).parent.name for path in paired["mails"]) == ["outbox"] * 3
    by_player = {str(mail["To"]): mail for mail in mails}
    assert set(by_player) == {"Ann <ann@example.org>", "Bo <bo@example.org>", "Cy <cy@example.org>"}
    game = paired["games"][0]
    first = game["seats"][0]
    name = first.split("@")[0].title()
    mail = by_player[f"{name} <{first}>"]
    assert mail["From"] == "referee <gm@example.org>" and mail["Subject"] == f"[{game['game']}] club"
    assert mail["Date"] == "Tue, 01 Dec 2026 12:00:00 +0000"
    body = mail.get_content()
    assert "You play Athens and Messene." in body and "Clock: 3d/move, from 2026-12-01 12:00 UTC." in body
    (bye,) = paired["byes"]
    bye_mail = by_player[f"{bye.split('@')[0].title()} <{bye}>"]
    assert "you have a bye this round, worth no point" in bye_mail.get_content()
    code, _, err = _run("pair", str(tmp_path / "club"), "--from", "not an address")
    assert code == 2 and "--from" in err


def test_the_league_folder_is_a_mail_gateways_games_folder(tmp_path: Path) -> None:
    # LEAGUE.md §1: `referee mail receive DIR` plays the league's games, with its keys.
    folder = tmp_path / "hex"
    _new_league(folder, "--game", "nieuchess", "--players", "2", players=2)
    assert _run("pair", str(folder), "--now", NOW)[0] == 0
    message = (
        "From: Ann <ann@example.org>\nTo: gm@example.org\nSubject: [r1-t1] my move\n"
        "Message-ID: <1@example.org>\n\nresign\n"
    )
    result = invoke(
        "mail",
        "receive",
        str(folder),
        "--keys",
        str(folder / "keys"),
        "--from",
        "gm@example.org",
        stdin=message.encode(),
    )
    assert result.exit_code == 0, result.stderr
    code, out, _ = _run("status", str(folder))
    assert code == 0 and "r1-t1: Red Ann, Blue Bo: Blue wins (resignation)" in out


def test_a_seven_player_swiss_meets_no_pair_twice_and_gives_no_second_bye(tmp_path: Path) -> None:
    # byes are read back from the game files (a player seated in no game of a round)
    folder = tmp_path / "swiss7"
    _new_league(folder, "--game", "nika", "--players", "2", "--pairing", "swiss", "--rounds", "5", players=7)
    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in range(1, 6):
        code, out, err = _run("pair", str(folder), "--now", NOW, "--json")
        assert code == 0, err
        paired = json.loads(out)
        for game in paired["games"]:
            pair = frozenset(game["seats"])
            assert pair not in met, f"round {number}: {sorted(pair)} meet again"
            met.add(pair)
            assert submit(folder / f"{game['game']}.rgn", "resign", now=PLAYED).exit_code == 0
        byes.extend(paired["byes"])
    assert len(byes) == 5 and len(set(byes)) == 5, byes


def _token(path: Path) -> str | None:
    return token_of(adjudicate(read_source(path.read_bytes())[0]))


def test_pair_names_each_game_by_the_league_and_the_game_so_their_tokens_differ(tmp_path: Path) -> None:
    folder = tmp_path / "autumn"
    options = ["--game", "nika", "--players", "2", "--name", "Autumn 2026"]
    assert _run("init", str(folder), *options)[0] == 0
    for name in ("Ann", "Bo", "Cy", "Di"):
        code, _, err = _run("add", str(folder), f"{name.lower()}@example.org", "--name", name)
        assert code == 0, err
    assert _run("pair", str(folder), "--now", NOW)[0] == 0
    games = sorted(folder.glob("r1-*.rgn"))
    assert [path.name for path in games] == ["r1-t1.rgn", "r1-t2.rgn"]
    for path in games:
        assert f'[GameId "Autumn 2026/{path.stem}"]\n' in path.read_text(encoding="utf-8")
    assert _token(games[0]) != _token(games[1])


def test_pair_says_how_many_mails_it_wrote_and_where_they_wait(tmp_path: Path) -> None:
    folder = tmp_path / "autumn"
    _new_league(folder, "--game", "pikemen", "--players", "2", "--rounds", "1", players=3)
    code, out, err = _run("pair", str(folder), "--now", NOW, "--from", "gm@example.org")
    assert code == 0, err
    mails = sorted((folder / "outbox").glob("*.eml"))
    assert len(mails) == 3  # two players of r1-t1 and the bye
    assert out.splitlines()[-1] == f"mails: 3 into {folder / 'outbox'} (league tick --smtp sends them)"


def test_status_shows_the_time_left_at_now_and_a_deadline_passed(tmp_path: Path) -> None:
    folder = tmp_path / "autumn"
    _new_league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+1d", players=2)
    assert _run("pair", str(folder), "--now", NOW)[0] == 0
    code, out, err = _run("status", str(folder), "--now", "2026-12-02T11:30:00Z")
    assert code == 0, err
    assert "to move, deadline 2026-12-04T12:00:00Z (2d30m left)" in out, out
    code, out, _ = _run("status", str(folder), "--now", "2026-12-05T12:00:00Z")
    assert code == 0 and "deadline 2026-12-04T12:00:00Z (passed: tick writes the time-out)" in out, out
    code, out, _ = _run("status", str(folder), "--now", "2026-12-03T12:00:00Z", "--json")
    status = json.loads(out)
    assert code == 0 and status["now"] == "2026-12-03T12:00:00Z" and status["games"][0]["left"] == 86400
    code, _, err = _run("status", str(folder), "--now", "tomorrow")
    assert code == 2 and "--now" in err and len(err.strip().splitlines()) == 1
