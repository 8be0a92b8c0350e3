"""No player-facing text of an answer bypasses the catalogue: every kind of answer rendered
in the pseudo-language `qps` (referee/speech.py), which writes each message of the template
between ⟦ and ⟧, holds no English outside them but its parameters (the game's ID, tokens,
moves, names) and the board as the engine draws it."""

from __future__ import annotations

import re

import pytest

from referee.live.mail import compose
from referee.live.mail.compose import Turn
from referee.live.mail.replies import Doubt
from referee.speech import speaker

SAY = speaker("qps")
TURN = Turn("g1: ongoing: Sparta to move, round 1", (), "BOARD", "next: Bo (Sparta) to move (token 1-abc)")
OVER = Turn(
    "g1: finished: Athens+Messene win (victory area) after 12 turns",
    (),
    "BOARD",
    "game over: Athens+Messene win (victory area) after 12 turns",
)
ERROR = 'submission:1: nika: illegal: line 1, col 12: turn 1 Athens, action 2 "d1-N": there is no piece on d1'
PARAMETERS = {"g1", "Ann", "Bo", "BOARD", "abc", "nika", "mx", "example", "org", "pass", "On", "Monday", "wrote"}
"""The parameters of the answers above: IDs, names, the board, a token, the notation, a quoted line."""


def _rendered() -> dict[str, str]:
    return {
        "accepted": compose.accepted(
            "g1", "Ann", "Athens", "d1-W", TURN, compose.Answering("1-abc", keyed=True), say=SAY
        ),
        "accepted, over": compose.accepted("g1", "Ann", "Athens", "d1-W", OVER, compose.Answering(None), say=SAY),
        "offered": compose.offered(
            "g1", "Ann", "Athens", "draw", "d1-W draw", TURN, compose.Answering("1-abc"), say=SAY
        ),
        "offered undo": compose.offered(
            "g1", "Ann", "Athens", "undo", "undo", TURN, compose.Answering("1-abc"), say=SAY
        ),
        "refused": compose.refused("g1", "d1-N", ERROR, ["c1-E"], TURN, compose.Answering("1-abc"), say=SAY),
        "refused, wrong side": compose.refused(
            "g1", "a4-S", "Athens is to move, not Sparta", (), TURN, compose.Answering(None), say=SAY
        ),
        "not accepted": compose.not_accepted("g1", compose.NO_KEY_LINE, say=SAY),
        "wrong key": compose.not_accepted("g1", compose.WRONG_KEY, say=SAY),
        "not verified": compose.not_verified("g1", "mx.example.org", say=SAY),
        "unclear": compose.unclear("g1", "On Monday Bo wrote:", "d1-W", Doubt.EARLIER_MESSAGE, say=SAY),
        "unclear below": compose.unclear("g1", "x", "d1-W", Doubt.BELOW_QUOTE, say=SAY),
        "unreadable": compose.unclear("g1", "x", "", Doubt.UNREADABLE, say=SAY),
        "plain text please": compose.plain_text_please("g1", say=SAY),
        "no moves": compose.no_moves("g1", TURN, say=SAY),
        "shown": compose.shown("g1", TURN, compose.Answering("1-abc"), say=SAY),
        "listed": compose.listed("g1", "Athens to move: 55 legal actions", ["d1-W", "pass"], say=SAY),
        "too large": compose.too_large("g1", 2**20, say=SAY),
        "too large, bytes": compose.too_large("g1", 500, say=SAY),
        "token needed": compose.token_needed("g1", TURN, "1-abc", say=SAY),
        "revealed": compose.revealed("g1", "0" * 16, "Athens+Messene win (victory area) after 12 turns", say=SAY),
        "repeated": compose.repeated("g1", "played", "g1: ongoing: Sparta to move, round 1", say=SAY),
        "games hint": compose.games_hint(SAY),
    }


def _outside(text: str) -> list[str]:
    """The words of `text` outside every ⟦...⟧ (nested ones too), bar the parameters and the notation."""
    while True:
        cut = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if cut == text:
            break
        text = cut
    words = re.findall(r"[A-Za-z]{2,}", text)
    return [word for word in words if word not in PARAMETERS and not re.fullmatch(r"[a-l]\d+|[NESW]", word)]


@pytest.mark.parametrize("kind", sorted(_rendered()))
def test_every_kind_of_answer_goes_through_the_catalogue(kind: str) -> None:
    text = _rendered()[kind]
    assert "⟦" in text
    # the game words (Athens, Sparta...) are in the catalogue too, in their context
    assert _outside(text) == [], text


def test_the_pseudo_language_finds_text_that_bypasses_the_catalogue() -> None:
    """The check can fail: a text written bare, not through the catalogue, is found."""
    assert _outside("⟦Game {game_id}:⟧ g1\nThe referee never reads this") == [
        "The",
        "referee",
        "never",
        "reads",
        "this",
    ]
