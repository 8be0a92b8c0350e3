"""`referee bench --chess`: whole `referee check` processes beside python-chess (real processes)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from referee.bench_chess import chess_pgn


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


def test_bench_chess_prints_both_rates_and_their_ratio_at_1x_and_10x() -> None:
    pytest.importorskip("chess", reason="python-chess is not installed: pip install 'referee[bench]'")
    done = subprocess.run(
        [sys.executable, "-m", "referee", "bench", "--chess", "--records", "2", "Numica"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert header.split() == [
        "game",
        "size",
        "records",
        "actions",
        "referee/s",
        "MB",
        "chess",
        "plies/s",
        "MB",
        "ratio",
    ]
    assert [row.split()[:3] for row in rows] == [["numica", "1x", "2"], ["numica", "10x", "20"]]
    for row in rows:
        fields = row.split()
        ours, theirs, ratio = (float(fields[i].replace(",", "")) for i in (4, 6, 8))
        assert ours > 0 and theirs > 0 and ratio == pytest.approx(ours / theirs, rel=0.02)
    assert int(rows[1].split()[3]) == 10 * int(rows[0].split()[3])
    assert all(re.fullmatch(r"\d+", row.split()[5]) for row in rows)  # peak MB
