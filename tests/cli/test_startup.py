"""Start-up (issue 34): `referee check` builds only the command it runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli import app
from referee.cli.main import app_for, command_name


def test_a_command_line_naming_a_command_gets_an_app_of_that_command_alone() -> None:
    only = app_for(["check", "x.rgn"])
    assert [command_name(info) for info in only.registered_commands] == ["check"] and not only.registered_groups
    assert [command_name(info) for info in app_for(["format"]).registered_commands] == ["format"]
    league = app_for(["league", "standings"])
    assert not league.registered_commands and [info.name for info in league.registered_groups] == ["league"]
    assert app_for(["--help"]) is app and app_for([]) is app and app_for(["chek"]) is app
    assert len(app.registered_commands) > 5  # the whole app is left whole


def test_check_runs_without_the_detailed_grammar(tmp_path: Path) -> None:
    record = tmp_path / "one.rgn"
    record.write_text('[Game "numica"]\n[Seed "startup"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n')
    code = (
        "import sys\nfrom referee.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in ('pyparsing',) if name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code, "check", str(record)], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "[]", done.stdout + done.stderr
    assert "ongoing" in done.stdout


SHORT = {
    "numica": '[Game "numica"]\n[Seed "su-game"]\n\nR: SOOOOSSS\nB: OOOSSOSS\n1. R: b1-b3\n',
    "nika": '[Game "nika"]\n[Players "2"]\n[Seed "su-game"]\n\n1. W: i1>W i3>N\nR: a7+b7-N b4+c4>E\n',
    "pikemen": '[Game "pikemen"]\n[Seed "su-game"]\n\n1. R: g3(S)\nB: b6(SW)\n2. R: g2(NE)\n',
    "nieuchess": (
        '[Game "nieuchess"]\n[Seed "su-game"]\n\n'
        "R: setup c1 j1 q1 x1 p6 w6 e7 l7 s7 a8 h8 o8 v8 d9 u13 j14 q14 m15 i16 p16\n"
        "B: setup g23 n23 j24 q24 f25 m25 t25 b26 l30 s30 a31 h31 o31 v31 d32 k32 r32 y32 g33 n33\n"
        "1. R: h8-k6 w6-x4 v8-s10\n"
    ),
}

HEAVY = (
    # the detailed grammar, other commands' layers, optional extras and their libraries
    "pyparsing",
    "referee.judge.services.archive_stats",
    "referee.judge.runners.dask_check",
    "referee.judge.runners.verdict_table",
    "referee.league",
    "referee.live",
    "referee.pictures",
    "referee.bench",
    "referee.cli.config_file",
    "referee.cli.completion",
    "referee.cli.mailed",
    "dask",
    "distributed",
    "pyarrow",
    "rich",
    "pydantic",
    "json",
    "email",
    "smtplib",
    "sqlite3",
)


GENERAL = {f"referee.games.{name}" for name in ("api", "engine_base", "registry", "values", "randomness", "seats")}
"""The modules of referee.games that are no game's."""


@pytest.mark.parametrize("game", sorted(SHORT))
def test_check_of_one_record_imports_only_its_own_game_and_nothing_heavy(tmp_path: Path, game: str) -> None:
    record = tmp_path / "short.rgn"
    record.write_text(SHORT[game])
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "referee", "check", str(record)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and f"{game}: ongoing" in done.stdout, done.stdout + done.stderr
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "referee.notation.quick" in imported and f"referee.games.{game}.state" in imported  # the log is read
    heavy = sorted(name for name in imported if any(name == m or name.startswith(f"{m}.") for m in HEAVY))
    others = sorted(name for name in imported if name.split(".")[:2] == ["referee", "games"] and name.count(".") >= 2)
    others = sorted({".".join(name.split(".")[:3]) for name in others} - {f"referee.games.{game}"} - GENERAL)
    assert not heavy and not others, (heavy, others)
