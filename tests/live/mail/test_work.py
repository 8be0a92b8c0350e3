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
  state with the submission (`resume.continued`) is not a replay of the
  game: it applies the submitted actions alone, on a copy of the state; it is counted
  apart (`continued`), once per accepted move (twice where the record as written, a
  result or a die written in, differs from the submission).
- writes: calls of `notation.writer.write`, the canonical text of a record: one for the
  new token (the text without `Result`), one for the file (with it).
"""

from __future__ import annotations

import email
import email.policy
import io
import re
from collections import Counter
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

import referee.judge.core.adjudicate as adjudicate
import referee.notation.reader as reader
import referee.notation.writer as writer
from referee.games.randomness import seed_hash
from referee.judge import session
from referee.judge.services import random_playout
from referee.judge.sources import record_sources
from referee.live import mail, play
from referee.live.mail import game
from referee.live.play import core
from referee.live.play.keys import create_key
from referee.notation.timing import parse_instant

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
    read_bounded = record_sources.read_bounded  # how game files are read, within their bound (PLAY.md §8)

    def counted_bounded(path: Any, *args: Any, **kwargs: Any) -> bytes:
        calls["file reads"] += Path(path).name == name
        return read_bounded(path, *args, **kwargs)

    monkeypatch.setattr(record_sources, "read_bounded", counted_bounded)
    return calls


def _by_mail(folder: Path, text: str, sender: str, body: str, subject: str = "[g1] move", **settings: Any) -> Path:
    """The game g1 of FOLDER written as TEXT, then SENDER's message of BODY through the
    gateway in this process (`mail.settings` with SETTINGS), which takes it: the game's file."""
    game_file = folder / "g1.rgn"
    game_file.write_text(text)
    message = f"From: {sender}\nTo: ref@example.org\nSubject: {subject}\nMessage-ID: <m1@x>\n\n{body}\n"
    handled = mail.run(io.BytesIO(message.encode()), mail.settings(folder, sender="ref@example.org", **settings))
    assert handled.exit_code == 0, handled.notes
    return game_file


def test_an_accepted_move_by_mail_reads_and_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _counted(monkeypatch)
    game_file = _by_mail(tmp_path, NUMICA + "R: SSSSOOOO\n", "bo@example.org", "SOSOSOSO")
    assert "B: SOSOSOSO" in game_file.read_text()
    answers = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(answers) == 2 and all("image/svg+xml" in path.read_text() for path in answers)
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 1 and calls["file reads"] == 2, dict(calls)


LEAGUE = (
    '[Game "numica"]\n[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]\n'
    '[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n[Seed "42"]\n\n'
)


def test_an_accepted_move_in_a_timed_game_by_mail_reads_and_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A league's game: a clock, stamps on every submission, players known by address.
    The clock walk goes on from the game's replay with the submission (not a second
    replay of the game and the submission together)."""
    calls = _counted(monkeypatch)
    record = LEAGUE + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\n"
    game_file = _by_mail(tmp_path, record, "bo@example.org", "SOSOSOSO", now="2026-12-04T18:00:00Z")
    text = game_file.read_text()
    assert "B: SOSOSOSO {[%at 2026-12-04T18:00:00Z Blue]}" in text, text
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 1 and calls["file reads"] == 2, dict(calls)
    # Both answers say the clock a whole replay gives (TIME.md §6: Blue's 3d less 2d 6h, plus 1d).
    answers = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(answers) == 2
    for path in answers:
        answer = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        assert isinstance(answer, EmailMessage)
        body = answer.get_body(("plain",))
        assert body is not None and "clock Red 3d 0h 00m, Blue 1d 18h 00m; deadline 2026-12-07" in body.get_content()


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


@pytest.mark.parametrize("asked", ["show", "moves"])
def test_show_and_moves_by_mail_read_and_replay_the_game_once(
    asked: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`show` and `moves` by mail answer from the gateway's one replay of the game (they
    read and replayed it a second time through `referee.judge.session`), with
    the board and the legal actions `referee show` and `referee moves` give."""
    calls = _counted(monkeypatch)
    game_file = _by_mail(tmp_path, NUMICA + "R: SSSSOOOO\n", "bo@example.org", asked, subject="[g1]")
    assert calls["reads"] == 1 and calls["replays"] == 1 and calls["file reads"] == 1, dict(calls)
    assert calls["writes"] <= 1, dict(calls)  # the token's canonical text, written once
    monkeypatch.undo()
    (path,) = sorted((tmp_path / "outbox").glob("*.eml"))
    answer = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = answer.get_body(("plain",))
    assert body is not None
    text = body.get_content()
    if asked == "show":
        shown = session.show(str(game_file), 1, None)
        assert isinstance(shown, session.Shown) and shown.state is not None
        assert shown.state.render() in text and f"position: {shown.state.position()}" in text
        assert "image/svg+xml" in path.read_text()
    else:
        listed = session.moves(str(game_file), 1)
        assert isinstance(listed, session.Listed) and listed.actions
        assert f"Blue to move: {len(listed.actions)} legal actions" in text
        assert all(action in text for action in listed.actions)


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


def _before_a_battle(seed: str, later: int = 0) -> tuple[str, str, str]:
    """A Nieuchess playout's tags, its moves up to its first turn with a battle (or the
    `later`-th turn with a battle after it; one that leaves nobody a choice), and that
    turn with the die and result left out (the referee draws them)."""
    head, _, moves = random_playout.play("nieuchess", None, seed, max_turns=60).text.partition("\n\n")
    lines = moves.splitlines()
    at = [index for index, line in enumerate(lines) if "#" in line][later]
    assert "(" not in lines[at], "a battle that leaves a choice"
    label, _, actions = lines[at].partition(":")
    turn = label.split(".")[-1].strip() + ": " + re.sub(r"#\d=\S*", "", actions).strip()
    return head, "\n".join(lines[:at]) + "\n", turn


PLAYERS = '[Red "Ann <ann@example.org>"]\n[Blue "Bo <bo@example.org>"]\n'


def _battle_by_mail(tmp_path: Path, head: str, moves: str, turn: str, keys: Path | None) -> Path:
    sender = "ann@example.org" if turn.startswith("R") else "bo@example.org"
    return _by_mail(tmp_path, f"{head}\n{PLAYERS}\n{moves}", sender, turn, keys=keys)


def test_a_battle_by_mail_whose_die_the_referee_draws_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The die drawn from the game's Seed is written onto the battle: the record as
    written is the game's replay continued (not a second replay from the start)."""
    head, moves, turn = _before_a_battle("b8")
    calls = _counted(monkeypatch)
    game_file = _battle_by_mail(tmp_path, head, moves, turn, None)
    battle = next(action for action in turn.split() if "x" in action)
    assert re.search(re.escape(battle) + r"#\d", game_file.read_text()), game_file.read_text()
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 2, dict(calls)


@pytest.mark.parametrize("later", [0, 2])
def test_a_battle_by_mail_with_the_game_masters_key_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, later: int
) -> None:
    """With the game master's key the die is drawn from the secret seed: the game's replay
    (made from the record's tags, the seed's hash alone, its rolls as written) goes on
    drawing from the seed (`Engine.keyed`, the rolls written before being the seed's), not
    a second replay of the game and the submission with the key; the record as written
    (the die on it) is that replay of the game continued too. The first battle, or a later
    one after battles whose dice the seed drew."""
    # (a playout whose 1st and 3rd battles are alone in their turns and leave no choice)
    head, moves, turn = _before_a_battle("k38", later)
    seed = re.findall(r'\[Seed "([^"]*)"\]', head)[0]  # the game master's key: the dice written so far are its
    keys = tmp_path / "keys"
    keys.mkdir()
    create_key(keys / "g1.key", seed)
    head = re.sub(r'\[Seed "[^"]*"\]', f'[SeedHash "{seed_hash(seed)}"]', head)
    calls = _counted(monkeypatch)
    game_file = _battle_by_mail(tmp_path, head, moves, turn, keys)
    battle = next(action for action in turn.split() if re.search(r"\dx", action))
    assert re.search(re.escape(battle) + r"#\d", game_file.read_text()), game_file.read_text()
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 2, dict(calls)


def test_a_battle_by_play_with_the_game_masters_key_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`referee play --seed-file`: the same, the key handed to `play.submit` as `seed`."""
    head, moves, turn = _before_a_battle("k38", 2)
    seed = re.findall(r'\[Seed "([^"]*)"\]', head)[0]
    head = re.sub(r'\[Seed "[^"]*"\]', f'[SeedHash "{seed_hash(seed)}"]', head)
    game_file = tmp_path / "g1.rgn"
    game_file.write_text(f"{head}\n{PLAYERS}\n{moves}")
    calls = _counted(monkeypatch)
    result = play.submit(game_file, turn, as_side="Red", seed=seed)
    battle = next(action for action in turn.split() if re.search(r"\dx", action))
    assert result.written and re.search(re.escape(battle) + r"#\d", game_file.read_text())
    assert seed not in game_file.read_text()
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 2 and calls["file reads"] == 1, dict(calls)


def test_a_timeout_claimed_by_play_replays_the_game_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`referee play FILE timeout` in a league's game: the `timeout` and its stamp continue
    the game's replay, and the clock proves the flag (Red: 3d from 2026-12-04 18:00)."""
    game_file = tmp_path / "g1.rgn"
    game_file.write_text(
        LEAGUE + "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\nB: SOSOSOSO {[%at 2026-12-04T18:00:00Z Blue]}\n"
    )
    calls = _counted(monkeypatch)
    early = play.submit(game_file, "timeout", now=parse_instant("2026-12-07T17:00:00Z"))
    assert not early.written and "Red still has 1h 00m" in early.headline, early.headline
    result = play.submit(game_file, "timeout", now=parse_instant("2026-12-07T19:00:00Z"))
    assert result.written and "Blue wins" in result.headline, result.headline
    assert "timeout\n{[%at 2026-12-07T19:00:00Z Red]}" in game_file.read_text()
    assert calls["reads"] <= 2 and calls["replays"] <= 2 and calls["continued"] == 2, dict(calls)


def _mailed(tmp_path: Path, text: str, sender: str, moves: str) -> Path:
    game_file = _by_mail(tmp_path, text, sender, moves)
    answers = sorted((tmp_path / "outbox").glob("*.eml"))
    assert answers and all("image/svg+xml" in path.read_text() for path in answers)
    return game_file


def test_a_submission_continuing_the_open_turn_by_mail_replays_the_game_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nika: the game file holds Red's turn begun (its first action); Red's second action
    continues that turn. The turn's replay goes on from where the game's stopped (it was
    replayed twice: the game, then the game and the submission together)."""
    head, _, moves = random_playout.play("nika", 2, "open-turn", max_turns=5).text.partition("\n\n")
    lines = moves.splitlines()
    label, _, actions = lines[1].partition(":")
    first, second = actions.split()
    players = '[White "Ann <ann@example.org>"]\n[Red "Ann <ann@example.org>"]\n'
    players += '[Blue "Bo <bo@example.org>"]\n[Black "Bo <bo@example.org>"]\n'
    text = f"{head}\n{players}\n{lines[0]}\n{label}: {first}\n"
    calls = _counted(monkeypatch)
    game_file = _mailed(tmp_path, text, "ann@example.org", second)
    assert f"{label}: {first} {second}" in game_file.read_text(), game_file.read_text()
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert calls["continued"] == 1 and calls["file reads"] == 2, dict(calls)


def _awaiting(seed: str, kind: str) -> tuple[str, str, str, str]:
    """A Nieuchess playout stopped at a battle awaiting its roll (`roll`: physical dice,
    no Seed) or its winner's choice (`choice`): the game file's text, the side to act,
    the part that completes the battle, and the battle completed."""
    head, _, moves = random_playout.play("nieuchess", None, seed, max_turns=80).text.partition("\n\n")
    if kind == "roll":
        head = re.sub(r'\n?\[Seed "[^"]*"\]', "", head)
    lines = moves.splitlines()
    at = next(index for index, line in enumerate(lines) if "#" in line and (kind == "roll" or "(" in line))
    label, _, actions = lines[at].partition(":")
    words = actions.split()
    battle = next(index for index, word in enumerate(words) if "#" in word and (kind == "roll" or "(" in word))
    written = words[battle]
    bare, part = (
        (written.split("#")[0], "#" + written.split("#")[1].split("=")[0])
        if kind == "roll"
        else (
            written.split("(")[0],
            "(" + written.split("(", 1)[1],
        )
    )
    text = f"{head}\n{PLAYERS}\n" + "\n".join(lines[:at]) + f"\n{label}: {' '.join([*words[:battle], bare])}\n"
    return text, bare, part, written


@pytest.mark.parametrize("kind", ["roll", "choice"])
def test_a_submission_completing_an_awaited_roll_or_choice_by_mail_replays_the_game_once(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nieuchess: the game awaits a battle's roll (physical dice) or its winner's choice; the
    submission writes it alone (`#4`, `(h7-h8-h9)`) onto the battle. The game's replay goes on
    from where it stood before that battle (it was replayed twice: the game, then the game
    and the submission together)."""
    text, bare, part, written = _awaiting(f"awaiting-{kind}", kind)
    (tmp_path / "probe.rgn").write_text(text)
    probe = core.replay_file(tmp_path / "probe.rgn", text.encode())
    assert probe.state is not None and probe.state.pending() == kind, probe.verdict
    sender = "ann@example.org" if probe.verdict.to_move == "Red" else "bo@example.org"
    calls = _counted(monkeypatch)
    game_file = _mailed(tmp_path, text, sender, part)
    written_now = game_file.read_text()
    assert bare + part in written_now or written in written_now, written_now
    assert calls["reads"] <= 1 and calls["replays"] <= 1 and calls["writes"] <= 2, dict(calls)
    assert 1 <= calls["continued"] <= 2 and calls["file reads"] == 2, dict(calls)
