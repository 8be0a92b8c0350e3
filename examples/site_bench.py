"""How long `referee league site` takes on a big league (a benchmark, not a test).

    python examples/site_bench.py [--players 200] [--rounds 20] [--keep DIR]

Makes a two-player Pikemen round robin of PLAYERS players and ROUNDS rounds (200 x 20:
2,000 games) whose games are copies of a dozen games played through `referee play`
(random legal turns, then a resignation or a draw; those of the last round left
ongoing), then times `referee league site DIR -o OUT` as a process: from nothing, again
on the unchanged league, after one move in one game, and after that game ended. Prints
the wall times.
"""

from __future__ import annotations

import argparse
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.judge.services.new_record import new_record  # noqa: E402
from referee.league.pairing import round_robin  # noqa: E402
from referee.live.play import submit  # noqa: E402
from tests.helpers.site_season import one_move, play_game  # noqa: E402

TEMPLATES = 12


def templates(folder: Path) -> list[tuple[str, bool]]:
    """(text, finished) of a dozen games played between P1 (Red) and P2 (Blue)."""
    made = []
    for number in range(TEMPLATES):
        path = folder / f"t{number}.rgn"
        tags = ["Red=P1 <p1@x.org>", "Blue=P2 <p2@x.org>", "Event=Bench", "Round=1", "Table=1"]
        path.write_text(new_record("pikemen", 2, None, None, tags), encoding="utf-8")
        ongoing = number >= TEMPLATES - 2
        play_game(
            path, f"bench-{number}", 4 + number % 9, None if ongoing else ("draw" if number % 5 == 0 else "resign")
        )
        made.append((path.read_text(encoding="utf-8"), not ongoing))
    return made


def league(folder: Path, players: int, rounds: int) -> int:
    folder.mkdir(parents=True)
    lines = ['name = "Bench league"', 'game = "pikemen"', "players = 2", f"rounds = {rounds}"]
    for number in range(1, players + 1):
        lines += ["", "[[player]]", f'name = "Player {number}"', f'address = "p{number}@example.org"']
    (folder / "league.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    games = templates(Path(tempfile.mkdtemp(prefix="site-bench-")))
    finished = [text for text, done in games if done]
    ongoing = [text for text, done in games if not done]
    count = 0
    for number in range(1, rounds + 1):
        for table in round_robin(players, number).tables:
            red, blue = table.seats
            pool = ongoing if number == rounds else finished
            text = pool[count % len(pool)]
            text = text.replace("P1 <p1@x.org>", f"Player {red} <p{red}@example.org>")
            text = text.replace("P2 <p2@x.org>", f"Player {blue} <p{blue}@example.org>")
            text = re.sub(r'\[Round "1"\]', f'[Round "{number}"]', text)
            text = re.sub(r'\[Table "1"\]', f'[Table "{table.number}"]', text)
            (folder / f"r{number}-t{table.number}.rgn").write_text(text, encoding="utf-8")
            count += 1
    return count


def timed(folder: Path, out: Path) -> tuple[float, str]:
    """The wall time of one `site` process, and what it said with its CPU time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "referee", "league", "site", str(folder), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"referee league site failed ({done.returncode}): {done.stderr}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return elapsed, f"{done.stdout.strip().split(';')[0]}; CPU {cpu:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--keep", type=Path, help="make the league and the site here, and keep them")
    options = parser.parse_args()
    root = options.keep or Path(tempfile.mkdtemp(prefix="site-bench-"))
    folder, out = root / "league", root / "www"
    made = league(folder, options.players, options.rounds)
    print(f"{options.players} players, {made} games in {folder}")
    for label in ("from nothing", "unchanged"):
        elapsed, said = timed(folder, out)
        print(f"site {label}: {elapsed:.2f} s ({said})")
    move = one_move(folder / f"r{options.rounds}-t1.rgn")
    elapsed, said = timed(folder, out)
    print(f"site after one move ({move}) in r{options.rounds}-t1: {elapsed:.2f} s ({said})")
    done = submit(folder / f"r{options.rounds}-t1.rgn", "resign")
    assert done.exit_code == 0, done.text()
    elapsed, said = timed(folder, out)
    print(f"site after that game ended (resign): {elapsed:.2f} s ({said})")
    if options.keep is None:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
