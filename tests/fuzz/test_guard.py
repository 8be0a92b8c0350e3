"""The fuzzing guard (tests/fuzz/guard.py) stops a write outside the folder under test before
it happens, and the network, while armed; and nothing once disarmed."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tests.fuzz.guard import Escape, Sandbox


@pytest.fixture
def sandbox() -> Sandbox:
    made = Sandbox("guard-test")
    (made.root / "inside").mkdir()
    return made


def test_writes_inside_pass_and_every_kind_of_write_outside_is_stopped_before_it_happens(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    inside = sandbox.root / "inside"
    outside = tmp_path / "victim"
    outside.write_text("kept\n")
    attempts = [
        lambda: open(outside, "a").close(),  # noqa: SIM115
        lambda: os.open(inside / ".." / "new", os.O_WRONLY | os.O_CREAT),
        lambda: os.unlink(outside),
        lambda: os.replace(inside / "file", outside),
        lambda: os.link(inside / "file", tmp_path / "linked"),
        lambda: os.mkdir(tmp_path / "folder"),
        lambda: os.chmod(outside, 0o777),
    ]
    for attempt in attempts:
        with sandbox.guarded(inside):
            (inside / "file").write_text("inside\n")  # allowed
            with pytest.raises(Escape):
                attempt()
    assert outside.read_text() == "kept\n" and (outside.stat().st_mode & 0o777) != 0o777
    assert not (sandbox.root / "new").exists() and not (tmp_path / "linked").exists()
    assert not (tmp_path / "folder").exists()
    outside.write_text("written once disarmed\n")  # nothing is stopped outside a harness


def test_the_network_is_refused_while_armed(sandbox: Sandbox) -> None:
    with sandbox.guarded(), pytest.raises(ConnectionRefusedError):
        socket.getaddrinfo("localhost", 25)
    with sandbox.guarded(), pytest.raises(ConnectionRefusedError), socket.socket() as probe:
        probe.connect(("127.0.0.1", 9))
