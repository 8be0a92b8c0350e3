"""The library call on Dask: `examples/dask_check.py` on a real LocalCluster of two worker
processes gives exactly the verdicts of `referee check --json`."""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import CONFORMANCE, EXAMPLES

SCRIPT = EXAMPLES / "dask_check.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dask_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Records of every status and game, in nested folders, with a file holding no record."""
    root = tmp_path / "archive"
    for game in ("nika", "nieuchess"):
        (root / game).mkdir(parents=True)
        for path in sorted((CONFORMANCE / game).glob("*.rgn"))[:12]:
            shutil.copy(path, root / game / path.name)
    shutil.copytree(EXAMPLES / "broken", root / "broken")
    shutil.copy(EXAMPLES / "pikemen-3p-finished.rgn", root / "pikemen.rgn")
    (root / "notes.rgn").write_text("no game in here\n")
    return root


def test_a_local_cluster_of_two_worker_processes_gives_the_verdicts_of_check(folder: Path) -> None:
    distributed = pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    files = sorted(str(path) for path in folder.rglob("*.rgn"))
    expected = subprocess.run(
        [sys.executable, "-m", "referee", "check", "--json", *files], capture_output=True, check=False, timeout=120
    )
    assert expected.returncode == 1 and expected.stdout.count(b"\n") > 20
    out = io.StringIO()
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert len(client.scheduler_info()["workers"]) == 2
        legal = _script().check_folder(client, folder, out, in_flight=8)
        worked = client.run(lambda: 1)  # both worker processes are alive and answered
    assert len(worked) == 2
    assert out.getvalue().encode("utf-8") == expected.stdout
    assert legal is False


def test_the_script_refuses_a_missing_folder(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path / "none")], capture_output=True, check=False, timeout=60
    )
    assert done.returncode == 2 and b"is not a folder" in done.stderr and b"Traceback" not in done.stderr


def test_the_script_starts_its_own_local_cluster_and_writes_json_lines(folder: Path, tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed", reason="Dask is not installed: pip install 'referee[dask]'")
    files = sorted(str(path) for path in folder.rglob("*.rgn"))
    expected = subprocess.run(
        [sys.executable, "-m", "referee", "check", "--json", *files], capture_output=True, check=False, timeout=120
    )
    out = tmp_path / "verdicts.jsonl"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), str(folder), "--workers", "2", "-o", str(out)],
        capture_output=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    assert out.read_bytes() == expected.stdout
    assert b"notes.rgn: no record found" in done.stderr
