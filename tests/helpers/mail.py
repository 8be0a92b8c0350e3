"""Real parts for the mail gateway's tests: an SMTP server on 127.0.0.1 (aiosmtpd) that
keeps what it receives, game folders, messages built with the standard `email` package,
and `referee mail` run as a real process with the message on its standard input."""

from __future__ import annotations

import contextlib
import io
import os
import socket
import subprocess
import threading
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from aiosmtpd.controller import Controller

from referee.live import mail as gateway
from referee.live.mail.gateway_values import Settings
from tests.helpers.process import run_referee_bytes

GM = "gm@example.org"
NIKA_PLAYERS = {
    "Athens": "Ann <ann@example.org>",
    "Sparta": "Bo <bo@example.org>",
    "Messene": "Cy <cy@example.org>",
    "Thebes": "Di <di@example.org>",
}


class Received(NamedTuple):
    """One message the SMTP server accepted: the envelope and the parsed message."""

    sender: str
    recipients: tuple[str, ...]
    message: EmailMessage

    @property
    def text(self) -> str:
        return plain_text(self.message)


def plain_text(mail: EmailMessage) -> str:
    """The text of a message's plain-text part, which it must have."""
    body = mail.get_body(("plain",))
    assert body is not None
    content = body.get_content()
    assert isinstance(content, str)
    return content


def recipients(mail: EmailMessage) -> list[str]:
    """The addresses of a message's `To`, in order."""
    return [address.addr_spec for address in mail["To"].addresses]


class _Keeper:
    def __init__(self) -> None:
        self.received: list[Received] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's hook name
        message = BytesParser(policy=policy.default).parsebytes(envelope.content)
        assert isinstance(message, EmailMessage)
        with self.lock:
            self.received.append(Received(envelope.mail_from, tuple(envelope.rcpt_tos), message))
        return "250 OK"


class SmtpServer:
    """A running SMTP server on the loopback address and what it received so far."""

    def __init__(self, controller: Controller, keeper: _Keeper, port: int) -> None:
        self.controller = controller
        self.keeper = keeper
        self.port = port
        self.running = True

    def stop(self) -> None:
        if self.running:
            self.running = False
            self.controller.stop()

    close = stop  # what `contextlib.closing` calls

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def received(self) -> list[Received]:
        with self.keeper.lock:
            return list(self.keeper.received)

    def take(self) -> list[Received]:
        """What arrived since the last take."""
        with self.keeper.lock:
            taken, self.keeper.received = self.keeper.received, []
        return taken


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_smtp(**options: Any) -> SmtpServer:
    keeper = _Keeper()
    port = free_port()
    controller = Controller(keeper, hostname="127.0.0.1", port=port, **options)
    controller.start()
    return SmtpServer(controller, keeper, port)


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with contextlib.closing(start_smtp()) as server:
        yield server


def write_game(folder: Path, game_id: str, game: str, sides: dict[str, str], *extra: str) -> Path:
    """A fresh game file `folder/ID.rgn` whose side tags name the players."""
    tags = [f'[Game "{game}"]', *extra, *(f'[{side} "{player}"]' for side, player in sides.items())]
    path = folder / f"{game_id}.rgn"
    path.write_text("\n".join(tags) + "\n", encoding="utf-8")
    return path


def nika_game(folder: Path, game_id: str = "g1") -> Path:
    return write_game(folder, game_id, "nika", NIKA_PLAYERS, '[Players "4"]')


_count = [0]


def message(
    sender: str, subject: str, body: str | None = None, *, message_id: str | None = None, **headers: str
) -> EmailMessage:
    """A plain-text message as a mail program writes it."""
    _count[0] += 1
    built = EmailMessage()
    built["From"] = sender
    built["To"] = GM
    built["Subject"] = subject
    built["Message-ID"] = message_id or f"<test-{os.getpid()}-{_count[0]}@example.org>"
    for name, value in headers.items():
        built[name.replace("_", "-")] = value
    if body is not None:
        built.set_content(body)
    return built


def run_mail(data: bytes, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`referee mail ARGS` as a real process, the message on its standard input."""
    completed = run_referee_bytes("mail", *args, input=data, env=env, timeout=60)
    return subprocess.CompletedProcess(
        completed.args,
        completed.returncode,
        completed.stdout.decode("utf-8", "replace"),
        completed.stderr.decode("utf-8", "replace"),
    )


def mail_gm(games: Path, server: SmtpServer, data: bytes, *more: str) -> tuple[int, str]:
    """`referee mail` run as the game master runs it on one message (`receive GAMES --smtp
    SERVER --from GM MORE...`): its exit code and standard error, which never holds a traceback."""
    done = run_mail(data, "receive", str(games), "--smtp", server.address, "--from", GM, *more)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stderr


def mail_gm_ok(games: Path, server: SmtpServer, data: bytes, *more: str) -> str:
    """`mail_gm` that must exit 0: its standard error."""
    code, err = mail_gm(games, server, data, *more)
    assert code == 0, err
    return err


def outbox_messages(folder: Path, *, take: bool = False) -> list[EmailMessage]:
    """Every message in the outbox FOLDER, in the order of their names; with `take`, the
    outbox is then emptied (so that the next call finds only what came since)."""
    found = []
    for path in sorted(folder.glob("*.eml")):
        parsed = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert isinstance(parsed, EmailMessage)
        found.append(parsed)
        if take:
            path.unlink()
    return found


def answers_in_process(config: Settings, mail: EmailMessage) -> list[EmailMessage]:
    """MAIL through the gateway in this process (`referee.live.mail.run` with CONFIG), which
    must take it (exit 0): the answers it caused, taken out of the outbox."""
    handled = gateway.run(io.BytesIO(mail.as_bytes()), config)
    assert handled.exit_code == 0, handled.notes
    return outbox_messages(config.outbox, take=True)
