"""A real IMAP server for the tests: Debian's Dovecot (`dovecot-imapd`), started on
127.0.0.1 at a free port with a throwaway configuration of its own (no system config read,
no system user added): a passwd-file with one test user, whose mail is a Maildir under a
fresh folder, and the game master's mailbox read by `referee mail imap`.

Dovecot refuses to give mail to uid 0 and to run its login process as root, so the mail
belongs to the existing user `nobody`, and the throwaway folder (`/tmp/referee-dovecot-*`,
mode 0711, removed at teardown) is one `nobody` can reach; its configuration, log and
sockets are there too. Without Dovecot or root the fixture skips, saying why; under CI a
skipped test marked `needs_system` is a failure (tests/conftest.py)."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.mail import free_port

DOVECOT = "/usr/sbin/dovecot"
USER = "gm"
PASSWORD = "app-password-1234"


class Dovecot:
    """A running Dovecot and a way in for the tests (IMAPClient, logged in as the test user)."""

    def __init__(self, root: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.root = root
        self.port = port
        self.process = process

    def url(self, folder: str = "INBOX") -> str:
        return f"imap://{USER}@127.0.0.1:{self.port}/{folder}"

    @property
    def env(self) -> dict[str, str]:
        return {"REFEREE_IMAP_PASSWORD": PASSWORD}

    def client(self) -> Any:
        from imapclient import IMAPClient

        client = IMAPClient("127.0.0.1", self.port, ssl=False, timeout=30)
        client.login(USER, PASSWORD)
        return client

    def append(self, *messages: bytes, folder: str = "INBOX") -> None:
        """Deliver messages into a folder by IMAP APPEND, unseen."""
        client = self.client()
        try:
            for data in messages:
                client.append(folder, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), flags=())
        finally:
            client.logout()

    def folders(self) -> dict[str, list[bytes]]:
        """Every folder and the messages in it, as fetched (BODY.PEEK[])."""
        client = self.client()
        found: dict[str, list[bytes]] = {}
        try:
            for _flags, _delimiter, name in client.list_folders():
                info = client.select_folder(name, readonly=True) if b"\\Noselect" not in _flags else None
                if info is None:
                    continue
                uids = client.search(["NOT", "DELETED"])
                fetched = client.fetch(uids, ["BODY.PEEK[]"]) if uids else {}
                found[name] = [fetched[uid][b"BODY[]"] for uid in sorted(fetched)]
        finally:
            client.logout()
        return found

    def flags(self, folder: str = "INBOX") -> list[tuple[bytes, ...]]:
        client = self.client()
        try:
            client.select_folder(folder, readonly=True)
            uids = client.search(["NOT", "DELETED"])
            fetched = client.fetch(uids, ["FLAGS"]) if uids else {}
            return [tuple(fetched[uid][b"FLAGS"]) for uid in sorted(fetched)]
        finally:
            client.logout()

    def log(self) -> str:
        path = self.root / "dovecot.log"
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)

    def close(self) -> None:
        """Stop the server and remove its folder (what `contextlib.closing` calls)."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def _config(root: Path, port: int, uid: int, gid: int) -> str:
    return f"""# A throwaway Dovecot for referee's tests: nothing of the system's configuration is read.
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = referee-test-{port}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = {uid}
first_valid_gid = {gid}
default_internal_user = root
default_internal_group = root
default_login_user = nobody
mail_location = maildir:{root}/mail/%u
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
"""


def cannot_run(reason: str) -> None:
    pytest.skip(reason)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        try:
            probe.connect(("127.0.0.1", port))
        except OSError:
            return False
        return True


def start_dovecot() -> Dovecot:
    if not Path(DOVECOT).exists():
        cannot_run(f"{DOVECOT} is missing: install Debian's dovecot-imapd (.ci/run does)")
    if os.geteuid() != 0:
        cannot_run("Dovecot's test instance needs root (its login process drops to nobody)")
    try:
        import imapclient  # noqa: F401
    except ImportError:
        cannot_run("IMAPClient is missing: pip install 'referee[imap]'")
    nobody = pwd.getpwnam("nobody")
    root = Path(tempfile.mkdtemp(prefix="referee-dovecot-"))
    root.chmod(0o711)
    (root / "mail").mkdir()
    os.chown(root / "mail", nobody.pw_uid, nobody.pw_gid)
    (root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
    (root / "passwd").chmod(0o600)
    port = free_port()
    (root / "dovecot.conf").write_text(_config(root, port, nobody.pw_uid, nobody.pw_gid))
    process = subprocess.Popen(
        [DOVECOT, "-F", "-c", str(root / "dovecot.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    server = Dovecot(root, port, process)
    deadline = time.monotonic() + 30
    while not _listening(port):
        if process.poll() is not None or time.monotonic() > deadline:
            server.stop()
            log = server.log()
            shutil.rmtree(root, ignore_errors=True)
            pytest.fail(f"Dovecot did not start on 127.0.0.1:{port}: {log}")
        time.sleep(0.1)
    return server


@pytest.fixture
def dovecot() -> Iterator[Dovecot]:
    with contextlib.closing(start_dovecot()) as server:
        yield server
