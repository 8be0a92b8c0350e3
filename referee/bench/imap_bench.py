"""One `referee mail --imap` pass over a flood of strangers' messages, measured (issue 44.8):

    REFEREE_IMAP_PASSWORD=... python -m referee.bench.mail --imap imap://gm@127.0.0.1:1143/INBOX --count 5000

The mailbox must be a throwaway one (a test server's: tests/helpers/imap.py starts such a
Dovecot): the bench fills it with COUNT messages from strangers, each naming a game of a
fresh game folder, runs one pass as cron does (a fresh process), and gives its wall time,
its CPU time (user and system, the process alone: the IMAP server's work is not in it),
and both per message; then it checks that every message was filed under
`referee/ignored` and that nobody was answered."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from referee.errors import UsageError

GAME = (
    '[Game "nika"]\n[Players "4"]\n[Athens "Ann <ann@example.org>"]\n[Sparta "Bo <bo@example.org>"]\n'
    '[Messene "Cy <cy@example.org>"]\n[Thebes "Di <di@example.org>"]\n'
)


class Flooded(NamedTuple):
    """What one pass over `messages` strangers' messages cost."""

    messages: int
    seconds: float
    cpu: float
    exit_code: int
    ignored: int
    answers: int
    said: str = ""
    """The pass's last line on standard error (its summary)."""

    def rows(self) -> Iterator[str]:
        each = 1000 / max(self.messages, 1)
        yield f"one pass over {self.messages} strangers' messages: exit {self.exit_code}"
        yield f"  wall {self.seconds:8.2f} s   {self.seconds * each:7.2f} ms a message"
        yield f"  CPU  {self.cpu:8.2f} s   {self.cpu * each:7.2f} ms a message (the referee's process)"
        yield f"  newly filed under referee/ignored: {self.ignored} of {self.messages}; answers written: {self.answers}"
        if self.said:
            yield f"  it said: {self.said}"


def stranger(number: int) -> bytes:
    """A stranger's message naming the game g1, as a flood would send it."""
    return (
        f"From: Eve {number} <eve{number}@evil.example>\r\nTo: gm@example.org\r\n"
        f"Subject: [g1] buy now {number}\r\nMessage-ID: <flood-{number}@evil.example>\r\n"
        f"Date: Tue, 01 Dec 2026 12:00:00 +0000\r\n\r\nd1+d2+d3-W i3-E\r\n"
    ).encode("ascii")


def _client(url: str) -> tuple[Any, str]:
    from referee.live.mail import imap

    box = imap.parse_url(url)
    password = os.environ.get(imap.PASSWORD_ENV)
    if not password:
        raise UsageError(f"--imap: the bench logs in with {imap.PASSWORD_ENV}")
    try:
        from imapclient import IMAPClient
    except ImportError:
        raise UsageError("--imap needs IMAPClient: pip install '.[imap]' in the checkout") from None
    try:
        client = IMAPClient(box.host, box.port, ssl=box.tls, timeout=60)
        if not box.tls and b"STARTTLS" in client.capabilities():
            client.starttls()
        client.login(box.user, password)
    except Exception as error:  # IMAPClient's and the socket's errors alike: one line
        raise UsageError(f"--imap {box}: {' '.join(str(error).split())[:300]}") from None
    return client, box.folder


def _ignored(url: str) -> int:
    """How many messages the mailbox's `referee/ignored` folder holds."""
    client, _ = _client(url)
    try:
        ignored = 0
        for _flags, _delimiter, name in client.list_folders():
            text = name.decode() if isinstance(name, bytes) else str(name)
            if text.lower().endswith("ignored"):
                client.select_folder(text, readonly=True)
                ignored += len(client.search(["NOT", "DELETED"]))
        return ignored
    finally:
        client.logout()


def flood(url: str, count: int, command: list[str] | None = None) -> Flooded:
    """Fill the mailbox with `count` strangers' messages, time one pass of `command` (default
    `python -m referee mail`) over it, and count where they went."""
    already = _ignored(url)
    client, folder = _client(url)
    try:
        client.select_folder(folder)
        if client.search(["NOT", "DELETED"]):
            raise UsageError(f"--imap {url}: the mailbox is not empty; the bench needs a throwaway one")
        for number in range(count):
            client.append(folder, stranger(number), flags=())
    finally:
        client.logout()
    with tempfile.TemporaryDirectory(prefix="referee-imap-bench-") as name:
        games = Path(name)
        (games / "g1.rgn").write_text(GAME, encoding="utf-8")
        run = [*(command or [sys.executable, "-m", "referee"]), "mail", "--games", str(games), "--imap", url]
        run += ["--from", "gm@example.org"]
        errors = games / "stderr.txt"
        with errors.open("wb") as said:
            started = time.perf_counter()
            process = subprocess.Popen(run, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=said)
            _, status, usage = os.wait4(process.pid, 0)
            seconds = time.perf_counter() - started
        last = errors.read_bytes()[-2000:].decode("utf-8", "replace").strip().splitlines()
        answers = len(list((games / "outbox").glob("*.eml"))) if (games / "outbox").is_dir() else 0
    ignored = _ignored(url) - already
    cpu = usage.ru_utime + usage.ru_stime
    code = os.waitstatus_to_exitcode(status)
    return Flooded(count, seconds, cpu, code, ignored, answers, last[-1][:300] if last else "")


__all__ = ["Flooded", "flood", "stranger"]
