"""The wiring that docs/mail.md gives (the `.forward` line, procmail's recipe, fetchmail's
`--mda`) is the command this test runs through the shell, as procmail and fetchmail do,
with a real message on its standard input, a PATH without `referee` on it (as an MTA
runs it), and a real SMTP server receiving the answer. tests/system/test_mta.py runs the
README's copy of them through a real MTA."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee import store
from tests.helpers.mail import SmtpServer, message, nika_game

DOC = Path(__file__).resolve().parents[3] / "docs" / "mail.md"
REFEREE = Path(sys.executable).parent / "referee"  # `referee` as installed with this Python
HOME_REFEREE = "/home/gm/.local/bin/referee"


def _procmail_recipe() -> str:
    found = re.search(r"```\n# ~/\.procmailrc\n(:0 w\n[^`]*)```", DOC.read_text(encoding="utf-8"))
    assert found, "docs/mail.md lost its procmail recipe"
    return found.group(1)


def _recipes() -> tuple[str, str, str, str]:
    text = DOC.read_text(encoding="utf-8")
    command = re.search(r"```sh\n(/[^\n]*/referee mail [^\n]*)\n```", text)
    forward = re.search(r'```\n"\|(/[^\n]*/referee mail [^\n]*)"\n```', text)
    procmail = re.search(r"\n:0 w\n\* [^\n]*\n\| ([^\n]*)\n", text)
    fetchmail = re.search(r"\nfetchmail --mda ('[^\n]*')\n", text)
    assert command and forward and procmail and fetchmail, "docs/mail.md lost a recipe"
    return command.group(1), forward.group(1), procmail.group(1), shlex.split(fetchmail.group(1))[0]


def test_the_documented_recipes_are_one_command_named_by_its_absolute_path() -> None:
    """An MTA runs the command without the user's PATH (PLAY.md §5.1): a bare `referee` is not found."""
    command, forward, procmail, fetchmail = _recipes()
    assert command == forward
    assert procmail == fetchmail == command.replace("/home/gm/games", '"$HOME/games"')
    assert command.startswith(f"{HOME_REFEREE} mail ")


def test_the_documented_command_plays_a_message_through_the_shell(tmp_path: Path, smtp: SmtpServer) -> None:
    _, _, procmail, _ = _recipes()
    assert procmail.count("localhost:25") == 1
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    command = procmail.replace("localhost:25", smtp.address).replace(HOME_REFEREE, str(REFEREE))
    path = nika_game(home / "games", "club-3")
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"}  # an MTA's PATH, not the user's
    sent = message("Ann <ann@example.org>", "[club-3] opening", "d1+d2+d3-W i3-E\n\n-- \nAnn\n")
    done = subprocess.run(["/bin/sh", "-c", command], input=sent.as_bytes(), env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    answers = smtp.take()
    assert {answer.sender for answer in answers} == {"gm@example.org"}
    assert {answer.message["Subject"] for answer in answers} == {"Re: [club-3] opening"}
    assert sum(len(answer.recipients) for answer in answers) == 4


@pytest.mark.skipif(shutil.which("procmail") is None, reason="procmail is not installed (.ci/run installs it)")
def test_the_documented_procmail_recipe_in_real_procmail(tmp_path: Path, smtp: SmtpServer) -> None:
    """procmail runs the recipe of docs/mail.md (as a mail filter, `procmail -m RCFILE`, since
    a normal run reads the rcfile of the user's real home); a message the gateway could not
    finish makes procmail exit 75 (the MTA delivers it again later), never falls through to
    the mailbox; a message for no game does fall through."""
    recipe = _procmail_recipe()
    assert recipe.count("localhost:25") == 1
    home = tmp_path / "home"
    (home / "games").mkdir(parents=True)
    mailbox = tmp_path / "mbox"
    rcfile = tmp_path / "procmailrc"
    ours = recipe.replace("localhost:25", smtp.address).replace(HOME_REFEREE, str(REFEREE))
    rcfile.write_text(ours + f"\n:0:\n{mailbox}\n")
    path = nika_game(home / "games", "club-3")
    (home / "games" / "broken.rgn").write_text('[Game "nika"]\n[Athens "ann@example.org"]\n\n[Game "nika"]\n')

    def procmail(sent: bytes) -> int:
        command = ["procmail", "-m", f"HOME={home}", "PATH=/usr/bin:/bin", "SHELL=/bin/sh", str(rcfile)]
        return subprocess.run(command, input=sent, capture_output=True, timeout=60).returncode

    assert procmail(message("Ann <ann@example.org>", "[club-3] opening", "d1+d2+d3-W i3-E\n").as_bytes()) == 0
    assert "1. W: d1+d2+d3-W i3-E" in path.read_text()
    assert sum(len(answer.recipients) for answer in smtp.take()) == 4
    assert not mailbox.exists()
    with store.locked(path, 0):
        busy = message("Bo <bo@example.org>", "[club-3]", "a4-S b4-S\n", message_id="<busy@x.org>").as_bytes()
        command = ["procmail", "-m", f"HOME={home}", "PATH=/usr/bin:/bin", "SHELL=/bin/sh", str(rcfile)]
        rc = ours.replace("--smtp", "--wait 0.2 --smtp")
        rcfile.write_text(rc + f"\n:0:\n{mailbox}\n")
        done = subprocess.run(command, input=busy, capture_output=True, timeout=60)
        assert done.returncode == 75, done.stderr  # EXITCODE=75: the MTA keeps it and tries again
    assert not mailbox.exists() and "R:" not in path.read_text()
    assert procmail(message("Ann <ann@example.org>", "[broken] hi", "show\n").as_bytes()) == 75
    assert procmail(message("Ann <ann@example.org>", "hello", "no game\n", message_id="<kept@x.org>").as_bytes()) == 0
    assert "<kept@x.org>" in mailbox.read_text()  # no [ID]: the recipe does not match, the mailbox has it
    assert smtp.take() == []


def test_the_readme_prints_the_same_wiring_as_docs() -> None:
    """tests/system/test_mta.py runs the README's lines through a real MTA; these tests run docs/mail.md's."""
    from tests.system.test_mta import _readme_wiring

    forward, procmail_forward, procmailrc = _readme_wiring()
    text = DOC.read_text(encoding="utf-8")
    assert f"```\n{forward}\n```" in text and f"`{procmail_forward}`" in text
    assert f"```\n# ~/.procmailrc\n{procmailrc}```" in text
