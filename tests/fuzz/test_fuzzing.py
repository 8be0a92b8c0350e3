"""The bounded fuzzing run of CI (`python -m pytest -m fuzz`, after the main test command in
.ci/run): each harness under Atheris for a few seconds from its seeds, in a process of its
own (Atheris ends its process on a crash), failing on any crash, timeout or memory blow-up,
with the fuzzer's report (the input, its traceback) in the failure. About 80 seconds in
all on two cores with `-n auto` (one harness a core); docs/fuzzing.md has the long run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import in_ci
from tests.fuzz.harnesses import HARNESSES, ROOT

SECONDS = {"check": 25, "mail": 20, "league": 20, "config": 10}


@pytest.mark.fuzz
@pytest.mark.parametrize("name", list(HARNESSES))
def test_a_bounded_fuzzing_run_finds_no_crash(name: str, tmp_path: Path) -> None:
    assert set(SECONDS) == set(HARNESSES)
    if not in_ci():  # CI installs the `fuzz` extra: there a missing Atheris is a failure
        pytest.importorskip("atheris", reason="pip install -e '.[fuzz]' (Atheris)")
    found = tmp_path / "found"
    found.mkdir()
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    seeds = [str(folder) for folder in HARNESSES[name].seeds]
    command = [
        sys.executable,
        "-m",
        "tests.fuzz",
        name,
        f"-max_total_time={SECONDS[name]}",
        "-timeout=30",
        "-rss_limit_mb=2048",
        "-print_final_stats=1",
        f"-artifact_prefix={found}{os.sep}",
        str(corpus),
        *seeds,
    ]
    env = {**os.environ, "REFEREE_FUZZ_TMP": str(tmp_path)}
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=SECONDS[name] + 240)
    report = "\n".join(line for line in done.stderr.splitlines() if not line.startswith("INFO: Instrumenting"))
    artifacts = sorted(path.name for path in found.iterdir())
    assert done.returncode == 0 and not artifacts, f"{name}: exit {done.returncode}, {artifacts}\n{report[-6000:]}"
    assert "DONE" in report, report[-3000:]
    print(next(line for line in report.splitlines() if "DONE" in line))
