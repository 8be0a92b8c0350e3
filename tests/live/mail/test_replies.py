"""Replies written by real mail clients (docs/mail.md, "Replies from real mail clients"):
each sample in `samples/` is a reply to the referee's answer as that client writes it,
the new move `d1+d2+d3-W i3-E` above (or below) a quote that holds another legal move,
`i1-E d1-E`. The new move is played; nothing of the quote ever is. Where the boundary is
unclear the message is refused with an answer that shows what was read."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.live import mail as gateway
from referee.live.mail.body import read_body
from referee.live.mail.html import html_text
from referee.live.mail.replies import new_text
from tests.helpers.mail import GM, message, nika_game, outbox_messages
from tests.live.mail.client_replies import NEW, QUOTED, SAMPLES

PLAYED = {
    "gmail.txt": "Gmail, web, plain text: On ... wrote: above > lines",
    "gmail_wrapped.txt": "Gmail: its attribution wrapped over two lines",
    "thunderbird_below.txt": "Thunderbird, answering below the quote, with a -- signature",
    "outlook_desktop.txt": "Outlook desktop: -----Original Message----- and a header block, unquoted",
    "outlook_web.txt": "Outlook web / mobile: Get Outlook for Android, a line of underscores, headers",
    "outlook_headers.txt": "Outlook: a From:/Sent:/To:/Subject: block with no separator line",
    "outlook_german.txt": "Outlook in German: Hallo, Viele Grüße, Von:/Gesendet:/An:/Betreff:",
    "apple_mail.txt": "Apple Mail: the attribution itself quoted (> On ..., at ..., X wrote:)",
    "iphone.txt": "iPhone: Sent from my iPhone, then an unquoted attribution and quote",
    "android_gmail.txt": "Gmail for Android: On Tue, 1 Dec 2026, 12:00 referee, <...> wrote:",
    "english_greeting.txt": "English greeting and sign-off: Hi Bo, / Thanks, / Ann",
    "spanish_greeting.txt": "Spanish: Hola Bo: / Un saludo, / Ana / Enviado desde mi iPhone / El ... escribió:",
    "german_greeting.txt": "German: Moin Bo, / LG / Ann / Am ... schrieb ...:",
}


def _sample(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def _handle(folder: Path, built: EmailMessage) -> gateway.Handled:
    config = gateway.settings(folder, sender=GM, now="2026-12-01T12:00:00Z")
    return gateway.handle_bytes(built.as_bytes(), config)


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_the_new_move_is_read_and_nothing_of_the_quote(name: str) -> None:
    submission = read_body(_sample(name))
    assert submission.moves == NEW, PLAYED[name]
    assert submission.unclear is None
    assert QUOTED not in submission.moves


@pytest.mark.parametrize("name", sorted(PLAYED))
def test_each_clients_reply_is_played_by_the_gateway(tmp_path: Path, name: str) -> None:
    path = nika_game(tmp_path)
    handled = _handle(tmp_path, message("Ann <ann@example.org>", "Re: [g1] opening", _sample(name)))
    assert handled.outcome is not None and handled.outcome.value == "played", (PLAYED[name], handled.notes)
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record
    assert "i1-E" not in record


def test_an_unmarked_quote_the_rules_do_not_know_is_refused_showing_what_was_read(tmp_path: Path) -> None:
    # Italian Gmail: "Il giorno ... ha scritto:" and the quote below it unmarked. The rules
    # know no Italian; the reply parser does, so the boundary is unclear: refused.
    path = nika_game(tmp_path)
    before = path.read_text(encoding="utf-8")
    handled = _handle(tmp_path, message("Ann <ann@example.org>", "Re: [g1]", _sample("italian_unmarked.txt")))
    assert handled.outcome is not None and handled.outcome.value == "refused"
    assert path.read_text(encoding="utf-8") == before
    [answer] = outbox_messages(tmp_path / "outbox")
    text = answer.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "is unclear" in text and "ha scritto:" in text
    assert f"  | {NEW}" in text and f"  | {QUOTED}" in text  # what was read, shown


def test_the_moves_markers_settle_an_unclear_boundary() -> None:
    text = "moves:\n" + NEW + "\nend\n\n" + _sample("italian_unmarked.txt").split("\n", 1)[1]
    submission = read_body(text)
    assert (submission.moves, submission.unclear) == (NEW, None)


def test_html_only_mail_is_read_without_its_quote(tmp_path: Path) -> None:
    # PLAY.md §5 (amended): HTML-only mail is converted, its Gmail quote (div.gmail_quote,
    # a <blockquote>) left out, and read as a plain body. More clients: test_html.py.
    path = nika_game(tmp_path)
    built = message("Ann <ann@example.org>", "Re: [g1] opening")
    built.set_content(_sample("gmail.html"), subtype="html")
    handled = _handle(tmp_path, built)
    assert handled.outcome is not None and handled.outcome.value == "played", handled.notes
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record and "i1-E" not in record


def test_html_becomes_text_with_quoted_parts_as_one_line() -> None:
    assert html_text(_sample("gmail.html")).text.splitlines() == [NEW, "", ">"]
    lines = html_text("<style>p{}</style><p>a &amp; b</p><hr><p>c</p>").text.splitlines()
    assert lines == ["a & b", "_" * 32, "c"]


@pytest.mark.parametrize(
    "text",
    [
        "Hi Bo,\ndraw\n",  # a greeting never swallows a word that means something
        "d1-W\nThanks,\nresign\n",
        "Cheers\nundo\n",
    ],
)
def test_greetings_and_sign_offs_never_take_a_word_that_means_something(text: str) -> None:
    kept = [line for line in new_text(text).lines if line and line.strip()]
    assert any(word in kept for word in ("draw", "resign", "undo"))


def test_a_sign_off_followed_by_more_than_a_name_stays_and_is_refused_as_not_a_move() -> None:
    submission = read_body("d1+d2+d3-W i3-E\nThanks,\nAnn\nd4-E\n")
    assert "Thanks," in submission.moves  # the boundary is not clear: the move parser refuses it


def test_long_lines_cost_the_reply_parser_little() -> None:
    # The reply parser's patterns grow fast with a line's length: it reads short pieces only.
    text = ("On " + "x " * 5000 + "\n") * 40
    assert new_text(text).unclear is None


def test_a_line_ending_wrote_that_is_no_attribution_never_hides_the_moves_below_it() -> None:
    submission = read_body("As I wrote:\nd1+d2+d3-W i3-E\n")
    assert submission.moves == "As I wrote:\nd1+d2+d3-W i3-E"  # refused as no move, never cut silently
