"""The library call `referee.judge.runners.batch_check.check_text` and `referee check --jobs N`
(real worker processes)."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from referee.judge import session
from referee.judge.core import verdict_words
from referee.judge.core.verdicts import Problem, Status, Verdict
from referee.judge.runners import batch_check
from referee.notation.record_splitter import split
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.process import run_referee_bytes

NUMICA = '[Game "numica"]\n[Seed "b"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n'
ILLEGAL = NUMICA + "1. R: a1-h8\n"
MALFORMED = '[Game "numica"]\n[Seed "b"]\n\nR: SSOOSOSO\nQ: OSOSOSOS\n'


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every conformance and example record (finished, ongoing, illegal, malformed, of all
    four games) in one file after a mail's greeting, more than CHUNK_RECORDS records."""
    names = sorted(CONFORMANCE.glob("*/*.rgn")) + sorted(EXAMPLES.rglob("*.rgn"))
    data = "\ufeffHello, here are the games:\r\n".encode() + b"\n".join(path.read_bytes() for path in names)
    path = tmp_path_factory.mktemp("batch") / "league.rgn"
    path.write_bytes(data)
    return path


def test_check_text_gives_the_verdict_check_gives_each_record_of_a_file(league: Path) -> None:
    verdicts = [item for item in session.check([str(league)], annotate=True) if isinstance(item, Verdict)]
    raws = split(league.read_bytes())
    assert len(verdicts) == len(raws) > batch_check.PART_RECORDS
    assert {verdict.status for verdict in verdicts} == {"finished", "ongoing", "illegal", "malformed"}
    for number, (verdict, raw) in enumerate(zip(verdicts, raws, strict=True), start=1):
        alone = batch_check.check_text(raw.raw, str(league), number, raw.offset, line=raw.line, column=raw.column)
        assert alone == verdict
        assert verdict_words.verdict_json(alone) == verdict_words.verdict_json(verdict)


def test_check_text_reads_str_skips_a_greeting_and_counts_it_in_the_position() -> None:
    text = "Dear Bo,\nmy move: " + ILLEGAL
    verdict = batch_check.check_text(text, "mail.txt", 3, offset=100, line=10)
    assert (verdict.source, verdict.record, verdict.status) == ("mail.txt", 3, Status.ILLEGAL)
    assert verdict.offset == 100 + len("Dear Bo,\nmy move: ")
    assert verdict.error is not None and verdict.error.line == 10 + 1 + 5
    assert batch_check.check_text(NUMICA.encode()).status == Status.ONGOING
    assert batch_check.check_text(MALFORMED).status == Status.MALFORMED


def test_check_text_and_its_verdicts_survive_pickling() -> None:
    function = pickle.loads(pickle.dumps(batch_check.check_text))
    verdict = function(ILLEGAL, "x.rgn", 2, 7)
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    assert verdict.suggestions, "an illegal action gets did-you-mean suggestions, as in check --json"


def test_check_text_refuses_a_text_without_a_record_or_with_several() -> None:
    with pytest.raises(batch_check.NoRecordError, match="no record found"):
        batch_check.check_text("just a letter", "mail.txt")
    with pytest.raises(batch_check.SeveralRecordsError, match="2 records"):
        batch_check.check_text(NUMICA + ILLEGAL)
    assert issubclass(batch_check.NoRecordError, ValueError) and issubclass(batch_check.SeveralRecordsError, ValueError)


def _run(*args: str) -> subprocess.CompletedProcess[bytes]:
    return run_referee_bytes(*args, timeout=120)


@pytest.mark.parametrize("mode", [[], ["--json"], ["--quiet"]])
def test_jobs_2_writes_the_same_bytes_and_exit_status_as_jobs_1(league: Path, tmp_path: Path, mode: list[str]) -> None:
    """Real worker processes; several chunks; an empty file and a missing one among the inputs."""
    empty = tmp_path / "empty.rgn"
    empty.write_text("no games here\n")
    legal = tmp_path / "legal.rgn"
    legal.write_text(NUMICA)
    files = [str(league), str(empty), str(tmp_path / "missing.rgn"), str(legal)]
    serial = _run("check", *mode, "--jobs", "1", *files)
    parallel = _run("check", *mode, "--jobs", "2", *files)
    assert serial.returncode == 2  # the missing file
    assert (parallel.returncode, parallel.stdout, parallel.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    assert serial.stdout.count(b"\n") > batch_check.PART_RECORDS or mode == ["--quiet"]
    if mode == ["--json"]:
        every_core = _run("check", *mode, "-j", "0", str(league), str(legal))
        assert every_core.stdout == _run("check", *mode, str(league), str(legal)).stdout


def test_jobs_from_standard_input_and_exit_1(league: Path) -> None:
    data = league.read_bytes()
    serial = run_referee_bytes("check", "-", input=data, timeout=120)
    parallel = run_referee_bytes("check", "--jobs", "2", "-", input=data, timeout=120)
    assert serial.returncode == parallel.returncode == 1
    assert parallel.stdout == serial.stdout


def test_jobs_refuses_a_negative_count() -> None:
    done = _run("check", "--jobs", "-1", "x.rgn")
    assert done.returncode == 2 and b"Traceback" not in done.stderr


def test_jobs_for_zero_is_one_per_core_and_never_more() -> None:
    cores = batch_check.jobs_for(0)
    assert cores >= 1 and batch_check.jobs_for(3) == min(3, cores) and batch_check.jobs_for(99999) == cores


_PARENT = os.getpid()
_ORIGINAL_CHECK_PART = batch_check.check_part
_IN_PARENT: list[int] = []


def _die_in_worker(part: batch_check.Part) -> batch_check.Checked:
    """check_part, except that a worker process dies on it (as if killed or out of memory)."""
    if os.getpid() != _PARENT:
        os._exit(9)
    _IN_PARENT.append(len(part.records))
    return _ORIGINAL_CHECK_PART(part)


def _joined(items: list[batch_check.Checked | Problem]) -> tuple[str, Counter[str], list[Problem]]:
    statuses: Counter[str] = Counter()
    for item in items:
        if isinstance(item, batch_check.Checked):
            statuses.update(item.statuses)
    text = "".join(item.text for item in items if isinstance(item, batch_check.Checked))
    return text, statuses, [item for item in items if isinstance(item, Problem)]


def test_a_dead_worker_costs_no_verdict(league: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts of a dead worker are checked in the main process: same lines, same order."""
    form = batch_check.Form(json=True)
    expected = _joined(list(batch_check.check_lines([str(league)], form, 1)))
    monkeypatch.setattr(batch_check, "check_part", _die_in_worker)
    assert _joined(list(batch_check.check_lines([str(league)], form, 2))) == expected
    assert sum(_IN_PARENT) == expected[0].count("\n")  # every part fell back to the main process


def test_the_shards_of_the_inputs_together_are_the_whole(league: Path, tmp_path: Path) -> None:
    """`--shard K/N`: the records of all the inputs, counted in order, dealt out in turn; the
    N outputs concatenated and sorted by (source, record) are the whole output."""
    single = []
    for index in range(5):  # files of one record each: a shard by record, not by file
        path = tmp_path / f"one-{index}.rgn"
        path.write_text(NUMICA if index % 2 else ILLEGAL)
        single.append(str(path))
    files = [single[0], str(league), *single[1:]]
    whole = _run("check", "--json", *files)
    shards = [_run("check", "--json", "--shard", f"{part}/3", *files) for part in (1, 2, 3)]
    assert whole.returncode == 1 and {shard.returncode for shard in shards} == {1}

    def key(line: bytes) -> tuple[str, int]:
        verdict = json.loads(line)
        return verdict["source"], verdict["record"]

    outputs = [shard.stdout.splitlines() for shard in shards]
    assert sorted((line for lines in outputs for line in lines), key=key) == sorted(whole.stdout.splitlines(), key=key)
    assert max(map(len, outputs)) - min(map(len, outputs)) <= 1  # dealt out evenly
    # Which shard holds which record is fixed by the inputs: the 1st, 4th, 7th ... go to 1/3.
    places = [key(line) for line in whole.stdout.splitlines()]
    assert [key(line) for line in outputs[0]] == places[::3]
    again = _run("check", "--json", "--jobs", "2", "--shard", "2/3", *files)
    assert again.stdout == shards[1].stdout


@pytest.mark.parametrize(
    ("shard", "said"),
    [
        ("0/3", "K must be between 1 and N"),
        ("4/3", "K must be between 1 and N"),
        ("1/0", "K must be between 1 and N"),
        ("2", "expected K/N"),
        ("a/b", "expected K/N"),
        ("-1/2", "expected K/N"),
    ],
)
def test_a_bad_shard_is_a_usage_error(shard: str, said: str) -> None:
    done = _run("check", "--shard", shard, "x.rgn")
    assert done.returncode == 2
    lines = done.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"referee: --shard {shard}: {said}")


def test_parts_run_across_files_and_a_problem_keeps_its_place(tmp_path: Path) -> None:
    """A folder of one-record files is not one part per file (the parent's cost per part
    capped --jobs near six workers): parts fill across files, cut only by a problem."""
    names = []
    for index in range(10):
        path = tmp_path / f"g{index}.rgn"
        path.write_text(NUMICA)
        names.append(str(path))
    names.insert(4, str(tmp_path / "missing.rgn"))
    form = batch_check.Form(json=False)
    found = list(batch_check.parts(batch_check.cut(names), form, batch_check.PART_RECORDS, batch_check.PART_BYTES))
    assert [len(item.records) if isinstance(item, batch_check.Part) else "problem" for item in found] == [
        4,
        "problem",
        6,
    ]
    assert [name for part in found if isinstance(part, batch_check.Part) for name, _, _ in part.records] == [
        name for name in names if "missing" not in name
    ]
    small = list(batch_check.parts(batch_check.cut(names[5:]), form, 4, batch_check.PART_BYTES))
    assert [len(item.records) for item in small if isinstance(item, batch_check.Part)] == [4, 2]


def test_a_part_holds_at_most_1_mb_of_records_whatever_the_archive(tmp_path: Path) -> None:
    """The client's memory is bounded by the parts in flight (`4 * jobs` with `--jobs`,
    `2 * threads + 2` with `--dask`): however large the archive and however many workers, a
    `--jobs` part aims at no more than 1 MB of records and a `--dask` part at 2 MB, so 16
    workers hold some 64 MB of records, not a share of the archive."""
    from referee.judge.runners import dask_check

    big = tmp_path / "big.rgn"
    big.write_bytes(b"x" * (1 << 23))
    archive = [str(big)] * 100_000  # 800 GB, by the sizes `sized` reads
    for workers in (1, 2, 16, 64):
        records, size = batch_check.sized(archive, workers, batch_check.PART_RECORDS, batch_check.PART_BYTES)
        assert size <= 1 << 20 and records <= 256
        records, size = batch_check.sized(archive, workers, dask_check.PART_RECORDS, dask_check.PART_BYTES)
        assert size <= 2 << 20 and records <= 512


def test_parts_grow_with_the_input_to_about_eight_per_worker(tmp_path: Path) -> None:
    """A large input is not cut into thousands of smallest parts (each costs this process,
    or a scheduler, its share): about PARTS_PER_WORKER parts per worker, between the smallest
    part and LARGEST times it; standard input's size is unknown, so its parts are the smallest."""
    big = tmp_path / "big.rgn"
    big.write_bytes(b"x" * (batch_check.PART_BYTES * 32))
    small = tmp_path / "small.rgn"
    small.write_bytes(b"x" * 100)
    least = (batch_check.PART_RECORDS, batch_check.PART_BYTES)
    assert batch_check.sized([str(small)], 2, *least) == least
    assert batch_check.sized([str(big)], 2, *least) == (batch_check.PART_RECORDS * 2, batch_check.PART_BYTES * 2)
    assert (
        batch_check.sized([str(big), str(small), str(tmp_path / "missing.rgn")], 4, *least)[1] > batch_check.PART_BYTES
    )
    assert batch_check.sized([str(big)], 1000, *least) == least
    most = (batch_check.PART_RECORDS * batch_check.LARGEST, batch_check.PART_BYTES * batch_check.LARGEST)
    assert batch_check.sized([str(big)] * 100, 1, *least) == most
    assert batch_check.sized([str(big), "-"], 1, *least) == least
    records = [(str(big), number, split(NUMICA.encode())[0]) for number in range(1, 1001)]
    cut_in = [
        len(part.records)
        for part in batch_check.parts(iter(records), batch_check.Form(False), 200, batch_check.PART_BYTES)
    ]
    assert cut_in == [200] * 5
