"""The wiring that docs/mail.md gives (procmail's action line, fetchmail's `--mda`) is the
command this test runs through the shell, as procmail and fetchmail do, with a real
message on its standard input and a real SMTP server receiving the answer."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_mail_helpers import SmtpServer, message, nika_game, smtp

__all__ = ["smtp"]

DOC = Path(__file__).resolve().parents[1] / "docs" / "mail.md"


def _procmail_recipe() -> str:
    found = re.search(r"```\n(:0 w\n[^`]*)```", DOC.read_text(encoding="utf-8"))
    assert found, "docs/mail.md lost its procmail recipe"
    return found.group(1)


def _recipes() -> tuple[str, str, str]:
    text = DOC.read_text(encoding="utf-8")
    command = re.search(r"```sh\n(referee mail [^\n]*)\n```", text)
    procmail = re.search(r"\n:0 w\n\* [^\n]*\n\| ([^\n]*)\n", text)
    fetchmail = re.search(r"\nfetchmail --mda ('[^\n]*')\n", text)
    assert command and procmail and fetchmail, "docs/mail.md lost a recipe"
    return command.group(1), procmail.group(1), shlex.split(fetchmail.group(1))[0]


def test_the_documented_recipes_are_one_command() -> None:
    command, procmail, fetchmail = _recipes()
    assert command == procmail == fetchmail


def test_the_documented_command_plays_a_message_through_the_shell(tmp_path: Path, smtp: SmtpServer) -> None:
    command, _, _ = _recipes()
    assert command.count("localhost:25") == 1
    command = command.replace("localhost:25", smtp.address)  # this test's server instead of the MTA
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    path = nika_game(home / "games", "club-3")
    bin_folder = Path(sys.executable).parent  # where `referee` is installed with this Python
    env = {"HOME": str(home), "PATH": f"{bin_folder}{os.pathsep}/usr/bin:/bin", "SHELL": "/bin/sh"}
    sent = message("Ann <ann@example.org>", "[club-3] opening", "d1+d2+d3-W i3-E\n\n-- \nAnn\n")
    done = subprocess.run(["/bin/sh", "-c", command], input=sent.as_bytes(), env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    [answer] = smtp.take()
    assert answer.sender == "gm@example.org"
    assert answer.message["Subject"] == "Re: [club-3] opening"
    assert len(answer.recipients) == 4


@pytest.mark.skipif(shutil.which("procmail") is None, reason="procmail is not installed (.ci/run installs it)")
def test_the_documented_procmail_recipe_in_real_procmail(tmp_path: Path, smtp: SmtpServer) -> None:
    """procmail runs the recipe of docs/mail.md (as a mail filter, `procmail -m RCFILE`, since
    a normal run reads the rcfile of the user's real home); a message the gateway cannot
    handle falls through to the next recipe, here the mailbox every .procmailrc ends in."""
    recipe = _procmail_recipe()
    assert recipe.count("localhost:25") == 1
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    mailbox = tmp_path / "mbox"
    rcfile = tmp_path / "procmailrc"
    rcfile.write_text(recipe.replace("localhost:25", smtp.address) + f"\n:0:\n{mailbox}\n")
    path = nika_game(home / "games", "club-3")
    (home / "games" / "broken.rgn").write_text('[Game "nika"]\n[Athens "ann@example.org"]\n\n[Game "nika"]\n')
    path_variable = f"PATH={Path(sys.executable).parent}{os.pathsep}/usr/bin:/bin"

    def procmail(sent: bytes) -> None:
        command = ["procmail", "-m", f"HOME={home}", path_variable, "SHELL=/bin/sh", str(rcfile)]
        done = subprocess.run(command, input=sent, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr

    procmail(message("Ann <ann@example.org>", "[club-3] opening", "d1+d2+d3-W i3-E\n").as_bytes())
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    [answer] = smtp.take()
    assert len(answer.recipients) == 4
    assert not mailbox.exists()
    procmail(message("Ann <ann@example.org>", "[broken] hello", "show\n", message_id="<kept@x.org>").as_bytes())
    assert "<kept@x.org>" in mailbox.read_text()  # exit 2: the `w` flag lets the message fall through
    assert smtp.take() == []
