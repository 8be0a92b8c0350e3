#!/usr/bin/env python3
"""Run one harness under Atheris (libFuzzer): `python -m tests.fuzz HARNESS [libFuzzer options] [PATHS]`.

    python -m tests.fuzz check -max_total_time=60          # fuzz for a minute from the seeds
    python -m tests.fuzz check tests/fuzz/crashes/check/X  # run one input once (a crash's traceback)
    python -m tests.fuzz --list                            # the harnesses

With no PATHS, the harness's seed corpus (tests/fuzz/corpus/HARNESS and the harness's other
seed folders) is read, and the inputs that find new coverage are written to a fresh
temporary folder, never into the repository; crashes are written as fuzz-out/HARNESS/crash-*
(libFuzzer's -artifact_prefix, unless given). docs/fuzzing.md says more."""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
from pathlib import Path

if not __package__:  # run as a script: libFuzzer starts itself again so (-minimize_crash, -fork)
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzz.harnesses import HARNESSES, Harness, seed_files  # noqa: E402

CHOSEN = "REFEREE_FUZZ_HARNESS"
"""The harness, for the processes libFuzzer starts with the same options but not its name."""


def _instrumented(harness: Harness) -> object:
    """The harness module, imported with coverage instrumentation of the referee (and the
    other packages the harness names); its seeds run once inside, so that the modules the
    door imports lazily are instrumented too."""
    import atheris

    with atheris.instrument_imports(include=list(harness.instrument)):
        module = importlib.import_module(harness.module)
        test_one_input = module.TestOneInput
        for path in seed_files(harness):
            try:
                test_one_input(path.read_bytes())
            except Exception:  # noqa: BLE001, S110 - only the imports matter here; the fuzzer reports crashes
                pass
    return test_one_input


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help", "--list"):
        print(__doc__)
        for name, harness in HARNESSES.items():
            print(f"  {name:8} {harness.summary}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in HARNESSES and os.environ.get(CHOSEN) in HARNESSES:
        name, rest = os.environ[CHOSEN], argv
    harness = HARNESSES.get(name)
    if harness is None:
        print(f"no harness {name!r}: one of {', '.join(HARNESSES)}", file=sys.stderr)
        return 2
    import atheris

    os.environ[CHOSEN] = name
    test_one_input = _instrumented(harness)
    options = [arg for arg in rest if arg.startswith("-")]
    paths = [arg for arg in rest if not arg.startswith("-")]
    if not any(option.startswith("-artifact_prefix=") for option in options):
        out = Path("fuzz-out") / name
        out.mkdir(parents=True, exist_ok=True)
        options.append(f"-artifact_prefix={out}{os.sep}")
    if not any(option.startswith("-max_len=") for option in options):
        options.append(f"-max_len={harness.max_len}")
    if not paths:
        work = tempfile.mkdtemp(prefix=f"referee-fuzz-corpus-{name}-", dir=os.environ.get("REFEREE_FUZZ_TMP"))
        paths = [work, *(str(folder) for folder in harness.seeds)]
    atheris.Setup([str(Path(__file__).resolve()), *options, *paths], test_one_input)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
