"""A game file's lock covers its write (PLAY.md §4): a lock taken inside a transaction is
released only after the transaction has committed, and taking it again within that
transaction (play, then reveal at a game's end, in one mail) is no wait on itself."""

from __future__ import annotations

import fcntl
from pathlib import Path

import pytest

from referee import store


def _held(path: Path) -> bool:
    with open(store.lock_path(path)) as handle:  # another open file description: as another process sees it
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def test_the_lock_is_held_until_the_transaction_has_written_the_game(tmp_path: Path) -> None:
    game = tmp_path / "g1.rgn"
    game.write_text("old\n")
    with store.transaction(tmp_path):
        with store.locked(game, 1):
            store.write(game, "new\n")
        assert game.read_text() == "old\n"  # not yet written...
        assert _held(game)  # ...and still locked
        with store.locked(game, 0):  # the same game again within the transaction: no wait
            store.write(game, "newer\n")
    assert game.read_text() == "newer\n"
    assert not _held(game)


def test_outside_a_transaction_the_lock_ends_with_its_block(tmp_path: Path) -> None:
    game = tmp_path / "g1.rgn"
    game.write_text("old\n")
    with store.locked(game, 1):
        assert _held(game)
    assert not _held(game)


def test_a_transaction_that_fails_releases_its_locks(tmp_path: Path) -> None:
    game = tmp_path / "g1.rgn"
    game.write_text("old\n")
    with pytest.raises(RuntimeError), store.transaction(tmp_path):
        with store.locked(game, 1):
            store.write(game, "new\n")
        raise RuntimeError("refused")
    assert game.read_text() == "old\n" and not _held(game)
