"""`referee new` never writes a record that `check` rejects (issue 8, point 6): it refuses,
with exit 2 and one clear line, whatever would make the record malformed or its claim
wrong; and whatever it does write, `check` accepts."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import UsageError
from referee.games import registry
from referee.judge.core.adjudicate import adjudicate, read_source
from referee.judge.services import new_record
from tests.helpers.cli import invoke


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["numica", "--tag", "Game=nika"], "cannot set the Game tag"),
        (["nika", "--players", "3", "--tag", "Players=4"], "--tag Players=4 contradicts --players 3"),
        (["nika", "--tag", "Players=5"], 'nika is played by 2, 3 or 4 players, not "5"'),
        (["numica", "--tag", "Players=5"], 'numica is played by 2 players, not "5"'),
        (["pikemen", "--tag", "Players=²"], 'pikemen is played by 2, 3 or 4 players, not "²"'),
        (["nieuchess", "--tag", "Position=R:zz9"], "the Position tag would make the record malformed"),
        (["pikemen", "--tag", "Position=nonsense"], "the Position tag would make the record malformed"),
        (["nika", "--tag", "Bad-Name=x"], 'a tag name is letters, digits and _ only, not "Bad-Name"'),
        (["nika", "--tag", "Bad\nName=x"], 'a tag name is letters, digits and _ only, not "Bad\\u000aName"'),
        (["nieuchess", "--seed", "two\nlines"], "--seed: a tag value must stay on one line"),
        (["nika", "--tag", "=x"], 'a tag name is letters, digits and _ only, not ""'),
        (["nika", "--tag", "Event=two\nlines"], "a tag value must stay on one line"),
        (["nika", "--tag", "Event=two\u2028lines"], "a tag value must stay on one line"),
        (["nika", "--tag", "Event"], "--tag takes NAME=VALUE"),
        (["nika", "--tag", "Event=a", "--tag", "Event=b"], "--tag Event is given twice"),
        (["numica", "--seed", ""], "--seed needs a value"),
        (["numica", "--seed", "  "], "--seed needs a value"),
        (["numica", "--tag", "Seed="], "--tag Seed needs a value"),
        (["numica", "--seed", "a", "--tag", "Seed=b"], '--tag Seed="b" contradicts --seed "a"'),
        (["pikemen", "--first", "Yellow"], '"Yellow" is not a side of this pikemen game: choose one of Red, Blue'),
        (["nieuchess", "--first", "Green"], '"Green" is not a side of this nieuchess game'),
        (["nika", "--first", "Sparta"], "in nika the rules say who moves first"),
        (["numica", "--first", "Red"], "in numica the rules say who moves first"),
        (["numica", "--tag", "First=Blue"], "in numica the rules say who moves first"),
        (["numica", "--tag", "Result=Red"], 'the Result tag claims "Red"'),
        (["numica", "--tag", "Variant=giant"], "the Variant tag would make the record malformed"),
        (["nika", "--players", "7"], "nika is played by 2, 3 or 4 players, not 7"),
        (["chess"], 'unknown game "chess"'),
    ],
)
def test_new_refuses_what_check_would_reject(args: list[str], message: str) -> None:
    result = invoke("new", *args)
    assert result.exit_code == 2, result.output
    assert result.output.count("\n") == 1 and message in result.output


def test_new_writes_first_only_for_games_that_let_players_choose() -> None:
    pikemen = invoke("new", "pikemen", "--players", "3", "--first", "y")
    assert pikemen.exit_code == 0 and '[First "Yellow"]' in pikemen.output
    for game in ("nika", "numica"):
        assert "First" not in invoke("new", game).output


def test_new_accepts_consistent_repetitions_and_reads_players_from_a_tag() -> None:
    result = invoke("new", "pikemen", "--players", "4", "--tag", "Players=4", "--first", "Green", "--id", "p")
    assert result.output == '[Game "pikemen"]\n[Players "4"]\n[First "Green"]\n[GameId "p"]\n'
    tagged = invoke("new", "nika", "--tag", "Players=3", "--tag", "Sparta=Bo", "--tag", "GameId=n")
    assert tagged.output == '[Game "nika"]\n[Players "3"]\n[Sparta "Bo"]\n[GameId "n"]\n'
    claimed = invoke("new", "numica", "--seed", "s", "--tag", "Result=*", "--id", "u", "--tag", "GameId=u")
    assert claimed.output == '[Game "numica"]\n[Seed "s"]\n[GameId "u"]\n[Result "*"]\n'


def checks_as_legal(text: str) -> None:
    results = read_source(text.encode("utf-8"))
    assert len(results) == 1, text
    verdict = adjudicate(results[0]).verdict
    assert verdict.legal and verdict.status == "ongoing", (text, verdict)


TAG_NAMES = st.one_of(
    st.sampled_from(
        ["Players", "Seed", "First", "Position", "Result", "Variant", "SeedHash", "Tiles", "Event", "Red", "Game"]
    ),
    st.text(string.ascii_letters + string.digits + "_-. é", min_size=0, max_size=8),
)
TAG_VALUES = st.one_of(
    st.sampled_from(["2", "3", "4", "5", "*", "Red", "Blue", "Yellow", "draw", "standard", "warpspawn", "x", ""]),
    st.text(max_size=12),
)
HOSTILE_TAGS = st.tuples(TAG_NAMES, TAG_VALUES)
FREE_TAGS = st.tuples(
    st.sampled_from(["Event", "Site", "Date", "Round", "Annotator", "Red", "Blue", "Athens", "Custom_1", "Result"]),
    st.text(st.characters(blacklist_categories=("Cc", "Zl", "Zp", "Cs")), max_size=12) | st.just("*"),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(list(registry.GAMES)),
    players=st.none() | st.sampled_from([2, 3, 4]) | st.integers(min_value=0, max_value=5),
    seed=st.none() | st.text(string.ascii_letters + string.digits, min_size=1, max_size=6) | st.text(max_size=6),
    first=st.none() | st.sampled_from(["Red", "Blue", "Yellow", "Green", "Athens", "r", "b", "Nobody"]),
    tags=st.lists(st.one_of(FREE_TAGS, FREE_TAGS, HOSTILE_TAGS).map("=".join), max_size=3),
)
def test_whatever_new_writes_check_accepts(
    game: str, players: int | None, seed: str | None, first: str | None, tags: list[str]
) -> None:
    try:
        text = new_record.new_record(game, players, seed, first, tags)
    except UsageError as error:
        assert str(error) and "\n" not in str(error)
        return
    checks_as_legal(text)


def test_every_game_and_player_count_with_every_first_side_checks() -> None:
    for info in registry.GAMES.values():
        for players in info.player_counts:
            firsts = info.sides_for(players) if info.first_choice else (None,)
            for first in firsts:
                checks_as_legal(new_record.new_record(info.name, players, None, first, ["Event=Club night"]))


# -- GameId (PLAY.md §2: a token names its game) ------------------------------------------------


def test_new_names_its_game_with_a_fresh_random_id_or_the_one_given() -> None:
    drawn = [invoke("new", "nika").output for _ in range(2)]
    ids = [re.search(r'\[GameId "([0-9a-f]{16})"\]\n', text) for text in drawn]
    assert ids[0] is not None and ids[1] is not None and ids[0].group(1) != ids[1].group(1)
    given = invoke("new", "nika", "--id", "autumn/r1-t1", "--tag", "Event=Autumn")
    assert given.output == '[Game "nika"]\n[GameId "autumn/r1-t1"]\n[Event "Autumn"]\n'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--id", ""], "--id takes 1 to 200 characters"),
        (["--id", "x" * 201], "--id takes 1 to 200 characters"),
        (["--id", "a\nb"], "printable text on one line"),
        (["--id", "a", "--tag", "GameId=b"], 'contradicts --id "a"'),
    ],
)
def test_new_refuses_an_id_it_cannot_write(args: list[str], message: str) -> None:
    result = invoke("new", "nika", *args)
    assert result.exit_code == 2 and result.output.count("\n") == 1 and message in result.output


def test_new_refuses_a_game_some_of_whose_sides_have_no_address_unless_forced(tmp_path: Path) -> None:
    """Issue 45.7: `new nika --players 2` with two side tags left Messene and Thebes without
    an address, and by mail the game stalled at Messene's turn."""
    ann, bo = "Ann <ann@example.org>", "Bo <bo@example.org>"
    half = ["nika", "--players", "2", "--tag", f"Athens={ann}", "--tag", f"Sparta={bo}", "--id", "g"]
    refused = invoke("new", *half)
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert "Messene, Thebes would have no player's address while Athens, Sparta have one" in refused.stderr
    assert "stall at Messene's turn" in refused.stderr
    assert "a player holds Athens and Messene or Sparta and Thebes" in refused.stderr
    # a Players tag counts as --players; four players name every city
    tagged = invoke("new", "nika", "--tag", "Players=4", "--tag", f"Athens={ann}", "--id", "g")
    assert tagged.exit_code == 2 and "Sparta, Messene, Thebes would have no player's address" in tagged.stderr
    forced = invoke("new", *half, "--force")
    assert forced.exit_code == 0 and '[Athens "Ann <ann@example.org>"]' in forced.stdout
    whole = invoke("new", *half, "--tag", f"Messene={ann}", "--tag", f"Thebes={bo}")
    assert whole.exit_code == 0 and '[Thebes "Bo <bo@example.org>"]' in whole.stdout
    # names without addresses, or no tags at all: no mail game, nothing to check
    assert invoke("new", "nika", "--players", "2", "--tag", "Athens=Ann", "--id", "g").exit_code == 0
    assert invoke("new", "pikemen", "--id", "g").exit_code == 0
    # the secret dice path is checked too, before any key file is written
    key = tmp_path / "g.key"
    secret = invoke("new", "nieuchess", "--tag", f"Red={ann}", "--secret", str(key))
    assert secret.exit_code == 2 and "would have no player's address" in secret.stderr
    assert not key.exists()
