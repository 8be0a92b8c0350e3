"""Compressed bombs (issue 44 item 6, PLAY.md §8 applied to the decompressed stream): a
compressed source is read as an input that may not end, so more than `--max-record-bytes`
(64 MB) of decompressed text with no `[Game` ends the read in one line, and a record past
the limit is refused as in a plain file, the records after it still read.

Each bomb is 10 GB of zeros, made here by compressing 16 MB once and repeating the
compressed member 640 times (gzip members, bzip2 and xz streams and Zstandard frames may
follow one another): 28 KB of bzip2, 330 KB of zstd, 1.6 MB of xz, 10 MB of gzip. Before,
`check` ran past the test's timeout on every one of them (decompressing all 10 GB)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee

zstandard = pytest.importorskip("zstandard", reason="zstandard is not installed: pip install 'referee[zstd]'")

COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": lambda data: gzip.compress(data, 9),
    ".bz2": lambda data: bz2.compress(data, 9),
    ".xz": lzma.compress,
    ".zst": lambda data: zstandard.ZstdCompressor(level=19).compress(data),
}
CHUNK = 16 << 20
COPIES = 640
"""16 MB x 640: 10 GB of zeros once decompressed."""
LIMIT = 60
"""Seconds a run may take at most (a few on an idle machine); the bug ran for minutes."""
HEAD = b'[Game "Nika"]\n[Players "4"]\n\n1. W: '
STOP = re.compile(
    r"referee: (?P<name>\S+): no record start in more than (?P<size>\S+ MB) \(--max-record-bytes\) of "
    r"(?P<where>text before the first record|a refused record), in the decompressed data: "
    r"reading stopped at byte \d+\n"
)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Per format: 10 GB of zeros alone, and the same after the start of a record."""
    folder = tmp_path_factory.mktemp("bombs")
    made: dict[str, tuple[Path, Path]] = {}
    for suffix, compress in COMPRESS.items():
        member = compress(bytes(CHUNK))
        zeros = folder / f"zeros.rgn{suffix}"
        record = folder / f"record.rgn{suffix}"
        with zeros.open("wb") as out, record.open("wb") as led:
            led.write(compress(HEAD))
            for _ in range(COPIES):
                out.write(member)
                led.write(member)
        made[suffix] = (zeros, record)
    return made


def _check(*args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = run_referee("check", *args, timeout=LIMIT)
    return done, time.monotonic() - started


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_ten_gigabytes_of_zeros_end_the_read_in_one_line(bombs: dict[str, tuple[Path, Path]], suffix: str) -> None:
    zeros, _ = bombs[suffix]
    assert zeros.stat().st_size < 11 << 20
    done, took = _check(str(zeros))
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    found = STOP.fullmatch(done.stderr)
    assert found is not None, done.stderr
    assert (found["name"], found["size"], found["where"]) == (str(zeros), "64 MB", "text before the first record")
    assert took < LIMIT


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_a_bomb_record_is_refused_then_the_read_ends(bombs: dict[str, tuple[Path, Path]], suffix: str) -> None:
    _, record = bombs[suffix]
    done, _ = _check("--max-record-bytes", "8000000", str(record))
    assert done.returncode == 2, done.stderr
    assert done.stdout == (
        f"{record}:1: nika: malformed: line 1, col 1: the record is larger than 8 MB (--max-record-bytes): "
        "refused, not read\n"
    )
    found = STOP.fullmatch(done.stderr)
    assert found is not None, done.stderr
    assert (found["size"], found["where"]) == ("8 MB", "a refused record")


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_a_record_past_the_limit_is_refused_and_the_next_is_read(tmp_path: Path, suffix: str) -> None:
    """As in a plain file: the large record's verdict, then the records after it."""
    good = (EXAMPLES / "nika-won.rgn").read_bytes()
    large = HEAD + b"{" + b"x" * 1_500_000 + b"}\n"
    path = tmp_path / f"three.rgn{suffix}"
    path.write_bytes(COMPRESS[suffix](good + b"\n" + large + b"\n" + good))
    done, _ = _check("--max-record-bytes", "1000000", str(path))
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and lines[0].split(": ", 1)[1] == lines[2].split(": ", 1)[1]
    assert "the record is larger than 1 MB (--max-record-bytes): refused, not read" in lines[1]
    assert done.returncode == 1
