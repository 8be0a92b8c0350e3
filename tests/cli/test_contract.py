"""The command line contract of NOTATION.md §8: outputs, exit codes, stdin, JSON fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.judge.core.verdicts import Verdict
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.cli import invoke
from tests.helpers.process import run_referee, run_referee_bytes

FINISHED = '[Game "numica"]\n[Seed "cli"]\n[Result "Red"]\n\nR: SSOOSOSO\nB: resign\n'
ONGOING = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n'
ILLEGAL = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n1. R: a1-h8\n'
MALFORMED = '[Game "numica"]\n[Seed "cli"]\n\nR: SSOOSOSO\nQ: OSOSOSOS\n'
WRONG_CLAIM = '[Game "numica"]\n[Seed "cli"]\n[Result "Blue"]\n\nR: SSOOSOSO\nB: resign\n'

# The fields of a JSON verdict, in order (NOTATION.md §8).
JSON_FIELDS = [
    "source",
    "record",
    "game",
    "status",
    "winners",
    "draw",
    "reason",
    "turns",
    "to_move",
    "round",
    "claimed",
    "result_matches",
    "pending",
    "rolls_as_given",
    "clock",
    "error",
    "message",
    "token",
    "suggestions",
    "offset",
]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {}
    for name, text in dict(
        finished=FINISHED, ongoing=ONGOING, illegal=ILLEGAL, malformed=MALFORMED, claim=WRONG_CLAIM
    ).items():
        path = tmp_path / f"{name}.rgn"
        path.write_text(text)
        paths[name] = str(path)
    return paths


def test_check_prints_one_verdict_per_record_and_exits_0_when_all_legal(files: dict[str, str]) -> None:
    result = invoke("check", files["finished"], files["ongoing"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("finished.rgn:1: numica: finished: Red wins (resignation) after 2 turns")
    assert lines[1].endswith("ongoing.rgn:1: numica: ongoing: Red to move, round 1")


@pytest.mark.parametrize("name", ["illegal", "malformed", "claim"])
def test_check_exits_1_for_illegal_malformed_or_a_wrong_claim(files: dict[str, str], name: str) -> None:
    assert invoke("check", files["finished"], files[name]).exit_code == 1


def test_illegal_verdict_names_turn_action_and_rule(files: dict[str, str]) -> None:
    output = invoke("check", files["illegal"]).output
    assert ': numica: illegal: line 6, col 7: turn 1 Red, action 1 "a1-h8": a1 is on a' in output


def test_json_verdict_fields(files: dict[str, str]) -> None:
    result = invoke("check", "--json", files["illegal"], files["malformed"], files["ongoing"])
    illegal, malformed, ongoing = (json.loads(line) for line in result.output.splitlines())
    for verdict in (illegal, malformed, ongoing):
        assert list(verdict) == JSON_FIELDS
    assert illegal["error"] | {"message": None} == {
        "line": 6,
        "column": 7,
        "round": 1,
        "side": "Red",
        "action": "a1-h8",
        "message": None,
    }
    assert (illegal["turns"], illegal["to_move"], illegal["result_matches"]) == (None, None, None)
    assert malformed["status"] == "malformed"
    assert (malformed["error"]["line"], malformed["error"]["column"], malformed["error"]["round"]) == (5, 1, None)
    assert (ongoing["to_move"], ongoing["turns"], ongoing["error"]) == ("Red", 2, None)


def test_quiet_lists_only_records_that_are_not_legal_then_a_summary(files: dict[str, str]) -> None:
    result = invoke("check", "--quiet", files["finished"], files["illegal"])
    lines = result.output.splitlines()
    assert len(lines) == 2 and ": illegal:" in lines[0]
    assert lines[1].startswith("2 records: 1 finished, 0 ongoing, 1 illegal, 0 malformed")


def test_stdin_is_read_for_dash() -> None:
    result = invoke("check", "-", stdin="Hello GM,\n" + ONGOING + ILLEGAL)
    assert result.exit_code == 1
    assert [line.split(": ")[0] for line in result.output.splitlines()] == ["-:1", "-:2"]


def test_no_record_and_unreadable_files(tmp_path: Path, files: dict[str, str]) -> None:
    empty = tmp_path / "empty.rgn"
    empty.write_text("no game here\n")
    result = invoke("check", str(empty))
    assert result.exit_code == 1 and "no record found" in result.output
    result = invoke("check", str(tmp_path / "missing.rgn"), files["finished"])
    assert result.exit_code == 2 and "cannot read" in result.output


def test_usage_errors_exit_2() -> None:
    assert invoke("check", "--frobnicate", "x").exit_code == 2
    assert invoke("dance").exit_code == 2
    result = invoke("new", "chess")
    assert result.exit_code == 2 and 'unknown game "chess"' in result.output


def test_format_writes_canonical_form_that_reads_back(tmp_path: Path) -> None:
    messy = (
        'Seed "cli", Game "numica"\n[Event "x"]\n'
        '[Game "numica"] [Result "*"] [Seed "cli"]  [Red "Ann"]\n r:  ssoosoSO {hi}\nblue: osososos  !  R: a1-a3\n'
    )
    source = tmp_path / "messy.rgn"
    source.write_text(messy)
    result = invoke("format", str(source))
    assert result.output == (
        '[Game "numica"]\n[Red "Ann"]\n[Seed "cli"]\n[Result "*"]\n\nR: SSOOSOSO {hi}\nB: OSOSOSOS!\n1. R: a1-a3\n'
    )
    again = tmp_path / "again.rgn"
    again.write_text(result.output)
    assert invoke("format", str(again)).output == result.output


def test_new_writes_tags_with_a_fresh_seed_and_checks_as_ongoing(tmp_path: Path) -> None:
    result = invoke("new", "numica", "--tag", "Event=Club night")
    assert result.exit_code == 0
    assert result.output.startswith('[Game "numica"]\n[Seed "') and '[Event "Club night"]' in result.output
    path = tmp_path / "new.rgn"
    path.write_text(result.output)
    assert invoke("check", str(path)).output.endswith("ongoing: Red to move\n")
    written = invoke("new", "numica", "--seed", "s", "--id", "club-7").output
    assert written == '[Game "numica"]\n[Seed "s"]\n[GameId "club-7"]\n'


def test_games_lists_every_game() -> None:
    result = invoke("games", "--json")
    names = [json.loads(line)["name"] for line in result.output.splitlines()]
    assert sorted(names) == ["nieuchess", "nika", "numica", "pikemen"]


def test_show_moves_and_replay(files: dict[str, str]) -> None:
    shown = invoke("show", "--json", files["ongoing"])
    assert json.loads(shown.output)["position"].endswith("to:R")
    listed = invoke("moves", "--json", files["ongoing"])
    actions = json.loads(listed.output)["actions"]
    assert actions and all("-" in action or "x" in action for action in actions)
    replayed = invoke("replay", files["finished"])
    assert "Blue resigns" in replayed.output and replayed.exit_code == 0
    assert invoke("replay", "--record", "3", files["finished"]).exit_code == 2


def test_version_and_module_entry_point() -> None:
    assert invoke("--version").output.startswith("referee ")
    done = run_referee("check", "-", input=ONGOING)
    assert done.returncode == 0 and "ongoing" in done.stdout


def test_garbage_never_gives_a_traceback() -> None:
    garbage = (
        b'\x00\xff[Game "numica"]\n[Seed "\\q"]\n{\n[Game "nika"]\x80\n[Game "numica"]\n[Position "tiles:"]\nR: a1'
    )
    done = run_referee_bytes("check", "-", input=garbage)
    assert done.returncode == 1
    assert b"Traceback" not in done.stderr + done.stdout


def test_show_at_a_round_shows_the_board_after_it(tmp_path: Path) -> None:
    path = tmp_path / "game.rgn"
    path.write_text(ONGOING + "1. R: a1-a6\n")  # a1 holds a 5 tile with this seed
    early = invoke("show", "--json", "--at", "0", str(path))
    late = invoke("show", "--json", str(path))
    assert json.loads(early.output)["position"] != json.loads(late.output)["position"]
    assert json.loads(early.output)["to_move"] == "Red"


# One render module, one exit rule, values in the verdict (issue 9)


def test_verdict_holds_values_and_json_flattens_them(files: dict[str, str]) -> None:
    from referee.games.api import Outcome
    from referee.judge import session
    from referee.judge.core import verdict_words
    from referee.judge.core.verdicts import Status

    finished, ongoing = (item for item in session.check([files["finished"], files["ongoing"]]))
    assert isinstance(finished, Verdict) and isinstance(ongoing, Verdict)
    assert finished.status is Status.FINISHED and finished.outcome == Outcome(("Red",), "resignation")
    assert finished.ongoing is None and finished.error is None
    assert ongoing.ongoing is not None and (ongoing.ongoing.to_move, ongoing.ongoing.round) == ("Red", 1)
    assert "Outcome(winners=('Red',), reason=<Reason.RESIGNATION: 'resignation'>)" in repr(finished)
    fields = json.loads(verdict_words.verdict_json(finished))
    assert (fields["status"], fields["winners"], fields["reason"], fields["to_move"]) == (
        "finished",
        ["Red"],
        "resignation",
        None,
    )


@pytest.mark.parametrize(
    ("statuses", "mismatched", "problems", "expected"),
    [
        ([], 0, [], 0),
        (["finished", "ongoing"], 0, [], 0),
        (["finished"], 1, [], 1),
        (["illegal"], 0, [], 1),
        (["malformed"], 0, [], 1),
        ([], 0, ["no-record"], 1),
        (["illegal", "error"], 0, [], 3),
        (["error"], 0, ["no-record"], 3),
        (["error", "illegal"], 0, ["unreadable"], 2),
        (["finished"], 0, ["unreadable"], 2),
    ],
)
def test_exit_status_precedence(statuses: list[str], mismatched: int, problems: list[str], expected: int) -> None:
    from referee.cli.exits import ProblemKind, Tally, exit_status
    from referee.judge.core.verdicts import Status

    tally = Tally()
    for status in statuses:
        tally.statuses[Status(status)] += 1
    tally.mismatched = mismatched
    for kind in problems:
        tally.problems[ProblemKind(kind)] += 1
    assert exit_status(tally) == expected


def test_json_check_of_every_conformance_and_example_record_is_unchanged_by_rendering() -> None:
    """The JSON writer flattens the verdict values into exactly the contract's fields, in order."""
    from referee.judge import session
    from referee.judge.core import verdict_words

    names = sorted(str(path) for path in CONFORMANCE.glob("*/*.rgn")) + sorted(
        str(path) for path in EXAMPLES.rglob("*.rgn")
    )
    assert names, "no conformance records beside the repository"
    for item in session.check(names):
        assert isinstance(item, Verdict)
        fields = json.loads(verdict_words.verdict_json(item))
        assert list(fields) == JSON_FIELDS
        assert fields["message"] == verdict_words.describe(item)
        if item.status in ("illegal", "malformed"):
            assert fields["turns"] is None and fields["to_move"] is None and fields["error"] is not None


# show, replay and moves (issue 8, point 7)


@pytest.mark.parametrize("command", ["show", "replay", "moves"])
def test_one_record_commands_exit_1_when_the_input_has_no_record(tmp_path: Path, command: str) -> None:
    empty = tmp_path / "mail.txt"
    empty.write_text("Dear GM, my move follows tomorrow.\n")
    result = invoke(command, str(empty))
    assert result.exit_code == 1 and "no record found" in result.output


def test_show_at_beyond_the_end_says_how_many_rounds_the_record_has(files: dict[str, str]) -> None:
    result = invoke("show", "--at", "5", files["ongoing"])
    assert result.exit_code == 2
    assert "the record has 0 rounds" in result.output
    path = Path(files["ongoing"])
    path.write_text(ONGOING + "1. R: a1-a6\nB: h8-h3\n2. R: a6-a5\n")
    result = invoke("show", "--at", "3", str(path))
    assert result.exit_code == 2 and "the record has 2 rounds" in result.output
    assert invoke("show", "--at", "2", str(path)).exit_code == 0


def test_show_of_an_illegal_record_says_which_board_it_shows_and_exits_1(files: dict[str, str]) -> None:
    result = invoke("show", files["illegal"])
    assert result.exit_code == 1
    assert result.output.startswith("before the illegal action of round 1:\n")
    assert ": illegal: line 6, col 7:" in result.output
    shown = json.loads(invoke("show", "--json", files["illegal"]).output)
    assert shown["shows"] == "before the illegal action of round 1" and shown["verdict"]["status"] == "illegal"
    early = invoke("show", "--at", "0", files["illegal"])
    assert early.exit_code == 1 and early.output.startswith("after round 0:\n")


def test_show_at_a_round_of_a_malformed_record_says_why_there_is_no_board(files: dict[str, str]) -> None:
    """A malformed record has no replay to cut at a round: its verdict, exit 1 (the
    output comparison of the redraw found this raising instead)."""
    for arguments in (["show", "--at", "1"], ["show", "--svg", "--at", "1"]):
        result = invoke(*arguments, files["malformed"])
        assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
        assert ": numica: malformed: line 5, col 1:" in result.output


def test_replay_of_a_malformed_record_starts_with_its_verdict(files: dict[str, str]) -> None:
    result = invoke("replay", files["malformed"])
    assert result.exit_code == 1
    assert result.output.startswith(files["malformed"] + ":1: numica: malformed: line 5, col 1:")


def test_replay_of_a_record_with_no_action_starts_with_the_board() -> None:
    result = invoke("replay", "-", stdin='[Game "numica"]\n[Seed "cli"]\n')
    assert result.exit_code == 0 and not result.output.startswith("\n")
    assert result.output.rstrip().endswith("-:1: numica: ongoing: Red to move")


# Small things (issue 8, point 9)


def test_dash_h_is_help_and_arguments_are_shown_as_files() -> None:
    for command in (["-h"], ["check", "-h"], ["show", "-h"]):
        assert invoke(*command).output == invoke(*command[:-1], "--help").output
    check_help = invoke("check", "-h").output
    assert "FILE...  RGN files to read; - reads standard input." in check_help
    show_help = invoke("show", "-h").output
    assert "FILE  An RGN file; - reads standard input." in show_help
    assert "TEXT" not in show_help and "file TEXT" not in check_help


def test_plurals_in_verdicts_and_summaries(tmp_path: Path) -> None:
    one = tmp_path / "one.rgn"
    one.write_text('[Game "numica"]\n[Seed "cli"]\n\nR: resign\n')
    result = invoke("check", "--quiet", str(one))
    assert result.output == "1 record: 1 finished, 0 ongoing, 0 illegal, 0 malformed; 0 claimed results do not match\n"
    assert invoke("check", str(one)).output.endswith("Blue wins (resignation) after 1 turn\n")
    claim = tmp_path / "claim.rgn"
    claim.write_text(WRONG_CLAIM)
    summary = invoke("check", "-q", str(claim)).output.splitlines()[-1]
    assert summary == "1 record: 1 finished, 0 ongoing, 0 illegal, 0 malformed; 1 claimed result does not match"


def test_a_crash_while_reading_stays_with_its_record(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A fault planted in the reader's dialect lookup for one game: that record gets the
    verdict `error`, the records around it are read and judged."""
    from referee.judge import session
    from referee.judge.fast import fused_check, streamed_verdict

    real = session.dialect_for

    def failing(game: str) -> object:
        if game == "nika":
            raise RuntimeError("planted fault")
        return real(game)

    for reading in (session, fused_check, streamed_verdict):  # the detailed, fused and lean paths all look it up
        monkeypatch.setattr(reading, "dialect_for", failing)
    path = tmp_path / "mixed.rgn"
    path.write_text(ONGOING + '[Game "nika"]\n\n1. W: pass pass\n' + FINISHED)
    verdicts = list(session.check([str(path)]))
    assert [getattr(item, "status", None) for item in verdicts] == ["ongoing", "error", "finished"]
    crashed = verdicts[1]
    assert isinstance(crashed, Verdict) and crashed.error is not None
    assert (crashed.game, crashed.error.line) == ("nika", 6)
    assert "RuntimeError: planted fault" in crashed.error.message


def test_a_long_action_is_quoted_by_a_short_prefix_only() -> None:
    record = '[Game "nieuchess"]\n\nR: setup' + " a1" * 100_000 + "\n"
    result = invoke("check", "-", stdin=record)
    assert result.exit_code == 1 and 'action 1 "setup a1 a1' in result.output
    assert len(result.output) < 400


def test_every_json_verdict_gives_the_byte_offset_its_record_starts_at(tmp_path: Path) -> None:
    """A tool can seek to `offset` and find the record's `[Game` there, whatever its status."""
    preamble = "Here are our games, caf\u00e9 included:\r\n"
    data = "\ufeff" + preamble + FINISHED + "\n" + MALFORMED + "\n" + ILLEGAL + ONGOING
    path = tmp_path / "league.rgn"
    path.write_bytes(data.encode("utf-8"))
    result = invoke("check", "--json", str(path))
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    assert [v["status"] for v in verdicts] == ["finished", "malformed", "illegal", "ongoing"]
    raw = path.read_bytes()
    offsets = [v["offset"] for v in verdicts]
    assert offsets[0] == 3 + len(preamble.encode("utf-8"))
    assert offsets == [i for i in range(len(raw)) if raw.startswith(b'[Game "numica"]', i)]


@pytest.mark.parametrize(
    ("tags", "moves"),
    [
        ('[TimeControl "3x+1d"]\n[Start "2026-12-01T12:00:00Z"]', "R:  SSSSOOOO\n"),
        ('[TimeControl "3d+1d/5d"]\n[Start "the first of December"]', "R:  SSSSOOOO\n"),
        ('[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]', "R:  SSSSOOOO {[%at yesterday Red]}\n"),
        ('[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]', "R:  SSSSOOOO {[%grant Blue forever]}\n"),
    ],
    ids=["TimeControl", "Start", "stamp", "grant"],
)
def test_format_passes_a_record_malformed_by_its_clock_through_as_read(tmp_path: Path, tags: str, moves: str) -> None:
    """A record malformed only through a clock value is passed through byte for byte, as
    `format`'s help says of malformed records, and the exit status is that of a malformed one."""
    text = f'[Game "numica"]  [Seed "42"]\n{tags}\n\n{moves}'
    source = tmp_path / "clock.rgn"
    source.write_text(text)
    checked = run_referee("check", str(source))
    assert ": malformed: " in checked.stdout and checked.returncode == 1
    done = run_referee("format", str(source))
    assert done.stdout == text and done.returncode == 1
    assert "malformed" in done.stderr
