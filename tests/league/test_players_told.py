"""What a league's players are told (docs/league.md, "What players get"): pairing mails with
who moves first, the board, the token and how to answer (Key/Token in a keyed league);
results that name players; places of games of more than two ("3rd of 4"); the revealed
record attached; the season's end naming the champion, once."""

from __future__ import annotations

import json
from email.message import EmailMessage
from fractions import Fraction
from pathlib import Path

from referee.league.results import GameResult, Seat, named, placing
from referee.league.site.pages import outcome_for
from referee.live.play import submit
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke
from tests.helpers.league import make_league
from tests.helpers.mail import outbox_messages, plain_text

START = "2026-12-01T12:00:00Z"


def _league(folder: Path, *options: str, names: str = "Ann Bo") -> None:
    make_league(folder, *options, names=names)


def _outbox(folder: Path) -> list[EmailMessage]:
    """Every mail in the outbox, which is then emptied."""
    return outbox_messages(folder / "outbox", take=True)


def _to(message: EmailMessage) -> str:
    return str(message["To"].addresses[0].addr_spec)


def test_a_pairing_mail_says_who_moves_first_and_shows_the_board_and_the_token(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "--game", "pikemen", "--players", "2", "--time-control", "3d+0m")
    code, out, err = invoke("league", "pair", str(folder), "--now", START, "--from", "gm@example.org", "--json")
    assert code == 0, err
    token = json.loads(invoke("check", "--json", str(folder / "r1-t1.rgn"))[1])["token"]
    mails = {_to(mail): mail for mail in _outbox(folder)}
    ann, bo = plain_text(mails["ann@example.org"]), plain_text(mails["bo@example.org"])
    assert mails["ann@example.org"].get_content_type() == "text/plain", "one text part: any reader reads it"
    assert "You play Red." in ann and "You move first (Red).\n" in ann
    assert "You play Blue." in bo and "Ann (Red) moves first.\n" in bo
    for body in (ann, bo):
        assert f"  Token: {token}\n" in body and "keeping [r1-t1] in the Subject" in body
        assert "Key:" not in body  # no players.toml: no passphrase
    board = invoke("show", str(folder / "r1-t1.rgn"))[1]
    assert any(line.strip() and line in ann for line in board.splitlines()[1:4]), "the board, as show draws it"


def test_a_keyed_league_tells_every_player_the_key_and_token_lines(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    code, _, err = invoke("league", "init", str(folder), "--name", "T", "--game", "nika", "--players", "2")
    assert code == 0, err
    for name in ("Ann", "Bo"):
        code, _, err = invoke(
            "league", "add", str(folder), f"{name.lower()}@example.org", "--name", name, "--key", stdin=f"{name} pass\n"
        )
        assert code == 0, err
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    token = json.loads(invoke("check", "--json", str(folder / "r1-t1.rgn"))[1])["token"]
    for mail in _outbox(folder):
        body = plain_text(mail)
        assert f"Write these lines above your moves:\n  Key: your passphrase\n  Token: {token}\n" in body


def test_results_name_the_players_and_places_past_second_are_said(tmp_path: Path) -> None:
    seats = (
        Seat(("Athens", "Messene"), "ann@example.org", "Ann"),
        Seat(("Sparta", "Thebes"), "bo@example.org", "Bo"),
    )
    nika = GameResult("r1-t1", 1, 1, "finished", seats, "Athens and Messene win (resignation) after 3 turns")
    assert named(nika) == "Ann (Athens, Messene) win (resignation) after 3 turns"
    two = GameResult("r1-t1", 1, 1, "finished", (Seat(("Blue",), "b@x.org", "Bo"),), "Blue wins (time)")
    assert named(two) == "Bo (Blue) wins (time)"
    four = GameResult("r1-t1", 1, 1, "finished", (), "", teams=(("a",), ("b",), ("c",), ("d",)), places=(1, 2, 3, 3))
    assert placing(four, "c") == "shared 3rd of 4" and placing(four, "b") == "2nd of 4"
    assert outcome_for(four, "b") == ("2nd of 4", Fraction(0)) and outcome_for(four, "a")[0] == "win"
    pair = GameResult("r1-t1", 1, 1, "finished", (), "", teams=(("a",), ("b",)), places=(1, 2))
    assert placing(pair, "b") is None and outcome_for(pair, "b")[0] == "loss"


def test_the_reveal_attaches_the_record_and_the_season_end_names_the_champion_once(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "--game", "numica", "--players", "2", "--time-control", "1d+0m", names="Ann Bo Cy")
    # three players, two-player games: a round robin of 3 rounds, one bye each
    for number in (1, 2, 3):
        code, out, err = invoke("league", "pair", str(folder), "--now", START, "--json")
        assert code == 0, err
        (game,) = json.loads(out)["games"]
        _outbox(folder)
        assert submit(folder / f"{game['game']}.rgn", "resign", now=parse_instant(START) + 600 * number).exit_code == 0
        code, out, err = invoke("league", "tick", str(folder), "--now", "2026-12-01T13:00:00Z", "--json")
        assert code == 0, err
        ticked = json.loads(out)
        mails = _outbox(folder)
        reveals = [mail for mail in mails if str(mail["Subject"]) == f"[{game['game']}] seed revealed"]
        assert len(reveals) == 2
        for mail in reveals:
            (attached,) = list(mail.iter_attachments())
            assert attached.get_filename() == f"{game['game']}.rgn"
            assert attached.get_content() == (folder / f"{game['game']}.rgn").read_text(encoding="utf-8")
            assert "[Seed " in attached.get_content()
            winner = game["seats"][1].split("@")[0].title()  # the first seat (Red) resigned
            assert f"is over: {winner} (Blue) wins (resignation)" in plain_text(mail), "the result names the player"
        over = [mail for mail in mails if "season is over" in str(mail["Subject"])]
        if number < 3:
            assert over == [] and ticked["season_over"] is None
    assert sorted(_to(mail) for mail in over) == ["ann@example.org", "bo@example.org", "cy@example.org"]
    table = json.loads(invoke("league", "standings", str(folder), "--json")[1])
    champion = table["rows"][0]
    assert ticked["season_over"]["champions"] == [champion["address"]]
    for mail in over:
        assert f"champion {champion['player']}" in str(mail["Subject"])
        text = plain_text(mail)
        assert f"The champion: {champion['player']}, with" in text and "Final standings:" in text
    code, out, _ = invoke("league", "tick", str(folder), "--now", "2026-12-09T13:00:00Z", "--json")
    assert json.loads(out)["season_over"] is None and _outbox(folder) == [], "once"


def test_what_the_game_master_writes_with_play_is_mailed_to_the_players(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2", "--time-control", "3d+0m")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    _outbox(folder)
    game = str(folder / "r1-t1.rgn")
    code, _, err = invoke("play", game, "--grant", "Sparta=1m", "--now", "2026-12-01T12:30:00Z")
    # off unless league.toml says tell_players: only the new token, to the player to move (issue 45.1)
    assert code == 0 and "told" not in err, "off unless league.toml says tell_players"
    assert ["your move: the token is now" in str(mail["Subject"]) for mail in _outbox(folder)] == [True]
    toml = folder / "league.toml"
    head, _, players = toml.read_text(encoding="utf-8").partition("\n[[player]]")
    toml.write_text(f"{head}\ntell_players = true\n\n[[player]]{players}", encoding="utf-8")
    code, _, err = invoke("play", game, "d1-W d2-W", "--as", "Athens", "--now", "2026-12-01T13:00:00Z")
    assert code == 0 and _outbox(folder) == [] and "told" not in err, "a player's own move: not mailed here"
    code, _, err = invoke("play", game, "undo", "--now", "2026-12-01T14:00:00Z")
    assert code == 0 and "told 2 players of r1-t1" in err
    mails = _outbox(folder)
    assert sorted(_to(mail) for mail in mails) == ["ann@example.org", "bo@example.org"]
    for mail in mails:
        assert str(mail["Subject"]) == "[r1-t1] T: the game master wrote undo"
        body = plain_text(mail)
        assert "the last turn is taken back: 1. W: d1-W d2-W" in body and "next: Ann (Athens) to move" in body
    code, _, err = invoke("play", game, "--grant", "Sparta=1d", "--now", "2026-12-01T15:00:00Z")
    subjects = sorted(str(m["Subject"]) for m in _outbox(folder))
    new_token = [subject for subject in subjects if "your move: the token is now" in subject]
    assert code == 0 and len(new_token) == 1  # and the new token to the player to move (issue 45.1)
    assert [subject for subject in subjects if subject not in new_token] == [
        "[r1-t1] T: the game master wrote a grant of Sparta=1d"
    ] * 2
    kept = toml.read_text(encoding="utf-8")
    toml.write_text("name = 1\n", encoding="utf-8")  # a broken league.toml: the grant stands, nobody is told
    code, _, err = invoke("play", game, "--grant", "Sparta=1h", "--now", "2026-12-01T15:30:00Z")
    assert code == 0 and "the players were not told:" in err and "Traceback" not in err
    assert all("your move: the token is now" in str(m["Subject"]) for m in _outbox(folder))
    toml.write_text(kept, encoding="utf-8")
    code, _, err = invoke("play", game, "draw", "--now", "2026-12-01T16:00:00Z")
    assert code == 0
    assert all("Game over: " in plain_text(mail) and "draw" in plain_text(mail) for mail in _outbox(folder))


def test_a_grant_by_hand_on_a_spanish_leagues_game_is_mailed_in_spanish(tmp_path: Path) -> None:
    """`play --grant` run by the game master on a game of a Spanish league: the mover's new
    token and the players' mails about the grant are in the league's language (issue 49),
    as when the league itself writes a grant."""
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2", "--time-control", "3d+0m")
    toml = folder / "league.toml"
    head, _, players = toml.read_text(encoding="utf-8").partition("\n[[player]]")
    toml.write_text(f'{head}\nlang = "es"\ntell_players = true\n\n[[player]]{players}', encoding="utf-8")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    _outbox(folder)
    code, _, err = invoke("play", str(folder / "r1-t1.rgn"), "--grant", "Sparta=1d", "--now", "2026-12-01T15:00:00Z")
    assert code == 0 and "told 2 players of r1-t1" in err
    subjects = sorted(str(mail["Subject"]) for mail in _outbox(folder))
    assert [subject for subject in subjects if "le toca mover: el token es ahora" in subject] != []
    assert [subject for subject in subjects if "director de juego" in subject] == [
        "[r1-t1] T: el director de juego escribió una concesión de Sparta=1d"
    ] * 2
    assert not [subject for subject in subjects if "your move" in subject or "the game master" in subject]


def test_passphrases_are_listed_issued_mailed_each_to_its_player_and_a_partial_set_warned(tmp_path: Path) -> None:
    from referee.live.mail.players import load_keys, verify

    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2", names="Ann Bo")
    code, _, err = invoke("league", "add", str(folder), "cy@example.org", "--name", "Cy", "--key", stdin="cy words\n")
    assert code == 0 and "added the key of cy@example.org" in err
    assert "holds no passphrase for 2 players," in err and "Ann <ann@example.org>, Bo <bo@example.org>" in err
    code, out, _ = invoke("league", "passphrases", str(folder), "--list")
    assert code == 0 and out.splitlines() == [
        "has a passphrase: cy@example.org",
        "has none: ann@example.org",
        "has none: bo@example.org",
        f"warning: 2 players without a passphrase cannot play by mail: referee league passphrases {folder} --issue",
    ]
    code, _, err = invoke("league", "pair", str(folder), "--now", START)
    assert code == 0 and "holds no passphrase for 2 players," in err
    _outbox(folder)
    code, out, _ = invoke("league", "passphrases", str(folder), "--issue", "--now", START, "--from", "gm@example.org")
    assert code == 0 and out.splitlines() == [
        f"issued a passphrase to Ann <ann@example.org> (mailed into {folder / 'outbox'})",
        f"issued a passphrase to Bo <bo@example.org> (mailed into {folder / 'outbox'})",
    ]
    keys = load_keys(folder / "players.toml")
    assert keys is not None and set(keys) == {"ann@example.org", "bo@example.org", "cy@example.org"}
    issued = {}
    for mail in _outbox(folder):
        body = plain_text(mail)
        line = next(line for line in body.splitlines() if line.startswith("  Key: "))
        issued[_to(mail)] = line.removeprefix("  Key: ")
        assert str(mail["Subject"]) == "T: your passphrase" and len(mail["To"].addresses) == 1
    assert (
        set(issued) == {"ann@example.org", "bo@example.org"} and issued["ann@example.org"] != issued["bo@example.org"]
    )
    assert all(verify(keys[address], phrase) for address, phrase in issued.items())
    assert invoke("league", "passphrases", str(folder), "--issue", "--now", START)[1] == (
        "every player has a passphrase: nothing issued\n"
    )
    assert "warning" not in invoke("league", "passphrases", str(folder), "--list")[1]
    assert invoke("league", "passphrases", str(folder))[0] == 2


def test_add_player_refuses_an_address_no_game_names(tmp_path: Path) -> None:
    folder = tmp_path / "lg"
    _league(folder, "--game", "nika", "--players", "2", names="Ann Bo")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    code, _, err = invoke("mail", "add-player", str(folder), "eve@example.org", stdin="x\n")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no game in" in err
    assert not (folder / "players.toml").exists()
    code, _, err = invoke("mail", "add-player", str(folder), "ann@example.org", stdin="ann words\n")
    assert code == 0 and "added the key of ann@example.org" in err
    assert "holds no passphrase for 1 player, whose mails will all be refused until they have one: Bo" in err
