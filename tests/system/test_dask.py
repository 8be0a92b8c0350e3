"""`referee check --dask ADDRESS` on real Dask clusters: a LocalCluster the command starts
(`local:2`) and one already running that it reaches over TCP give, byte for byte, the
output and exit status of `referee check` in this process."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.errors import UsageError
from referee.judge.runners import dask_check
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.process import run_referee_bytes, run_referee_without


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Records of every status and game in nested folders, one file of many records (more
    than a part), one holding no record and one missing."""
    root = tmp_path_factory.mktemp("dask") / "archive"
    for game in ("nika", "nieuchess"):
        (root / game).mkdir(parents=True)
        for path in sorted((CONFORMANCE / game).glob("*.rgn"))[:12]:
            shutil.copy(path, root / game / path.name)
    shutil.copytree(EXAMPLES / "broken", root / "broken")
    shutil.copy(EXAMPLES / "pikemen-3p-finished.rgn", root / "pikemen.rgn")
    every = sorted(CONFORMANCE.glob("*/*.rgn"))
    (root / "league.rgn").write_bytes(b"\n".join(path.read_bytes() for path in every) * 2)
    (root / "notes.rgn").write_text("no game in here\n")
    names = sorted(str(path) for path in root.rglob("*.rgn"))
    return [*names[:3], str(root / "missing.rgn"), *names[3:]]


def _run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return run_referee_bytes(*args, timeout=180)


def test_a_local_cluster_of_two_worker_processes_writes_the_bytes_of_check(files: list[str]) -> None:
    pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    expected = _run("check", "--json", *files)
    assert expected.returncode == 2  # the missing file
    assert expected.stdout.count(b"\n") > 2 * dask_check.PART_RECORDS  # several parts
    done = _run("check", "--json", "--dask", "local:2", *files)
    assert (done.returncode, done.stdout, done.stderr) == (expected.returncode, expected.stdout, expected.stderr)


def test_a_running_scheduler_over_tcp_gives_the_same_bytes(files: list[str]) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    present = [name for name in files if Path(name).exists()]
    expected = _run("check", *present)  # text, this time
    assert expected.returncode == 1
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as running:
        address = running.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        done = _run("check", "--dask", address, "--shard", "2/2", *present)
        with distributed.Client(running) as client:
            worked = client.run(lambda: 1)  # both worker processes are alive and answered
    assert len(worked) == 2
    assert done.returncode == 1
    assert done.stdout.splitlines() == expected.stdout.splitlines()[1::2]


def test_an_unreachable_scheduler_is_one_line_within_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    monkeypatch.setattr(dask_check, "CONNECT_TIMEOUT", 1)
    with (
        pytest.raises(UsageError, match=r"^--dask tcp://127.0.0.1:9: cannot reach the cluster: .*"),
        dask_check.client(dask_check.Address("tcp://127.0.0.1:9")),
    ):
        pass


SCHEMES = ": a scheduler's tcp:// or ws:// address, or local[:N]"
"""What the refusal of an address whose scheme Dask cannot use here adds."""


@pytest.mark.parametrize(
    ("address", "said"),
    [
        ("scheduler:8786", "expected a scheduler's address (tcp://host:8786) or local[:N]"),
        ("local:0", "expected local:N with N a number of worker processes, 1 or more"),
        ("local:x", "expected local:N with N a number of worker processes, 1 or more"),
        # Issue 44 item 9: tls:// and ucx:// were exit 3 'internal error' (a TypeError inside Dask).
        ("tls://127.0.0.1:8786", f"tls:// needs TLS certificates, which --dask does not take{SCHEMES}"),
        ("wss://127.0.0.1:8786", f"wss:// needs TLS certificates, which --dask does not take{SCHEMES}"),
        ("ucx://127.0.0.1:8786", f"unsupported scheme ucx://{SCHEMES}"),
        ("inproc://127.0.0.1/1/2", f"unsupported scheme inproc://{SCHEMES}"),
    ],
)
def test_a_bad_address_is_a_usage_error(address: str, said: str) -> None:
    done = _run("check", "--dask", address, str(EXAMPLES / "nika-won.rgn"))
    assert done.returncode == 2
    assert done.stderr.decode() == f"referee: --dask {address}: {said}\n"


def test_dask_and_jobs_together_are_a_usage_error() -> None:
    done = _run("check", "--dask", "local:2", "--jobs", "2", str(EXAMPLES / "nika-won.rgn"))
    assert done.returncode == 2
    assert done.stderr.decode() == "referee: --dask and --jobs choose where records are checked: give one of them\n"


def test_without_dask_it_is_one_line_and_exit_2() -> None:
    done = run_referee_without("dask", "check", "--dask", "local", str(EXAMPLES / "nika-won.rgn"))
    assert done.returncode == 2
    assert done.stderr == "referee: --dask needs Dask, which is not installed: pip install '.[dask]' in the checkout\n"


def test_check_without_dask_does_not_import_it() -> None:
    script = (
        "import sys; from referee.cli import main\n"
        "sys.argv = ['referee', 'check', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] in ('dask', 'distributed', 'pyarrow')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(EXAMPLES / "nika-won.rgn")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.stdout.splitlines()[-1] == "[]"


def test_a_peer_that_is_no_scheduler_is_one_line_naming_the_address() -> None:
    """Issue 44 item 9: an HTTP server (here, as the proxy in front of an unroutable address
    answered) is read by Dask as a frame length of 3.5e18 bytes ("HTTP/1.1" as a 64-bit
    number): MemoryError, exit 3. Now exit 2, one line naming the address."""
    pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def answer() -> None:
        with contextlib.suppress(OSError):
            peer, _ = listener.accept()
            with peer:
                peer.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                peer.settimeout(30)
                while peer.recv(4096):
                    pass

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        done = _run("check", "--dask", f"tcp://127.0.0.1:{port}", str(EXAMPLES / "nika-won.rgn"))
    finally:
        listener.close()
    assert done.returncode == 2
    assert done.stderr.decode().startswith(f"referee: --dask tcp://127.0.0.1:{port}: cannot reach the cluster: ")
    assert done.stderr.decode().count("\n") == 1


def test_an_unroutable_address_is_one_line_within_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 44 item 9: tcp://10.255.255.1:8786 (no route, or a middlebox answering junk)."""
    pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    monkeypatch.setattr(dask_check, "CONNECT_TIMEOUT", 1)
    started = time.monotonic()
    with (
        pytest.raises(UsageError, match=r"^--dask tcp://10.255.255.1:8786: cannot reach the cluster: .*"),
        dask_check.client(dask_check.Address("tcp://10.255.255.1:8786")),
    ):
        pass
    assert time.monotonic() - started < 20
