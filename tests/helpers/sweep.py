"""How much of a long sweep the default test run covers.

A sweep checks one behaviour over many cases (every conformance record, a hundred mutated
records, each write of an operation failed in turn). The default run (`python -m pytest`,
what CI runs) covers a bounded, fixed share of each, chosen evenly so that every kind of
case is still met; `REFEREE_WHOLE_SWEEPS=1 python -m pytest` runs every sweep whole
(docs/tests.md). The cases are the same on every run: a failure is reproducible."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, TypeVar

import pytest

T = TypeVar("T")

WHOLE = os.environ.get("REFEREE_WHOLE_SWEEPS", "") not in ("", "0")


def cases(whole: int, bounded: int) -> int:
    """How many of a sweep's `whole` cases to run: all of them with REFEREE_WHOLE_SWEEPS,
    else `bounded` at the most."""
    return whole if WHOLE else min(whole, bounded)


def spread(items: Sequence[T], bounded: int) -> list[T]:
    """`bounded` of the items (all with REFEREE_WHOLE_SWEEPS), spread evenly over them from
    the first to the last, in their order."""
    if WHOLE or len(items) <= bounded:
        return list(items)
    if bounded <= 1:
        return list(items[:bounded])
    step = (len(items) - 1) / (bounded - 1)
    return [items[round(index * step)] for index in range(bounded)]


def params(items: Sequence[tuple[Any, ...]], bounded: int, ids: Sequence[str]) -> list[Any]:
    """The items as `pytest.param`s (one a case of a parametrized sweep, named by `ids`):
    the `bounded` that `spread` picks run by default, the others are marked `slow` (run with
    `-m slow`; REFEREE_WHOLE_SWEEPS=1 runs every one by default). Each case stays a test of
    its own, under its own name."""
    chosen = set(spread(range(len(items)), bounded))
    return [
        pytest.param(*item, id=name, marks=() if index in chosen else pytest.mark.slow)
        for index, (item, name) in enumerate(zip(items, ids, strict=True))
    ]
