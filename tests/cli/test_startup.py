"""Start-up (issue 34): `referee check` builds only the command it runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
