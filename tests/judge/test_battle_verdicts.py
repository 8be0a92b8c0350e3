"""Issue 19, items 1 and 2: where a Nieuchess battle's missing choice is reported, a
`Result` that names no side, and `to:` of a finished game's position string
(NOTATION.md §6, §9)."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.games import registry
from referee.judge import session
from referee.judge.core.adjudicate import dialect_for
from referee.judge.core.verdicts import Status, Verdict
from referee.judge.fast.fused_check import quick_verdict
from referee.judge.services.random_playout import play
from referee.judge.sources.record_sources import Read
from referee.notation.model import Record
from referee.notation.reader import read_raw
from referee.notation.record_splitter import split
from tests.conftest import CONFORMANCE_GAMES, EXAMPLES, conformance_folder

BATTLE = '[Game "nieuchess"]\n[Seed "x"]\n[Position "R:m10 B:m13 to:R"]\n\n1. R: m10-m12 m12xm13\n'


def verdicts(text: str) -> tuple[Verdict, Verdict | None]:
    """The detailed verdict of the one record in `text`, and the fused path's (or None)."""
    (raw,) = split(text.encode("utf-8"))
    detailed = session.check_raw(raw, "t.rgn", 1, annotate=True)
    return detailed, quick_verdict(raw, "t.rgn", 1)


@pytest.mark.parametrize("after", ["B: resign\n", "B: draw\n", "B:\n", "B: { thinking }\n"])
def test_a_battle_missing_its_retreat_is_illegal_at_the_battle_when_a_bare_label_follows(after: str) -> None:
    detailed, fused = verdicts(BATTLE + after)
    assert fused is None  # an illegal record: the detailed path words it
    assert detailed.status == Status.ILLEGAL
    error = detailed.error
    assert error is not None
    assert (error.line, error.column, error.round, error.side, error.action) == (5, 15, 1, "Red", "m12xm13")
    assert "retreats must be written" in error.message
    assert "unfought" not in error.message


def test_the_same_battle_followed_by_a_move_is_reported_alike() -> None:
    detailed, _ = verdicts(BATTLE + "B: m13-m15\n")
    assert detailed.error is not None
    assert (detailed.error.line, detailed.error.column, detailed.error.action) == (5, 15, "m12xm13")


@pytest.mark.parametrize(
    ("after", "status"),
    [("", Status.ONGOING), ("draw\n", Status.FINISHED), ("resign\n", Status.FINISHED)],
)
def test_a_battle_missing_its_retreat_stays_pending_at_the_end_or_before_draw_or_resign(
    after: str, status: Status
) -> None:
    detailed, fused = verdicts(BATTLE.rstrip("\n") + " " + after)
    assert detailed.status == status
    assert fused == detailed._replace(token=None, suggestions=())


# -- a Result that names no side (NOTATION.md §9) ----------------------------------------


@pytest.mark.parametrize(
    ("game", "tags", "result", "named"),
    [
        ("nika", "", "Green", "Green"),
        ("nika", "", "1-0", "1-0"),
        ("nika", "", "Athens+Red+Sparrow", "Sparrow"),
        ("numica", '[Seed "s"]\n', "Red+Green", "Green"),
        ("pikemen", "", "Red+Green", "Green"),  # Green plays only with 4 players
        ("nieuchess", "", "Athens", "Athens"),  # a side of another game
        ("nika", "", "W+", '"W+"'),
    ],
)
def test_a_result_naming_no_side_is_malformed_at_the_tag(game: str, tags: str, result: str, named: str) -> None:
    text = f'[Game "{game}"]\n{tags}[Event "e"]\n[Result "{result}"]\n'
    detailed, fused = verdicts(text)
    assert fused is None
    assert detailed.status == Status.MALFORMED
    assert detailed.error is not None
    line = 3 if tags else 2
    assert (detailed.error.line, detailed.error.column) == (line + 1, 1)
    assert detailed.error.message == f"Result names no side of {game}: {named}"
    assert detailed.result_matches is None


@pytest.mark.parametrize("result", ["*", "draw", "DRAW", "Athens+Messene", "w+b", "Sparta", " Thebes + R "])
def test_results_of_star_draw_and_side_labels_are_read_and_compared(result: str) -> None:
    detailed, fused = verdicts(f'[Game "nika"]\n[Result "{result}"]\n\n1. W: d1-W d2-W\n')
    assert detailed.status == Status.ONGOING
    assert detailed.result_matches is (result == "*")
    assert fused == detailed._replace(token=None)


def test_green_is_read_in_a_four_player_pikemen_record() -> None:
    detailed, _ = verdicts('[Game "pikemen"]\n[Players "4"]\n[Result "Red+Green"]\n')
    assert detailed.status == Status.ONGOING
    assert detailed.result_matches is False


# -- `to:` of a finished game's position string (NOTATION.md §9) -------------------------


def expected_to(game: str, record: Record, position: str, sides: tuple[str, ...]) -> str:
    """The side §9 names, worked out from the record alone: the side that would act next
    had the game gone on after its last action."""
    last = record.turns[-1]
    acted = len(last.moves)
    if acted == 0 or game == "nieuchess":
        return last.side  # ended in this turn before its first action / whose turn it was
    after = sides[(sides.index(last.side) + 1) % len(sides)]
    if game == "nika":
        return last.side if acted < 2 else after
    fields = dict(field.split(":", 1) for field in position.split())
    still_in = [side for side in sides if fields.get(side, "x") != "" or game == "numica"]
    start = sides.index(last.side)
    order = [sides[(start + step) % len(sides)] for step in range(1, len(sides) + 1)]
    return next(side for side in order if side in still_in)


def finished_records() -> list[tuple[str, str]]:
    """Finished records of every game: the conformance records and examples, and random
    playouts cut short by `resign` or `draw` at every place in a turn."""
    found = [(path.name, path.read_text("utf-8")) for path in sorted(EXAMPLES.glob("*.rgn"))]
    for game in CONFORMANCE_GAMES:
        found += [(path.name, path.read_text("utf-8")) for path in sorted(conformance_folder(game).glob("*.rgn"))]
    for game, info in registry.GAMES.items():
        for players in tuple(info.sides_by_players) or (None,):
            for seed in range(4):
                lines = play(game, players, f"to-{game}-{seed}", max_turns=40).text.rstrip("\n").split("\n")
                first = next(at for at, line in enumerate(lines) if line and not line.startswith("["))
                for cut in range(first + 1, len(lines), 7):
                    line = lines[cut]
                    words = line.split()
                    head = lines[:cut]
                    found.append((f"{game}-{seed}-{cut}-label", "\n".join([*head, f"{words[0]} resign"]) + "\n"))
                    found.append((f"{game}-{seed}-{cut}-draw", "\n".join([*head, line, "draw"]) + "\n"))
                    if "setup" not in line and len(words) > 2:
                        cut_short = " ".join(words[:-1])
                        found.append((f"{game}-{seed}-{cut}-in", "\n".join([*head, cut_short + " resign"]) + "\n"))
                        found.append((f"{game}-{seed}-{cut}-end", "\n".join([*head, line + " resign"]) + "\n"))
    return found


def test_to_of_every_finished_game_names_the_side_section_9_names() -> None:
    checked: Counter[str] = Counter()
    for name, text in finished_records():
        for raw in split(text.encode("utf-8")):
            replay = session.judge(Read(1, read_raw(raw, dialect_for)), name)
            state, record = replay.state, replay.record
            if replay.verdict.status != Status.FINISHED or state is None or record is None or not record.turns:
                continue
            position = state.position()
            to = registry.GAMES[record.game].side(position.rsplit("to:", 1)[1].split()[0])
            assert to == expected_to(record.game, record, position, state.sides), (name, record.turns[-1], position)
            checked[record.game] += 1
    assert all(checked[game] >= 10 for game in CONFORMANCE_GAMES), checked


def test_nika_won_with_the_second_action_names_the_next_city() -> None:
    text = (EXAMPLES / "nika-won.rgn").read_text("utf-8")
    replay = session.judge(Read(1, read_raw(split(text.encode("utf-8"))[0], dialect_for)), "nika-won.rgn")
    assert replay.state is not None and replay.record is not None
    assert (replay.record.turns[-1].side, len(replay.record.turns[-1].moves)) == ("Athens", 2)
    assert replay.state.position().endswith(" to:R")
