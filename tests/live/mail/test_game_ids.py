"""A token names its game (PLAY.md §2, amended): `referee new` and `league pair` write a
`GameId`, which the token covers, so that two games at the same position never share a
token, and a captured keyed message for one game is refused on the other."""

from __future__ import annotations

import io
from pathlib import Path

from referee.live import mail
from referee.live.mail import game
from tests.helpers.cli import invoke
from tests.helpers.mail import GM, NIKA_PLAYERS, message, outbox_messages

ANN = NIKA_PLAYERS["Athens"]
MOVE = "d1+d2+d3-W i3-E"
SIDES = [f"--tag={side}={player}" for side, player in NIKA_PLAYERS.items()]


def _new(folder: Path, name: str, *args: str) -> Path:
    result = invoke("new", "nika", "--players", "4", *SIDES, *args)
    assert result.exit_code == 0, result.output
    path = folder / f"{name}.rgn"
    path.write_text(result.stdout, encoding="utf-8")
    return path


def test_a_captured_keyed_mail_for_one_game_is_refused_on_another_at_the_same_position(tmp_path: Path) -> None:
    first, second = _new(tmp_path, "g1"), _new(tmp_path, "g2")
    assert game.open_game(first).token != game.open_game(second).token
    mail.add_player(tmp_path, "ann@example.org", "ann's words")
    body = f"Key: ann's words\nToken: {game.open_game(first).token}\n{MOVE}\n"
    settings = mail.settings(tmp_path, sender=GM)
    played = mail.run(io.BytesIO(message(ANN, "[g1] my move", body).as_bytes()), settings)
    assert played.exit_code == 0 and "W:" in first.read_text(encoding="utf-8")
    for path in (tmp_path / "outbox").glob("*.eml"):
        path.unlink()
    # the same message, captured, sent to the other game (its Subject changed, its Message-ID new)
    before = second.read_text(encoding="utf-8")
    replayed = mail.run(io.BytesIO(message(ANN, "[g2] my move", body).as_bytes()), settings)
    assert replayed.exit_code == 0
    assert second.read_text(encoding="utf-8") == before
    [answer] = outbox_messages(tmp_path / "outbox")
    text = answer.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert "nothing was written" in text and game.open_game(second).token in text


def test_the_same_id_gives_the_same_token_and_a_record_without_one_reads_as_before(tmp_path: Path) -> None:
    one, two = _new(tmp_path, "a", "--id", "club/1"), _new(tmp_path, "b", "--id", "club/1")
    assert game.open_game(one).token == game.open_game(two).token
    other = _new(tmp_path, "c", "--id", "club/2")
    assert game.open_game(other).token != game.open_game(one).token
    bare = tmp_path / "d.rgn"
    bare.write_text("".join(line for line in one.read_text().splitlines(True) if "GameId" not in line))
    # without GameId: the token of the record as it stands, as before the amendment
    result = invoke("show", str(bare), "--json")
    assert result.exit_code == 0 and game.open_game(bare).token in result.output
