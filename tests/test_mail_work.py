"""How much work one accepted move costs, by mail and by `referee play` (issue 17: it was
3 reads, 5 replays and 7 canonical writes of the record by mail; then 2, 3 and 3; the aim
is one read and one replay).

How it is counted, around the whole of `mail.run` (or `play.submit`):
- reads: calls of `notation.reader.read` and `read_raw`, the parse of a file's text into
  records. (The game file's bytes are read twice by mail: by the gateway, to know the
  players, and by `play` under the game's lock, to see that nobody wrote it in between;
  the second is compared, not parsed: `file reads` below.)
- replays: calls of `adjudicate._adjudicate`, a record replayed from its start. A replay
  of the game and the submission together counts as one. Continuing the game's replayed
  state with the submission's own turns (`adjudicate.continued`) is not a replay of the
  game: it applies the submitted actions alone, on a copy of the state; it is counted
  apart (`continued`), once per accepted move.
- writes: calls of `notation.writer.write`, the canonical text of a record: one for the
  new token (the text without `Result`), one for the file (with it).
"""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import notation.reader as reader
import notation.writer as writer
import referee.judge.adjudicate as adjudicate
from referee.live import mail, play
from referee.live.mail import game
from referee.live.play import core

NUMICA = '[Game "numica"]\n[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n[Seed "42"]\n\n'


def _counted(monkeypatch: pytest.MonkeyPatch, name: str = "g1.rgn") -> Counter[str]:
    calls: Counter[str] = Counter()
    for module, function, key in (
        (adjudicate, "_adjudicate", "replays"),
        (core, "continued", "continued"),
        (reader, "read", "reads"),
        (reader, "read_raw", "reads"),
        (writer, "write", "writes"),
    ):
        original = getattr(module, function, None)
        if original is None:  # (before `continued` was written)
            continue

        def counted(*args: Any, _original: Any = original, _key: str = key, **kwargs: Any) -> Any:
            calls[_key] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, function, counted)
    read_bytes = Path.read_bytes

    def counted_bytes(self: Path) -> bytes:
        calls["file reads"] += self.name == name
        return read_bytes(self)

    monkeypatch.setattr(Path, "read_bytes", counted_bytes)
    return calls


def test_an_accepted_move_by_mail_reads_and_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_file = tmp_path / "g1.rgn"
    game_file.write_text(NUMICA + "R: SSSSOOOO\n")
    calls = _counted(monkeypatch)
    message = b"From: bo@example.org\nTo: ref@example.org\nSubject: [g1] move\nMessage-ID: <a1@x>\n\nSOSOSOSO\n"
    handled = mail.run(io.BytesIO(message), mail.settings(tmp_path, sender="ref@example.org"))
    assert handled.exit_code == 0 and "B: SOSOSOSO" in game_file.read_text()
    answers = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(answers) == 2 and all("image/svg+xml" in path.read_text() for path in answers)
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 1 and calls["file reads"] == 2, dict(calls)


def test_an_accepted_move_by_play_reads_and_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_file = tmp_path / "g1.rgn"
    game_file.write_text(NUMICA + "R: SSSSOOOO\n")
    calls = _counted(monkeypatch)
    result = play.submit(game_file, "SOSOSOSO", as_side="Blue")
    assert result.written and "B: SOSOSOSO" in game_file.read_text()
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 1 and calls["file reads"] == 1, dict(calls)


def test_the_gateway_replay_is_not_used_once_the_game_was_written_since(tmp_path: Path) -> None:
    """The gateway reads the game without its lock: if a move is written between that
    read and `play`'s lock, the submission is judged against the game as it now is (never
    against the old replay, which would lose the move written in between)."""
    path = tmp_path / "g1.rgn"
    path.write_text(NUMICA)
    current = game.open_game(path)
    assert current.to_move == "Red"
    assert play.submit(path, "SSSSOOOO").written  # another message, played first
    played = game.submit(current, "SOSOSOSO", side=None, expect=None, seed=None, wait=1)
    assert played.written, played.error
    text = path.read_text()
    assert "R: SSSSOOOO" in text and "B: SOSOSOSO" in text
    stale = game.submit(current, "SSOOSSOO", side="Red", expect=current.token, seed=None, wait=1)
    assert not stale.written and stale.error is not None and "the board has changed" in stale.error
