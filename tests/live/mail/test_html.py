"""HTML-only replies (PLAY.md §5, amended; docs/mail.md, "HTML-only mail"), through the
gateway's real entry, `python -m referee mail receive DIR` with the message on standard
input. Each `samples/*_html.eml` is a reply as that client writes it when it sends HTML
only: the new move `d1+d2+d3-W i3-E` and a quote that holds another legal move of
Athens, `i1-E d1-E`. The new move is played, the quote never; where the boundary is
unclear nothing is played and the answer shows the text as read."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from referee.live.mail import game, incoming
from referee.live.mail.body import read_body
from referee.live.mail.html import MAX_DEPTH, html_text
from referee.live.mail.replies import Doubt
from tests.helpers.mail import GM, message, nika_game, outbox_messages, plain_text, run_mail
from tests.live.mail.client_replies import NEW, QUOTED, SAMPLES

CLIENTS = {
    "android_gmail_html.eml": "Gmail for Android: div.gmail_quote, gmail_attr, blockquote.gmail_quote",
    "outlook_desktop_html.eml": "Outlook desktop (Word HTML): a style sheet, the From:/Sent: block in a border-top div",
    "outlook_web_html.eml": "Outlook on the web: #appendonsend, <hr>, div#divRplyFwdMsg, the quote after it",
    "apple_mail_html.eml": "Apple Mail: the attribution and the quote in blockquote type=cite",
    "thunderbird_html.eml": "Thunderbird: moz-cite-prefix, blockquote type=cite, the answer below, moz-signature",
    "yahoo_html.eml": "Yahoo Mail: div.ydp...yahoo_quoted",
}


def _mail(folder: Path, data: bytes) -> str:
    """`referee mail` as the MTA runs it; the answers go to the outbox. Its standard error."""
    done = run_mail(data, "receive", str(folder), "--from", GM, "--now", "2026-12-01T12:05:00Z")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def _answers(folder: Path) -> list[str]:
    return [plain_text(answer) for answer in outbox_messages(folder / "outbox")]


def _unplayed(folder: Path, data: bytes) -> str:
    """DATA mailed to a fresh game g1 in FOLDER, which it leaves as it was: the one answer."""
    path = nika_game(folder)
    before = path.read_text(encoding="utf-8")
    _mail(folder, data)
    assert path.read_text(encoding="utf-8") == before
    [answer] = _answers(folder)
    return answer


def _logged(folder: Path) -> str:
    return (folder / "mail.log").read_text(encoding="utf-8").split()[-1]


def _html(body: str) -> bytes:
    """An HTML-only message from Ann, its body sent as it is (8bit, lines of at most 998
    characters, broken between tags), so that its size is the body's."""
    head = (
        f"From: Ann <ann@example.org>\r\nTo: {GM}\r\nSubject: Re: [g1] opening\r\n"
        f"Message-ID: <html-{time.monotonic_ns()}@example.org>\r\nMIME-Version: 1.0\r\n"
        'Content-Type: text/html; charset="utf-8"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'
    )
    lines, line = [], ""
    for piece in body.replace("<", "\0<").split("\0"):
        if len(line) + len(piece) > 900:
            lines.append(line)
            line = ""
        line += piece
    return (head + "\r\n".join([*lines, line]) + "\r\n").encode("utf-8")


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_each_clients_html_reply_plays_the_new_move_and_nothing_of_the_quote(tmp_path: Path, name: str) -> None:
    path = nika_game(tmp_path)
    _mail(tmp_path, (SAMPLES / name).read_bytes())
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record, CLIENTS[name]
    assert "i1-E" not in record
    assert _logged(tmp_path) == "played"
    assert any(text.startswith(f"Ann (Athens) played in game g1:\n\n  {NEW}\n") for text in _answers(tmp_path))


@pytest.mark.parametrize("name", sorted(CLIENTS))
def test_each_clients_html_reads_as_the_new_move_alone(name: str) -> None:
    read = incoming.parse((SAMPLES / name).read_bytes())
    assert read.html_only and read.html_complete and read.text is not None
    submission = read_body(read.text, html=True)
    assert (submission.moves, submission.unclear) == (NEW, None), CLIENTS[name]


def test_multipart_alternative_still_takes_the_plain_part(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    built = message("Ann <ann@example.org>", "Re: [g1] opening", f"{NEW}\n")
    built.add_alternative(f"<div>{QUOTED}</div>", subtype="html")  # a different move: never read
    _mail(tmp_path, built.as_bytes())
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record and "i1-E" not in record


@pytest.mark.parametrize(
    ("name", "line", "doubt"),
    [
        (
            "unmarked_quote_html.eml",
            "On Tue, Dec 1, 2026 at 12:00 PM referee <gm@example.org> wrote:",
            "looks like the start of a quoted earlier message",
        ),
        ("below_quote_html.eml", QUOTED, "stands below the quoted message"),
    ],
)
def test_an_unclear_boundary_is_refused_showing_the_text_as_read(
    tmp_path: Path, name: str, line: str, doubt: str
) -> None:
    answer = _unplayed(tmp_path, (SAMPLES / name).read_bytes())
    assert _logged(tmp_path) == "refused"
    assert "was not played: nothing was written" in answer and "is unclear" in answer
    assert f'  "{line}"' in answer and doubt in answer
    assert f"  | {NEW}" in answer and f"  | {QUOTED}" in answer  # what was read, shown


def test_a_keyed_game_takes_key_and_token_from_the_new_text_only(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    added = run_mail(b"Ann's secret phrase\n", "add-player", str(tmp_path), "ann@example.org")
    assert added.returncode == 0, added.stderr
    token = game.open_game(path).token
    quote = "<blockquote type='cite'>Key: Ann's secret phrase<br>Token: 9-0000000000<br>i1-E d1-E</blockquote>"
    # Key and token in the quote only: not accepted, nothing played.
    _mail(tmp_path, _html(f"<div>{NEW}</div>{quote.replace('9-0000000000', str(token))}"))
    assert "1. W:" not in path.read_text(encoding="utf-8") and _logged(tmp_path) == "not-accepted"
    # In the new text: played, whatever token the quote holds.
    _mail(tmp_path, _html(f"<div>Key: Ann&#39;s secret phrase</div><div>Token: {token}</div><div>{NEW}</div>{quote}"))
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record and "i1-E" not in record


def test_moves_between_markers_settle_a_quote_with_text_below(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    body = f"<div>moves:</div><div>{NEW}</div><div>end</div><blockquote>earlier</blockquote><div>{QUOTED}</div>"
    _mail(tmp_path, _html(body))
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record and "i1-E" not in record


def test_an_interleaved_or_bottom_posted_reading_is_told_apart() -> None:
    # Below the quote alone (Thunderbird's default) is read; on both sides of it is unclear.
    below = read_body(html_text(f"<blockquote>earlier {QUOTED}</blockquote><p>{NEW}</p>").text, html=True)
    assert (below.moves, below.unclear) == (NEW, None)
    both = read_body(html_text(f"<p>{NEW}</p><blockquote>a</blockquote><p>x</p><blockquote>b</blockquote>").text, True)
    assert (both.unclear, both.doubt) == ("x", Doubt.BELOW_QUOTE)
    # A sign-off under the quote is no text of its own (the plain rules drop it).
    signed = read_body(html_text(f"<p>{NEW}</p><blockquote>a</blockquote><p>Thanks,</p><p>Ann</p>").text, True)
    assert (signed.moves, signed.unclear) == (NEW, None)


# -- hostile HTML -------------------------------------------------------------------------


def test_a_script_and_hidden_text_are_never_played(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    body = (
        f"<html><head><title>{QUOTED}</title><style>p::after {{ content: '{QUOTED}' }}</style></head><body>"
        f"<script>document.write('{QUOTED}')</script><div style='color:red; DISPLAY : none'>{QUOTED}</div>"
        f"<p>{NEW}</p><span hidden>{QUOTED}</span><p style='mso-hide:all'>{QUOTED}</p>"
        f"<div style='visibility:hidden'>{QUOTED}</div><noscript></noscript></body></html>"
    )
    _mail(tmp_path, _html(body))
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record and "i1-E" not in record


def test_only_hidden_text_plays_nothing(tmp_path: Path) -> None:
    answer = _unplayed(tmp_path, _html(f"<div style=display:none>{NEW}</div><script>{NEW}</script>"))
    assert "holds no moves" in answer


def test_html_nested_past_the_bound_plays_nothing_nested_deeper(tmp_path: Path) -> None:
    deep = "<div>" * 150_000 + NEW + "</div>" * 10  # 750 KB of nesting, the move deepest
    answer = _unplayed(tmp_path, _html(deep))
    assert "holds no moves" in answer


def test_a_megabyte_of_tags_is_read_within_bounds(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    tags = f"<div>{NEW}</div>" + "<b><i></i></b><span>" * 40_000 + "<blockquote>" * 9_000 + QUOTED
    data = _html(tags)
    assert 900_000 < len(data) < 1_000_000  # within the 1 MB limit of PLAY.md §5.1
    started = time.monotonic()
    _mail(tmp_path, data)
    assert time.monotonic() - started < 30
    record = path.read_text(encoding="utf-8")
    assert f"1. W: {NEW}" in record and "i1-E" not in record


def test_html_the_parser_gives_up_on_is_refused_showing_what_was_read(tmp_path: Path) -> None:
    answer = _unplayed(tmp_path, _html(f"<p>{NEW}</p><![foo[ x ]]><p>{QUOTED}</p>"))
    assert "could not be read to its end" in answer and f"  | {NEW}" in answer


def test_a_message_with_no_text_part_at_all_is_asked_for_plain_text(tmp_path: Path) -> None:
    built = message("Ann <ann@example.org>", "Re: [g1]")
    built.set_content(b"\x89PNG....", maintype="image", subtype="png")
    answer = _unplayed(tmp_path, built.as_bytes())
    assert "holds no text" in answer and "plain text" in answer


# -- the conversion -----------------------------------------------------------------------


def test_html_becomes_the_lines_a_reader_sees() -> None:
    html = (
        "<div>a &amp; b</div><div>c<br>d</div><div><br></div><p>e<b>f</b> g<p>h"
        "<table><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></table><pre>x\n  y\n</pre>&lt;i&gt;&nbsp;j"
    )
    assert html_text(html).text == "a & b\nc\nd\n\nef g\nh\n1 2\n3\nx\n  y\n<i> j"


def test_quoted_parts_become_one_line_and_cuts_end_the_text() -> None:
    assert html_text("<p>a</p><blockquote>b<blockquote>c</blockquote>d</blockquote><p>e</p>").text == "a\n>\ne"
    assert html_text("<p>a</p><div class='x gmail_quote'>b</div>").text == "a\n>"
    assert html_text("<p>a</p><div id='x_divRplyFwdMsg'>b</div><p>c</p>").text == "a"
    assert html_text("<p>a</p><div class=OutlookMessageHeader>b</div><p>c</p>").text == "a"
    assert html_text("<p>a</p><hr><p>b</p>").text == "a\n" + "_" * 32 + "\nb"


def test_unclosed_paragraphs_and_items_do_not_pile_up() -> None:
    # Left open as HTML allows, they close themselves: text after many is still read.
    assert html_text("<p>x" * (MAX_DEPTH * 2) + "<p>last").text.splitlines()[-1] == "last"
    assert html_text("<ul>" + "<li>x" * (MAX_DEPTH * 2) + "<li>last</ul>").text.splitlines()[-1] == "last"
    rows = "<table>" + "<tr><td>x<td>y" * (MAX_DEPTH * 2) + "<tr><td>last</table>"
    assert html_text(rows).text.splitlines()[-2:] == ["x y", "last"]


def test_a_hidden_blockquote_and_a_quote_inside_hidden_text_leave_no_mark() -> None:
    assert html_text("<p>a</p><blockquote style='display:none'>b</blockquote><p>c</p>").text == "a\nc"
