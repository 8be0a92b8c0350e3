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


USAGE_ERRORS = [
    (
        ["check", "--bogus", "x"],
        "referee check: No such option '--bogus'. Did you mean '--jobs'? (see referee check --help)",
        "referee check: No existe la opción '--bogus'. ¿Quiso decir '--jobs'? (véase referee check --help)",
    ),
    (
        ["check"],
        "referee check: Missing argument 'FILE...' (see referee check --help)",
        "referee check: Falta el argumento 'FILE...' (véase referee check --help)",
    ),
    (
        ["show", "--at", "-1", "x"],
        "referee show: Invalid value for '--at': -1 is not in the range x>=0 (see referee show --help)",
        "referee show: Valor no válido para '--at': -1 no está en el intervalo x>=0 (véase referee show --help)",
    ),
    (
        ["chek", "x"],
        "referee: No such command 'chek'. Did you mean 'check'? (see referee --help)",
        "referee: No existe la orden 'chek'. ¿Quiso decir 'check'? (véase referee --help)",
    ),
    (
        ["show", "--svg", "-o"],
        "referee: Option '-o' requires an argument (see referee --help)",
        "referee: La opción '-o' requiere un argumento (véase referee --help)",
    ),
    (
        ["games", "a", "b"],
        "referee games: Got unexpected extra arguments (a b) (see referee games --help)",
        "referee games: Sobran argumentos inesperados (a b) (véase referee games --help)",
    ),
    (
        ["check", "--json=3", "x"],
        "referee: Option '--json' does not take a value (see referee --help)",
        "referee: La opción '--json' no admite ningún valor (véase referee --help)",
    ),
    (
        ["completion", "ksh"],
        "referee completion: Invalid value for 'SHELL': 'ksh' is not one of 'bash', 'zsh', 'fish' "
        "(see referee completion --help)",
        "referee completion: Valor no válido para 'SHELL': 'ksh': las opciones son 'bash', 'zsh', 'fish' "
        "(véase referee completion --help)",
    ),
    (
        ["play", "--wait", "-1", "x", "y"],
        "referee play: Invalid value for '--wait': -1.0 is not a number of seconds (0 or more, finite) "
        "(see referee play --help)",
        "referee play: Valor no válido para '--wait': -1.0 no es un número de segundos (0 o más, finito) "
        "(véase referee play --help)",
    ),
]


@pytest.mark.parametrize(("args", "english", "spanish"), USAGE_ERRORS, ids=lambda item: str(item)[:30])
def test_a_usage_error_of_the_option_parser_follows_the_locale(
    args: list[str], english: str, spanish: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Click's own usage errors (an unknown option or command, a missing or invalid
    argument) are said in the locale's language from their type and parameters, with the
    same exit status; the options, commands and values as written; English as Click writes it."""
    from referee.cli import app
    from referee.cli.entry import run

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    assert run(app, args) == 2
    assert capsys.readouterr().err == english + "\n"
    monkeypatch.setenv("LANGUAGE", "es")
    assert run(app, args) == 2
    assert capsys.readouterr().err == spanish + "\n"
