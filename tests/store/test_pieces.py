"""`write_output` of pieces: a file written from pieces, one after another, as atomically
as `write_atomically` writes a whole text (`replay --html -o`, whose page is never joined
in memory). Every call it makes on the store's seam (`referee.store.ops`) fails in turn,
with ENOSPC and with EIO: each time the old file is intact, no temporary file is left and
the error names the file; so too when making the pieces fails half way."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.store import WriteFailed, write_atomically, write_output
from referee.store import ops as seam
from tests.helpers import faults

PIECES = [b"<!DOCTYPE html>\n", "caf\u00e9 \u2713\n".encode(), b"x" * 70_000, b"", b"end\n"]


def _calls(folder: Path) -> int:
    counting = faults.Counting()
    plain = seam.install(counting)
    try:
        write_output(folder / "page.html", iter(PIECES))
    finally:
        seam.install(plain)
    assert (folder / "page.html").read_bytes() == b"".join(PIECES)
    assert [call.split(" ")[0] for call in counting.calls][:2] == ["create", "write"]
    return len(counting.calls)


@pytest.mark.parametrize("kind", ["enospc", "eio"])
def test_every_call_failing_leaves_the_old_file_and_no_temporary_file(tmp_path: Path, kind: str) -> None:
    calls = _calls(tmp_path)
    assert calls >= 1 + (len(PIECES) - 1) + 3  # create, a write a piece (none for b""), fsync, rename, fsync
    for k in range(1, calls + 1):
        folder = tmp_path / f"{kind}-{k}"
        folder.mkdir()
        path = folder / "page.html"
        path.write_bytes(b"the old page")
        path.chmod(0o640)
        plain = seam.install(faults.Faulty(k, kind))
        try:
            with pytest.raises(WriteFailed) as failed:
                write_output(path, iter(PIECES))
        finally:
            seam.install(plain)
        assert str(path) in str(failed.value) and "\n" not in str(failed.value), f"call {k}"
        assert sorted(item.name for item in folder.iterdir()) == ["page.html"], f"call {k}"
        # The last call, the folder's fsync, fails after the rename: the new file stands (as `write_atomically`'s).
        assert path.read_bytes() == (b"".join(PIECES) if k == calls else b"the old page"), f"call {k}"
        assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_failure_while_the_pieces_are_made_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(b"the old page")

    def pieces() -> Iterator[bytes]:
        yield b"half"
        raise ValueError("the page could not be made")

    with pytest.raises(ValueError, match="could not be made"):
        write_output(path, pieces())
    assert path.read_bytes() == b"the old page"
    assert sorted(item.name for item in tmp_path.iterdir()) == ["page.html"]


def test_pieces_keep_the_mode_replace_a_link_and_refuse_a_pipe(tmp_path: Path) -> None:
    """A file's mode kept (0644 for a new one). Issue 44 item 3 changed the rest: a link at
    an output's path is replaced by the file, never written through (its target is left as
    it was), and a pipe is refused unopened, where before 58d1688's rule wrote through the
    link and into the pipe (a planted link then overwrote any file the user could write,
    and a FIFO nobody read hung the command). `write_atomically`, for the referee's own
    files (a game file named through a link is locked and written as the file it names),
    still writes through a link, and now refuses a pipe too."""
    path = tmp_path / "page.html"
    write_output(path, PIECES)
    assert path.read_bytes() == b"".join(PIECES)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o600)
    write_output(path, [b"again"])
    assert path.read_bytes() == b"again" and stat.S_IMODE(path.stat().st_mode) == 0o600
    link = tmp_path / "link.html"
    link.symlink_to(path)
    write_output(link, [b"instead of ", b"the link"])
    assert not link.is_symlink() and link.read_bytes() == b"instead of the link"
    assert path.read_bytes() == b"again"
    game = tmp_path / "game.rgn"
    game.symlink_to(path)
    write_atomically(game, "through the link")
    assert game.is_symlink() and path.read_bytes() == b"through the link"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteFailed, match=r"it is a FIFO, not a regular file: refused$"):
        write_output(fifo, [b"into ", b"the pipe"])
    with pytest.raises(WriteFailed, match=r"not a regular file: refused$"):
        write_atomically(fifo, "into the pipe")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(item.name for item in tmp_path.iterdir()) == ["game.rgn", "link.html", "page.html", "pipe"]
