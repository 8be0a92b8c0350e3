"""A league in Spanish (issue 49, docs/languages.md): `lang = "es"` in league.toml, a
player's own `lang` in their `[[player]]` table. The pairing mails, the passphrase mails
and the gateway's answers on the league's folder each in the reader's language; the game
IDs, tokens, moves and board as written."""

from __future__ import annotations

import re
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.helpers.cli import invoke
from tests.helpers.league import make_league, outbox, season
from tests.helpers.mail import GM, message
from tests.helpers.notices import Receiver
from tests.helpers.site_season import outside_brackets, spanish_season

START = "2026-12-01T12:00:00Z"


def _mails(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """Each recipient's (subject, text) in the outbox, which is then emptied."""
    found: dict[str, list[tuple[str, str]]] = {}
    for mail in outbox(folder, empty=True):
        for address in mail.to:
            found.setdefault(address, []).append((mail.subject, mail.text))
    return found


def _league(folder: Path, extra: str = "", *, control: str | None = "3d+0m", bo: str | None = "en") -> None:
    """Ann and Bo's league of Nika with `lang = "es"` and `extra`, timed by `control`; Bo's
    own `lang`, where `bo` gives one (the last [[player]] table when it is appended),
    overrides the league's."""
    make_league(folder, *season("nika", 2, control), names="Ann Bo", extra='lang = "es"\n' + extra)
    if bo is not None:
        path = folder / "league.toml"
        path.write_text(path.read_text(encoding="utf-8") + f'lang = "{bo}"\n', encoding="utf-8")


def _paired(folder: Path) -> None:
    """The first round paired at START, and its mails taken out of the outbox."""
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    _mails(folder)


def test_a_spanish_leagues_pairing_and_passphrase_mails_are_in_each_players_language(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder)
    code, _, err = invoke("league", "pair", str(folder), "--now", START)
    assert code == 0, err
    mails = _mails(folder)
    [(subject, ann)] = mails["ann@example.org"]
    assert ann.startswith("T, ronda 1: su partida es [r1-t1] (nika).\n\nAsientos, en orden de turno:\n")
    assert "Usted juega con" in ann and "Reloj: 3d+0m, desde 1 dic 2026, 12:00:00 UTC." in ann
    assert re.search(r"  Token: 0-[0-9a-f]{10}\n", ann)
    assert "Envíe `mostrar` para ver el tablero" in ann
    [(_, bo)] = mails["bo@example.org"]
    assert (
        bo.startswith("T, round 1: your game is [r1-t1] (nika).") and "Clock: 3d+0m, from 2026-12-01 12:00 UTC." in bo
    )
    code, _, err = invoke("league", "passphrases", str(folder), "--issue", "--now", START)
    assert code == 0, err
    mails = _mails(folder)
    [(subject, ann)] = mails["ann@example.org"]
    assert subject == "T: su contraseña" and "T: su contraseña para jugar por correo es" in ann
    assert mails["bo@example.org"][0][0] == "T: your passphrase"


def test_the_gateway_on_a_spanish_league_answers_in_spanish(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder)
    _paired(folder)
    data = message("Ann <ann@example.org>", "[r1-t1] tablero", "mostrar\n").as_bytes()
    code, out, err = invoke("mail", "receive", str(folder), "--from", GM, "--now", START, stdin=data)
    assert code == 0, out + err
    [(subject, text)] = _mails(folder)["ann@example.org"]
    assert subject == "Re: [r1-t1] tablero"
    assert text.startswith("Partida r1-t1:\n\nr1-t1: en curso: mueve ")


def test_the_board_a_mail_carries_is_drawn_in_each_readers_language(tmp_path: Path) -> None:
    """The SVG board attached to an answer is drawn in its reader's language (its caption,
    legend and description), as the text board above it is: Ann's in Spanish, Bo's (`lang =
    "en"`) in English, shown or after a move."""
    from email import policy
    from email.parser import BytesParser

    folder = tmp_path / "liga"
    _league(folder)
    _paired(folder)
    for sender, body in (("Ann <ann@example.org>", "mostrar"), ("Ann <ann@example.org>", "d1+d2+d3-W")):
        data = message(sender, "[r1-t1] tablero", body + "\n").as_bytes()
        assert invoke("mail", "receive", str(folder), "--from", GM, "--now", START, stdin=data)[0] == 0
    boards: dict[str, list[str]] = {}
    for path in sorted((folder / "outbox").glob("*.eml")):
        mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert isinstance(mail, EmailMessage)
        for part in mail.iter_attachments():
            if part.get_content_type() == "image/svg+xml":
                boards.setdefault(str(mail["To"]), []).append(part.get_content().decode("utf-8"))
    ann, bo = boards["Ann <ann@example.org>"], boards["Bo <bo@example.org>"]
    assert len(ann) == 2 and len(bo) == 1
    assert all("<desc>Nika · mueve Atenas · ronda 1; piezas derrotadas: Atenas 0" in svg for svg in ann)
    assert all(">victoria de Atenas</text>" in svg and "Athens victory" not in svg for svg in ann)
    assert "c1 orientación W" in ann[1] and "c1 orientación W" not in ann[0]  # the move played
    assert "<desc>Nika · Athens to move · round 1; routed pieces: Athens 0" in bo[0]
    assert ">Athens victory</text>" in bo[0]


def test_a_spanish_leagues_site_is_in_spanish(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder)
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    out = tmp_path / "site"
    assert invoke("league", "site", str(folder), "-o", str(out))[0] == 0
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in index
    assert "<h2>Clasificación</h2>" in index and "<th class=n>puntos</th>" in index
    assert '<h2>Ronda 1 <a href="round-1.html">(página)</a></h2>' in index
    assert "Canal Atom de resultados" in index


def test_a_spanish_players_reminder_and_time_out_are_in_spanish(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder, 'reminders = ["12h"]\n', bo=None)
    _paired(folder)
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-04T02:00:00Z")
    assert code == 0, err
    [(subject, text)] = [mail for mails in _mails(folder).values() for mail in mails]
    assert subject == "[r1-t1] recordatorio: le toca mover"
    assert "su tiempo se acaba el 4 dic 2026, 12:00:00 UTC (dentro de menos de 12h)." in text
    assert "Para jugar, responda con sus jugadas en texto plano" in text
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-04T13:00:00Z")
    assert code == 0, err
    told = _mails(folder)
    assert sorted(told) == ["ann@example.org", "bo@example.org"]
    for mails in told.values():
        [(subject, text)] = [mail for mail in mails if "pérdida por tiempo" in mail[0]]
        assert subject == "[r1-t1] pérdida por tiempo: Atenas"
        assert "se le acabó el tiempo el 4 dic 2026, 12:00:00 UTC" in text
    # the season's last game is over: the champion's mail, to each player in their language
    for mails in told.values():
        [(subject, text)] = [mail for mail in mails if "temporada" in mail[0]]
        assert subject == "T: la temporada ha terminado, campeón Bo"
        assert text.startswith("T ha terminado: se ha jugado su única ronda.\n\nEl campeón: Bo, con 1 punto.\n")


def test_a_spanish_players_daily_digest_is_in_spanish(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder, 'digest = "daily"\n', control=None, bo=None)
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    [game] = sorted(folder.rglob("r1-t1.rgn"))
    code, _, err = invoke("play", str(game), "d1+d2+d3-W i3-E")  # the game master plays Athens's first turn
    assert code == 0, err
    _mails(folder)
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-02T08:00:00Z")
    assert code == 0, err
    digests = [mail for mails in _mails(folder).values() for mail in mails if "resumen diario" in mail[0]]
    assert digests, "no digest"
    subject, text = digests[0]
    assert subject == "T: resumen diario 2026-12-02"
    assert text.startswith("T: sus partidas el 2 dic 2026, 8:00:00 UTC.\n")


def test_status_and_leave_by_mail_are_answered_in_spanish(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder, "leave_days = 3\n", bo=None)
    _paired(folder)
    gateway = ("mail", "receive", str(folder), "--from", GM, "--now", "2026-12-01T13:00:00Z")
    asked = message("Ann <ann@example.org>", "[r1-t1] mis partidas", "estado\n").as_bytes()
    code, out, err = invoke(*gateway, stdin=asked)
    assert code == 0, out + err
    [(_, text)] = _mails(folder)["ann@example.org"]
    assert text.startswith("T: las partidas de Ann <ann@example.org> el 1 dic 2026, 13:00:00 UTC.\n\n")
    assert "[r1-t1] ronda 1, asiento 1 (Atenas, Mesene): le toca mover\n" in text
    assert "  Atenas+Mesene Ann, Esparta+Tebas Bo: mueve Atenas (Ann)\n" in text
    assert "  plazo 4 dic 2026, 12:00:00 UTC (quedan 2d23h); token " in text
    asked = message("Bo <bo@example.org>", "[r1-t1] fuera", "ausencia 1d\n").as_bytes()
    code, out, err = invoke(*gateway, stdin=asked)
    assert code == 0, out + err
    [(_, text)] = [mail for mail in _mails(folder)["bo@example.org"] if "ausencia" in mail[1]]
    assert text.startswith("T: ausencia concedida.\n\nbo@example.org: 1d de ausencia concedidos\n")
    assert "r1-t1: Esparta, Tebas +1d\n" in text


@pytest.mark.parametrize(
    ("extra", "control", "body", "reason"),
    [
        (
            "leave_days = 3\n",
            "3d+0m",
            "ausencia 5d",
            "Ann no ha tomado ninguna ausencia de los 3 días de leave_days; 5d más los superarían",
        ),
        ("leave_days = 3\n", "3d+0m", "ausencia 0d", "DURATION: una ausencia es algo de tiempo, no '0d'"),
        (
            "leave_days = 3\n",
            "3d+0m",
            "ausencia pronto",
            "DURATION: no es una duración (días, horas, minutos: 3d, 12h, 1d12h): 'pronto'",
        ),
        ("", None, "ausencia 1d", "T no tiene reloj (ningún time_control): no hay tiempo que conceder"),
    ],
)
def test_a_leave_refused_by_mail_says_why_in_spanish(
    tmp_path: Path, extra: str, control: str | None, body: str, reason: str
) -> None:
    """The league's own reason for refusing a leave, after the refusal's first line, is in
    the player's language too (its English is `referee league leave`'s, unchanged)."""
    folder = tmp_path / "liga"
    _league(folder, extra, control=control, bo=None)
    _paired(folder)
    gateway = ("mail", "receive", str(folder), "--from", GM, "--now", "2026-12-01T13:00:00Z")
    asked = message("Ann <ann@example.org>", "[r1-t1] fuera", body + "\n").as_bytes()
    code, out, err = invoke(*gateway, stdin=asked)
    assert code == 0, out + err
    [(_, text)] = _mails(folder)["ann@example.org"]
    assert text.startswith("T: su ausencia no se concedió: no se escribió nada.\n\n" + reason + "\n"), text


def test_a_withdrawal_is_told_in_each_players_language(tmp_path: Path) -> None:
    folder = tmp_path / "liga"
    _league(folder, control=None)  # Bo reads English
    _paired(folder)
    code, _, err = invoke("league", "withdraw", str(folder), "bo@example.org", "--now", "2026-12-01T13:00:00Z")
    assert code == 0, err
    told = _mails(folder)
    [(subject, ann)] = told["ann@example.org"]
    assert subject == "T: Bo se ha retirado" and ann.startswith("T: Bo <bo@example.org> se ha retirado de la liga.\n")
    assert told["bo@example.org"][0][0] == "T: Bo has withdrawn"


def test_notices_are_said_in_each_targets_language(tmp_path: Path, receiver: Receiver) -> None:
    pytest.importorskip("apprise", reason="the optional extra `notify` (Apprise) is not installed")
    folder = tmp_path / "liga"
    league = f"json://127.0.0.1:{receiver.port}/league"
    bo = f"json://127.0.0.1:{receiver.port}/bo"
    make_league(folder, "--game", "nika", "--players", "2", names="Ann", extra=f'lang = "es"\nnotify = ["{league}"]\n')
    path = folder / "league.toml"
    text = path.read_text(encoding="utf-8")
    text += f'\n[[player]]\nname = "Bo"\naddress = "bo@example.org"\nlang = "en"\nnotify = ["{bo}"]\n'
    path.write_text(text, encoding="utf-8")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    code, _, err = invoke("league", "tick", str(folder), "--now", "2026-12-01T12:05:00Z")
    assert code == 0, err
    posts = {(where, str(payload["title"])): str(payload["message"]) for where, payload in receiver.take()}
    assert posts[("/league", "T: [r1-t1] emparejada")] == "Ronda 1: [r1-t1] Ann, Bo."
    assert posts[("/bo", "T: [r1-t1] paired")] == "Round 1: [r1-t1] Ann, Bo."


def test_a_spanish_leagues_round_game_and_player_pages_are_in_spanish(tmp_path: Path) -> None:
    folder = spanish_season(tmp_path / "liga", "Otoño", "Ann Bo Cy")
    out = tmp_path / "site"
    assert invoke("league", "site", str(folder), "-o", str(out))[0] == 0
    pages = {path.name: path.read_text(encoding="utf-8") for path in out.glob("*.html")}
    for name, text in pages.items():
        assert '<html lang="es">' in text, name
    replays = [text for name, text in pages.items() if name.endswith("-replay.html")]
    assert replays and all('aria-label="una acción adelante"' in text for text in replays)
    assert all('"step":"paso {n} de {total}"' in text and '"ronda 1, Rojo"' in text for text in replays)
    assert not any("step {n} of" in text or "forward one action" in text for text in replays)
    assert re.search(r"</bdi>: ronda 1 de \d+</h1>", pages["round-1.html"]) and "ronda 2 →" in pages["round-1.html"]
    assert "terminada: " in pages["round-1.html"] and "<td>finished" not in pages["round-1.html"]
    assert "<td>en curso</td>" in pages["round-2.html"]  # the last game is left unfinished
    assert re.search(r"<td>(Rojo|Azul) \(<a class=\"player\"", pages["round-2.html"])  # the side to move
    game = next(text for name, text in pages.items() if re.fullmatch(r"r1-t\d+\.html", name))
    assert "<th>asiento</th><th>bandos</th><th>jugador</th>" in game and "Estado:" in game
    assert "Repetición: paso a paso por cada jugada" in game
    player = pages["player-1.html"]
    assert "<h2>Valoración tras cada partida</h2>" in player and "<h2>Partidas</h2>" in player
    assert re.search(r'<p class="meta">puesto \d+; ', player)
    assert re.search(r"<td>(victoria|derrota|tablas|en curso)</td>", player)


def test_the_leagues_texts_go_through_the_catalogue(tmp_path: Path) -> None:
    """Under the pseudo-language `qps` (referee/speech.py: each message of the template
    between ⟦ and ⟧) the league's texts hold no English outside the brackets but their
    parameters: status by mail, the open games, a granted leave, the final table, a result
    line, the notices."""
    import dataclasses

    from referee.league import notices
    from referee.league.league_toml import load
    from referee.league.leave import Leave
    from referee.league.mailing import leave_text, open_games_text, status_text
    from referee.league.results import game_files, judge_game, named
    from referee.league.standings import as_text, standings
    from referee.speech import speaker

    folder = tmp_path / "liga"
    make_league(folder, "--game", "nika", "--players", "2", "--time-control", "3d+0m", names="Ann Bo")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    [game] = sorted(folder.rglob("r1-t1.rgn"))
    assert invoke("play", str(game), "resign")[0] == 0
    config = dataclasses.replace(load(folder), lang="qps")
    say = speaker("qps")
    now = 1764590400 + 3600
    [(number, table, path)] = game_files(folder)
    result, _ = judge_game(path, path.read_bytes(), number, table)
    ended = result.finished
    texts = {
        "status": status_text(folder, config, "ann@example.org", now),
        "open games": open_games_text(folder, config, "ann@example.org", now),
        "leave": leave_text(Leave("ann@example.org", 86400, (("r1-t1", ("Athens", "Messene")),), 86400, 259200), say),
        "table": "\n".join(as_text(config, standings(config, [result]), say=say)),
        "result": named(result, say=say),
        "notices": "\n".join(f"{n.title}\n{n.body}" for n in notices.events(config, [(result, None)], [])),
    }
    # the sides named by their player, the reason a game word
    assert ended and texts["result"] == "⟦Bo (⟦Sparta⟧, ⟦Thebes⟧) win (⟦resignation⟧)⟧"
    # the names, addresses, the game and the tie-break's codes
    parameters = {"Ann", "Bo", "ann", "bo", "example", "org", "nika", "mu", "sigma", "sonneborn", "berger"}
    found = {kind: [word for word in outside_brackets(text) if word not in parameters] for kind, text in texts.items()}
    assert found == {kind: [] for kind in texts}, texts


def test_a_leagues_refusals_on_the_command_line_follow_the_locale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the game master reads when a league command refuses (exit 1) is said in the
    locale's language, as `check`'s verdicts: the sides as the rules' edition names them, the
    league's and games' names, the commands and league.toml's words as written; English by
    default, as before."""
    folder = tmp_path / "liga"
    make_league(folder, "--game", "nika", "--players", "2", names="Ann Bo")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert invoke("league", "unpair", str(folder))[2] == "referee league: T: no round is paired\n"
    monkeypatch.setenv("LANGUAGE", "es")
    code, _, said = invoke("league", "unpair", str(folder))
    assert (code, said) == (1, "referee league: T: no hay ninguna ronda emparejada\n")
    assert invoke("league", "pair", str(folder), "--now", START)[0] == 0
    said = invoke("league", "pair", str(folder), "--now", START)[2]
    assert said == "referee league: la ronda 1 aún se está jugando: r1-t1 sin terminar\n"
    said = invoke("league", "close", str(folder), "--now", START)[2]
    assert said == "referee league: T no tiene `ends` en league.toml: use close con --force para adelantarlo\n"
    said = invoke("league", "adjudicate", str(folder), "r1-t1", "draw", "--now", START)[2]
    assert 'T decide las partidas sin terminar por adjudication = "none", no por el director de juego' in said
    assert invoke("league", "withdraw", str(folder), "ann@example.org", "--now", START)[0] == 0
    said = invoke("league", "withdraw", str(folder), "ann@example.org", "--now", START)[2]
    assert said == "referee league: ann@example.org ya se ha retirado de T\n"
    [game] = sorted(folder.rglob("r1-t1.rgn"))
    game.write_text(game.read_text(encoding="utf-8").replace("\n\n", "\n\n{ unclosed\n", 1), encoding="utf-8")
    code, _, said = invoke("league", "status", str(folder))
    assert (code, said) == (1, 'referee league: r1-t1: mal formada: este comentario nunca se cierra: se esperaba "}"\n')


def test_a_refusal_says_its_sides_and_the_reasons_inside_it_in_spanish() -> None:
    from referee.league.folder import LeagueRefused
    from referee.league.knockout import KnockoutStuck
    from referee.speech import ENGLISH, N_, speaker

    say = speaker("es")
    stuck = KnockoutStuck(
        N_("{count} players are left, fewer than the {per_game} of a table: the bracket cannot go on"),
        count=1,
        per_game=2,
    )
    refused = LeagueRefused(N_("{league}: {why}"), league="Otoño", why=str(stuck))
    assert str(refused) == "Otoño: 1 players are left, fewer than the 2 of a table: the bracket cannot go on"
    assert refused.said(ENGLISH) == str(refused)
    assert refused.said(say) == "Otoño: quedan 1 jugadores, menos que los 2 de una mesa: el cuadro no puede continuar"
    flagged = LeagueRefused(
        N_("{game}: {side}'s time has run out: run league tick first (a timeout is due)"), game="r2-t1", side="Red"
    )
    assert flagged.said(say) == (
        "r2-t1: se ha agotado el tiempo de Rojo: ejecute antes league tick (hay un tiempo agotado pendiente)"
    )
