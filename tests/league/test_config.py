"""`league.toml` read strictly (LEAGUE.md §1): every key of the spec's example, and every
inconsistency a usage error (exit 2) naming the key and what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.league.league_toml import Dice, Digest, LeagueConfigError, Pairing, parse
from referee.notation.timing import DAY, HOUR
from tests.helpers.cli import invoke

PLAYERS = """
[[player]]
name = "Ann"
address = "ann@example.org"

[[player]]
name = "Bo"
address = "Bo@Example.org"

[[player]]
name = "Cy"
address = "cy@example.org"

[[player]]
name = "Di"
address = "di@example.org"
"""

SPEC_EXAMPLE = (
    """
name = "Autumn 2026"
game = "pikemen"          # any game of `referee games`
players = 4               # players per game (the game's player counts)
variant = "standard"
time_control = "7d+1d/14d"
pairing = "round-robin"
rounds = 5
dice = "secret"
reminders = ["12h", "48h"]
digest = "daily"
leave_days = 21

[tags]
Target = "15"
"""
    + PLAYERS
)


def test_the_spec_example_is_read_whole() -> None:
    config = parse(SPEC_EXAMPLE)
    assert (config.name, config.game, config.players_per_game, config.variant) == (
        "Autumn 2026",
        "pikemen",
        4,
        "standard",
    )
    assert str(config.time_control) == "7d+1d/14d"
    assert config.pairing is Pairing.ROUND_ROBIN and config.rounds == 5 and config.is_groups
    assert config.dice is Dice.SECRET and config.digest is Digest.DAILY and config.leave_days == 21
    assert config.reminders == (2 * DAY, 12 * HOUR), "the largest threshold first"
    assert config.tags == (("Target", "15"),)
    assert [p.tag for p in config.players] == [
        "Ann <ann@example.org>",
        "Bo <bo@example.org>",
        "Cy <cy@example.org>",
        "Di <di@example.org>",
    ]
    assert [p.number for p in config.players] == [1, 2, 3, 4]
    assert config.player("BO@example.org") is config.players[1]
    assert repr(config) == (
        "LeagueConfig('Autumn 2026', pikemen, 4 per game, round-robin, rounds=5, time_control=7d+1d/14d, 4 players)"
    )
    assert repr(config.players[0]) == "LeaguePlayer(1, 'Ann <ann@example.org>')"


def test_defaults_of_a_minimal_league() -> None:
    config = parse('name = "Club"\ngame = "numica"\nplayers = 2\n' + PLAYERS)
    assert config.pairing is Pairing.ROUND_ROBIN and config.rounds is None and not config.is_groups
    assert config.time_control is None and config.dice is Dice.SECRET and config.digest is Digest.EVERY_MOVE
    assert config.reminders == () and config.leave_days == 0 and config.variant is None


BASE = 'name = "Club"\ngame = "pikemen"\nplayers = 2\n'


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        (BASE + "colour = 'red'\n" + PLAYERS, "colour", "unknown key"),
        ('name = "Club"\ngame = "chess"\nplayers = 2\n' + PLAYERS, "game", "unknown game 'chess'"),
        ('name = "Club"\ngame = "numica"\nplayers = 3\n' + PLAYERS, "players", "numica is played by 2 players, not 3"),
        ('name = "Club"\ngame = "nika"\nplayers = 5\n' + PLAYERS, "players", "not 5"),
        ('name = "Club"\ngame = "nika"\nplayers = "4"\n' + PLAYERS, "players", "must be a whole number"),
        ('name = "Club"\ngame = "nika"\nplayers = true\n' + PLAYERS, "players", "must be a whole number"),
        ('game = "nika"\nplayers = 2\n' + PLAYERS, "name", "is required"),
        ('name = ""\ngame = "nika"\nplayers = 2\n' + PLAYERS, "name", "non-empty line"),
        ('name = "Club"\nplayers = 2\n' + PLAYERS, "game", "is required"),
        (BASE + 'variant = "warpspawn"\n' + PLAYERS, "variant", "pikemen has the variants standard"),
        (BASE + 'time_control = "7 days"\n' + PLAYERS, "time_control", "not a time control"),
        (BASE + "time_control = 7\n" + PLAYERS, "time_control", "must be a string"),
        (BASE + 'pairing = "ladder"\n' + PLAYERS, "pairing", '"double-round-robin", "swiss", "knockout"'),
        (BASE + 'pairing = "swiss"\n' + PLAYERS, "rounds", "is required"),
        ('name = "C"\ngame = "pikemen"\nplayers = 3\n' + PLAYERS, "rounds", "is required"),
        (
            'name = "C"\ngame = "pikemen"\nplayers = 3\nrounds = 2\npairing = "double-round-robin"\n' + PLAYERS,
            "pairing",
            "for two-player games",
        ),
        (BASE + "rounds = 0\n" + PLAYERS, "rounds", "at least 1"),
        (BASE + "rounds = 4\n" + PLAYERS, "rounds", "a round-robin of 4 players has 3 rounds, not 4"),
        (BASE + 'dice = "loaded"\n' + PLAYERS, "dice", '"secret", "open"'),
        (BASE + 'digest = "weekly"\n' + PLAYERS, "digest", '"daily", "every-move"'),
        (BASE + "leave_days = -1\n" + PLAYERS, "leave_days", "at least 0"),
        (BASE + 'reminders = "48h"\n' + PLAYERS, "reminders", "must be a list"),
        (BASE + 'reminders = ["2 days"]\n' + PLAYERS, "reminders", "not a duration"),
        (BASE + 'reminders = ["0m"]\n' + PLAYERS, "reminders", "some time before a deadline"),
        (BASE + 'reminders = ["12h", "720m"]\n' + PLAYERS, "reminders", "given twice"),
        (BASE + '[tags]\nRound = "3"\n' + PLAYERS, "tags.Round", "the league writes this tag itself"),
        (BASE + '[tags]\nRed = "Ann"\n' + PLAYERS, "tags.Red", "the league writes this tag itself"),
        (BASE + '[tags]\n"Bad-Tag" = "x"\n' + PLAYERS, "tags.Bad-Tag", "letters, digits and _"),
        (BASE + '[tags]\nEvent = "two\\nlines"\n' + PLAYERS, "tags.Event", "one non-empty line"),
        (BASE + PLAYERS.replace("cy@example.org", "ann@example.org"), "player[3].address", "already player 1"),
        (BASE + PLAYERS.replace("cy@example.org", "ANN@example.ORG"), "player[3].address", "already player 1"),
        (BASE + PLAYERS.replace('"Cy"', '"ann"'), "player[3].name", "already player 1's name"),
        (BASE + PLAYERS.replace('"Cy"', '"Cy <x@y.z>"'), "player[3].name", "a player's name is one line"),
        (BASE + PLAYERS.replace("cy@example.org", "not an address"), "player[3].address", "not one e-mail address"),
        (BASE + PLAYERS + "rating = 1500\n", "player[4].rating", "unknown key"),
        (BASE + '[[player]]\nname = "Ann"\n', "player[1].address", "is required"),
        (BASE + "player = 3\n", "player", "must be [[player]] tables"),
        (
            'name = "C"\ngame = "pikemen"\nplayers = 4\nrounds = 3\n' + PLAYERS.split('[[player]]\nname = "Di"')[0],
            "player",
            "3 players, fewer than the 4 a game of pikemen needs",
        ),
        (
            'name = "C"\ngame = "nika"\nplayers = 2\n' + PLAYERS.split('[[player]]\nname = "Bo"')[0],
            "player",
            "1 player, fewer than the 2 a game of nika needs",
        ),
        ("name = [", "", "not TOML"),
    ],
)
def test_an_inconsistent_league_names_the_key(text: str, key: str, message: str) -> None:
    with pytest.raises(LeagueConfigError) as caught:
        parse(text, "autumn/league.toml")
    assert caught.value.key == key
    assert message in caught.value.message
    assert str(caught.value).startswith(f"autumn/league.toml: {key}: " if key else "autumn/league.toml: ")


def test_a_command_on_a_bad_league_exits_2_with_one_line_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "league.toml").write_text('name = "C"\ngame = "pikemen"\nplayers = 7\n', encoding="utf-8")
    for command in ("status", "standings", "pair"):
        result = invoke("league", command, str(tmp_path))
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1
        assert "league.toml: players: pikemen is played by 2, 3 or 4 players, not 7" in result.stderr
    missing = invoke("league", "status", str(tmp_path / "nowhere"))
    assert missing.exit_code == 2 and "no such file" in missing.stderr


@pytest.mark.parametrize("name", ["Ed (x", "Lu (a) (b", "a)b(", "Cy )"])
def test_a_name_whose_side_tag_names_no_address_is_refused(tmp_path: Path, name: str) -> None:
    """`Ed (x <ed@x.org>` reads as no address at all: the player's moves would be dropped
    as a stranger's. Refused, exit 2, one line saying why; league.toml unchanged."""
    folder = tmp_path / "league"
    assert invoke("league", "init", str(folder), "--game", "numica", "--players", "2").exit_code == 0
    before = (folder / "league.toml").read_text()
    done = invoke("league", "add", str(folder), "ed@x.org", "--name", name)
    assert done.exit_code == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "--name" in done.stderr and repr(name) in done.stderr
    assert (folder / "league.toml").read_text() == before


@pytest.mark.parametrize("name", ["Ann: the great", "Bo {x}", "Kim [k]", "Ed (nick)", "Zoë: ü", "{Di}:"])
def test_every_accepted_name_reads_back_from_its_side_tag(name: str) -> None:
    """What `league add` accepts, the gateway's address parser reads back from the side
    tag as that player, with the name unchanged."""
    from referee.league.league_toml import checked_name, side_tag
    from referee.live.addresses import addresses_in

    assert checked_name(name) == name
    assert addresses_in(side_tag(name, "ann@x.org")) == [("ann@x.org", name)]


def test_a_hand_written_league_toml_with_a_broken_name_is_a_usage_error() -> None:
    text = 'name = "L"\ngame = "numica"\nplayers = 2\n\n[[player]]\nname = "Ed (x"\naddress = "ed@x.org"\n'
    text += '\n[[player]]\nname = "Bo"\naddress = "bo@x.org"\n'
    with pytest.raises(LeagueConfigError) as error:
        parse(text, "league.toml")
    assert error.value.key == "player[1].name"
