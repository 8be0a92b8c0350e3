"""The command line follows the locale (issue 49, docs/languages.md): `check`'s verdicts in
the language of LANGUAGE / LC_ALL / LC_MESSAGES / LANG; `--json` and the exit status the
same bytes under every locale. Real processes on the examples."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee_bytes

LOCALES = [
    {"LANG": "C.UTF-8"},
    {"LANG": "es_ES.UTF-8"},
    {"LC_ALL": "es_MX.UTF-8"},
    {"LANGUAGE": "es", "LANG": "en_US.UTF-8"},
    {"LC_MESSAGES": "es_AR", "LANG": "C"},
]


def _check(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    clean = {
        key: value for key, value in os.environ.items() if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
    }
    return run_referee_bytes("check", *args, environ=clean, env=env, cwd=EXAMPLES.parent)


def _records() -> list[str]:
    return sorted(str(path.relative_to(EXAMPLES.parent)) for path in EXAMPLES.glob("*.rgn"))


def test_check_json_is_the_same_bytes_under_every_locale() -> None:
    runs = [_check("--json", *_records(), env=env) for env in LOCALES]
    assert len(runs[0].stdout.splitlines()) >= 10
    assert {run.stdout for run in runs} == {runs[0].stdout}
    assert {run.returncode for run in runs} == {runs[0].returncode}


@pytest.mark.parametrize("env", LOCALES[1:], ids=lambda env: ",".join(f"{k}={v}" for k, v in env.items()))
def test_check_speaks_spanish_under_a_spanish_locale_with_the_same_exit_status(env: dict[str, str]) -> None:
    won = str(Path("examples") / "nika-won.rgn")
    english = _check(won, env={"LANG": "C.UTF-8"})
    spanish = _check(won, env=env)
    assert english.stdout.decode() == f"{won}:1: nika: finished: Athens+Messene win (victory-area) after 33 turns\n"
    said = "terminada: Atenas+Mesene ganan (área de victoria) tras 33 turnos"
    assert spanish.stdout.decode() == f"{won}:1: nika: {said}\n"
    assert spanish.returncode == english.returncode


def test_an_illegal_record_is_refused_in_spanish_naming_the_rule() -> None:
    record = '[Game "nika"]\n\n1. W: d1-N d2-W\n'
    done = run_referee_bytes("check", "-", input=record.encode(), env={"LANGUAGE": "es"}, timeout=60)
    assert done.returncode == 1
    said = done.stdout.decode()
    assert said == (
        '-:1: nika: ilegal: línea 3, col 7: turno 1 Atenas, acción 1 "d1-N": '
        "d2 está ocupado por una pieza propia de Atenas\n"
    )
