"""How much work one accepted move by mail costs: the answers draw their board from the
replay `play` made of the game as written, not from reading and replaying it again
(issue 17: it was 3 reads, 5 replays and 7 canonical writes of the record; the aim is one
read and one replay)."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import notation.reader as reader
import notation.writer as writer
import referee.judge.adjudicate as adjudicate
from referee.live import mail


def test_an_accepted_move_reads_and_replays_the_game_no_more_than_twice_and_three_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: Counter[str] = Counter()
    for module, name, key in (
        (adjudicate, "_adjudicate", "replays"),
        (reader, "read", "reads"),
        (reader, "read_raw", "reads"),
        (writer, "write", "writes"),
    ):
        original = getattr(module, name)

        def counted(*args: Any, _original: Any = original, _key: str = key, **kwargs: Any) -> Any:
            calls[_key] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    game = tmp_path / "g1.rgn"
    game.write_text('[Game "numica"]\n[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n[Seed "42"]\n\n')
    message = b"From: ann@example.org\nTo: ref@example.org\nSubject: [g1] move\nMessage-ID: <a1@x>\n\nSSSSOOOO\n"
    handled = mail.run(io.BytesIO(message), mail.settings(tmp_path, sender="ref@example.org"))
    assert handled.exit_code == 0 and "R: SSSSOOOO" in game.read_text()
    answers = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(answers) == 2 and all("image/svg+xml" in path.read_text() for path in answers)
    # The gateway reads the game to know its players, `play` again under the lock; then one
    # replay each, and one of what was submitted; the token's text and the file's text.
    assert calls["reads"] <= 2 and calls["replays"] <= 3 and calls["writes"] <= 3, dict(calls)
