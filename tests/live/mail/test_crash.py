"""The gateway killed half way, or on a full disk, strands nobody (docs/files.md): a move
played is answered to everyone it was owed to, whoever sends the message again, and a
line of `mail.log` that cannot be written is exit 75 (the mail system delivers the
message again), never a silent 0. Faults at a chosen call on the file-operations seam
(tests/helpers/faults.py); tests/store/test_faults.py sweeps every call."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import faults
from tests.helpers.mail import GM, NIKA_PLAYERS, message, nika_game

MOVE = "d1+d2+d3-W i3-E"
NOW = "2026-12-01T12:00:00Z"


def _gateway(folder: Path) -> list[str]:
    return ["mail", "receive", str(folder), "--from", GM, "--now", NOW]


def _move() -> bytes:
    return message(NIKA_PLAYERS["Athens"], "[g1] move", f"{MOVE}\n", message_id="<move-1@example.org>").as_bytes()


def _answers(folder: Path) -> dict[str, list[str]]:
    """Each player's answers in the outbox (their texts)."""
    seen: dict[str, list[str]] = {}
    for to, _, text in faults.snapshot(folder)["answers"]:  # type: ignore[union-attr]
        seen.setdefault(to, []).append(text)
    return seen


def test_a_gateway_killed_after_the_move_before_the_answers_tells_the_next_player_on_redelivery(
    scratch: Path,
) -> None:
    clean, folder = scratch / "clean", scratch / "games"
    for each in (clean, folder):
        each.mkdir()
        nika_game(each)
    trace = faults.run(_gateway(clean), _move())
    assert trace.code == 0, trace.err
    # Killed once the move is in the game file, before the first answer is in the outbox.
    after_move = trace.first("outbox")
    killed = faults.run(_gateway(folder), _move(), faults.Faulty(after_move, "kill"))
    assert killed.code == faults.KILLED
    again = faults.run(_gateway(folder), _move())  # the mail system delivers it again
    assert again.code == 0, again.err
    assert f"1. W: {MOVE}" in (folder / "g1.rgn").read_text(encoding="utf-8")
    answers = _answers(folder)
    bo = answers["Bo <bo@example.org>"]
    assert any("Bo (Sparta) to move" in text and "To play, answer" in text for text in bo), bo
    assert set(answers) == {player for player in NIKA_PLAYERS.values()}
    assert faults.snapshot(folder, drop_repeats=True) == faults.snapshot(clean)
    assert (folder / "mail.log").read_text(encoding="ascii").split()[-1] in ("played", "duplicate")


def test_a_mail_log_line_that_cannot_be_written_is_exit_75_and_written_on_redelivery(scratch: Path) -> None:
    folder = scratch / "games"
    folder.mkdir()
    nika_game(folder)
    (folder / "mail.log").write_text("", encoding="ascii")
    probe = scratch / "probe"
    probe.mkdir()
    nika_game(probe)
    trace = faults.run(_gateway(probe), _move())
    full = faults.Faulty(trace.first(f"write {probe / 'mail.log'}"), "enospc")
    failed = faults.run(_gateway(folder), _move(), full)
    assert failed.code == 75, failed.err
    assert f"cannot write {folder / 'mail.log'}: No space left on device" in failed.err
    assert "Traceback" not in failed.err
    again = faults.run(_gateway(folder), _move())
    assert again.code == 0, again.err
    outcomes = [line.split()[-1] for line in (folder / "mail.log").read_text(encoding="ascii").splitlines()]
    assert outcomes == ["played", "duplicate"]
    assert set(_answers(folder)) == set(NIKA_PLAYERS.values())


def test_play_on_a_full_disk_names_the_game_file(scratch: Path) -> None:
    path = nika_game(scratch)
    old = path.read_bytes()
    trace = faults.run(["play", str(path), "--dry-run", MOVE])
    assert trace.code == 0 and trace.calls == 0  # a dry run writes nothing
    failed = faults.run(["play", str(path), MOVE], ops=faults.Faulty(2, "enospc"))
    assert failed.code == 2 and failed.err == f"referee: cannot write {path}: No space left on device\n"
    assert path.read_bytes() == old


def test_an_answer_sent_again_after_a_crash_says_it_may_have_come_before(tmp_path: Path) -> None:
    from tests.helpers.mail import start_smtp

    nika_game(tmp_path)
    done = faults.run(_gateway(tmp_path), _move())
    assert done.code == 0, done.err
    outbox = tmp_path / "outbox"
    first, second = sorted(outbox.glob("*.eml"))
    # A flush that died after handing `first` to the server, before removing it:
    (outbox / (first.name + ".tried")).touch()
    server = start_smtp()
    try:
        flushed = faults.run(["mail", "flush", str(tmp_path), "--smtp", server.address, "--from", GM])
        assert flushed.code == 0, flushed.err
        marks = [received.message["X-Referee-Resent"] for received in server.received]
    finally:
        server.stop()
    assert marks[0] is not None and "may have reached you before" in str(marks[0])
    assert marks[1] is None
    assert sorted(path.name for path in outbox.iterdir()) == [".flush.lock"]
