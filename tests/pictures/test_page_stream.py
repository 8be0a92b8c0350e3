"""`replay --html` made as the record is replayed as a stream (`referee.pictures.streamed_page`) and
written piece by piece: byte for byte the page the whole replay gave before
(`tests.helpers.reference_page`, the code of 47dc78c kept in the tests), on playouts of every game,
records with comments before, inside and between turns, mutated records, timed records
and the conformance records, with blocks of `BLOCK` values and of one or three; on these the
streamed path is the one taken. The league's page (`private`, `back`) from a whole
replay is the same as before too."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.cli.main import app
from referee.judge import session
from referee.judge.core.verdicts import Problem
from referee.pictures import page, replay_page, streamed_page
from tests.helpers import reference_page
from tests.helpers.big import pikemen, pikemen_clocked
from tests.helpers.fuzzing import corpus, mutate
from tests.helpers.sweep import spread
from tests.helpers.timed import timed
from tests.judge.fast.test_fused_check import PLAYOUT_KEYS, _mutated, over_playouts, playout
from tests.judge.fast.test_streamed_replay import CLOCK_VALUES, TIMED_ENDINGS

NOTES = ("a note", "<b>&amp;</b> </script>", "line\u2028break\u2029", "  spaced  ", "é ✓ 𝄞", "")


def commented(data: bytes, rng: random.Random) -> bytes:
    """`data` with comments added before the first turn, before a turn's first action,
    between actions, between turns and at the end, braced and to the end of the line."""
    head, _, moves = data.decode("utf-8").partition("\n\n")
    lines = []
    for line in moves.splitlines():
        label, colon, actions = line.partition(": ")
        words = actions.split(" ") if colon else [line]
        out = []
        for word in words:
            if rng.random() < 0.3:
                out.append("{" + rng.choice(NOTES) + "}")
            out.append(word)
        text = (label + colon if colon else "") + " ".join(out)
        if rng.random() < 0.3:
            text += " ;" + rng.choice(NOTES).replace("\u2028", " ").replace("\u2029", " ")
        lines.append(text)
        if rng.random() < 0.3:
            lines.append("{" + rng.choice(NOTES) + "}")
    return (head + "\n\n{before the first turn}\n" + "\n".join(lines) + "\n{at the end}\n").encode("utf-8")


def _old(path: Path) -> bytes | None:
    whole = session.replay(str(path), 1)
    if isinstance(whole, Problem):
        return None
    text = reference_page.page(whole, whole.source.decode("utf-8", "replace"), whole.first_line)
    return text.encode("utf-8")


def assert_same(data: bytes, folder: Path, monkeypatch: pytest.MonkeyPatch, streamed: bool = True) -> None:
    """The page made as a stream is the reference page; `streamed`: without the whole replay."""
    path = folder / "t.rgn"
    path.write_bytes(data)
    old = _old(path)
    wholes: list[object] = []
    whole_way = session.replay

    def counted(*args: object, **options: object) -> object:
        wholes.append(args)
        return whole_way(*args, **options)  # type: ignore[arg-type]

    with monkeypatch.context() as patched:
        patched.setattr(session, "replay", counted)
        made = streamed_page.streamed_page(str(path), 1)
        new = None if isinstance(made, Problem) else b"".join(made.pieces)
    assert new == old, data.decode("utf-8", "replace")
    if streamed:
        assert not wholes, "made from the whole replay"


@pytest.fixture(params=[page.BLOCK, 1, 3], ids=["block", "1", "3"])
def block(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(page, "BLOCK", request.param)
    return int(request.param)


@over_playouts
def test_the_streamed_page_is_the_page_on_playouts_with_and_without_comments(
    game: str, players: int | None, index: int, block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = playout(game, players, index)
    assert_same(data, tmp_path, monkeypatch)
    assert_same(commented(data, random.Random(index)), tmp_path, monkeypatch)
    assert_same(timed(data, random.Random(index)), tmp_path, monkeypatch, streamed=False)


def test_the_streamed_page_is_the_page_on_every_conformance_record(
    block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for records in corpus().values():
        for record in spread(records, 10):
            assert_same(record, tmp_path, monkeypatch, streamed=False)


@pytest.mark.parametrize("ending", TIMED_ENDINGS)
def test_the_streamed_page_is_the_page_on_timed_records(
    ending: str, block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(pikemen_clocked(40, ending), tmp_path, monkeypatch)


@pytest.mark.parametrize("data", CLOCK_VALUES, ids=range(len(CLOCK_VALUES)))
def test_the_streamed_page_is_the_page_on_clock_values(
    data: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(data, tmp_path, monkeypatch)


EDGES = [
    b'[Game "pikemen"]\n\nR: h4(SE)\nB: c6(E) {after}\ntimeout {after the timeout} ; and a line\n{more}\nR: h4(S)\n',
    b'[Game "pikemen"]\n\n{before} R: {first} h4(SE) {second}\nB:\n{after an empty turn}\nR: h4(S) {x}\n',
    b'[Game "pikemen"]\n\nR: h4(SE)\nB: c6(E)\nR: h4(SE) {the same twice: illegal} h4(S)\n{c}\nB: c6(SE)\n',
    b'[Game "numica"]\n[Seed "s"]\n\nR: SSOOSOSO\nB: OOSSSOOS\nR: {none}\n',
    b'[Game "nika"]\n\n{only a comment}\n',
    b'[Game "nika"]\n\n',
]
"""Comments after a `timeout` the replay stops at (they follow the last action), a turn
with no action, an illegal action within a turn, a record of no turn."""


@pytest.mark.parametrize("data", EDGES, ids=range(len(EDGES)))
def test_the_streamed_page_is_the_page_at_the_edges(
    data: bytes, block: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert_same(data, tmp_path, monkeypatch)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(PLAYOUT_KEYS) - 1), st.integers(0, 2**32), st.integers(0, 10**6))
def test_the_streamed_page_is_the_page_on_mutated_records(
    tmp_path_factory: pytest.TempPathFactory, which: int, seed: int, number: int
) -> None:
    folder = tmp_path_factory.mktemp("mutated")
    rng = random.Random(seed)
    with pytest.MonkeyPatch.context() as monkeypatch:
        data = playout(*PLAYOUT_KEYS[which])
        assert_same(_mutated(rng, data), folder, monkeypatch, streamed=False)
        assert_same(_mutated(rng, commented(data, rng)), folder, monkeypatch, streamed=False)
        assert_same(mutate(7, number), folder, monkeypatch, streamed=False)


def test_a_long_page_is_the_page_across_many_blocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of about 0.6 MB: its steps and turns in blocks of `BLOCK` values, none over 128 KB."""
    data = commented(pikemen(4000), random.Random(3))
    assert_same(data, tmp_path, monkeypatch)
    made = streamed_page.streamed_page(str(tmp_path / "t.rgn"), 1)
    assert not isinstance(made, Problem)
    sizes = [len(piece) for piece in made.pieces]
    assert sum(sizes) > 500_000 and max(sizes) < 1 << 17


def test_the_page_goes_to_standard_output_and_to_a_file_as_before(tmp_path: Path) -> None:
    """`replay --html` (its last newlines as one) and `-o FILE`: the reference page, and its exit status."""
    for number, data in enumerate(
        [playout(*PLAYOUT_KEYS[0]), pikemen(40), pikemen(40, b""), b'[Game "nika"]\n\nW: ((\n']
    ):
        path = tmp_path / f"{number}.rgn"
        path.write_bytes(data)
        old = _old(path)
        assert old is not None
        runner = CliRunner()
        printed = runner.invoke(app, ["replay", "--html", str(path)])
        assert printed.stdout_bytes == old.rstrip(b"\n") + b"\n"
        written = runner.invoke(app, ["replay", "--html", "-o", str(tmp_path / "out.html"), str(path)])
        assert (tmp_path / "out.html").read_bytes() == old
        assert written.exit_code == printed.exit_code == [0, 1, 0, 1][number]


def test_an_escape_sequence_in_the_title_is_left_out_of_a_pipe_as_before(tmp_path: Path) -> None:
    """The verdict line names the file; an escape sequence in its name is left out of
    standard output when it is not a terminal, as `out` leaves it out of any text."""
    path = tmp_path / "a\033[31mred.rgn"
    path.write_bytes(pikemen(8))
    old = _old(path)
    assert old is not None and b"\033[31m" in old
    printed = CliRunner().invoke(app, ["replay", "--html", str(path)])
    assert printed.stdout_bytes == old.replace(b"\033[31m", b"").rstrip(b"\n") + b"\n"


def test_the_leagues_page_from_a_whole_replay_is_the_page(tmp_path: Path) -> None:
    """`league site` makes the page from a whole replay (`replay_page`), e-mail addresses
    left out and a link back: as before."""
    rng = random.Random(5)
    for key in PLAYOUT_KEYS:
        data = commented(playout(*key), rng).replace(b"\n\n", b'\n[Red "Ann <ann@example.org>"]\n\n', 1)
        for text in (data, _mutated(rng, data)):
            path = tmp_path / "t.rgn"
            path.write_bytes(text)
            whole = session.replay(str(path), 1)
            assert not isinstance(whole, Problem)
            source = whole.source.decode("utf-8", "replace")
            back = ("game-1.html", "back to <game> 1")
            made = replay_page(whole, source, private=True, back=back)
            assert made == reference_page.page(whole, source, private=True, back=back)
            assert "ann@example.org" not in made


def test_a_record_malformed_by_a_tag_and_by_its_move_text_has_one_page_either_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of a bad tag value and a later syntax error the verdict names the first in the text
    (NOTATION.md §5, amended): the whole replay's page then lists the tags read, as the
    streamed page does (it showed none: found by the mutated records' test, mutation 7:8778)."""
    data = b'[Game "nika"]\n[Players "\xef\xbc\x92"]\n[Athens "Ann"]\n\n1. W: d1-W d2-W\n d7(N)\n'
    assert_same(data, tmp_path, monkeypatch, streamed=False)
    assert_same(mutate(7, 8778), tmp_path, monkeypatch, streamed=False)
