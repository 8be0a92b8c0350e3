"""Harness `league`: a league folder through `league status` and `league tick`, in process:
`referee.league.folder.status` and `referee.league.tick.tick` and the lines and JSON the
commands print of them, then `status` again (on what `tick` wrote).

An input is the folder in a plain text form, so that a seed is readable and a crash can be
edited by hand: an optional first line `now TIME` (the `--now` of `tick`; default below),
then files, each a line `=== NAME` followed by its bytes:

    now 2026-12-05T12:00:00Z
    === league.toml
    name = "T"
    ...
    === league.log
    {"at": ...}
    === r1-t1.rgn
    [Game "nika"]
    ...
    === .journal-fuzz/commit.json
    {"steps": [...]}

NAME is a plain file name (letters, digits, `.`, `_`, `-`), or `.journal-fuzz/` and a plain
name (a journal a dead command left: `referee/store/journal.py`). The folder is emptied and
written again for every input.

Journals are left out unless REFEREE_FUZZ_JOURNALS=1: on main, recovery obeys the journal's
paths and fails on its malformed shapes (issue 44, item 1), which the fuzzer finds at once
and would find again and again. The sandbox's guard (tests/fuzz/guard.py) stops any write
outside the folder before it happens, so a journal naming `../x` is reported, never obeyed.

A defect: any exception but the errors the command line words as one line (usage, a refused
operation, a busy folder, an OSError of the folder), a game whose status is `error` (exit 3),
or a write outside the folder."""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.fuzz.guard import Defect, Sandbox

NOW = "2026-12-05T12:00:00Z"
SENDER = "referee@example.org"
_NAME = re.compile(rb"(?:\.journal-fuzz/)?[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
_MARK = b"=== "
_state: dict[str, object] = {}


def journals_on() -> bool:
    return os.environ.get("REFEREE_FUZZ_JOURNALS", "1") != "0"


def parse(data: bytes) -> tuple[bytes | None, dict[str, bytes]]:
    """The `now` line and the files of an input (later files of one name replace earlier ones)."""
    now = None
    if data.startswith(b"now "):
        line, _, data = data.partition(b"\n")
        now = line[4:].strip()
    files: dict[str, bytes] = {}
    chunks = (b"\n" + data).split(b"\n" + _MARK)
    for index, chunk in enumerate(chunks[1:], start=2):
        name, _, content = chunk.partition(b"\n")
        if index == len(chunks) and content.endswith(b"\n"):
            content = content[:-1]  # the newline `pack` ends the last file with
        if _NAME.fullmatch(name) and name not in (b".", b".."):
            files[name.decode("ascii")] = content
    return now, files


def pack(now: str | None, files: dict[str, bytes]) -> bytes:
    """The input of a folder's files (for seeds)."""
    head = f"now {now}\n".encode() if now is not None else b""
    return head + b"".join(_MARK + name.encode("ascii") + b"\n" + content + b"\n" for name, content in files.items())


def setup() -> None:
    if "sandbox" not in _state:
        sandbox = Sandbox("league")
        folder = sandbox.root / "league"
        folder.mkdir()
        _state["sandbox"], _state["folder"] = sandbox, folder


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for name, content in files.items():
        if name.startswith(".journal-"):
            if not journals_on():
                continue
            (folder / ".journal-fuzz").mkdir(exist_ok=True)
        (folder / name).write_bytes(content)


def _games_checked(games: object) -> None:
    for game in games:  # type: ignore[attr-defined]
        if str(game.status) == "error":
            raise Defect(f"game {game.game}: status error (exit 3): {game.message}")


def _run(folder: Path, now: int) -> None:
    from referee.judge.core.verdict_words import json_line
    from referee.league import folder as league
    from referee.league.tick import tick

    def status() -> None:
        config, games, _ = league.status(folder)
        json_line(
            {
                "league": config.name,
                "round": league.current_round(games),
                "rounds": league.total_rounds(config),
                "games": [league.game_json(game) for game in games],
            }
        )
        for game in games:
            league.game_line(game)
        _games_checked(games)

    status()
    ticked = tick(folder, now, SENDER, None)
    ticked.lines()
    json_line(ticked.as_json())
    _games_checked(ticked.faulty)
    status()


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer call
    setup()
    from referee.errors import BusyError, UsageError
    from referee.league.folder import LeagueRefused
    from referee.league.league_toml import LeagueConfigError
    from referee.notation.timing import TimingError, parse_instant

    sandbox, folder = _state["sandbox"], _state["folder"]
    assert isinstance(sandbox, Sandbox) and isinstance(folder, Path)
    text, files = parse(data)
    try:
        now = parse_instant((text or NOW.encode()).decode("ascii"))
    except (TimingError, UnicodeDecodeError, ValueError):
        now = parse_instant(NOW)
    sandbox.clear(folder)
    _write(folder, files)
    try:
        with sandbox.guarded(folder):
            _run(folder, now)
    except (UsageError, LeagueConfigError, LeagueRefused, BusyError, OSError):
        return  # `referee league`'s boundary words each as one line (exit 2, 1 or 75)
