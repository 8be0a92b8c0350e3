"""Issue 49: tokens.log keeps each token change's kind and parameters beside its English
`what`, so that a stale token's refusal says it in the reader's language; a line written
before (no kind), or of a kind this referee does not know, is said in its stored English."""

from __future__ import annotations

import json
from pathlib import Path

from referee.live.play import changes
from referee.notation.timing import parse_instant
from referee.speech import ENGLISH, speaker

AT = parse_instant("2026-12-04T14:00:00Z")


def _log(folder: Path, *entries: dict[str, object]) -> Path:
    (folder / changes.CHANGES_FILE).write_text("".join(json.dumps(each) + "\n" for each in entries), encoding="utf-8")
    return folder / "g1.rgn"


def _entry(old: str, new: str, what: str, **more: object) -> dict[str, object]:
    return {"game": "g1", "old": old, "new": new, "at": "2026-12-04T14:00:00Z", "what": what, **more}


def test_a_change_keeps_its_kind_and_parameters_beside_the_same_english(tmp_path: Path) -> None:
    parts = [changes.wording("grant", given="Blue 2d, Red 1d"), changes.wording("salt", side="Red")]
    changed = changes.change(tmp_path / "g1.rgn", "1-a", "1-b", parts, AT)
    assert changed is not None
    assert changed.what == "the game master granted Blue 2d, Red 1d and Red's salt was written"
    entry = json.loads(changed.line())
    assert entry["said"] == [{"kind": "grant", "given": "Blue 2d, Red 1d"}, {"kind": "salt", "side": "Red"}]
    assert changed.said() == f"{changed.what} at 2026-12-04 14:00 UTC"
    path = _log(tmp_path, entry)
    said = changes.stale(path, "1-a", "1-b", say=speaker("es"))
    assert said == (
        "la partida está en el token 1-b, no en 1-a: el tablero está como estaba, pero el director de juego"
        " concedió Azul 2d, Rojo 1d y se escribió la sal de Rojo el 4 dic 2026, 14:00:00 UTC; el token es ahora 1-b"
    )


def test_a_chain_of_changes_is_said_in_english_as_before_and_in_spanish(tmp_path: Path) -> None:
    path = _log(
        tmp_path,
        _entry("1-a", "1-b", "the game master granted Blue 2d (leave of Di)", said=[
            {"kind": "leave", "given": "Blue 2d", "player": "Di"}]),
        _entry("1-b", "1-c", "the game master changed Di's address to d@x.org", said=[
            {"kind": "address", "player": "Di", "address": "d@x.org"}]),
    )  # fmt: skip
    assert changes.stale(path, "1-a", "1-c") == (
        "the game is at token 1-c, not 1-a: the board is as it was, but the game master granted Blue 2d"
        " (leave of Di) at 2026-12-04 14:00 UTC; then the game master changed Di's address to d@x.org at"
        " 2026-12-04 14:00 UTC; the token is now 1-c"
    )
    assert changes.explained(path, "1-a", "1-c", wrote="it", say=speaker("es")) == (
        "el tablero está como estaba, pero el director de juego concedió Azul 2d (ausencia de Di) el 4 dic 2026,"
        " 14:00:00 UTC; luego el director de juego cambió la dirección de Di a d@x.org el 4 dic 2026, 14:00:00 UTC;"
        " el token es ahora 1-c"
    )


def test_an_old_line_or_an_unknown_kind_is_said_in_its_stored_english(tmp_path: Path) -> None:
    path = _log(
        tmp_path,
        _entry("1-a", "1-b", "the game master granted Blue 2d"),  # written before issue 49
        _entry("1-b", "1-c", "the game master did something new", said=[{"kind": "novel", "what": "x"}]),
        _entry("1-c", "1-d", "Red's salt was written", said=[{"kind": "salt", "colour": "Red"}]),  # wrong names
    )
    found = changes.since(path, "1-a", "1-d")
    assert found is not None and [each.parts for each in found] == [(), (), ()]
    said = changes.explained(path, "1-a", "1-d", say=speaker("es"))
    assert said.startswith("el tablero está como estaba, pero the game master granted Blue 2d el 4 dic 2026")
    assert "; luego the game master did something new el " in said and "; luego Red's salt was written el " in said
    assert changes.explained(path, "1-a", "1-d", say=ENGLISH).startswith(
        "the board is as it was, but the game master granted Blue 2d at 2026-12-04 14:00 UTC; then"
    )


def test_the_board_changed_refusal_is_said_in_the_readers_language(tmp_path: Path) -> None:
    path = _log(tmp_path)
    english = "the game is at token 2-b, not 1-a: the board has changed since this move was written"
    assert changes.stale(path, "1-a", "2-b") == english
    spanish = changes.stale(path, "1-a", "2-b", wrote="this", say=speaker("es"))
    assert spanish == "la partida está en el token 2-b, no en 1-a: el tablero ha cambiado desde que se escribió esto"
    english = changes.stale(path, "1-a", "2-b", wrote="this")
    assert changes.said_again(path, "1-a", "2-b", english, speaker("es")) == spanish
    assert changes.said_again(path, "1-a", "2-b", english, ENGLISH) == english
    assert changes.said_again(path, "1-a", "2-b", "some other refusal", speaker("es")) == "some other refusal"


def test_a_line_of_the_log_is_read_within_its_bounds(tmp_path: Path) -> None:
    """tokens.log is a file of the folder, hostile until known: what a line says is read as
    its writer keeps it, on one line and at most MAX_WHAT characters, and a line of more
    parts than a change has is said in its English."""
    long = "x" * 5000
    path = _log(
        tmp_path,
        _entry("1-a", "1-b", "granted\nFrom: boss " + long, said=[{"kind": "grant", "given": "Blue\n2d " + long}]),
        _entry("1-b", "1-c", "Red's salt was written", said=[{"kind": "salt", "side": "Red"}] * 9),
    )
    found = changes.since(path, "1-a", "1-c")
    assert found is not None
    first, second = found
    assert "\n" not in first.what and len(first.what) == changes.MAX_WHAT
    assert all("\n" not in value and len(value) <= changes.MAX_WHAT for _, value in first.parts[0].params)
    assert second.parts == ()
    said = changes.explained(path, "1-a", "1-c", say=speaker("es"))
    assert "\n" not in said and len(said) < 3 * changes.MAX_WHAT
