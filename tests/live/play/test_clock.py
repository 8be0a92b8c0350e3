"""Clocks in live games (TIME.md §4-5): `new --time-control`, `play --now` stamping every
submission, refusing a flagged side, writing `timeout` and `--grant`; Pikemen sides that
time out in turn; a Nieuchess battle's roll and choice; random timed playouts checked
against a clock computed here from the stamps; `format` keeping every stamp."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from referee.errors import UsageError
from referee.judge import session
from referee.judge.core import verdict_words as render
from referee.judge.runners.batch_check import check_text
from referee.notation.timing import format_instant, parse_instant, spoken_duration, spoken_instant
from tests.helpers.cli import invoke
from tests.helpers.play import play

START = "2026-12-01T12:00:00Z"


def verdict(path: Path) -> dict[str, Any]:
    fields: dict[str, Any] = render.verdict_fields(check_text(path.read_bytes(), str(path)))
    return fields


def a_move(path: Path) -> str:
    listed = session.moves(str(path), 1)
    assert not isinstance(listed, Exception) and hasattr(listed, "actions")
    return str(listed.actions[0])  # type: ignore[union-attr]


def new_game(tmp_path: Path, *args: str, name: str = "game.rgn") -> Path:
    result = invoke("new", *args)
    assert result.exit_code == 0, result.output
    path = tmp_path / name
    path.write_text(result.stdout)
    return path


# -- new --------------------------------------------------------------------------------------------


def test_new_writes_the_two_tags_in_canonical_form_and_order(tmp_path: Path) -> None:
    path = new_game(
        tmp_path,
        "numica",
        "--seed",
        "42",
        "--tag",
        "Event=Club",
        "--time-control",
        "36h+0d",
        "--start",
        START,
        "--id",
        "c1",
    )
    assert path.read_text() == (
        '[Game "numica"]\n[Seed "42"]\n[TimeControl "1d12h+0m"]\n[Start "2026-12-01T12:00:00Z"]\n'
        '[GameId "c1"]\n[Event "Club"]\n'
    )
    assert verdict(path)["clock"]["remaining"] == {"Red": 36 * 3600, "Blue": 36 * 3600}


def test_new_starts_the_clocks_now_by_default_through_the_one_clock(tmp_path: Path) -> None:
    path = new_game(tmp_path, "nika", "--time-control", "3d/move", "--now", "2026-12-24T18:30:00Z")
    assert '[Start "2026-12-24T18:30:00Z"]' in path.read_text()
    assert verdict(path)["clock"]["deadline"] == "2026-12-27T18:30:00Z"


@pytest.mark.parametrize(
    "args",
    [
        ["--time-control", "3 days"],
        ["--time-control", "3d+1d", "--start", "tomorrow"],
        ["--start", START],
        ["--time-control", "3d+1d", "--now", "noon"],
    ],
)
def test_new_refuses_a_clock_it_cannot_read(args: list[str]) -> None:
    result = invoke("new", "numica", "--seed", "1", *args)
    assert result.exit_code == 2 and result.stdout == ""


def test_the_clock_tags_stand_after_position_and_before_the_others() -> None:
    text = (
        '[Game "nieuchess"]\n[Event "x"]\n[Start "2026-12-01T12:00:00Z"]\n[Position "R:j20 B:j21 to:R"]\n'
        '[TimeControl "3d+1d"]\n[Seed "s"]\n'
    )
    result = invoke("format", "-", stdin=text)
    assert result.stdout.splitlines()[:6] == [
        '[Game "nieuchess"]',
        '[Seed "s"]',
        '[Position "R:j20 B:j21 to:R"]',
        '[TimeControl "3d+1d"]',
        '[Start "2026-12-01T12:00:00Z"]',
        '[Event "x"]',
    ]


# -- a game played through play --now, step by step ---------------------------------------------------


def test_a_game_played_with_now_shows_the_clocks_at_every_step_and_ends_with_a_timeout(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "3d+1d/5d", "--start", START)

    def step(moves: str, now: str, *extra: str) -> Any:
        result = invoke("play", str(path), moves, "--now", now, "--json", *extra)
        return result.exit_code, json.loads(result.stdout)

    code, out = step("SSSSOOOO", "2026-12-02T12:00:00Z")
    assert code == 0 and out["clock"]["running"] == "Blue"
    assert out["clock"]["remaining"] == {"Red": 3 * 86400, "Blue": 3 * 86400}  # Red: 2d, then 3d
    assert out["clock"]["deadline"] == "2026-12-05T12:00:00Z"
    code, out = step("SSSSOOOO", "2026-12-04T18:00:00Z", "--as", "Blue")
    assert code == 0 and out["clock"]["running"] == "Red"
    assert out["clock"]["remaining"] == {"Red": 3 * 86400, "Blue": 42 * 3600}
    assert out["clock"]["deadline"] == "2026-12-07T18:00:00Z"
    code, out = step("a1-a4", "2026-12-05T00:00:00Z")
    assert code == 0 and out["message"] == (
        "Blue to move, round 1; clock Blue 1d 18h 00m, Red 3d 18h 00m; deadline 2026-12-06 18:00 UTC"
    )
    before = path.read_text()
    # A late move is refused with TIME.md's words, exit 1, nothing written.
    late = invoke("play", str(path), "a8xa4", "--now", "2026-12-06T19:00:00Z")
    assert late.exit_code == 1 and path.read_text() == before
    assert late.stdout.splitlines()[0] == "Blue's time ran out at 2026-12-06 18:00 UTC: a timeout is due"
    # An early timeout is refused with TIME.md's words.
    early = invoke("play", str(path), "timeout", "--as", "Red", "--now", "2026-12-06T17:00:00Z")
    assert early.exit_code == 1 and path.read_text() == before
    assert early.stdout.splitlines()[0].endswith("timeout: Blue still has 1h 00m (deadline 2026-12-06 18:00 UTC)")
    # Red claims the time-out once Blue has flagged.
    code, out = step("timeout", "2026-12-06T19:00:00Z", "--as", "Red")
    assert code == 0 and out["status"] == "finished" and out["winners"] == ["Red"] and out["reason"] == "time"
    assert path.read_text().endswith(
        "1. R: a1-a4 {[%at 2026-12-05T00:00:00Z Red]}\ntimeout\n{[%at 2026-12-06T19:00:00Z Blue]}\n"
    )
    checked = invoke("check", str(path))
    assert checked.exit_code == 0
    assert (
        checked.stdout.strip()
        == f"{path}:1: numica: finished: Red wins (time) after 3 turns; clock Red 3d 18h 00m, Blue 0h 00m"
    )


def test_the_game_master_writes_a_timeout_without_as(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START)
    assert play(path, "timeout", "2026-12-02T12:00:00Z").exit_code == 0
    assert verdict(path)["winners"] == ["Blue"]


def test_a_timeout_in_an_untimed_game_is_refused(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42")
    before = path.read_text()
    refused = play(path, "timeout", "2026-12-02T12:00:00Z")
    assert refused.exit_code == 1 and "timeout: the game has no clock" in (refused.error or "")
    assert path.read_text() == before


def test_an_untimed_game_gets_no_stamps(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42")
    assert play(path, "SSSSOOOO", "2026-12-02T12:00:00Z").exit_code == 0
    assert "%at" not in path.read_text()


def test_a_submission_before_the_start_says_when_the_game_starts(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START)
    refused = play(path, "SSSSOOOO", "2026-11-30T12:00:00Z")
    assert refused.exit_code == 1
    assert (refused.error or "").startswith(f"the game starts at {START}: this submission (2026-11-30T12:00:00Z)")
    assert "last stamp" not in (refused.error or "")


def test_a_submission_earlier_than_the_last_stamp_is_refused(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START)
    assert play(path, "SSSSOOOO", "2026-12-01T15:00:00Z").exit_code == 0
    refused = play(path, a_move(path), "2026-12-01T14:00:00Z")
    assert refused.exit_code == 1 and "earlier than the game's last stamp" in (refused.error or "")


def test_play_as_of_gives_the_clock_at_that_instant_and_refuses_an_earlier_one(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START)
    result = invoke("play", str(path), "SSSSOOOO", "--now", "2026-12-01T13:00:00Z", "--as-of", "2026-12-01T19:00:00Z")
    assert result.exit_code == 0 and "clock Blue 18h 00m, Red 23h 00m" in result.stdout
    early = invoke("play", str(path), "SSSSOOOO", "--as-of", "2026-12-01T12:30:00Z")
    assert early.exit_code == 2


# -- grants -------------------------------------------------------------------------------------------------


def test_a_grant_is_written_then_stamped_and_lifts_a_flag(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START)
    assert play(path, None, "2026-12-03T00:00:00Z", grants=["red=1d"]).exit_code == 0
    assert path.read_text().endswith("\n{[%grant Red 1d] [%at 2026-12-03T00:00:00Z Red]}\n")
    clock = verdict(path)["clock"]
    assert clock["flagged"] is None and clock["deadline"] == "2026-12-03T12:00:00Z"
    assert play(path, "SSSSOOOO", "2026-12-03T11:00:00Z").exit_code == 0


def test_grant_refusals(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START)
    assert "without --as" in (play(path, None, START, grants=["Red=1d"], as_side="Red").error or "")
    assert "written alone" in (play(path, "SSSSOOOO", START, grants=["Red=1d"]).error or "")
    with pytest.raises(UsageError):
        play(path, None, START, grants=["Green=1d"])
    with pytest.raises(UsageError):
        play(path, None, START, grants=["Red=1 day"])
    bad = invoke("play", str(path), "--grant", "Red")
    assert bad.exit_code == 2
    untimed = new_game(tmp_path, "numica", "--seed", "42", name="untimed.rgn")
    assert "no clock" in (play(untimed, None, START, grants=["Red=1d"]).error or "")


# -- Pikemen with 4 players: two sides time out in turn ------------------------------------------------------


def test_pikemen_four_players_two_sides_time_out_in_turn(tmp_path: Path) -> None:
    path = new_game(tmp_path, "pikemen", "--players", "4", "--time-control", "1d+0m", "--start", START)
    assert play(path, a_move(path), "2026-12-01T13:00:00Z").exit_code == 0  # Red
    assert play(path, a_move(path), "2026-12-01T14:00:00Z").exit_code == 0  # Yellow
    refused = play(path, "timeout", "2026-12-02T13:00:00Z", as_side="Green")
    assert "timeout: Blue still has 1h 00m (deadline 2026-12-02 14:00 UTC)" in (refused.error or "")
    blue_out = play(path, "timeout", "2026-12-02T15:00:00Z", as_side="Green")
    assert blue_out.exit_code == 0
    after = blue_out.verdict
    assert after["status"] == "ongoing" and after["to_move"] == "Green"
    # Green's clock starts at the time-out's stamp: its deadline is a day after it.
    assert after["clock"]["running"] == "Green" and after["clock"]["deadline"] == "2026-12-03T15:00:00Z"
    assert after["clock"]["remaining"]["Blue"] == 0
    assert play(path, a_move(path), "2026-12-02T16:00:00Z").exit_code == 0  # Green
    # Red spent an hour in round 1; its deadline is 23h after Green's stamp.
    assert verdict(path)["clock"]["deadline"] == "2026-12-03T15:00:00Z"
    flagged = play(path, a_move(path), "2026-12-03T16:00:00Z")
    assert flagged.exit_code == 1 and flagged.error == "Red's time ran out at 2026-12-03 15:00 UTC: a timeout is due"
    red_out = play(path, "timeout", "2026-12-03T16:00:00Z")
    assert red_out.exit_code == 0 and red_out.verdict["to_move"] == "Yellow"
    assert red_out.verdict["clock"]["deadline"] == "2026-12-04T15:00:00Z"  # Yellow: 23h left from 16:00
    final = verdict(path)
    assert final["status"] == "ongoing" and final["turns"] == 3
    text = path.read_text()
    assert text.count("timeout") == 2 and "{[%at 2026-12-02T15:00:00Z Blue]}" in text
    assert "{[%at 2026-12-03T16:00:00Z Red]}" in text
    # Yellow times out too: Green is the last side left and wins (last-player).
    yellow_out = play(path, "timeout", "2026-12-05T00:00:00Z")
    assert yellow_out.verdict["status"] == "finished" and yellow_out.verdict["winners"] == ["Green"]
    assert yellow_out.verdict["reason"] == "last-player"


def test_nika_a_team_loses_on_time_also_mid_turn(tmp_path: Path) -> None:
    path = new_game(tmp_path, "nika", "--time-control", "1d/move", "--start", START)
    assert play(path, "d1-W", "2026-12-01T13:00:00Z").exit_code == 0  # Athens, one action of two
    clock = verdict(path)["clock"]
    assert clock["running"] == "Athens" and clock["deadline"] == "2026-12-02T12:00:00Z"  # its turn goes on
    out = play(path, "timeout", "2026-12-02T12:00:00Z", as_side="Sparta")
    assert out.exit_code == 0 and sorted(out.verdict["winners"]) == ["Sparta", "Thebes"]
    assert out.verdict["reason"] == "time"


# -- Nieuchess: a battle's roll and choice ------------------------------------------------------------------


NIEUCHESS = (
    '[Game "nieuchess"]\n[Position "R:j20,k21,a1 B:j21,x30 to:R"]\n[TimeControl "1d+1h"]\n'
    '[Start "2026-12-01T00:00:00Z"]\n\n'
)


def test_nieuchess_nobody_runs_while_the_roll_is_awaited_and_the_chooser_runs_for_a_choice(tmp_path: Path) -> None:
    path = tmp_path / "battle.rgn"
    path.write_text(NIEUCHESS)
    declared = play(path, "j20+k21xj21", "2026-12-01T01:00:00Z")
    clock = declared.verdict["clock"]
    assert declared.verdict["pending"] == "roll" and clock["running"] is None and clock["deadline"] is None
    refused = play(path, "timeout", "2026-12-09T00:00:00Z")
    assert "timeout: the game awaits the game master, not a side" in (refused.error or "")
    rolled = play(path, "#1", "2026-12-01T02:00:00Z")  # AB2: Blue chooses Red's retreat
    clock = rolled.verdict["clock"]
    assert rolled.verdict["pending"] == "choice" and rolled.verdict["to_move"] == "Blue"
    assert clock["running"] == "Blue" and clock["remaining"] == {"Red": 23 * 3600, "Blue": 86400}
    assert clock["deadline"] == "2026-12-02T02:00:00Z"  # the roll's hour was nobody's
    chosen = play(path, "(j20-j19-j18,k21-l21-l20)", "2026-12-01T04:00:00Z", as_side="Blue")
    clock = chosen.verdict["clock"]
    # The choice ends nobody's turn: no increment for Blue (nor for Red, whose turn ran in parts).
    assert clock["running"] == "Blue" and clock["remaining"] == {"Red": 23 * 3600, "Blue": 22 * 3600}
    assert (
        path.read_text()
        .rstrip()
        .endswith(
            "1. R: j20+k21xj21#1=AB2(j20-j19-j18,k21-l21-l20) {[%at 2026-12-01T01:00:00Z Red]} "
            "{[%at 2026-12-01T02:00:00Z GM]} {[%at 2026-12-01T04:00:00Z Blue]}"
        )
    )


def test_nieuchess_a_late_choice_is_illegal_at_its_stamp() -> None:
    text = (
        NIEUCHESS + "1. R: j20+k21xj21#1=AB2(j20-j19-j18,k21-l21-l20) {[%at 2026-12-01T01:00:00Z Red]} "
        "{[%at 2026-12-01T02:00:00Z GM]} {[%at 2026-12-02T03:00:00Z Blue]}\n"
    )
    fields = render.verdict_fields(check_text(text))
    column = text.splitlines()[5].index("{[%at 2026-12-02T03") + 1
    assert fields["status"] == "illegal" and fields["error"]["column"] == column
    assert fields["error"]["message"] == (
        "Blue's time ran out at 2026-12-02 02:00 UTC, before this submission at 2026-12-02 03:00 UTC"
    )


def test_nieuchess_a_choice_by_the_side_whose_turn_it_is_ends_its_turn(tmp_path: Path) -> None:
    path = tmp_path / "own.rgn"
    path.write_text(NIEUCHESS)
    play(path, "j20+k21xj21", "2026-12-01T01:00:00Z")
    play(path, "#2", "2026-12-01T02:00:00Z")  # DB2: Red chooses Blue's retreat
    assert verdict(path)["clock"]["running"] == "Red"
    chosen = play(path, "(j21-i22-i23)", "2026-12-01T03:00:00Z", as_side="Red")
    clock = chosen.verdict["clock"]
    # Red ran 1h + 1h and gains its increment once its turn is over; Blue runs from 03:00.
    assert clock["remaining"] == {"Red": 23 * 3600, "Blue": 86400} and clock["running"] == "Blue"


# -- format keeps every stamp where it was -----------------------------------------------------------------


def test_format_keeps_every_stamp_where_it_was(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "3d+1d/5d", "--start", START)
    play(path, "SSSSOOOO", "2026-12-02T12:00:00Z")
    play(path, "SSSSOOOO", "2026-12-04T18:00:00Z")
    play(path, None, "2026-12-04T19:00:00Z", grants=["Blue=2h"])
    play(path, "a1-a4", "2026-12-05T00:00:00Z")
    canonical = path.read_text()
    # Re-wrapped as a mail program might, with long labels: the comments themselves unchanged.
    messy = canonical.replace("\n", "\n\n   ").replace("} ", "}\n\t").replace("R:", "Red:").replace("B:", "blue:")
    formatted = invoke("format", "-", stdin=messy)
    assert formatted.exit_code == 0 and formatted.stdout == canonical
    stamps = re.findall(r"\{[^}]*\}", canonical)
    assert stamps == re.findall(r"\{[^}]*\}", formatted.stdout) and len(stamps) == 4


# -- random timed playouts: the referee's clock against one computed here -------------------------------------


class Model:
    """The clock of TIME.md §3 for games of one action per turn, kept from the stamps alone."""

    def __init__(self, sides: list[str], base: int, increment: int, cap: int, start: int) -> None:
        self.bank = dict.fromkeys(sides, base)
        self.increment, self.cap, self.last = increment, cap, start

    def move(self, side: str, now: int) -> None:
        self.bank[side] -= now - self.last
        before = self.bank[side]
        self.bank[side] = max(before, min(before + self.increment, self.cap))
        self.last = now

    def timeout(self, side: str, now: int) -> None:
        self.bank[side] -= now - self.last
        self.last = now


@pytest.mark.parametrize(("game", "players", "seed"), [("numica", 2, 1), ("pikemen", 3, 2), ("pikemen", 4, 3)])
def test_random_timed_playouts_agree_with_a_clock_computed_from_the_stamps(
    tmp_path: Path, game: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    args = [game, "--time-control", "1d+2h/1d6h", "--start", START]
    args += ["--seed", "7"] if game == "numica" else ["--players", str(players)]
    path = new_game(tmp_path, *args)
    first = verdict(path)
    model = Model(list(first["clock"]["remaining"]), 86400, 7200, 30 * 3600, parse_instant(START))
    now = parse_instant(START)
    timeouts = moves_played = 0
    for _ in range(30):
        current = verdict(path)
        if current["status"] != "ongoing":
            break
        side = current["to_move"]
        now += rng.choice([0, 60, 3600, 6 * 3600, 20 * 3600, 26 * 3600, 40 * 3600])
        left = model.bank[side] - (now - model.last)
        stamp = format_instant(now)
        if left < 0:  # at the deadline itself a move is still in time
            moves = session.moves(str(path), 1).actions  # type: ignore[union-attr]
            refused = play(path, str(rng.choice(moves)), stamp)
            deadline = spoken_instant(model.last + model.bank[side])
            assert refused.exit_code == 1 and refused.error == f"{side}'s time ran out at {deadline}: a timeout is due"
            assert play(path, "timeout", stamp).exit_code == 0
            model.timeout(side, now)
            timeouts += 1
        else:
            moves = session.moves(str(path), 1).actions  # type: ignore[union-attr]
            result = play(path, str(rng.choice(moves)), stamp)
            assert result.exit_code == 0, result.error
            model.move(side, now)
            moves_played += 1
        after = verdict(path)
        clock = after["clock"]
        assert clock["as_of"] == stamp
        assert clock["remaining"] == {name: max(0, bank) for name, bank in model.bank.items()}
        if after["status"] == "ongoing":
            running = after["to_move"]
            assert clock["running"] == running
            assert clock["deadline"] == format_instant(now + model.bank[running])
            words = f"clock {running} {spoken_duration(model.bank[running])}"
            assert words in after["message"]
        else:
            assert clock["running"] is None and clock["deadline"] is None
    assert timeouts >= 1 and moves_played >= 3  # both paths of the clock were walked


# -- show and the replay page ------------------------------------------------------------------------------


def test_show_and_the_replay_page_show_both_clocks_and_the_deadline(tmp_path: Path) -> None:
    path = new_game(tmp_path, "numica", "--seed", "42", "--time-control", "3d+1d/5d", "--start", START)
    play(path, "SSSSOOOO", "2026-12-02T12:00:00Z")
    clock = "clock Blue 3d 0h 00m, Red 3d 0h 00m; deadline 2026-12-05 12:00 UTC"
    shown = invoke("show", str(path))
    assert shown.exit_code == 0 and shown.stdout.rstrip().endswith(clock)
    out = tmp_path / "game.html"
    result = invoke("replay", "--html", "-o", str(out), str(path))
    assert result.exit_code == 0
    page = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    assert data["clock"] == clock and '<p id="clock" hidden></p>' in page
    untimed = new_game(tmp_path, "numica", "--seed", "42", name="untimed.rgn")
    invoke("replay", "--html", "-o", str(out), str(untimed))
    assert '"clock":null' in out.read_text()


def test_an_offer_is_closed_by_a_stamp_naming_the_side_the_game_awaited(tmp_path: Path) -> None:
    path = new_game(
        tmp_path, "numica", "--seed", "42", "--time-control", "1d+0m", "--start", START,
        "--tag", "Red=ann@example.org", "--tag", "Blue=bo@example.org",
    )  # fmt: skip
    assert play(path, "SSSSOOOO", "2026-12-01T13:00:00Z").exit_code == 0
    offered = play(path, "draw", "2026-12-01T14:00:00Z", as_side="Red")
    assert offered.exit_code == 0 and offered.agreement == "draw-offered"
    assert path.read_text().rstrip().endswith("{[%offer draw Red]} {[%at 2026-12-01T14:00:00Z Blue]}")
    clock = verdict(path)["clock"]
    assert clock["running"] == "Blue" and clock["remaining"]["Blue"] == 23 * 3600  # Blue's hour ran, not Red's
    agreed = play(path, "draw", "2026-12-01T15:00:00Z", as_side="Blue")
    assert agreed.verdict["status"] == "finished" and agreed.verdict["reason"] == "agreement"
    assert path.read_text().rstrip().endswith("draw\n{[%at 2026-12-01T15:00:00Z Blue]}")
