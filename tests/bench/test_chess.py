"""`referee bench`: whole `referee check` processes, in text and --json, beside python-chess (real processes)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bench.chess import (
    CHESS_READ,
    HEADER,
    JSON_OF_TEXT,
    NO_PGN_EXTRACT,
    SHAPE_OF_SHAPE,
    Row,
    format_row,
    format_shapes,
    format_shares,
    pgn_extract,
    pgn_extract_reads,
    read_sizes,
    timed_in_turn,
)
from referee.bench.generated import Corpus, chess_pgn
from referee.errors import UsageError


def test_python_chess_games_are_made_to_the_ply_count_and_read_back() -> None:
    chess_pgn_module = pytest.importorskip(
        "chess.pgn", reason="python-chess is not installed: pip install 'referee[bench]'"
    )
    import io

    text, plies = chess_pgn(300, "t")
    assert plies == 300
    read, stream = 0, io.StringIO(text)
    while (game := chess_pgn_module.read_game(stream)) is not None:
        assert not game.errors
        read += sum(1 for _ in game.mainline_moves())
    assert read == 300


def _bench(*arguments: str, hide_chess: bool = False, hide_extract: bool = False) -> subprocess.CompletedProcess[str]:
    hide = "import sys; sys.modules['chess'] = None; " if hide_chess else ""  # an import of chess fails
    if hide_extract:  # as if pgn-extract were not installed
        hide += "import referee.bench.chess as c; c.pgn_extract = lambda: None; "
    code = hide + "from referee.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=False, timeout=300
    )


COLUMNS = [
    "game",
    "size",
    "mode",
    "records",
    "actions",
    "referee/s",
    "MB",
    "chess",
    "plies/s",
    "MB",
    "pgn-extract/s",
    "ratio",
    "goal",
]


def test_bench_prints_both_modes_both_rates_their_ratio_and_the_goal_at_1x_and_10x() -> None:
    pytest.importorskip("chess", reason="python-chess is not installed: pip install 'referee[bench]'")
    done = _bench("bench", "--actions", "300", "--runs", "1", "--shape", "short", "Numica", "nieuchess")
    assert done.returncode == 0, done.stderr
    shape, header, *rows = done.stdout.splitlines()
    assert shape.startswith("records of the short shape: uniform random play, moves in destination form")
    if pgn_extract() is None:
        assert rows.pop() == NO_PGN_EXTRACT
    assert rows[-3:] == [
        "share of each kind of action in each shape's records:",
        rows[-2],
        rows[-1],
    ]
    assert rows[-2].startswith("numica short: Step ") and rows[-1].startswith("nieuchess short: Move ")
    assert "replacement steps" in rows[-1] and "replacement steps" not in rows[-2]
    rows = rows[:-3]
    assert header.split() == COLUMNS
    assert [row.split()[:3] for row in rows] == [
        [game, size, mode] for game in ("numica", "nieuchess") for size in ("1x", "10x") for mode in ("text", "json")
    ]
    for row in rows:
        fields = row.split()
        ours, theirs, ratio, goal = (float(fields[i].replace(",", "")) for i in (5, 7, 10, 11))
        assert ours > 0 and theirs > 0 and ratio == pytest.approx(ours / theirs, rel=0.02)
        assert goal == (3.0 if fields[0] == "nieuchess" else 7.0)
        assert ("below" in fields[12:13]) == (ratio < goal)
        assert fields[9] == "-" if pgn_extract() is None else float(fields[9].replace(",", "")) > 0
        assert re.fullmatch(r"\d+", fields[6])  # peak MB
    for text, json_row in zip(rows[0::2], rows[1::2], strict=True):
        share = float(json_row.split("  ")[-1].split()[0])
        assert share == pytest.approx(
            float(json_row.split()[5].replace(",", "")) / float(text.split()[5].replace(",", "")), rel=0.02
        )
        assert json_row.rstrip().endswith("of text") == (share >= 0.9)
    for small, large in (rows[0:3:2], rows[4:7:2]):  # 10x: ten times the actions, distinct records
        assert int(small.split()[4]) >= 300 and int(large.split()[4]) >= 3000
        assert int(large.split()[3]) > int(small.split()[3])


def test_bench_without_python_chess_shows_the_referee_alone_and_says_why() -> None:
    done = _bench("bench", "--actions", "100", "--runs", "1", "pikemen", hide_chess=True, hide_extract=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "referee bench: python-chess is not installed, so its figures are left out: "
        "pip install '.[bench]' in the checkout"
    ]
    lines = done.stdout.splitlines()
    assert lines[-1] == NO_PGN_EXTRACT  # said once, after the tables
    purposeful, shorter = lines[0:6], lines[6:12]
    assert purposeful[0].startswith("records of the purposeful shape: purposeful play")
    assert shorter[0].startswith("records of the short shape: uniform random play")
    for block in (purposeful, shorter):
        assert block[1].split() == COLUMNS
        rows = block[2:]
        assert [row.split()[:3] for row in rows] == [
            ["pikemen", "1x", "text"],
            ["pikemen", "1x", "json"],
            ["pikemen", "10x", "text"],
            ["pikemen", "10x", "json"],
        ]
        assert all(row.split()[7:12] == ["-", "-", "-", "-", "7.0"] for row in rows)
    assert lines[12] == "share of each kind of action in each shape's records:"
    assert lines[13].startswith("pikemen purposeful: ") and lines[14].startswith("pikemen short: ")
    assert lines[15] == "speed per action of each shape, as a share of the fastest shape's:"
    compared = lines[16:20]
    assert [row.split()[:3] for row in compared] == [row.split()[:3] for row in purposeful[2:]]
    for row in compared:
        shares = re.findall(r"(purposeful|short) (\d\.\d\d)", row)
        assert [shape for shape, _ in shares] == ["purposeful", "short"]
        assert max(float(share) for _, share in shares) == 1.0
        assert row.endswith(" (below 0.8)") == (min(float(share) for _, share in shares) < 0.8)


def test_bench_sizes_are_whole_multiples_or_a_usage_error() -> None:
    assert read_sizes("1,10,100") == (1, 10, 100)
    for wrong in ("", "0", "1,,2", "x", "9" * 5000, "2000"):
        with pytest.raises(UsageError, match="--sizes takes whole numbers"):
            read_sizes(wrong)
    done = _bench("bench", "--sizes", "1,x", "numica")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "referee: --sizes takes whole numbers from 1 to 1000 separated by commas, like 1,10,100; not '1,x'"
    ]


def _row(mode: str = "text", rate: float = 500.0, text_rate: float | None = None, **changes: object) -> Row:
    row = Row("pikemen", 10, mode, 2610, 500800, rate, 28.4, 100.0, 27.6, 1_600_000.0, 5.0, text_rate)
    return row._replace(**changes)


def test_the_report_marks_every_goal_missed_and_only_those() -> None:
    """The report's formatting (no timing): the ratio to python-chess beside the game's goal,
    `below` when under it; a --json line's share of text beside 0.9, marked when under."""
    assert HEADER.split() == COLUMNS
    met = format_row(_row(rate=500.0))
    assert met.split() == [
        "pikemen",
        "10x",
        "text",
        "2610",
        "500800",
        "500",
        "28",
        "100",
        "28",
        "1,600,000",
        "5.00",
        "5.0",
    ]
    assert format_row(_row(rate=499.0)).split()[-3:] == ["4.99", "5.0", "below"]
    assert len(met) == len(HEADER)  # the columns line up under the header
    json_met = format_row(_row("json", rate=450.0, text_rate=500.0))
    assert json_met.endswith("4.50   5.0 below  0.90 of text")
    json_missed = format_row(_row("json", rate=600.0, text_rate=670.0))
    assert json_missed.endswith("6.00   5.0  0.89 of text (below 0.9)")  # 0.8955: cut, not rounded up to the goal
    assert format_row(_row(rate=499.9)).split()[-3:] == ["4.99", "5.0", "below"]
    assert JSON_OF_TEXT == 0.9
    nieuchess = format_row(_row(game="nieuchess", goal=3.0, rate=310.0))
    assert nieuchess.split()[-2:] == ["3.10", "3.0"]


def test_the_report_without_python_chess_or_pgn_extract_shows_dashes_and_no_mark() -> None:
    alone = format_row(_row(chess=None, pgn_extract=None))
    assert alone.split()[5:] == ["500", "28", "-", "-", "-", "-", "5.0"]
    assert "below" not in format_row(_row(chess=None, pgn_extract=None, rate=1.0))
    assert format_row(_row(pgn_extract=None)).split()[9] == "-"


def test_the_shapes_line_gives_each_as_a_share_of_the_fastest_and_marks_below_0_8() -> None:
    assert SHAPE_OF_SHAPE == 0.8
    line = format_shapes("nika", 10, "json", {"purposeful": 400.0, "short": 500.0})
    assert line == "nika         10x json  purposeful 0.80, short 1.00 of the fastest"
    low = format_shapes("nika", 10, "text", {"purposeful": 399.0, "short": 500.0})
    assert low.endswith("purposeful 0.79, short 1.00 of the fastest (below 0.8)")


def test_the_shares_line_names_every_kind_and_the_replacement_steps_where_a_game_has_them() -> None:
    corpus = Corpus(b"", 1, 10, {"Move": 0.7, "Battle": 0.2, "Place": 0.1}, 0.125)
    assert format_shares("nieuchess", "purposeful", corpus) == (
        "nieuchess purposeful: Move 70.0%, Battle 20.0%, Place 10.0%; replacement steps 12.5% of turns"
    )
    nika = Corpus(b"", 1, 10, {"Rotate": 0.5, "PhalanxMove": 0.5}, 0.0)
    assert format_shares("nika", "short", nika) == "nika short: Rotate 50.0%, PhalanxMove 50.0%"


def test_a_failed_check_is_said_on_its_line() -> None:
    failed = format_row(_row(rate=None, failed="referee check exited with 3"))
    assert failed.split()[:5] == ["pikemen", "10x", "text", "2610", "500800"]
    assert failed.endswith("  failed: referee check exited with 3")


def test_pgn_extract_validates_the_pgn_it_is_timed_on(tmp_path: Path) -> None:
    program = pgn_extract()
    if program is None:
        pytest.skip("pgn-extract is not installed (Debian: apt-get install pgn-extract)")
    good = tmp_path / "good.pgn"
    good.write_text('[Event "a"]\n\n1. e4 e5 2. Nf3 *\n\n[Event "b"]\n\n1. d4 *\n')
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "a"]\n\n1. e4 e5 2. Ke3 *\n')
    assert pgn_extract_reads(program, good) == 2
    assert pgn_extract_reads(program, bad) is None


def test_the_commands_compared_run_in_turn_each_timed_and_measured(tmp_path: Path) -> None:
    """A B A B...: a drift of the machine's speed slows every command alike."""
    order = tmp_path / "order"
    write = "import sys; open(sys.argv[1], 'a').write(sys.argv[2]); sys.exit(int(sys.argv[3]))"
    commands = {name: [sys.executable, "-c", write, str(order), name, code] for name, code in (("a", "0"), ("b", "3"))}
    timed = timed_in_turn(commands, 3)
    assert order.read_text() == "ababab"
    assert timed["a"].status == 0 and timed["b"].status == 3
    assert all(0 < figure.seconds < 30 and figure.peak_mb > 1 for figure in timed.values())


def _yardstick(tmp_path: Path, pgn: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("chess", reason="python-chess is not installed: pip install 'referee[bench]'")
    path = tmp_path / "games.pgn"
    path.write_text(pgn, encoding="utf-8")
    return subprocess.run([sys.executable, "-c", CHESS_READ, str(path)], capture_output=True, text=True, check=False)


def test_the_yardstick_counts_every_ply_of_every_game(tmp_path: Path) -> None:
    text, plies = chess_pgn(500, "yardstick")
    done = _yardstick(tmp_path, "\n".join([text] * 3))
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{3 * plies}\n"


def test_the_yardstick_rejects_an_illegal_move_without_playing_the_moves_again(tmp_path: Path) -> None:
    """read_game records an illegal move in game.errors: the yardstick fails on it, so it
    need not play every move a second time on a fresh board (issue 52)."""
    for wrong in ("1. e4 e5 2. Ke3 *", "1. e4 e5 2. Nf3 Nc6 3. Qxf7 *", "1. e4 e4 *"):
        done = _yardstick(tmp_path, f'[Event "good"]\n\n1. d4 d5 *\n\n[Event "bad"]\n\n{wrong}\n')
        assert done.returncode == 1, wrong
        assert done.stderr.splitlines()[-1].startswith("invalid game: "), done.stderr
    assert ".push(" not in CHESS_READ and "mainline_moves" not in CHESS_READ
