"""Compressed sources (`referee.judge.sources.decompress`): gzip, bzip2, xz and Zstandard files and
standard input, read by every command that reads records, streaming; damage is one line."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from referee.judge.sources import decompress, record_sources
from referee.notation.record_splitter import split
from tests.conftest import CONFORMANCE, EXAMPLES
from tests.helpers.cli import invoke
from tests.helpers.process import run_referee_without

zstandard = pytest.importorskip("zstandard", reason="zstandard is not installed: pip install 'referee[zstd]'")

COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    ".gz": gzip.compress,
    ".bz2": bz2.compress,
    ".xz": lzma.compress,
    ".zst": lambda data: zstandard.ZstdCompressor().compress(data),
}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Conformance records of every status and game, and the broken examples, in one file."""
    names = sorted(CONFORMANCE.glob("*/*.rgn"))[::3] + sorted((EXAMPLES / "broken").glob("*.rgn"))
    path = tmp_path_factory.mktemp("compressed") / "archive.rgn"
    path.write_bytes(b"\n".join(name.read_bytes() for name in names))
    return path


def _packed(plain: Path, suffix: str) -> Path:
    packed = plain.with_name(plain.name + suffix)
    packed.write_bytes(COMPRESS[suffix](plain.read_bytes()))
    return packed


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_check_reads_a_compressed_file_and_standard_input_as_the_plain_file(archive: Path, suffix: str) -> None:
    plain = invoke("check", "--json", str(archive))
    assert plain.exit_code == 1 and plain.stdout.count("\n") > 20
    packed = _packed(archive, suffix)
    from_file = invoke("check", "--json", str(packed))
    assert from_file.exit_code == 1
    # The verdict's source is the file given.
    assert from_file.stdout == plain.stdout.replace(f'"source": "{archive}"', f'"source": "{packed}"')
    piped = invoke("check", "--json", "-", stdin=packed.read_bytes())
    assert piped.exit_code == 1
    assert piped.stdout == plain.stdout.replace(f'"source": "{archive}"', '"source": "-"')


@pytest.mark.parametrize(
    ("command", "suffix"),
    [
        (["replay", "--record", "2"], ".gz"),
        (["show", "--record", "3"], ".bz2"),
        (["format"], ".xz"),
        (["stats", "--json"], ".zst"),
        (["moves", "--record", "2"], ".gz"),
        (["check", "--quiet"], ".bz2"),
    ],
)
def test_every_command_that_reads_records_reads_them_compressed(archive: Path, command: list[str], suffix: str) -> None:
    packed = _packed(archive, suffix)
    plain = invoke(*command, str(archive))
    for source, given in ((str(packed), None), ("-", packed.read_bytes())):
        done = invoke(*command, source, stdin=given)
        assert done.exit_code == plain.exit_code
        assert done.stdout == plain.stdout.replace(str(archive), source)


@pytest.mark.parametrize("suffix", list(COMPRESS))
def test_a_truncated_file_keeps_the_verdicts_read_before_the_damage(archive: Path, suffix: str) -> None:
    # Each format decompresses a block at a time (bzip2 100-900 KB, Zstandard 128 KB): records
    # enough that whole blocks come before the damage.
    plain = archive.with_name("longer.rgn")
    plain.write_bytes(b"\n".join(path.read_bytes() for path in sorted(CONFORMANCE.glob("*/*.rgn"))))
    whole = invoke("check", str(plain)).stdout.splitlines()
    data = bz2.compress(plain.read_bytes(), 1) if suffix == ".bz2" else COMPRESS[suffix](plain.read_bytes())
    cut = archive.with_name("cut.rgn" + suffix)
    cut.write_bytes(data[: len(data) * 2 // 3])
    done = invoke("check", str(cut))
    assert done.exit_code == 2  # as for an unreadable file
    lines = done.stdout.replace(str(cut), str(plain)).splitlines()
    assert 0 < len(lines) < len(whole) and lines == whole[: len(lines)]
    said = done.stderr.splitlines()
    assert len(said) == 1 and said[0].startswith(f"referee: cannot read {cut}: corrupt or truncated")


def test_corrupt_data_in_the_middle_is_one_line(archive: Path) -> None:
    data = bytearray(gzip.compress(archive.read_bytes()))
    data[len(data) // 2 : len(data) // 2 + 64] = bytes(64)
    broken = archive.with_name("broken.rgn.gz")
    broken.write_bytes(bytes(data))
    done = invoke("check", str(broken))
    assert done.exit_code == 2
    said = done.stderr.splitlines()
    assert len(said) == 1 and "corrupt" in said[0] and "Traceback" not in done.stdout + done.stderr


def test_a_file_named_for_a_format_must_hold_it(archive: Path) -> None:
    fake = archive.with_name("fake.rgn.gz")
    fake.write_bytes(archive.read_bytes())
    done = invoke("check", str(fake))
    assert done.exit_code == 2
    assert done.stderr == f"referee: cannot read {fake}: not a gzip file (its first bytes are not gzip's)\n"
    renamed = archive.with_name("plain.rgn")
    renamed.write_bytes(gzip.compress(archive.read_bytes()))  # any other name: told by its first bytes
    assert invoke("check", str(renamed)).exit_code == 1


def test_a_zst_file_without_zstandard_is_one_line_and_exit_2(archive: Path) -> None:
    packed = _packed(archive, ".zst")
    done = run_referee_without("zstandard", "check", str(packed), str(archive))
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == (
        f"referee: cannot read {packed}: it is Zstandard-compressed and the zstandard package is not installed: "
        "pip install '.[zstd]' in the checkout"
    )
    assert done.stdout.count("\n") > 20  # the next file is still checked


def test_zstandard_frames_cut_anywhere_are_found_truncated() -> None:
    """Zstandard's own reader ends quietly at a frame cut short: the frame walk tells."""
    maker = zstandard.ZstdCompressor(write_checksum=True)
    skippable = (0x184D2A53).to_bytes(4, "little") + (5).to_bytes(4, "little") + b"hello"
    frames = [maker.compress(b"x" * 100_000), skippable, maker.compress(b""), maker.compress(bytes(range(256)) * 999)]
    data = b"".join(frames)
    ends = {sum(len(frame) for frame in frames[:count]) for count in range(len(frames) + 1)}
    for cut in sorted({*ends, *range(0, len(data), 97), len(data) - 1, len(data) - 4}):
        given = io.BufferedReader(io.BytesIO(data[:cut]))
        if cut in ends and cut:
            out = decompress.decompressed(given, "x.zst").read()
            whole = [frame for frame in frames if data.index(frame) + len(frame) <= cut]
            assert out == b"".join(zstandard.decompress(frame) for frame in whole if frame[:1] == b"(")
            continue
        with pytest.raises(decompress.CorruptError, match="truncated|not a zstd file"):
            decompress.decompressed(given, "x.zst").read()


def test_reading_a_compressed_source_keeps_only_a_record_and_a_block_in_memory(tmp_path: Path) -> None:
    record = (EXAMPLES / "pikemen-2p-finished.rgn").read_bytes()
    path = tmp_path / "many.rgn.gz"
    with gzip.open(path, "wb") as out:
        for _ in range(4000):  # about 13 MB decompressed
            out.write(record + b"\n")
    tracemalloc.start()
    try:
        count = sum(1 for _ in record_sources.raw_records(str(path)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == 4000 * len(split(record))
    assert peak < 1_000_000, peak
