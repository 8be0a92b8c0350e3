"""No loops (PLAY.md §5.1, its list grown): besides RFC 3834's marks, a delivery report
(`multipart/report`, from any address), an `X-Loop` naming the gateway's own address, any
`X-Auto-Response-Suppress` and any `List-Unsubscribe` make a message automatic: neither
played nor answered, only logged. Every answer carries `X-Loop` with the gateway's address,
so that an answer that comes back (a forward, a list) is never answered."""

from __future__ import annotations

import io
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.live import mail
from tests.helpers.mail import GM, NIKA_PLAYERS, message, nika_game, outbox_messages

ANN = NIKA_PLAYERS["Athens"]
MOVE = "d1+d2+d3-W i3-E"
NOW = "2026-12-01T12:00:00Z"


def _handle(folder: Path, data: bytes) -> mail.Handled:
    handled = mail.run(io.BytesIO(data), mail.settings(folder, sender=GM, now=NOW))
    assert handled.exit_code == 0, handled.notes
    return handled


def _outcomes(folder: Path) -> list[str]:
    return [line.split()[-1] for line in (folder / "mail.log").read_text(encoding="utf-8").splitlines()]


def _delivery_report(sender: str) -> bytes:
    """A bounce as a mail transfer agent writes it (RFC 3464 inside RFC 6522), quoting a move."""
    report = EmailMessage()
    report["From"] = sender
    report["To"] = GM
    report["Subject"] = "[g1] Delivery Status Notification (Failure)"
    report["Message-ID"] = "<report@example.org>"
    report.set_content(f"Your message could not be delivered.\n\n{MOVE}\n")
    report.add_attachment(
        "Reporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; x@example.net\nAction: failed\n",
        subtype="plain",
    )
    report.replace_header("Content-Type", 'multipart/report; report-type="delivery-status"; boundary="b1"')
    report.set_boundary("b1")
    return report.as_bytes()


@pytest.mark.parametrize("sender", [ANN, "Eve <eve@evil.example>"], ids=["a-player", "a-stranger"])
def test_a_delivery_report_from_any_address_is_automatic(tmp_path: Path, sender: str) -> None:
    path = nika_game(tmp_path)
    before = path.read_text(encoding="utf-8")
    handled = _handle(tmp_path, _delivery_report(sender))
    assert handled.answers == () and "multipart/report" in handled.notes[0]
    assert path.read_text(encoding="utf-8") == before
    assert not (tmp_path / "outbox").exists() or outbox_messages(tmp_path / "outbox") == []
    assert _outcomes(tmp_path) == ["automatic"]


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({"X_Loop": GM}, "X-Loop"),
        ({"X_Loop": f"Referee <{GM.upper()}>"}, "X-Loop"),
        ({"X_Auto_Response_Suppress": "All"}, "X-Auto-Response-Suppress"),
        ({"X_Auto_Response_Suppress": "OOF, AutoReply"}, "X-Auto-Response-Suppress"),
        ({"List_Unsubscribe": "<mailto:leave@lists.example.org>"}, "List-Unsubscribe"),
    ],
)
def test_loop_marks_make_a_players_message_automatic(tmp_path: Path, headers: dict[str, str], reason: str) -> None:
    path = nika_game(tmp_path)
    before = path.read_text(encoding="utf-8")
    handled = _handle(tmp_path, message(ANN, "[g1] my move", f"{MOVE}\n", **headers).as_bytes())
    assert handled.answers == () and reason in handled.notes[0]
    assert path.read_text(encoding="utf-8") == before
    assert _outcomes(tmp_path) == ["automatic"]


def test_an_x_loop_of_another_address_is_a_persons_mail(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    handled = _handle(tmp_path, message(ANN, "[g1] my move", f"{MOVE}\n", X_Loop="league@lists.example.org").as_bytes())
    assert handled.answers and "W:" in path.read_text(encoding="utf-8")
    assert _outcomes(tmp_path) == ["played"]


def test_the_gateways_x_loop_is_found_among_several(tmp_path: Path) -> None:
    nika_game(tmp_path)
    data = message(ANN, "[g1] my move", f"{MOVE}\n").as_bytes()
    data = f"X-Loop: list@lists.example.org\nX-Loop: {GM}\n".encode() + data
    assert _handle(tmp_path, data).answers == ()
    assert _outcomes(tmp_path) == ["automatic"]


def test_every_answer_carries_x_loop_and_an_answer_come_back_is_not_answered(tmp_path: Path) -> None:
    nika_game(tmp_path)
    _handle(tmp_path, message(ANN, "[g1] my move", f"{MOVE}\n").as_bytes())
    answers = outbox_messages(tmp_path / "outbox")
    assert answers and all(answer["X-Loop"] == GM for answer in answers)
    for path in (tmp_path / "outbox").glob("*.eml"):
        path.unlink()
    # a player's mail program forwards the answer back, keeping its headers but Auto-Submitted
    bounced = answers[0]
    del bounced["Auto-Submitted"]
    bounced.replace_header("From", ANN)
    del bounced["To"]
    bounced["To"] = GM
    assert _handle(tmp_path, bounced.as_bytes()).answers == ()
    assert _outcomes(tmp_path) == ["played", "automatic"]
