"""Every command's output over a corpus, before and after a change, compared byte for byte.

The redraw of `referee/` (issue 17) was checked this way: the corpus made and run with the
old code, run again with the new, and the transcripts compared.

    python tests/tools/compare_outputs.py corpus DIR [COUNT]   # examples, conformance, COUNT playouts, timed records
    python tests/tools/compare_outputs.py run DIR OUT.jsonl    # with the code to measure installed
    python tests/tools/compare_outputs.py diff BEFORE.jsonl AFTER.jsonl

`run` invokes, in one process, `check` and `check --json` over the whole corpus, `format`,
and for each record `replay`, `replay --json`, `show`, `show --json`, `moves`,
`moves --json`, `show --svg` (at the end, after rounds 0, 1 and 3), `show --at 1` and `replay --html` (also
with `-o`: the file written; pictures by their
SHA-256), a `play --dry-run --json` and a real `play` of a listed move on a copy (with
the file written), and a move, `show` and `moves` by mail through the gateway on 2-sided
games (the answers in the outbox, dates and message ids blanked). `diff` compares exit codes, standard
output and error, files and answers, temporary folder names aside.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TEMPORARY = re.compile(r"/tmp/tmp\w+")
NOW = "2026-12-10T00:00:00Z"
"""The instant of every `play` (`--now`): a timed game's stamp would be the time of the run."""


def corpus(folder: Path, count: int) -> None:
    """The examples, the conformance records and `count` playouts (a third mutated, a
    third with comments added), one record per file."""
    from referee.games import registry

    try:
        from referee.judge.services.random_playout import play
    except ImportError:  # the layout before the redraw
        from referee.playout import play  # type: ignore[no-redef]  # noqa: I001

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    shipped = sorted((ROOT / "examples").rglob("*.rgn")) + sorted((ROOT / "tests/data/conformance").rglob("*.rgn"))
    for number, path in enumerate(shipped, start=1):
        shutil.copy(path, folder / f"{number:05d}-{path.name}")
    rng = random.Random(17)
    games = list(registry.GAMES)
    for index in range(count):
        game = games[index % len(games)]
        counts = registry.GAMES[game].player_counts
        players = counts[(index // len(games)) % len(counts)]
        text = play(game, players, f"cmp-{index}", max_turns=rng.choice([3, 10, 40, 120])).text
        if index % 3 == 1:
            text = _mutated(rng, text)
        elif index % 3 == 2:
            text = text.replace("\n1.", "\n{a comment} 1.", 1).rstrip("\n") + " ; trailing\n"
        (folder / f"{len(shipped) + index + 1:05d}-{game}-{players}.rgn").write_text(text, encoding="utf-8")
    _timed(folder, rng)


def _timed(folder: Path, rng: random.Random) -> None:
    """Timed records (TIME.md): stamps and grants to a flag fall, a timeout, an illegal
    action, an ongoing end or a stamp that cannot be read, each also mutated."""
    try:
        from tests.helpers.big import pikemen_clocked
    except ImportError:  # before timed records were generated
        return
    for ending in ("flag", "timeout", "illegal", "ongoing", "stamp"):
        for turns in (8, 40):
            text = pikemen_clocked(turns, ending).decode("utf-8")
            (folder / f"timed-{ending}-{turns}.rgn").write_text(text, encoding="utf-8")
            for copy in range(3):
                mutated = _mutated(rng, text)
                (folder / f"timed-{ending}-{turns}-mutated-{copy}.rgn").write_text(mutated, encoding="utf-8")


def _mutated(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    at = rng.randrange(len(lines))
    how = rng.choice(["drop", "repeat", "swap", "cut", "typo"])
    if how == "drop":
        del lines[at]
    elif how == "repeat":
        lines.insert(at, lines[at])
    elif how == "swap" and at + 1 < len(lines):
        lines[at], lines[at + 1] = lines[at + 1], lines[at]
    elif how == "cut":
        lines = lines[: at + 1]
    elif lines[at]:
        where = rng.randrange(len(lines[at]))
        lines[at] = lines[at][:where] + rng.choice("abcxyz0123456789-:+{}() ") + lines[at][where + 1 :]
    return "\n".join(lines)


def run(folder: Path, out_path: Path, mails: int = 60) -> None:
    from typer.testing import CliRunner

    try:
        from referee.cli.main import app
    except ImportError:  # the layout before the redraw
        from referee.cli import app

    runner = CliRunner()
    files = sorted(folder.glob("*.rgn"))

    def invoke(args: list[str], stdin: str | None = None) -> dict[str, Any]:
        result = runner.invoke(app, args, input=stdin, catch_exceptions=True)
        error = result.exception
        crash = None if error is None or isinstance(error, SystemExit) else repr(error)
        return {"args": args, "code": result.exit_code, "out": result.stdout, "err": result.stderr, "exc": crash}

    with out_path.open("w", encoding="utf-8") as out:

        def emit(entry: dict[str, Any]) -> None:
            out.write(json.dumps(entry) + "\n")

        names = [str(path) for path in files]
        emit(invoke(["check", *names]))
        emit(invoke(["check", "--json", *names]))
        emit(invoke(["format", *names]))
        for path in files:
            name = str(path)
            for args in (
                ["replay", name],
                ["replay", "--json", name],
                ["show", name],
                ["show", "--json", name],
                ["moves", name],
                ["moves", "--json", name],
                ["show", "--svg", name],
                ["show", "--svg", "--at", "0", name],
                ["show", "--svg", "--at", "1", name],
                ["show", "--svg", "--at", "3", name],
                ["show", "--at", "1", name],
                ["replay", "--html", name],
            ):
                entry = invoke(args)
                if "--svg" in args or "--html" in args:
                    entry["out"] = hashlib.sha256(entry["out"].encode()).hexdigest()
                emit(entry)
            with tempfile.TemporaryDirectory() as tmp:  # the page written piece by piece to a file
                page = Path(tmp) / "page.html"
                entry = invoke(["replay", "--html", "-o", str(page), name])
                written = hashlib.sha256(page.read_bytes()).hexdigest() if page.exists() else None
                emit(entry | {"args": ["replay-html-o", name], "file": written})
            listed = _listed(invoke(["moves", "--json", name])["out"])[0]
            if listed:
                with tempfile.TemporaryDirectory() as tmp:
                    game = Path(tmp) / "g.rgn"
                    shutil.copy(path, game)
                    dry = invoke(["play", str(game), "--now", NOW, "--dry-run", "--json", listed[0]])
                    emit(dry | {"args": ["play-dry", name]})
                    entry = invoke(["play", str(game), "--now", NOW, listed[-1]])
                    emit(entry | {"args": ["play", name], "file": game.read_text(encoding="utf-8")})
        for entry in _mails(files, invoke, mails):
            emit(entry)


def _listed(text: str) -> tuple[list[str], str | None]:
    try:
        data = json.loads(text)
    except ValueError:
        return [], None
    return data.get("actions") or [], data.get("to_move")


def _mails(files: list[Path], invoke: Any, limit: int) -> list[dict[str, Any]]:
    """A move by mail on the first `limit` ongoing 2-sided (Red and Blue) games, and `show`
    and `moves` by mail on the first `limit` 2-sided games, whatever their verdict."""
    found: list[dict[str, Any]] = []
    moved = asked = 0
    for path in files:
        if moved >= limit and asked >= limit:
            break
        text = path.read_text(encoding="utf-8", errors="replace")
        if not text.startswith(('[Game "numica"]', '[Game "nieuchess"]')):
            continue
        listed, side = _listed(invoke(["moves", "--json", str(path)])["out"])
        bodies: list[tuple[str, str]] = []
        if asked < limit:
            asked += 1
            bodies += [("ann@example.org", "show"), ("bo@example.org", "moves")]
        if listed and side in ("Red", "Blue") and moved < limit:
            moved += 1
            bodies.append(("ann@example.org" if side == "Red" else "bo@example.org", listed[0]))
        for sender, body in bodies:
            found.append(_mail(path, text, sender, body, len(found), invoke))
    return found


def _mail(path: Path, text: str, sender: str, body: str, number: int, invoke: Any) -> dict[str, Any]:
    """The gateway's answers to one message with `body` from `sender` on a copy of `path`."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bare = re.sub(r'(?m)^\[(Red|Blue) "[^"\n]*"\]\n', "", text)
        players = '\n[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n'
        (folder / "g1.rgn").write_text(bare.replace("\n", players, 1), encoding="utf-8")
        message = (
            f"From: {sender}\nTo: referee@example.org\nSubject: [g1] move\n"
            f"Message-ID: <m{number}@example.org>\n\n{body}\n"
        )
        entry: dict[str, Any] = invoke(["mail", "receive", str(folder), "--from", "referee@example.org"], stdin=message)
        answers = []
        for eml in sorted((folder / "outbox").glob("*.eml")):
            answer = re.sub(r"(?m)^(Date|Message-ID):.*$", r"\1: X", eml.read_text(encoding="utf-8"))
            answers.append(re.sub(r"==============\d+==", "BOUNDARY", answer))
        game_text = (folder / "g1.rgn").read_text(encoding="utf-8")
        return entry | {"args": ["mail", str(path), body], "answers": answers, "file": game_text}


def diff(before: Path, after: Path) -> int:
    def load(path: Path) -> list[dict[str, Any]]:
        return [json.loads(TEMPORARY.sub("TMP", line)) for line in path.open(encoding="utf-8")]

    old, new = load(before), load(after)
    differences = 0
    for one, other in zip(old, new, strict=False):
        for key in ("args", "code", "out", "err", "exc", "file", "answers"):
            if one.get(key) != other.get(key):
                differences += 1
                if differences <= 10:
                    print(f"differs: {key} of {' '.join(one['args'][:3])}")
    print(f"{len(old)} transcripts before, {len(new)} after; {differences} differences")
    return 0 if differences == 0 and len(old) == len(new) else 1


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "corpus":
        corpus(Path(argv[1]), int(argv[2]) if len(argv) > 2 else 1000)
        return 0
    if len(argv) == 3 and argv[0] == "run":
        run(Path(argv[1]), Path(argv[2]))
        return 0
    if len(argv) == 3 and argv[0] == "diff":
        return diff(Path(argv[1]), Path(argv[2]))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
