"""`referee check --dask ADDRESS`: the parts of `referee.judge.runners.batch_check` checked on a Dask
cluster, the lines written here in input order.

ADDRESS is a scheduler's (`tcp://host:8786`, any address Dask's `Client` takes, with its
`://`), or `local` / `local:N` for a `LocalCluster` of N worker processes (default: one
per core) of one thread each, started here and closed at the end. Dask is an optional
extra (`pip install '.[dask]' in the checkout`), imported only here, only for `--dask`. Workers need
`referee` installed (the same version): they run `referee.judge.runners.batch_check.check_part` on the
records sent to them, so they need no access to the files.
"""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from referee.errors import UsageError
from referee.judge.core.verdicts import Problem
from referee.judge.runners import batch_check
from referee.notation.record_splitter import MAX_RECORD

CONNECT_TIMEOUT = 10
"""Seconds to reach a scheduler (or start a local cluster's) before giving up."""
SCHEMES = ("tcp", "ws")
"""The schedulers' schemes `--dask` reaches: those that need nothing but the address."""
SECURED = ("tls", "wss")
"""Schemes that need certificates (Dask's `Security`), which `--dask` has no way to give."""
PART_RECORDS = 128
PART_BYTES = 1 << 19
"""The smallest part sent to a worker: up to 128 records or about 512 KB, some 0.2 s of work
on random records of 360 actions, against about 12 ms of CPU time of this process and its
scheduler per part (docs/batch_check.md). Larger inputs get larger parts, about
`batch_check.PARTS_PER_WORKER` per worker thread (`batch_check.sized`)."""


class Address:
    """A parsed `--dask` address: a scheduler's, or a local cluster of `workers` processes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.scheduler: str | None = None
        self.workers: int | None = None
        if text == "local" or text.startswith("local:"):
            count = text[len("local:") :] if text != "local" else ""
            if count and (not count.isdigit() or int(count) < 1):
                raise UsageError(f"--dask {text}: expected local:N with N a number of worker processes, 1 or more")
            self.workers = int(count) if count else batch_check.jobs_for(0)
        elif "://" in text:
            scheme = text.split("://", 1)[0].lower()
            wanted = "a scheduler's tcp:// or ws:// address, or local[:N]"
            if scheme in SECURED:
                secured = f"{scheme}:// needs TLS certificates, which --dask does not take"
                raise UsageError(f"--dask {text}: {secured}: {wanted}")
            if scheme not in SCHEMES:
                raise UsageError(f"--dask {text}: unsupported scheme {scheme}://: {wanted}")
            self.scheduler = text
        else:
            raise UsageError(f"--dask {text}: expected a scheduler's address (tcp://host:8786) or local[:N]")


@contextmanager
def client(address: Address) -> Iterator[Any]:
    """A Dask client of the address's cluster, closed (with a local cluster) at the end.
    Raises UsageError when Dask is not installed or the scheduler cannot be reached."""
    try:
        import dask
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--dask needs Dask, which is not installed: pip install '.[dask]' in the checkout") from None
    with ExitStack() as stack:
        try:
            if address.scheduler is not None:
                found = stack.enter_context(Client(address.scheduler, timeout=CONNECT_TIMEOUT))  # type: ignore[no-untyped-call]
            else:
                # Dask warns on standard error when a port it likes is taken (and takes another).
                stack.enter_context(warnings.catch_warnings())
                warnings.simplefilter("ignore")
                if "fork" in multiprocessing.get_all_start_methods():
                    # Forked workers start with Dask and the referee imported (the games' rules
                    # too): spawned ones import them again, some 0.6 s of CPU time each.
                    batch_check.preload()
                    stack.enter_context(dask.config.set({"distributed.worker.multiprocessing-method": "fork"}))
                cluster = stack.enter_context(
                    LocalCluster(  # type: ignore[no-untyped-call]
                        n_workers=address.workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=None,
                        timeout=CONNECT_TIMEOUT * 3,
                    )
                )
                found = stack.enter_context(Client(cluster, timeout=CONNECT_TIMEOUT))  # type: ignore[no-untyped-call]
        except Exception as error:  # whatever the peer made Dask raise (a junk length prefix: MemoryError)
            said = " ".join(str(error).split())[:200] or type(error).__name__
            if isinstance(error, MemoryError):  # a length prefix no scheduler would send
                said = "what answered there does not speak Dask's protocol"
            raise UsageError(f"--dask {address.text}: cannot reach the cluster: {said}") from None
        yield found


class _Dask:
    def __init__(self, client: Any) -> None:
        self.client = client

    def submit(self, part: batch_check.Part) -> batch_check.Waited:
        # pure=False: two parts alike (the same records, names and places) are still two tasks.
        future: batch_check.Waited = self.client.submit(batch_check.check_part, part, pure=False)
        return future


def threads(client: Any) -> int:
    """The worker threads of the cluster now (at least 1)."""
    workers = client.scheduler_info().get("workers", {})
    return max(1, sum(int(worker.get("nthreads", 1)) for worker in workers.values()))


def check_lines(
    names: list[str],
    form: batch_check.Form,
    address: Address,
    shard: batch_check.Shard | None = None,
    max_record: int = MAX_RECORD,
) -> Iterator[batch_check.Checked | Problem]:
    """What `batch_check.check_lines` yields, the parts checked on the cluster: at most two parts
    per worker thread (and two more) in flight, so the memory held here is bounded."""
    with client(address) as connected:
        count = threads(connected)
        work = batch_check.parts(
            batch_check.cut(names, shard, max_record), form, *batch_check.sized(names, count, PART_RECORDS, PART_BYTES)
        )
        yield from batch_check.run_parts(_Dask(connected), work, 2 * count + 2)
