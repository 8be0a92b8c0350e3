"""The gateway's parts one at a time: reading messages built with the standard `email`
package, the body's move text, players and keys, answers, the ledger."""

from __future__ import annotations

import io
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.judge import session
from referee.live import mail
from referee.live.mail import compose, incoming, players
from referee.live.mail.body import Request, read_body
from referee.live.mail.compose import Answer, Kind, Turn
from referee.live.mail.ledger import Entry, Ledger
from referee.live.mail.mail_errors import KeysFileError, UsageError
from tests.helpers.mail import message, nika_game


def _parsed(built: EmailMessage) -> incoming.Incoming:
    return incoming.parse(built.as_bytes())


def test_the_sender_subject_ids_and_thread_of_a_message() -> None:
    built = EmailMessage()
    built["From"] = '"Ann, of Athens" <Ann@Example.ORG>'
    built["Subject"] = "Re: [league] [g-1.b_2] turn 3"
    built["Message-ID"] = "<abc@x.org>"
    built["References"] = "<r1@x.org> <r2@x.org>"
    built.set_content("show\n")
    message = _parsed(built)
    assert message.sender == "ann@example.org"
    assert message.sender_name == "Ann, of Athens"
    assert message.game_ids == ("league", "g-1.b_2")
    assert message.message_id == "<abc@x.org>"
    assert message.references == ("<r1@x.org>", "<r2@x.org>")
    assert message.text == "show\n"
    assert not message.automatic


@pytest.mark.parametrize(
    ("subject", "ids"),
    [
        ("[g1]", ("g1",)),
        ("[../g1] [g2]", ("g2",)),
        ("[a/b] [c\\d] [e f] [] [.] [..] [ok.]", ("ok.",)),
        ("[é]", ()),
        ("[" + "x" * 101 + "]", ()),
        ("no brackets", ()),
    ],
)
def test_game_ids_are_letters_digits_dash_underscore_dot(subject: str, ids: tuple[str, ...]) -> None:
    assert incoming.game_ids(subject) == ids


def test_the_first_plain_part_of_a_multipart_message() -> None:
    built = EmailMessage()
    built["From"] = "ann@example.org"
    built.set_content("first plain\n")
    built.add_alternative("<p>html</p>", subtype="html")
    built.add_attachment("attached plain text\n", filename="notes.txt")
    assert _parsed(built).text == "first plain\n"
    html_only = EmailMessage()
    html_only.set_content("<p>d1-W</p>", subtype="html")
    message = _parsed(html_only)
    assert message.text == "d1-W" and message.html_only and message.html_complete
    attached_only = EmailMessage()
    attached_only.add_attachment("d1-W\n", filename="moves.txt")
    assert _parsed(attached_only).text is None


def test_latin_1_is_read_as_windows_1252() -> None:
    data = b"From: a@b.org\nContent-Type: text/plain; charset=iso-8859-1\n\n\x93quoted\x94 caf\xe9 \x80\n"
    assert incoming.parse(data).text == "\u201cquoted\u201d café €\n"


def test_automatic_messages_are_recognised() -> None:
    for value, automatic in (("auto-replied", True), ("auto-generated", True), ("no", False)):
        data = f"From: a@b.org\nAuto-Submitted: {value}\n\nx\n".encode()
        assert incoming.parse(data).automatic is automatic


def test_the_body_drops_quotes_attribution_and_signature_and_takes_key_and_token() -> None:
    text = (
        "KEY:  my pass phrase \r\n"
        "d1+d2+d3-W\r\n"
        "  token: 3-abcdef0123\r\n"
        "i3-E { a comment }\r\n"
        "\r\n"
        "On Mon, 23 Nov 2026, Bo wrote:\r\n"
        "> c7-N\r\n"
        ">> older\r\n"
        "-- \r\n"
        "Ann\r\n"
        "Key: not this one\r\n"
    )
    submission = read_body(text)
    assert submission.request is Request.PLAY
    assert submission.moves == "d1+d2+d3-W\ni3-E { a comment }"
    assert submission.key == "my pass phrase"
    assert submission.token == "3-abcdef0123"
    assert "my pass phrase" not in repr(submission)


def test_the_body_asks_for_show_or_moves() -> None:
    assert read_body(" Show \n-- \nBo\n").request is Request.SHOW
    assert read_body("Key: x\nMOVES\n").request is Request.MOVES
    assert read_body("show me the board\n").request is Request.PLAY
    assert read_body("> quoted\n\n").moves == ""


def test_a_line_that_says_wrote_but_quotes_nothing_is_kept() -> None:
    assert read_body("d1-W {Ann wrote:}\n").moves == "d1-W {Ann wrote:}"


def test_the_roster_from_side_tags() -> None:
    roster = players.roster(
        [
            ("Athens", "Ann <Ann@Example.org>"),
            ("Messene", "ann@example.org"),
            ("Sparta", "Bo <bo@example.org>, Cy <cy@example.org>"),
            ("Thebes", "Di, no address"),
        ]
    )
    ann = roster.find("ANN@example.org")
    assert ann is not None and ann.sides == ("Athens", "Messene") and ann.name == "Ann"
    cy = roster.find("cy@example.org")
    assert cy is not None and cy.sides == ("Sparta",)
    assert roster.find("di@example.org") is None
    assert roster.find(None) is None


def test_scrypt_entries_verify_only_the_right_passphrase() -> None:
    entry = players.hash_passphrase("Ελληνικά words", salt=bytes(range(16)))
    assert entry.startswith("scrypt:000102030405060708090a0b0c0d0e0f:")
    assert players.verify(entry, "Ελληνικά words")
    assert players.verify(entry, "Ελληνικά words".replace("ά", "α\u0301"))  # the same text, decomposed
    assert not players.verify(entry, "Ελληνικά word")
    assert not players.verify(entry, None)
    assert not players.verify(None, "Ελληνικά words")
    assert not players.verify("scrypt:zz:zz", "x")
    assert players.hash_passphrase("same") != players.hash_passphrase("same")  # a fresh salt each time


def test_a_missing_entry_costs_the_same_work_as_a_wrong_key() -> None:
    entry = players.hash_passphrase("secret")

    def fastest(stored: str | None) -> float:
        times = []
        for _ in range(3):
            started = time.perf_counter()
            players.verify(stored, "wrong")
            times.append(time.perf_counter() - started)
        return min(times)

    # scrypt runs in both cases (tens of milliseconds); without it a missing entry would take microseconds.
    assert fastest(None) > fastest(entry) / 4


def test_keys_file_round_trip_and_errors(tmp_path: Path) -> None:
    path = tmp_path / "players.toml"
    assert players.load_keys(path) is None
    entry = players.hash_passphrase("x")
    path.write_text(players.render_keys({"bo@example.org": entry, "ann@example.org": entry}))
    assert players.load_keys(path) == {"ann@example.org": entry, "bo@example.org": entry}
    for text, words in (
        ("players = 3\n", "must be a table"),
        ('[players."a@b.org"]\nkey = 3\n', "needs key"),
        ("[[", "is not TOML"),
    ):
        path.write_text(text)
        with pytest.raises(KeysFileError, match=words):
            players.load_keys(path)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(KeysFileError, match="cannot read"):
        players.load_keys(path)


def test_command_line_addresses_and_passphrases() -> None:
    assert players.checked_address(" Ann@Example.org ") == "ann@example.org"
    for bad in ("ann", "Ann <ann@example.org>", "a@b.org, c@d.org", 'a"b@c.org', "a@b.org\nX: y"):
        with pytest.raises(UsageError):
            players.checked_address(bad)
    assert players.checked_passphrase("  two words  \nsecond line\n") == "two words"
    with pytest.raises(UsageError):
        players.checked_passphrase("   \n")


def _incoming(
    subject: str, message_id: str | None = "<m@x.org>", references: tuple[str, ...] = ()
) -> incoming.Incoming:
    return incoming.Incoming(message_id, references, "ann@example.org", "Ann", subject, (), "", False, False)


@pytest.mark.parametrize(
    ("subject", "expected"),
    [
        ("[g1] my move", "Re: [g1] my move"),
        ("Re: RE: Aw: [g1] my move", "Re: [g1] my move"),
        ("[league] [g1] move", "Re: [g1] [league] move"),
        ("move for [g1]", "Re: [g1] move for"),
        ("[g1]", "Re: [g1]"),
    ],
)
def test_reply_subjects(subject: str, expected: str) -> None:
    assert compose.reply_subject(subject, "g1") == expected


def test_an_answer_is_threaded_marked_automatic_and_carries_the_svg() -> None:
    answer = Answer(Kind.ACCEPTED, (("ann@example.org", "Ann"), ("bo@example.org", "")), "body\n", "<svg/>")
    when = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
    built = compose.build(
        answer, game_id="g1", incoming=_incoming("[g1] x", references=("<r@x.org>",)), sender="gm@example.org", now=when
    )
    assert built["From"] == "referee <gm@example.org>"
    assert [a.addr_spec for a in built["To"].addresses] == ["ann@example.org", "bo@example.org"]
    assert built["In-Reply-To"] == "<m@x.org>"
    assert built["References"] == "<r@x.org> <m@x.org>"
    assert built["Auto-Submitted"] == "auto-replied"
    assert built["Date"] == "Mon, 23 Nov 2026 09:00:00 +0000"
    assert built["Message-ID"].endswith("@example.org>")
    [svg] = [part for part in built.iter_attachments()]
    assert svg.get_content_type() == "image/svg+xml" and svg.get_filename() == "g1.svg"
    without = compose.build(answer._replace(svg=None), game_id="g1", incoming=_incoming("x", None), sender="g@x.org")
    assert without["In-Reply-To"] is None and without["References"] is None
    assert not list(without.iter_attachments())


def test_answer_texts() -> None:
    turn = Turn("g1: ongoing: Sparta to move, round 1", ("Athens pushes",), "BOARD", "next: Sparta to move (token 1-a)")
    accepted = compose.accepted("g1", "Ann", "Athens", "d1-W\nd2-W", turn, compose.Answering("1-a"))
    assert accepted.startswith("Ann (Athens) played in game g1:\n\n  d1-W\n  d2-W\n")
    assert "Athens pushes\n\nBOARD\n\nnext: Sparta" in accepted and "Token: 1-a" in accepted
    refused = compose.refused("g1", "d1-N", "line 1, col 1: no piece", ["c1-E", "c1-W"], turn, compose.Answering("0-b"))
    assert "Did you mean: c1-E, c1-W?" in refused and "BOARD" in refused
    assert "Athens pushes" not in refused and "g1: ongoing" not in refused
    assert "d1-W, d1-E" in compose.listed("g1", "Athens to move: 2", ["d1-W", "d1-E"])
    assert "holds no text" in compose.plain_text_please("g1")
    assert "Key: your passphrase" in compose.not_accepted("g1", "it carries no Key: line")


def test_the_ledger_finds_what_it_recorded(tmp_path: Path) -> None:
    def write(path: Path, text: str) -> None:
        path.write_text(text, encoding="utf-8")

    ledger = Ledger(tmp_path)
    assert ledger.find("<a@x>") is None
    ledger.record(Entry("<a@x>", "g1", "played", "g1: ongoing:\tSparta\nto move"), write)
    ledger.record(Entry("<b@x>", "g2", "refused", "g2: ongoing"), write)
    again = Ledger(tmp_path)
    assert again.find("<a@x>") == Entry("<a@x>", "g1", "played", "g1: ongoing: Sparta to move")
    assert again.find("<b@x>") is not None and again.find("<c@x>") is None
    assert len((tmp_path / "mail-ledger.tsv").read_text().splitlines()) == 2
    # Known by Message-ID and sender (issue 44.8); a line without a sender matches any.
    again.record(Entry("<c@x>", "g1", "played", "v", "ann@x"), write)
    assert again.find("<c@x>", "ann@x") == Entry("<c@x>", "g1", "played", "v", "ann@x")
    assert again.find("<c@x>", "bo@x") is None and again.find("<a@x>", "bo@x") is not None
    assert Ledger(tmp_path).find("<c@x>", "ANN@x") is None and Ledger(tmp_path).find("<c@x>") is not None


def test_settings_are_checked(tmp_path: Path) -> None:
    config = mail.settings(tmp_path, sender="GM@Example.org", smtp="[::1]:2525")
    assert config.sender == "gm@example.org" and config.outbox == tmp_path / "outbox"
    assert config.smtp is not None and (config.smtp.host, config.smtp.port) == ("::1", 2525)
    for bad in ("host:0", "host:99999", ":25", "host:x"):
        with pytest.raises(UsageError, match="HOST:PORT"):
            mail.settings(tmp_path, smtp=bad)
    assert mail.default_sender().startswith("referee@")


_BODIES = st.lists(
    st.sampled_from(
        ["d1+d2+d3-W", "i3-E", "d1-N", "show", "moves", "resign", "Key: x", "Token: 0-0", "> quoted", "-- ", "{ note"]
    )
    | st.text(max_size=30),
    max_size=6,
).map("\n".join)


NIKA_ADDRESSES = ("ann@example.org", "bo@example.org", "cy@example.org", "di@example.org")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_BODIES, charset=st.sampled_from(["utf-8", "latin-1", "windows-1252"]))
def test_any_body_from_a_player_gets_its_answers_and_leaves_a_legal_game(
    tmp_path_factory: pytest.TempPathFactory, body: str, charset: str
) -> None:
    folder = tmp_path_factory.mktemp("any")
    path = nika_game(folder)
    built = message("Ann <ann@example.org>", "[g1]")
    built.set_content(body.encode(charset, "replace"), maintype="text", subtype="plain")
    built.set_param("charset", charset)
    handled = mail.run(io.BytesIO(built.as_bytes()), mail.settings(folder, sender="gm@example.org"))
    assert handled.exit_code == 0, handled.notes
    # One answer to Ann; or, when it plays, the answers to every player (PLAY.md §5.1: one
    # to the player to move, one to the others).
    recipients = sorted(address for answer in handled.answers for address, _ in answer.recipients)
    assert recipients in (["ann@example.org"], sorted(NIKA_ADDRESSES))
    assert session.show(str(path), 1, None).verdict.legal
    assert len(list((folder / "outbox").glob("*.eml"))) == len(handled.answers)
