"""Harness `check`: one input file (RGN text, or RGN compressed with gzip, bzip2, xz or zstd)
through `referee.judge.runners.batch_check.check_lines`, the library call `referee check` makes in its own
process (`--jobs 1`), twice: as text lines and as the JSON lines of `check --json`.

A defect: an exception out of the library (other than the documented `UsageError` of an
unreadable source), a verdict `error` (exit 3, "a bug of the referee"), a JSON line that is
not one JSON object with the contract's fields, or the two forms disagreeing on how many
records have which status (the text path judges a legal record the fused way, the JSON path
with tokens and suggestions: NOTATION.md §8 says both give the same verdicts)."""

from __future__ import annotations

import json
from collections import Counter

from tests.fuzz.guard import Defect, Sandbox

FIELDS = ("source", "record", "game", "status")
_state: dict[str, object] = {}


def setup() -> None:
    if "sandbox" not in _state:
        sandbox = Sandbox("check")
        _state["sandbox"] = sandbox
        _state["input"] = sandbox.root / "input.rgn"


def _lines(path: str, as_json: bool) -> tuple[Counter[str], list[str], list[str]]:
    from referee.judge.core.verdicts import Problem
    from referee.judge.runners import batch_check

    statuses: Counter[str] = Counter()
    lines: list[str] = []
    problems: list[str] = []
    for item in batch_check.check_lines([path], batch_check.Form(as_json), 1):
        if isinstance(item, Problem):
            problems.append(str(item.kind))
            continue
        for status, count in item.statuses.items():
            statuses[str(status)] += count
        lines += item.text.split("\n")[:-1]  # not splitlines: a verdict may hold U+2028
    return statuses, lines, problems


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer call
    setup()
    sandbox = _state["sandbox"]
    path = _state["input"]
    assert isinstance(sandbox, Sandbox)
    path.write_bytes(data)  # type: ignore[attr-defined]
    from referee.errors import UsageError

    try:
        with sandbox.guarded():
            text = _lines(str(path), as_json=False)
            as_json = _lines(str(path), as_json=True)
    except UsageError:
        return  # e.g. a compressed stream that is broken: one line, exit 2
    for statuses, lines, _ in (text, as_json):
        if statuses["error"]:
            shown = next((line for line in lines if ": error:" in line or '"error"' in line), lines[:1])
            raise Defect(f"a verdict `error` (exit 3): {shown}")
    if text[0] != as_json[0] or text[2] != as_json[2]:
        raise Defect(
            f"check and check --json disagree: {dict(text[0])} {text[2]} against {dict(as_json[0])} {as_json[2]}"
        )
    for line in as_json[1]:
        try:
            fields = json.loads(line)
        except ValueError:
            raise Defect(f"check --json wrote a line that is not JSON: {line[:200]!r}") from None
        if not isinstance(fields, dict) or any(name not in fields for name in FIELDS):
            raise Defect(f"check --json wrote a line without the verdict's fields: {line[:200]!r}")
    if len(text[1]) != len(as_json[1]):
        raise Defect(f"check wrote {len(text[1])} lines, check --json {len(as_json[1])}")
