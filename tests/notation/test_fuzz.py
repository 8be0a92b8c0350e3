"""The fuzz test: mutated conformance records (tests/helpers/fuzzing.py) through the library and
the command line always give a verdict or a clean error, never a traceback. Bounded here;
`python tests/tools/fuzz_campaign.py --count 1000000 --jobs 2` runs a long campaign apart."""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from tests.helpers.fuzzing import Crash, check, mutate
from tests.helpers.process import REFEREE

SEED = 20261123
INPUTS = 300


@functools.cache
def _crashes() -> dict[int, list[Crash]]:
    """The mutated records' crashes, found once, when the first test asks (not at collection)."""
    return {number: check(mutate(SEED, number)) for number in range(INPUTS)}


def test_the_reader_never_crashes_on_mutated_records() -> None:
    found = {number: crash for number, crashes in _crashes().items() for crash in crashes if crash.stage == "read"}
    assert not found, {number: crash.site for number, crash in found.items()}


def test_the_referee_gives_every_mutated_record_a_verdict() -> None:
    found = {f"{SEED}:{number}": crash.site for number, crashes in _crashes().items() for crash in crashes}
    assert not found, f"new crash sites (reproduce with python tests/tools/fuzz_campaign.py --show SEED:N): {found}"


def test_the_command_line_never_prints_a_traceback(tmp_path: Path) -> None:
    clean = [number for number, crashes in _crashes().items() if not crashes][:12]
    files = []
    for number in clean:
        path = tmp_path / f"fuzz-{number}.rgn"
        path.write_bytes(mutate(SEED, number))
        files.append(str(path))
    command = [*REFEREE, "check"]
    runs = [
        subprocess.run([*command, *files[:6]], capture_output=True, check=False),
        subprocess.run([*command, "--json", *files[6:]], capture_output=True, check=False),
        subprocess.run([*command, "-"], input=mutate(SEED, clean[0]), capture_output=True, check=False),
    ]
    for done in runs:
        assert done.returncode in (0, 1, 2, 3), done.stderr
        assert b"Traceback" not in done.stderr, done.stderr.decode("utf-8", "replace")
        assert done.stdout.strip(), done.stderr
