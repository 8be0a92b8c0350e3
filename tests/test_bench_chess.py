"""`referee bench`: whole `referee check` processes, in text and --json, beside python-chess (real processes)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from referee.bench.chess import chess_pgn, read_sizes
from referee.judge.errors import UsageError


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


def _bench(*arguments: str, hide_chess: bool = False) -> subprocess.CompletedProcess[str]:
    hide = "import sys; sys.modules['chess'] = None; " if hide_chess else ""  # an import of chess fails
    code = hide + "from referee.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=False, timeout=300
    )


HEADER = ["game", "size", "mode", "records", "actions", "referee/s", "MB", "chess", "plies/s", "MB", "ratio", "goal"]


def test_bench_prints_both_modes_both_rates_their_ratio_and_the_goal_at_1x_and_10x() -> None:
    pytest.importorskip("chess", reason="python-chess is not installed: pip install 'referee[bench]'")
    done = _bench("bench", "--actions", "300", "--runs", "1", "Numica", "nieuchess")
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split() == HEADER
    assert [row.split()[:3] for row in rows] == [
        [game, size, mode] for game in ("numica", "nieuchess") for size in ("1x", "10x") for mode in ("text", "json")
    ]
    for row in rows:
        fields = row.split()
        ours, theirs, ratio, goal = (float(fields[i].replace(",", "")) for i in (5, 7, 9, 10))
        assert ours > 0 and theirs > 0 and ratio == pytest.approx(ours / theirs, rel=0.02)
        assert goal == (1.5 if fields[0] == "nieuchess" else 3.0)
        assert ("below" in fields[11:12]) == (ratio < goal)
        assert re.fullmatch(r"\d+", fields[6])  # peak MB
    for text, json_row in zip(rows[0::2], rows[1::2], strict=True):
        share = float(json_row.split("  ")[-1].split()[0])
        assert share == pytest.approx(
            float(json_row.split()[5].replace(",", "")) / float(text.split()[5].replace(",", "")), rel=0.02
        )
        assert json_row.rstrip().endswith("of text") == (share >= 0.85)
    for small, large in (rows[0:3:2], rows[4:7:2]):
        assert int(small.split()[4]) >= 300
        assert int(large.split()[3]) == 10 * int(small.split()[3])
        assert int(large.split()[4]) == 10 * int(small.split()[4])


def test_bench_without_python_chess_shows_the_referee_alone_and_says_why() -> None:
    done = _bench("bench", "--actions", "100", "--runs", "1", "pikemen", hide_chess=True)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        "referee bench: python-chess is not installed, so its figures are left out: pip install 'referee[bench]'"
    ]
    header, *rows = done.stdout.splitlines()
    assert header.split() == HEADER
    assert [row.split()[:3] for row in rows] == [
        ["pikemen", "1x", "text"],
        ["pikemen", "1x", "json"],
        ["pikemen", "10x", "text"],
        ["pikemen", "10x", "json"],
    ]
    assert all(row.split()[7:11] == ["-", "-", "-", "3.0"] for row in rows)


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
