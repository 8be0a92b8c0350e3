"""A fuzz campaign: many mutated conformance records through the reader and the referee,
in parallel, counting crash sites (an exception where a verdict was due).

    python tests/tools/fuzz_campaign.py --count 1000000 --jobs 2
    python tests/tools/fuzz_campaign.py --show 1:4711 > crash.rgn      # the bytes of one input

Prints the number of inputs run, and for each crash site (exception type and innermost
file:line) how often it was met and the first input that met it, as SEED:NUMBER. Exit
status 0 when no input crashed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.helpers.fuzzing import check, mutate  # noqa: E402

CHUNK = 500


def _run(job: tuple[int, int, int]) -> tuple[int, list[tuple[str, str, str]]]:
    seed, start, stop = job
    found = []
    for number in range(start, stop):
        for crash in check(mutate(seed, number)):
            found.append((crash.site, f"{seed}:{number}", crash.message))
    return stop - start, found


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000, help="how many inputs (default 10000)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    parser.add_argument("--start", type=int, default=0, help="first input number (default 0)")
    parser.add_argument("--show", metavar="SEED:NUMBER", help="write the bytes of one input to standard output")
    options = parser.parse_args()
    if options.show:
        seed, _, number = options.show.partition(":")
        sys.stdout.buffer.write(mutate(int(seed), int(number)))
        return 0
    jobs = [
        (options.seed, start, min(start + CHUNK, options.start + options.count))
        for start in range(options.start, options.start + options.count, CHUNK)
    ]
    sites: Counter[str] = Counter()
    first: dict[str, tuple[str, str]] = {}
    done = 0
    began = time.monotonic()
    try:
        with Pool(max(1, options.jobs), initializer=signal.signal, initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:
            signal.signal(signal.SIGTERM, _stop)  # after the workers start: they keep the default
            for count, found in pool.imap(_run, jobs):
                done += count
                for site, example, message in found:
                    sites[site] += 1
                    if site not in first:
                        first[site] = (example, message)
                        print(f"new crash site: {site}: {message}  (--show {example})", flush=True)
                if done % 20_000 < CHUNK or done == options.count:
                    rate = done / max(time.monotonic() - began, 1e-9)
                    crashes = sum(sites.values())
                    print(f"{done} inputs, {crashes} crashes at {len(sites)} sites, {rate:.0f}/s", flush=True)
    except KeyboardInterrupt:
        print("stopped early", flush=True)
    print(f"ran {done} inputs (seed {options.seed}, numbers {options.start}..{options.start + done - 1})")
    if not sites:
        print("no crash")
        return 0
    print(f"{len(sites)} crash site(s):")
    for site, count in sites.most_common():
        example, message = first[site]
        print(f"  {count:>7}  {site}: {message}  (first: --show {example})")
    return 1


if __name__ == "__main__":
    sys.exit(main())
