"""Random playouts with random queues (PLAY.md §9): in every game and player count, sides
queue replies to turns the others then play (or do not), and the game is compared with
the same game played by hand: the same record apart from the referee's commands, the same
verdict at every step, every reveal and reply verified by `check` at the end."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from referee.judge.core import queue_check
from referee.judge.session import next_actions
from referee.live.play import queue_submit
from referee.live.play.core import read_game, replay_file
from tests.helpers.cli import invoke
from tests.helpers.play import play

GAMES = {
    "pikemen-2": '[Game "pikemen"]\n[GameId "r2"]\n\n',
    "pikemen-3": '[Game "pikemen"]\n[Players "3"]\n[GameId "r3"]\n\n',
    "pikemen-4": '[Game "pikemen"]\n[Players "4"]\n[GameId "r4"]\n\n',
    "nika-2": '[Game "nika"]\n[Players "2"]\n[GameId "rk"]\n\n',
    "numica": '[Game "numica"]\n[Seed "11"]\n[GameId "rn"]\n\n',
    "nieuchess": '[Game "nieuchess"]\n[Seed "5"]\n[GameId "rc"]\n\n',
    # Pieces in contact from the start: battles (rolls, choices) in the conditions and replies.
    "nieuchess-battles": '[Game "nieuchess"]\n[Seed "9"]\n[GameId "rb"]\n'
    '[Position "R:j20,k21,l20,a1 B:j21,k20,l21,x30 to:R"]\n\n',
}
_COMMAND = re.compile(r"\{\[%[^}]*\}")


def _replay(path: Path):  # type: ignore[no-untyped-def]
    return replay_file(path, read_game(path))


def _turn(path: Path, rng: random.Random) -> str | None:
    """Play one whole random turn on `path` (the game master's), its canonical text."""
    first = _replay(path)
    side = first.verdict.to_move
    if first.verdict.status != "ongoing" or side is None:
        return None
    while True:
        current = _replay(path)
        if current.verdict.status != "ongoing" or current.verdict.to_move != side or current.state is None:
            break
        record = current.record
        assert record is not None
        last = queue_check.record_turns(record)[-1:]
        open_side = last[0].side if last else None
        continuing = open_side == side and bool(current.state.legal_actions())
        actions = [str(action) for action in _actions(current.state, open_side, side, continuing)]
        actions = [action for action in actions if action != "resign"] or actions
        if not actions:
            break
        before = len(queue_check.record_turns(record))
        label = "" if continuing else f"{record_label(path, side)}: "
        chosen = play(path, label + rng.choice(actions))
        assert chosen.exit_code == 0, chosen.error
        after = _replay(path)
        if after.verdict.to_move != side or after.verdict.status != "ongoing":
            break
        if len(queue_check.record_turns(after.record)) > before and not _open(after):  # type: ignore[arg-type]
            break
    done = _replay(path).record
    assert done is not None
    return queue_check.turn_text(queue_check.record_turns(done)[-1], done.game)


def _actions(state, open_side: str | None, side: str, continuing: bool) -> list[object]:  # type: ignore[no-untyped-def]
    """The actions of `side`'s next whole turn; Nieuchess's optional replacement step before it
    (`R+:`, a turn of its own) is skipped, so that a turn here is always a move turn."""
    turn = state.next_turn()
    if continuing or turn is None or turn[0] != side or not turn[1]:
        return next_actions(state, open_side)
    following = state.copy()
    try:
        if open_side is not None:
            following.end_turn()
        following.begin_turn(side, False)
    except ValueError:
        return next_actions(state, open_side)
    return list(following.legal_actions())


def _open(current) -> bool:  # type: ignore[no-untyped-def]
    """Whether the side to move is inside a turn it has begun."""
    record = current.record
    turns = queue_check.record_turns(record)
    return bool(turns) and turns[-1].side == current.verdict.to_move and bool(turns[-1].moves)


def record_label(path: Path, side: str) -> str:
    from referee.games import registry

    record = _replay(path).record
    assert record is not None
    return registry.engine(record.game).dialect().short_labels[side]


def _plain(text: str) -> str:
    """A record without the referee's queue commands, its white space normalized."""
    return " ".join(_COMMAND.sub(" ", text).split())


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_queued_replies_give_the_game_the_same_replies_by_hand_give(tmp_path: Path, name: str, seed: int) -> None:
    rng = random.Random(f"{name}-{seed}")
    queued_dir, hand_dir, scratch_dir = (tmp_path / part for part in ("queued", "hand", "scratch"))
    for folder in (queued_dir, hand_dir, scratch_dir):
        folder.mkdir()
    queued, hand = queued_dir / "g.rgn", hand_dir / "g.rgn"
    queued.write_text(GAMES[name])
    hand.write_text(GAMES[name])
    _turn(queued, rng)
    shutil.copy(queued, hand)
    triggered = 0
    for _ in range(8):
        current = _replay(queued)
        if current.verdict.status != "ongoing" or current.state is None:
            break
        to_move = current.verdict.to_move
        others = [side for side in current.state.sides if side != to_move and current.state.in_game(side)]
        side = rng.choice(others)
        # What the others will play until `side`'s turn, and the reply: found on a scratch copy.
        scratch = scratch_dir / "g.rgn"
        shutil.copy(queued, scratch)
        conditions: list[str] = []
        while _replay(scratch).verdict.to_move not in (side, None):
            played = _turn(scratch, rng)
            if played is None:
                break
            conditions.append(played)
        if _replay(scratch).verdict.to_move != side:
            break
        reply = _turn(scratch, rng)
        if reply is None:
            break
        hit = rng.random() < 0.7
        wrong = f"if {conditions[0]} then {reply}"
        line = f"if {' '.join(conditions)} then {reply}" if hit else wrong
        result = queue_submit.set_queue(queued, side, line, wait=5)
        if not hit and result.exit_code == 1:
            continue  # the wrong line is illegal itself: refused, nothing queued
        assert result.exit_code == 0, (line, result.message)
        # The others play their turns, on both games; the queued game plays the reply itself.
        for turn in conditions:
            for path in (queued, hand):
                assert play(path, turn).exit_code == 0, turn
            if _replay(queued).verdict.status != "ongoing":
                break
        if hit and len(conditions) > 0:
            text = queued.read_text()
            assert f"{{[%by-queue {side}]}}" in text
            assert play(hand, reply).exit_code == 0
            triggered += 1
        else:
            # Not answered: the side is told and plays by hand, on both games.
            for path in (queued, hand):
                if _replay(path).verdict.to_move == side:
                    assert play(path, reply).exit_code == 0
        mine, theirs = _replay(queued).verdict, _replay(hand).verdict
        assert (mine.status, mine.to_move, mine.turns, mine.winners) == (
            theirs.status,
            theirs.to_move,
            theirs.turns,
            theirs.winners,
        )
        assert _plain(queued.read_text()) == _plain(hand.read_text())
    code, out, _ = invoke("reveal", str(queued), "--queues")
    assert code == 0, out
    verdict = json.loads(invoke("check", "--json", str(queued)).stdout)
    assert verdict["status"] in ("ongoing", "finished"), verdict["error"]
    for state in verdict.get("queues", {}).values():
        assert state["verified"] is True and state["revealed"] == state["queued"]
    assert triggered >= 1 or name == "numica"
