"""The README's wiring through a real mail transfer agent (PLAY.md §5.1, "Wiring that works
under a real MTA"): Debian's Exim started on 127.0.0.1 with a configuration of its own, local
users for two game masters (one with the README's `.forward` line, one with its procmail
recipe) and two players. Players' messages go in by
SMTP; the MTA pipes them into `referee mail`, whose answers go out through the same MTA
and are read out of the players' mailboxes. A locked game makes the gateway exit 75, the
MTA defers the message, and a forced queue run later delivers the move.

The test installs nothing and adds no user: it needs root, Debian's `exim4-daemon-light` and
`procmail`, and what `.ci/prepare-system` makes once (the users `rfgm`, `rfgm2`, `rfann`,
`rfbo` with homes under /var/lib/referee-tests/home, and that folder's `exim.conf` listed in
Exim's trusted configurations). It empties those homes before and after it runs. Where any
of it is missing it says which and skips, except under `CI=true`, where a skip of it is a
failure (`.ci/run` installs the packages and runs `.ci/prepare-system`)."""

from __future__ import annotations

import contextlib
import mailbox
import os
import re
import secrets
import shutil
import smtplib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import NamedTuple

import pytest

from referee import store
from referee.live import play
from tests.helpers.mail import free_port, plain_text

README = Path(__file__).resolve().parents[2] / "docs" / "guide" / "mail.md"  # the README tour links it
EXIM = "/usr/sbin/exim4"
PROCMAIL = "/usr/bin/procmail"
TRUSTED_CONFIGS = Path("/etc/exim4/trusted_configs")
PREPARED = Path("/var/lib/referee-tests")
"""What `.ci/prepare-system` makes: the users' homes, the spool and log, the trusted config's path."""
USERS = {"gm": "rfgm", "gm2": "rfgm2", "ann": "rfann", "bo": "rfbo"}
MOVE_ATHENS = "d1+d2+d3-W i3-E"
MOVE_SPARTA = "a4-S b4-S"


def _cannot_run(reason: str) -> None:
    """Skip, saying why; under CI a skip of the mail-server test is a failure."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"the mail-server test cannot run under CI: {reason}")
    pytest.skip(reason)


def _check_prepared() -> None:
    """Root, Exim, procmail and what `.ci/prepare-system` makes; the test installs nothing."""
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        _cannot_run("needs root to run a mail transfer agent that delivers to local users")
    missing = [
        package for path, package in ((EXIM, "exim4-daemon-light"), (PROCMAIL, "procmail")) if not Path(path).exists()
    ]
    if missing:
        _cannot_run(f"Debian's {', '.join(missing)} is not installed (.ci/run installs it)")
    lacking = [name for name in USERS.values() if not _is_user(name) or not (PREPARED / "home" / name).is_dir()]
    trusted = TRUSTED_CONFIGS.read_text().split() if TRUSTED_CONFIGS.exists() else []
    if lacking or str(PREPARED / "exim.conf") not in trusted:
        _cannot_run(
            f"the local users {', '.join(lacking or USERS.values())} or the trusted Exim configuration are not "
            "prepared: run `bash .ci/prepare-system` as root on a machine you may change"
        )


def _is_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def _empty_prepared() -> None:
    """The prepared homes, spool and log emptied: nothing of a run stays for the next."""
    for folder in [PREPARED / "home" / name for name in USERS.values()] + [PREPARED / "spool", PREPARED / "log"]:
        for entry in folder.iterdir() if folder.is_dir() else ():
            if entry.name in (".bashrc", ".profile", ".bash_logout") and entry.is_file():
                continue  # what useradd put there
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)


def _readme_wiring() -> tuple[str, str, str]:
    """The `.forward` line, procmail's `.forward` line and the `.procmailrc` the README prints."""
    text = README.read_text(encoding="utf-8")
    forward = re.search(r'```\n("\|/home/gm/\.local/bin/referee mail [^\n]*")\n```', text)
    procmail_forward = re.search(r'`("\|/usr/bin/procmail")`', text)
    procmailrc = re.search(r"```\n# ~/\.procmailrc\n(.*?)```", text, re.DOTALL)
    assert forward and procmail_forward and procmailrc, "the README lost its .forward line or procmail recipe"
    return forward.group(1), procmail_forward.group(1), procmailrc.group(1)


_CONFIG = """\
primary_hostname = localhost
qualify_domain = localhost
domainlist local_domains = localhost
daemon_smtp_ports = {port}
local_interfaces = 127.0.0.1
spool_directory = {root}/spool
log_file_path = {root}/log/%slog
exim_user = Debian-exim
exim_group = Debian-exim
trusted_users = root
keep_environment =
tls_advertise_hosts =
acl_smtp_rcpt = acl_rcpt

begin acl
acl_rcpt:
  accept hosts = 127.0.0.1
  deny

begin routers
userforward:
  driver = redirect
  domains = +local_domains
  check_local_user
  file = $home/.forward
  pipe_transport = address_pipe
  check_ancestor
  no_verify
localuser:
  driver = accept
  domains = +local_domains
  check_local_user
  transport = local_delivery

begin transports
local_delivery:
  driver = appendfile
  file = $home/mbox
  delivery_date_add
  envelope_to_add
  return_path_add
  mode = 0600
address_pipe:
  driver = pipe
  return_fail_output

begin retry
*   *   F,1h,10m
"""


class Mta(NamedTuple):
    root: Path
    """A throwaway folder of the test (the users' referee)."""
    config: Path
    port: int
    users: dict[str, str]
    """Role (gm, gm2, ann, bo) to user name; the address is NAME@localhost."""

    def address(self, role: str) -> str:
        return f"{self.users[role]}@localhost"

    def home(self, role: str) -> Path:
        return PREPARED / "home" / self.users[role]

    def send(self, role: str, to: str, subject: str, body: str) -> str:
        message = EmailMessage()
        message["From"] = f"{role.title()} <{self.address(role)}>"
        message["To"] = self.address(to)
        message["Subject"] = subject
        message_id = f"<{secrets.token_hex(6)}@localhost>"
        message["Message-ID"] = message_id
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as client:
            client.send_message(message)
        return message_id

    def mailbox(self, role: str) -> list[EmailMessage]:
        path = self.home(role) / "mbox"
        if not path.exists():
            return []
        found = []
        for entry in mailbox.mbox(str(path)):
            parsed = BytesParser(policy=policy.default).parsebytes(entry.as_bytes())
            assert isinstance(parsed, EmailMessage)
            found.append(parsed)
        return found

    def log(self) -> str:
        path = PREPARED / "log" / "mainlog"
        return path.read_text(errors="replace") if path.exists() else ""

    def exim(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([EXIM, "-C", str(self.config), *args], capture_output=True, text=True, timeout=120)


def _wait_for(what: str, check: object, seconds: float = 60.0, log: object = None) -> None:
    """Wait for `check()`; on time-out the MTA's log (`log()`) says what happened."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.2)
    said = f"; the MTA's log:\n{log()[-3000:]}" if log is not None else ""  # type: ignore[operator]
    raise AssertionError(f"waited {seconds:.0f} s for {what}{said}")


def _interpreter_for_users(root: Path) -> Path:
    """A `referee` executable that the local users can run: this Python when they can enter
    its folders, else the system's Python of the same version with a copy of the referee
    and the packages it needs in a folder they can read (this Python's own packages may
    lie under a home folder they cannot enter, as pyenv's do under /root)."""
    own = Path(sys.executable)
    probe = subprocess.run(
        ["su", "-s", "/bin/sh", "nobody", "-c", f"{own} -c 'import referee'"], capture_output=True, timeout=60
    )
    python = own
    if probe.returncode != 0:
        system = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
        if not system.exists():
            _cannot_run(f"local users cannot run {own}, and there is no {system}")
        subprocess.run([str(system), "-m", "venv", "--without-pip", str(root / "venv")], check=True, timeout=120)
        packages = _readable_packages(root / "site")
        site = root / "venv" / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
        (site / "zz-referee-under-test.pth").write_text(f"{packages}\n")
        python = root / "venv" / "bin" / "python"
    script = root / "bin" / "referee"
    script.parent.mkdir()
    script.write_text(f"#!{python}\nimport sys\n\nfrom referee.cli import main\n\nsys.exit(main())\n")
    script.chmod(0o755)
    return script


def _readable_packages(folder: Path) -> Path:
    """A copy of the referee (`notation`, `games`, `referee`) and of every package its
    installed distribution needs (its requirements, followed, extras left out), in `folder`."""
    from importlib import metadata

    folder.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__")
    checkout = Path(play.__file__).resolve().parents[3]
    for name in ("notation", "games", "referee"):
        shutil.copytree(checkout / name, folder / name, ignore=ignore)
    seen: set[str] = {"referee"}
    waiting = _requirements(metadata.distribution("referee"))
    while waiting:
        name = waiting.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        waiting += _requirements(dist)
        tops = {Path(str(file)).parts[0] for file in dist.files or ()}
        for top in sorted(tops):
            source = Path(str(dist.locate_file(top)))
            if top.startswith("..") or top.endswith((".dist-info", ".pth")) or top == "__pycache__":
                continue
            if source.is_dir():
                shutil.copytree(source, folder / top, ignore=ignore, dirs_exist_ok=True)
            elif source.suffix == ".py" or source.suffix == ".so":
                shutil.copy(source, folder / top)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def _requirements(dist: object) -> list[str]:
    """The names a distribution requires, its extras left out, in lower case."""
    names = []
    for requirement in getattr(dist, "requires", None) or ():
        if "extra ==" in requirement:
            continue
        names.append(re.split(r"[ ;<>=!~\[(]", requirement, maxsplit=1)[0].lower())
    return names


@pytest.fixture
def mta() -> Iterator[Mta]:
    _check_prepared()
    root = Path(tempfile.mkdtemp(prefix="referee-mta-", dir="/tmp"))
    root.chmod(0o755)
    config = PREPARED / "exim.conf"
    pid_file = root / "exim.pid"
    _empty_prepared()
    try:
        port = free_port()
        config.write_text(_CONFIG.format(port=port, root=PREPARED))
        config.chmod(0o644)
        started = subprocess.run(
            [EXIM, "-C", str(config), "-bd", "-oP", str(pid_file)], capture_output=True, text=True, timeout=60
        )
        assert started.returncode == 0, started.stderr
        _wait_for("Exim to listen", lambda: _listening(port), 30)
        yield Mta(root, config, port, dict(USERS))
    finally:
        with contextlib.suppress(OSError, ValueError):
            os.kill(int(pid_file.read_text().split()[0]), 15)
        config.unlink(missing_ok=True)
        _empty_prepared()
        shutil.rmtree(root, ignore_errors=True)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _install_game(mta: Mta, gm: str) -> Path:
    """`~/games/g1.rgn` of a game master: four-city Nika, Ann holding Athens and Messene, Bo the others."""
    games = mta.home(gm) / "games"
    games.mkdir()
    ann, bo = f"Ann <{mta.address('ann')}>", f"Bo <{mta.address('bo')}>"
    tags = ['[Game "nika"]', '[Players "4"]', f'[Athens "{ann}"]', f'[Sparta "{bo}"]']
    tags += [f'[Messene "{ann}"]', f'[Thebes "{bo}"]']
    path = games / "g1.rgn"
    path.write_text("\n".join(tags) + "\n")
    subprocess.run(["chown", "-R", f"{mta.users[gm]}:", str(games)], check=True)
    return path


def _wire(mta: Mta, referee: Path) -> None:
    """The README's lines, with this test's paths, addresses and port."""
    forward, procmail_forward, procmailrc = _readme_wiring()

    def ours(text: str, gm: str) -> str:
        text = text.replace("/home/gm/.local/bin/referee", str(referee))
        text = text.replace("/home/gm", str(mta.home(gm)))
        return text.replace("gm@example.org", mta.address(gm)).replace("localhost:25", f"127.0.0.1:{mta.port}")

    for role, files in (
        ("gm", {".forward": ours(forward, "gm") + "\n"}),
        ("gm2", {".forward": procmail_forward + "\n", ".procmailrc": ours(procmailrc, "gm2")}),
    ):
        for name, text in files.items():
            path = mta.home(role) / name
            path.write_text(text)
            path.chmod(0o644)
            shutil.chown(path, mta.users[role])


def test_players_mail_through_a_real_mta_to_the_readme_wiring_and_back(mta: Mta) -> None:
    referee = _interpreter_for_users(mta.root)
    _wire(mta, referee)
    games = {gm: _install_game(mta, gm) for gm in ("gm", "gm2")}

    # Ann moves in both games: the gateway plays it and answers both players through the MTA.
    for gm in ("gm", "gm2"):
        mta.send("ann", gm, "[g1] my move", f"{MOVE_ATHENS}\n\n-- \nAnn\n")
    _wait_for("both answers in Bo's mailbox", lambda: len(mta.mailbox("bo")) == 2, log=mta.log)
    _wait_for("both answers in Ann's mailbox", lambda: len(mta.mailbox("ann")) == 2)
    for path in games.values():
        assert f"1. W: {MOVE_ATHENS}" in path.read_text(), mta.log()
    for answer in mta.mailbox("bo"):
        assert answer["Subject"] == "Re: [g1] my move"
        assert answer["Auto-Submitted"] == "auto-replied"
        text = plain_text(answer)
        assert "Ann (Athens) played in game g1:" in text
        assert re.search(r"next: Bo \(Sparta\) to move \(token 1-[0-9a-f]{10}\)", text)
        assert "To play, answer" in text and "Token: 1-" in text  # Bo is to move
    for answer in mta.mailbox("ann"):
        assert "Ann (Athens) played in game g1:" in plain_text(answer) and "Token:" not in plain_text(answer)
    assert {answer["From"].addresses[0].username for answer in mta.mailbox("bo")} == {
        mta.users["gm"],
        mta.users["gm2"],
    }
    for gm in ("gm", "gm2"):
        assert mta.mailbox(gm) == []  # nothing filed unanswered in the game masters' mailboxes
        log = mta.home(gm) / "games" / "mail.log"  # written once the answers are sent
        _wait_for(f"{gm}'s mail.log", lambda log=log: log.exists() and log.read_text().endswith("played\n"))
        assert log.read_text().endswith(f"{mta.address('ann')} g1 played\n")

    # Both games locked: each gateway waits (--wait, 10 s), exits 75, and the MTA defers.
    with contextlib.ExitStack() as held:
        for path in games.values():
            held.enter_context(store.locked(path, 0))
        for gm in ("gm", "gm2"):
            mta.send("bo", gm, "Re: [g1] my move", f"{MOVE_SPARTA}\n")
        _wait_for("both deliveries deferred", lambda: mta.log().count(" defer ") >= 2, 90)
        assert "returned 75" in mta.log()
        for path in games.values():
            assert "R: " not in path.read_text()
        assert mta.mailbox("gm") == [] and mta.mailbox("gm2") == []  # deferred, not filed
        assert mta.exim("-bpc").stdout.strip() == "2"  # both wait in the MTA's queue
    # The lock released, a forced queue run (instead of waiting for the retry) delivers the moves.
    assert mta.exim("-qff").returncode == 0
    _wait_for("the deferred moves played", lambda: all("R: a4-S b4-S" in path.read_text() for path in games.values()))
    _wait_for("Ann told of Bo's moves", lambda: len(mta.mailbox("ann")) == 4)
    for answer in mta.mailbox("ann")[2:]:
        assert "Bo (Sparta) played in game g1:" in plain_text(answer)
        assert "next: Ann (Messene) to move" in plain_text(answer) and "Token: 2-" in plain_text(answer)
    for gm in ("gm", "gm2"):
        log = mta.home(gm) / "games" / "mail.log"
        _wait_for(f"{gm}'s third log line", lambda log=log: len(log.read_text().splitlines()) == 3)
        outcomes = [line.split()[-1] for line in log.read_text().splitlines()]
        assert outcomes == ["played", "busy", "played"], outcomes
        assert mta.mailbox(gm) == []
    assert mta.exim("-bpc").stdout.strip() == "0"
