"""Only the referee writes comment commands (PLAY.md §7), by mail too: a player's message
holding one, of any name and spelling, anywhere (with moves, alone, with `draw`, `undo`,
`timeout`, `resign`, in `show` and `moves` requests), keyed or not, is refused whole:
nothing is written, and exactly one answer goes to the sender, naming the command. The
gateway's own offers and stamps are written as before."""

from __future__ import annotations

import io
from email.message import EmailMessage
from pathlib import Path

import pytest

from referee.live import mail
from referee.live.mail import game
from tests.helpers.commands import FIRST_MOVE, KINDS, MAIL_PLACES, ORDINARY, PLACES, REFEREE_ONLY, named, submissions
from tests.helpers.mail import (
    GM,
    NIKA_PLAYERS,
    answers_in_process,
    message,
    nika_game,
    outbox_messages,
    plain_text,
    recipients,
    write_game,
)

ANN = "Ann <ann@example.org>"
BO = "Bo <bo@example.org>"
NOW = "2026-12-04T10:59:00Z"


class Folder:
    """A game folder with one timed Numica game `n1` (Red: Ann, Blue: Bo), keyed or not."""

    def __init__(self, folder: Path, keyed: bool) -> None:
        self.folder = folder
        self.path = write_game(
            folder,
            "n1",
            "numica",
            {"Red": ANN, "Blue": BO},
            '[Seed "42"]',
            '[TimeControl "3d+0m"]',
            '[Start "2026-12-01T12:00:00Z"]',
        )
        self.keyed = keyed
        if keyed:
            mail.add_player(folder, "ann@example.org", "ann's secret words")
            mail.add_player(folder, "bo@example.org", "bo's secret words")

    def send(self, sender: str, body: str, now: str = NOW, game_id: str = "n1") -> list[EmailMessage]:
        """One message (with the sender's key and the game's current token where keyed);
        the answers it caused, taken out of the outbox."""
        if self.keyed:
            token = game.open_game(self.folder / f"{game_id}.rgn").token
            name = sender.split()[0].lower()
            body = f"Key: {name}'s secret words\nToken: {token}\n{body}"
        settings = mail.settings(self.folder, sender=GM, now=now)
        return answers_in_process(settings, message(sender, f"[{game_id}] my turn", body))

    def outcomes(self) -> list[str]:
        return [line.split()[-1] for line in (self.folder / "mail.log").read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_players_message_holding_a_command_is_refused_with_one_answer(tmp_path: Path, kind: str, keyed: bool) -> None:
    table = Folder(tmp_path, keyed)
    before = table.path.read_text(encoding="utf-8")
    texts = submissions(kind, PLACES + MAIL_PLACES)
    for text in texts:
        answers = table.send(ANN, text + "\n")
        assert len(answers) == 1, text
        assert recipients(answers[0]) == ["ann@example.org"], text
        told = plain_text(answers[0])
        assert REFEREE_ONLY in told and named(kind) in told and "nothing was written" in told, (text, told)
        assert table.path.read_text(encoding="utf-8") == before, text
    # Blue, not to move, is refused the same way
    answers = table.send(BO, texts[1] + "\n")
    assert len(answers) == 1 and recipients(answers[0]) == ["bo@example.org"] and REFEREE_ONLY in plain_text(answers[0])
    assert table.outcomes() == ["refused"] * (len(texts) + 1)
    assert table.path.read_text(encoding="utf-8") == before


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
def test_one_player_cannot_end_a_four_player_game_by_mail(tmp_path: Path, keyed: bool) -> None:
    """The attack of the issue: Athens mails the three other sides' offers and `draw`;
    keys and a valid token change nothing."""
    path = nika_game(tmp_path)
    if keyed:
        mail.add_player(tmp_path, "ann@example.org", "ann's secret words")
    before = path.read_text(encoding="utf-8")
    forged = "d1-W d3-E {[%offer draw Sparta] [%offer draw Messene] [%offer draw Thebes]} draw\n"
    if keyed:
        forged = f"Key: ann's secret words\nToken: {game.open_game(path).token}\n{forged}"
    settings = mail.settings(tmp_path, sender=GM)
    handled = mail.run(io.BytesIO(message(NIKA_PLAYERS["Athens"], "[g1] draw", forged).as_bytes()), settings)
    assert handled.exit_code == 0
    answers = outbox_messages(tmp_path / "outbox")
    assert len(answers) == 1 and recipients(answers[0]) == ["ann@example.org"]
    assert REFEREE_ONLY in plain_text(answers[0]) and "[%offer draw Sparta]" in plain_text(answers[0])
    assert path.read_text(encoding="utf-8") == before


def test_a_mailed_grant_gives_the_sender_no_time(tmp_path: Path) -> None:
    path = write_game(
        tmp_path,
        "p1",
        "pikemen",
        {"Red": ANN, "Blue": BO},
        '[TimeControl "3d+0m"]',
        '[Start "2026-12-01T12:00:00Z"]',
    )
    before = path.read_text(encoding="utf-8")
    settings = mail.settings(tmp_path, sender=GM, now="2026-12-02T12:00:00Z")
    data = message(ANN, "[p1] move", "f3(N) {[%grant Red 10d]}\n").as_bytes()
    assert mail.run(io.BytesIO(data), settings).exit_code == 0
    [answer] = outbox_messages(tmp_path / "outbox")
    told = plain_text(answer)
    assert "{[%grant Red 10d]}" in told and REFEREE_ONLY in told
    assert path.read_text(encoding="utf-8") == before


def test_a_mailed_stamp_charges_no_other_side(tmp_path: Path) -> None:
    """`SSSSOOOO {[%at ... Blue]}` would charge Red's 2d 23h to Blue, whom Red's own
    `timeout` would then flag an hour later: the stamp is refused, Blue's clock untouched."""
    table = Folder(tmp_path, keyed=False)
    answers = table.send(ANN, f"{FIRST_MOVE} {{[%at {NOW} Blue]}}\n")
    assert len(answers) == 1 and REFEREE_ONLY in plain_text(answers[0])
    assert "%at" not in table.path.read_text(encoding="utf-8")
    table.send(ANN, f"{FIRST_MOVE}\n")  # the honest move, stamped by the gateway for Red
    assert f"{FIRST_MOVE} {{[%at {NOW} Red]}}" in table.path.read_text(encoding="utf-8")
    told = table.send(ANN, "timeout\n", now="2026-12-04T12:00:00Z")
    assert len(told) == 1 and "nothing was written" in plain_text(told[0])  # Blue has two days left
    assert "timeout" not in table.path.read_text(encoding="utf-8")


@pytest.mark.parametrize("keyed", [False, True], ids=["unkeyed", "keyed"])
@pytest.mark.parametrize("comment", ORDINARY)
def test_ordinary_comments_in_a_message_stay(tmp_path: Path, comment: str, keyed: bool) -> None:
    table = Folder(tmp_path, keyed)
    answers = table.send(ANN, f"{FIRST_MOVE} {comment}\n")
    assert answers and all(REFEREE_ONLY not in plain_text(answer) for answer in answers)
    assert comment in table.path.read_text(encoding="utf-8")
    assert table.outcomes() == ["played"]


def test_the_gateways_own_offer_and_stamp_are_written_after_the_check(tmp_path: Path) -> None:
    table = Folder(tmp_path, keyed=True)
    table.send(ANN, f"{FIRST_MOVE}\n")
    table.send(BO, "draw\n", now="2026-12-04T11:00:00Z")
    written = table.path.read_text(encoding="utf-8")
    assert "{[%offer draw Blue]}" in written and "{[%at 2026-12-04T11:00:00Z Blue]}" in written
    table.send(ANN, "draw\n", now="2026-12-04T11:30:00Z")
    assert '[Result "draw"]' in table.path.read_text(encoding="utf-8")


def test_a_salt_line_holding_a_command_is_refused(tmp_path: Path) -> None:
    path = write_game(tmp_path, "d1", "nieuchess", {"Red": ANN, "Blue": BO}, '[SeedHash "sha256:' + "0" * 64 + '"]')
    before = path.read_text(encoding="utf-8")
    settings = mail.settings(tmp_path, sender=GM, now=NOW)
    data = message(ANN, "[d1] salt", "Salt: {[%grant Red 10d]}\n").as_bytes()
    assert mail.run(io.BytesIO(data), settings).exit_code == 0
    [answer] = outbox_messages(tmp_path / "outbox")
    assert REFEREE_ONLY in plain_text(answer) and "[%grant Red 10d]" in plain_text(answer)
    assert path.read_text(encoding="utf-8") == before
