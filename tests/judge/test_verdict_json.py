"""`check --json` writes a verdict with no error and no clock straight from its values
(`referee.judge.core.verdict_words.verdict_json`); every line must be what `json.dumps` writes of
`verdict_fields`, the one definition of the JSON verdict (NOTATION.md §8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games import registry
from referee.games.values import Outcome, Reason
from referee.judge import session
from referee.judge.core.verdict_words import verdict_fields, verdict_json
from referee.judge.core.verdicts import Ongoing, Status, Verdict
from referee.judge.services.random_playout import play
from tests.conftest import CONFORMANCE
from tests.helpers.sweep import cases


def same(verdict: Verdict) -> None:
    line = verdict_json(verdict)
    assert line == json.dumps(verdict_fields(verdict))
    assert json.loads(line) == verdict_fields(verdict)


def test_every_conformance_verdict_is_written_as_json_dumps_writes_it() -> None:
    files = sorted(str(path) for path in Path(CONFORMANCE).rglob("*.rgn"))
    kinds = set()
    count = 0
    for annotate in (False, True):
        for verdict in session.check(files, annotate=annotate):
            assert isinstance(verdict, Verdict)
            kinds.add((verdict.status, verdict.error is None, verdict.clock is None))
            same(verdict)
            count += 1
    assert count >= 2 * 272
    assert {(Status.FINISHED, True, True), (Status.ONGOING, True, True), (Status.ILLEGAL, False, True)} <= kinds


@pytest.mark.parametrize("game", sorted(registry.GAMES))
def test_playout_verdicts_with_tokens_are_written_as_json_dumps_writes_them(game: str, tmp_path: Path) -> None:
    path = tmp_path / "games.rgn"
    # Three of the eight playouts by default (a Nieuchess playout takes about 0.9 CPU s).
    path.write_text("\n".join(play(game, None, f"json-{game}-{n}").text for n in range(cases(8, 3))))
    for verdict in session.check([str(path)], annotate=True):
        assert isinstance(verdict, Verdict) and verdict.token is not None
        same(verdict)


ODD = [
    "plain",
    "",
    'a "quoted" \\ back\\slash',
    "tab\there\nline",
    "\x1b[31mred\x1b[0m",
    "é ü 名前 🎲",
    "\u2028\x00\x7f",
]


@pytest.mark.parametrize("text", ODD)
def test_odd_strings_in_every_field_are_escaped_as_json_dumps_escapes_them(text: str) -> None:
    verdicts = [
        Verdict(
            text,
            7,
            text,
            Status.FINISHED,
            Outcome((text, "Blue"), Reason.CAPTURES),
            turns=12,
            claimed=text,
            result_matches=True,
            token=text,
            suggestions=(text, "a1-b2"),
            offset=1234567,
        ),
        Verdict(text, 1, None, Status.ONGOING, None, Ongoing(text, None, None, None), turns=0, rolls_as_given=True),
        Verdict(
            text,
            2,
            "nieuchess",
            Status.ONGOING,
            None,
            Ongoing("Red", 3, "roll", "a roll"),
            turns=9,
            result_matches=False,
            claimed="1-0",
            rolls_as_given=False,
        ),
        Verdict(text, 3, "nika", Status.FINISHED, Outcome((), Reason.AGREEMENT), turns=40),
    ]
    for verdict in verdicts:
        same(verdict)
