"""No submission, however broken, gets a traceback from `play`: a refusal (exit 1) or a
written record that checks legal, every time."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.judge import session
from referee.live.play import submit

RECORDS = {
    "nika": '[Game "nika"]\n1. W: d1-W\n',
    "numica": '[Game "numica"]\n[Seed "x"]\nR: SSOOSOSO\n',
    "pikemen": '[Game "pikemen"]\n[Players "3"]\n',
    "nieuchess": '[Game "nieuchess"]\n[Position "R:j20,k21,a1 B:j21,x30 to:R"]\n\n1. R: j20+k21xj21\n',
}
WORDS = [
    "d1-W",
    "d2-W",
    "a4-S",
    "W:",
    "R:",
    "B:",
    "R+:",
    "1.",
    "2...",
    "#4",
    "#9",
    "=DB2",
    "(j21-i22-i23)",
    "(-j20,-j21)",
    "j20+k21xj21",
    "x30-x28",
    "a1-c3",
    "SSOOSOSO",
    "OSOSOSOS",
    "e1-e5(NE)",
    "resign",
    "draw",
    "pass",
    "{c}",
    "; x\n",
    '[Game "nika"]',
    '[Event "x"]',
    "{",
    "}",
    "\u00e9",
    "!?",
    "-",
    "\n",
    " ",
    "z99-Q",
    "g4",
    "setup a1",
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(sorted(RECORDS)), words=st.lists(st.sampled_from(WORDS), max_size=6))
def test_any_submission_is_refused_or_written_legal(tmp_path: Path, game: str, words: list[str]) -> None:
    path = tmp_path / f"{game}.rgn"
    path.write_text(RECORDS[game])
    result = submit(path, " ".join(words), wait=5)
    assert result.exit_code in (0, 1), result  # written or refused: never a usage error or a crash
    if result.exit_code:
        assert not result.written and path.read_text() == RECORDS[game]
        assert result.error and "Traceback" not in result.error and result.error.strip() == result.error
    else:
        assert result.written
        (verdict,) = list(session.check([str(path)]))
        assert verdict.legal
