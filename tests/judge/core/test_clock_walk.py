"""Clocks in the record (TIME.md): the worked example of §6 line by line, every malformed
and illegal case, both forms of the clock, grants and caps, and `check --as-of`."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.judge.core import verdict_words as render
from referee.judge.runners.batch_check import check_text
from referee.notation.timing import parse_instant
from tests.helpers.cli import invoke

HEAD = '[Game "numica"]\n[Seed "42"]\n[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
# Seed 42 deals tiles on which Red's first move a1-a4 and Blue's a8xa4 are legal.
SIX = (
    HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\n"
    "B: SSSSOOOO {[%at 2026-12-04T18:00:00Z Blue]}\n"
    "1. R: a1-a4 {[%at 2026-12-05T00:00:00Z Red]}\n"
)
BLUE_MOVE = "B: a8xa4"


def fields(text: str) -> dict[str, Any]:
    result: dict[str, Any] = render.verdict_fields(check_text(text))
    return result


def line(text: str) -> str:
    return render.describe(check_text(text))


def at(text: str) -> int:
    return parse_instant(text)


# -- TIME.md §6, line by line ----------------------------------------------------------------


def test_six_the_table_banks_after_each_charge_and_increment() -> None:
    first = fields(HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\n")["clock"]
    assert first["remaining"] == {"Red": 3 * 86400, "Blue": 3 * 86400}  # Red 2d, then 3d after the increment
    assert first["running"] == "Blue" and first["deadline"] == "2026-12-05T12:00:00Z"
    second = fields(
        HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\nB: SSSSOOOO {[%at 2026-12-04T18:00:00Z Blue]}\n"
    )
    assert second["clock"]["remaining"] == {"Red": 3 * 86400, "Blue": 42 * 3600}  # Blue 18h, then 1d 18h
    third = fields(SIX)["clock"]
    assert third == {
        "control": "3d+1d/5d",
        "as_of": "2026-12-05T00:00:00Z",
        "running": "Blue",
        "remaining": {"Red": 324000, "Blue": 151200},  # Red 2d 18h, then 3d 18h
        "deadline": "2026-12-06T18:00:00Z",
        "flagged": None,
    }


def test_six_as_of_noon_on_the_sixth_blue_has_six_hours() -> None:
    result = invoke("check", "--json", "--as-of", "2026-12-06T12:00:00Z", "-", stdin=SIX)
    clock = json.loads(result.stdout)["clock"]
    assert result.exit_code == 0
    assert clock["running"] == "Blue" and clock["remaining"] == {"Red": 324000, "Blue": 21600}
    assert clock["deadline"] == "2026-12-06T18:00:00Z" and clock["flagged"] is None
    assert clock["as_of"] == "2026-12-06T12:00:00Z"


def test_six_as_of_the_seventh_blue_has_flagged_and_the_game_goes_on() -> None:
    result = invoke("check", "--as-of", "2026-12-07T00:00:00Z", "-", stdin=SIX)
    assert result.exit_code == 0
    assert result.stdout.strip() == (
        "-:1: numica: ongoing: Blue to move, round 1; clock Blue 0h 00m, Red 3d 18h 00m; "
        "Blue's time ran out at 2026-12-06 18:00 UTC: a timeout is due"
    )
    as_json = invoke("check", "--json", "--as-of", "2026-12-07T00:00:00Z", "-", stdin=SIX)
    verdict = json.loads(as_json.stdout)
    assert verdict["status"] == "ongoing" and verdict["clock"]["flagged"] == "Blue"
    assert verdict["clock"]["remaining"]["Blue"] == 0  # never below 0


def test_six_a_blue_move_after_the_deadline_is_illegal_at_its_stamp() -> None:
    verdict = fields(SIX + BLUE_MOVE + " {[%at 2026-12-06T19:00:00Z Blue]}\n")
    assert verdict["status"] == "illegal" and verdict["clock"] is None
    assert verdict["error"] == {
        "line": 9,
        "column": 10,
        "round": 1,
        "side": "Blue",
        "action": None,
        "message": "Blue's time ran out at 2026-12-06 18:00 UTC, before this submission at 2026-12-06 19:00 UTC",
    }


def test_six_a_timeout_after_the_deadline_finishes_the_game_for_red() -> None:
    verdict = fields(SIX + "timeout {[%at 2026-12-06T19:00:00Z Blue]}\n")
    assert verdict["status"] == "finished" and verdict["winners"] == ["Red"] and verdict["reason"] == "time"
    assert verdict["turns"] == 3  # a timeout is no turn
    assert verdict["clock"]["running"] is None and verdict["clock"]["deadline"] is None


def test_six_a_timeout_before_the_deadline_is_illegal_at_the_word() -> None:
    verdict = fields(SIX + "timeout {[%at 2026-12-06T17:00:00Z Blue]}\n")
    assert verdict["status"] == "illegal"
    assert verdict["error"] == {
        "line": 9,
        "column": 1,
        "round": 1,
        "side": "Blue",
        "action": "timeout",
        "message": "timeout: Blue still has 1h 00m (deadline 2026-12-06 18:00 UTC)",
    }


def test_six_a_grant_of_a_day_moves_blues_deadline() -> None:
    clock = fields(SIX + "{[%grant Blue 1d]}\n")["clock"]
    assert clock["deadline"] == "2026-12-07T18:00:00Z"
    late_but_granted = fields(SIX + "{[%grant Blue 1d]}\n" + BLUE_MOVE + " {[%at 2026-12-06T19:00:00Z Blue]}\n")
    assert late_but_granted["status"] == "ongoing"


def test_six_the_cap_holds_a_bank_of_4d18h_at_5d() -> None:
    # Red spends nothing on its setup after a grant of 1d 18h: 4d 18h before the increment.
    text = HEAD + "{[%grant Red 1d18h]} R: SSSSOOOO {[%at 2026-12-01T12:00:00Z Red]}\n"
    assert fields(text)["clock"]["remaining"]["Red"] == 5 * 86400
    # ...and a grant is never cut away by the cap: 6d stays 6d (no increment on top).
    text = HEAD + "{[%grant Red 3d]} R: SSSSOOOO {[%at 2026-12-01T12:00:00Z Red]}\n"
    assert fields(text)["clock"]["remaining"]["Red"] == 6 * 86400


# -- the tags and entries: malformed ------------------------------------------------------------


@pytest.mark.parametrize(
    ("tags", "line_number", "column", "words"),
    [
        ('[TimeControl "3d+1d"]\n', 2, 1, "needs a Start tag"),
        ('[Start "2026-12-01T12:00:00Z"]\n', 2, 1, "needs a TimeControl tag"),
        ('[TimeControl "3 days"]\n[Start "2026-12-01T12:00:00Z"]\n', 2, 1, "not a time control"),
        ('[TimeControl "3d+1d"]\n[Start "2026-12-01 12:00"]\n', 3, 1, "not an instant"),
        ('[TimeControl "3d+1d"]\n[Start "2026-12-01T12:00:00z"]\n', 3, 1, "not an instant"),
        ('[TimeControl "3d+1d"]\n[Start "2026-02-30T12:00:00Z"]\n', 3, 1, "not an instant"),
        ('[TimeControl "3d + 1d"]\n[Start "2026-12-01T12:00:00Z"]\n', 2, 1, "not a time control"),
        ('[TimeControl "3D+1d"]\n[Start "2026-12-01T12:00:00Z"]\n', 2, 1, "not a time control"),
    ],
)
def test_a_bad_or_missing_tag_is_malformed_at_the_tag_that_is_there(
    tags: str, line_number: int, column: int, words: str
) -> None:
    verdict = fields('[Game "numica"]\n' + tags + '[Seed "42"]\n')
    assert verdict["status"] == "malformed" and verdict["clock"] is None
    assert (verdict["error"]["line"], verdict["error"]["column"]) == (line_number, column)
    assert words in verdict["error"]["message"]


def test_white_space_around_a_tag_value_is_ignored_and_the_canonical_control_is_reported() -> None:
    text = '[Game "numica"]\n[Seed "42"]\n[TimeControl " 36h+0d/90h "]\n[Start " 2026-12-01T12:00:00Z"]\n'
    clock = fields(text)["clock"]
    assert clock["control"] == "1d12h+0m/3d18h" and clock["as_of"] == "2026-12-01T12:00:00Z"


@pytest.mark.parametrize(
    "comment",
    [
        "{[%at 2026-12-02 Red]}",
        "{[%at Red 2026-12-02T12:00:00Z]}",
        "{[%at 2026-12-02T12:00:00Z]}",
        "{[%at 2026-12-02T12:00:00Z Red] late}",
        "{[%grant Blue one-day]}",
        "{[%grant 1d Blue]}",
        "{[%grant Blue]}",
    ],
)
def test_a_bad_stamp_or_grant_is_malformed_at_the_brace(comment: str) -> None:
    verdict = fields(HEAD + "R: SSSSOOOO " + comment + "\n")
    assert verdict["status"] == "malformed"
    assert (verdict["error"]["line"], verdict["error"]["column"]) == (6, 13)


def test_a_bad_stamp_anywhere_makes_the_record_malformed_even_after_an_illegal_move() -> None:
    text = HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Nobody]}\nB: SSSSOOOO {[%at tomorrow Blue]}\n"
    assert fields(text)["status"] == "malformed"


def test_other_commands_and_comments_are_no_clock_entries() -> None:
    text = HEAD + "R: SSSSOOOO {[%clk 0:03]} {[%offer draw Blue]} {nice} ; [%at nothing]\n"
    verdict = fields(text)
    assert verdict["status"] == "ongoing" and verdict["clock"]["remaining"]["Red"] == 3 * 86400


# -- illegal entries -------------------------------------------------------------------------------


def test_a_stamp_naming_no_side_is_illegal_at_its_brace() -> None:
    verdict = fields(HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Green]}\n")
    assert verdict["status"] == "illegal" and verdict["error"]["column"] == 13
    assert verdict["error"]["action"] is None and verdict["error"]["side"] == "Red"
    assert "Green" in verdict["error"]["message"]


def test_a_stamp_earlier_than_the_previous_one_or_start_is_illegal() -> None:
    early = fields(HEAD + "R: SSSSOOOO {[%at 2026-11-30T12:00:00Z Red]}\n")
    assert early["status"] == "illegal" and "earlier than the previous stamp or Start" in early["error"]["message"]
    backwards = SIX + BLUE_MOVE + " {[%at 2026-12-04T00:00:00Z Blue]}\n"
    assert fields(backwards)["error"]["line"] == 9


def test_stamps_accept_every_label_form_and_gm() -> None:
    text = (
        HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z r]}\n"
        "B: SSSSOOOO {[%at 2026-12-03T12:00:00Z BLUE]} {the GM's note} {[%at 2026-12-03T13:00:00Z gm]}\n"
    )
    clock = fields(text)["clock"]
    assert clock["remaining"] == {"Red": 3 * 86400, "Blue": 3 * 86400}  # the GM's hour is nobody's
    assert clock["running"] == "Red" and clock["deadline"] == "2026-12-06T13:00:00Z"


def test_a_timeout_without_a_stamp_is_illegal() -> None:
    verdict = fields(SIX + "timeout {after the deadline}\n")
    assert verdict["error"]["message"] == "timeout: no stamp says when it was written"
    assert verdict["error"]["action"] == "timeout"
    grant_first = fields(SIX + "timeout {[%grant Blue 1d] [%at 2026-12-09T19:00:00Z Blue]}\n")
    assert grant_first["error"]["message"] == "timeout: no stamp says when it was written"


def test_a_timeout_in_an_untimed_record_is_illegal_and_stamps_there_are_comments() -> None:
    untimed = '[Game "numica"]\n[Seed "42"]\n\nR: SSSSOOOO {[%at yesterday Red]}\ntimeout\n'
    verdict = fields(untimed)
    assert verdict["status"] == "illegal" and verdict["error"]["message"] == "timeout: the game has no clock"
    assert verdict["error"]["side"] == "Blue" and verdict["error"]["action"] == "timeout"
    assert fields(untimed.replace("timeout\n", ""))["status"] == "ongoing"


def test_a_submission_exactly_at_the_deadline_is_in_time_and_so_is_a_timeout() -> None:
    in_time = fields(SIX + BLUE_MOVE + " {[%at 2026-12-06T18:00:00Z Blue]}\n")
    assert in_time["status"] == "ongoing"
    timed_out = fields(SIX + "timeout {[%at 2026-12-06T18:00:00Z Blue]}\n")
    assert timed_out["status"] == "finished" and timed_out["reason"] == "time"


def test_anything_after_a_timeout_that_ended_the_game_is_a_turn_after_the_end() -> None:
    after = fields(SIX + "timeout {[%at 2026-12-06T19:00:00Z Blue]}\nB: a8xa4\n")
    assert after["status"] == "illegal" and "the game ended" in after["error"]["message"]
    twice = fields(SIX + "timeout {[%at 2026-12-06T19:00:00Z Blue]}\ntimeout {[%at 2026-12-06T19:00:00Z Blue]}\n")
    assert twice["status"] == "illegal" and twice["error"]["action"] == "timeout"


def test_a_late_submission_of_another_player_is_never_late() -> None:
    # Blue has flagged; a grant and Red's offer closed by stamps naming Blue are not Blue's input.
    text = SIX + "{[%offer draw Red]} {[%at 2026-12-06T20:00:00Z Blue]}\n"
    verdict = fields(text)
    assert verdict["status"] == "ongoing" and verdict["clock"]["flagged"] == "Blue"


def test_a_grant_naming_no_side_is_illegal() -> None:
    verdict = fields(SIX + "{[%grant GM 1d]}\n")
    assert verdict["status"] == "illegal" and "no side of this game" in verdict["error"]["message"]


# -- the other form: D/move ---------------------------------------------------------------------------


MOVE_HEAD = HEAD.replace("3d+1d/5d", "1d/move")


def test_per_move_each_turn_gets_d_and_unused_time_is_not_kept() -> None:
    text = MOVE_HEAD + "R: SSSSOOOO {[%at 2026-12-01T13:00:00Z Red]}\nB: SSSSOOOO {[%at 2026-12-02T12:00:00Z Blue]}\n"
    clock = fields(text)["clock"]
    assert clock["control"] == "1d/move"
    assert clock["remaining"] == {"Red": 86400, "Blue": 86400}
    assert clock["running"] == "Red" and clock["deadline"] == "2026-12-03T12:00:00Z"
    late = text + "1. R: a1-a4 {[%at 2026-12-03T12:01:00Z Red]}\n"
    assert fields(late)["error"]["message"] == (
        "Red's time ran out at 2026-12-03 12:00 UTC, before this submission at 2026-12-03 12:01 UTC"
    )


def test_per_move_a_grant_to_a_waiting_side_is_kept_for_its_next_turn() -> None:
    text = MOVE_HEAD + "{[%grant Blue 12h]} R: SSSSOOOO {[%at 2026-12-01T13:00:00Z Red]}\n"
    before = fields(MOVE_HEAD + "{[%grant Blue 12h]}\n")["clock"]
    assert before["remaining"]["Blue"] == 86400 + 12 * 3600  # shown while not running
    clock = fields(text)["clock"]
    assert clock["running"] == "Blue" and clock["remaining"]["Blue"] == 86400 + 12 * 3600
    assert clock["deadline"] == "2026-12-03T01:00:00Z"
    after = fields(text + "B: SSSSOOOO {[%at 2026-12-01T14:00:00Z Blue]}\n")["clock"]
    assert after["remaining"]["Blue"] == 86400  # used up: the grant was for that one turn


def test_per_move_a_grant_to_the_running_side_adds_to_this_turn() -> None:
    clock = fields(MOVE_HEAD + "{[%grant Red 2h]}\n")["clock"]
    assert clock["remaining"]["Red"] == 26 * 3600 and clock["deadline"] == "2026-12-02T14:00:00Z"


# -- as of an instant ------------------------------------------------------------------------------


def test_as_of_earlier_than_the_last_stamp_is_a_usage_error() -> None:
    result = invoke("check", "--as-of", "2026-12-04T00:00:00Z", "-", stdin=SIX)
    assert result.exit_code == 2 and "earlier than the record's last stamp" in result.stderr


def test_as_of_now_takes_the_one_clock_that_now_sets() -> None:
    result = invoke("check", "--json", "--as-of", "now", "--now", "2026-12-06T12:00:00Z", "-", stdin=SIX)
    assert json.loads(result.stdout)["clock"]["remaining"]["Blue"] == 21600
    bad = invoke("check", "--as-of", "tomorrow", "-", stdin=SIX)
    assert bad.exit_code == 2 and "--as-of" in bad.stderr


def test_show_gives_both_clocks_and_the_deadline_as_of_an_instant() -> None:
    result = invoke("show", "--as-of", "2026-12-06T12:00:00Z", "-", stdin=SIX)
    assert result.exit_code == 0
    assert result.stdout.rstrip().endswith("clock Blue 6h 00m, Red 3d 18h 00m; deadline 2026-12-06 18:00 UTC")
    as_json = invoke("show", "--json", "-", stdin=SIX)
    assert json.loads(as_json.stdout)["verdict"]["clock"]["deadline"] == "2026-12-06T18:00:00Z"
    early = invoke("show", "--as-of", "2026-12-01T00:00:00Z", "-", stdin=SIX)
    assert early.exit_code == 2


def test_an_untimed_record_has_a_null_clock_and_as_of_changes_nothing() -> None:
    untimed = '[Game "numica"]\n[Seed "42"]\n\nR: SSSSOOOO\n'
    result = invoke("check", "--json", "--as-of", "2026-12-06T12:00:00Z", "-", stdin=untimed)
    assert result.exit_code == 0 and json.loads(result.stdout)["clock"] is None


# -- both readers, the fast check path and the writer ----------------------------------------------------


def test_both_readers_read_timeout_where_draw_stands_and_the_writer_writes_it() -> None:
    from referee.judge.core.adjudicate import dialect_for
    from referee.notation import writer
    from referee.notation.grammar import grammar
    from referee.notation.model import Record, Timeout
    from referee.notation.reader import read

    text = SIX + "TimeOut\n{[%at 2026-12-06T19:00:00Z Blue]}\n"
    [fast] = read(text, dialect_for)
    dialect = dialect_for("numica")
    assert dialect is not None and isinstance(fast, Record)
    detailed = grammar(dialect).parse(text)
    assert fast.items == detailed.items
    assert isinstance(fast.items[-2], Timeout) and fast.items[-2].span == (9, 1)
    assert writer.write(fast, dialect).endswith("timeout\n{[%at 2026-12-06T19:00:00Z Blue]}\n")
    mid_turn = '[Game "nika"]\n\n1. W: d1-W timeout {x}\n'
    [nika] = read(mid_turn, dialect_for)
    assert isinstance(nika, Record) and [type(item).__name__ for item in nika.items] == ["Turn", "Timeout", "Comment"]


def test_timed_records_and_timeouts_take_the_detailed_path_untimed_stamps_the_fast_one() -> None:
    from referee.judge.fast.fused_check import quick_verdict
    from referee.notation.record_splitter import split

    def quick(text: str) -> object:
        return quick_verdict(split(text.encode())[0], "-", 1)

    assert quick(SIX) is None
    assert quick(SIX.replace('[TimeControl "3d+1d/5d"]\n', "")) is None  # a Start alone: malformed, said in detail
    untimed = '[Game "numica"]\n[Seed "42"]\n\nR: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\n'
    assert quick(untimed) is not None
    assert quick(untimed + "timeout\n") is None
    assert render.describe(check_text(untimed + "timeout\n")).endswith("timeout: the game has no clock")


def test_hostile_values_give_verdicts_not_crashes() -> None:
    grants = " ".join("[%grant Red 999999d]" for _ in range(5))
    huge = (
        '[Game "numica"]\n[Seed "1"]\n[TimeControl "999999d+0m"]\n[Start "2026-01-01T00:00:00Z"]\n\n{' + grants + "}\n"
    )
    verdict = fields(huge)
    assert verdict["status"] == "ongoing" and verdict["clock"]["deadline"] == "9999-12-31T23:59:59Z"
    long_side = fields(HEAD + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z " + "Q" * 5000 + "]}\n")
    assert long_side["status"] == "illegal" and len(long_side["error"]["message"]) < 120
    long_value = fields('[Game "numica"]\n[Seed "1"]\n[TimeControl "' + "9" * 5000 + '"]\n[Start "x"]\n')
    assert long_value["status"] == "malformed" and len(long_value["error"]["message"]) < 160
