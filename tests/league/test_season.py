"""A whole season (issue 21, LEAGUE.md §1-4), with real `referee` processes and `--now`
moving forward: six players, Pikemen with three players in groups, three rounds, daily
digests. Some moves are played with `play`, some by mail through the gateway, whose
answers (and `tick`'s mails) a real SMTP server on 127.0.0.1 receives. One player misses a
deadline (a reminder, then a time-out by `tick`); one takes leave by mail. The final table
is checked against OpenSkill called here on the games' results, and re-derived from the
game files alone after `league.log` is deleted.

One player reads Spanish (`lang = "es"` in their `[[player]]` table, issue 49): every mail
that player receives, from the pairing to the champion's mail, is made of the catalogue's
Spanish (no English text of the template, no English word outside it), while the other
players' mails stay English (docs/languages.md)."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from referee.live.mail.game import legal_moves, open_game
from referee.notation.timing import format_instant, parse_instant
from tests.helpers.mail import GM, Received, SmtpServer, message, start_smtp
from tests.helpers.process import run_referee_bytes

PLAYERS = {
    "Ann": "ann@example.org",
    "Bo": "bo@example.org",
    "Cy": "cy@example.org",
    "Di": "di@example.org",
    "Ed": "ed@example.org",
    "Flo": "flo@example.org",
}
EVERYONE = set(PLAYERS.values())
SPANISH = "flo@example.org"
"""The one player who reads Spanish (the last `[[player]]` table: `lang = "es"` appended)."""
HOUR = 3600


def _said(address: str, english: str, spanish: str) -> str:
    """What a mail to `address` says, in that player's language."""
    return spanish if address == SPANISH else english


def _is_digest(mail: Received) -> bool:
    subject = str(mail.message["Subject"])
    return "daily digest" in subject or "resumen diario" in subject


def _at(text: str, hours: float = 0) -> str:
    return format_instant(parse_instant(text) + int(hours * HOUR))


def _referee(*args: str, data: bytes | None = None, code: int = 0) -> str:
    done = run_referee_bytes(*args, input=data, timeout=120)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == code, f"referee {' '.join(args)}: exit {done.returncode}\n{out}{err}"
    assert "Traceback" not in err
    return out


def _recipients(mails: list[Received]) -> Counter[str]:
    """How many mails each address received."""
    return Counter(address.lower() for mail in mails for address in mail.recipients)


@dataclass
class _Game:
    """What the test knows of a game it plays: who left (in order) and when it ended."""

    name: str
    left: list[str] = field(default_factory=list)
    ended: int | None = None
    players: tuple[str, ...] = ()


@dataclass
class Season:
    folder: Path
    smtp: SmtpServer
    games: dict[str, _Game] = field(default_factory=dict)
    mailbox: list[Received] = field(default_factory=list)
    """Every mail the SMTP server received, in order (the Spanish player's are checked)."""

    def take(self) -> list[Received]:
        taken = self.smtp.take()
        self.mailbox += taken
        return taken

    def pair(self, now: str) -> dict[str, Any]:
        paired: dict[str, Any] = json.loads(_referee("league", "pair", str(self.folder), "--now", now, "--json"))
        for game in paired["games"]:
            self.games[game["game"]] = _Game(game["game"], players=tuple(game["seats"]))
        return paired

    def tick(self, now: str) -> tuple[list[dict[str, Any]], list[Received]]:
        out = _referee("league", "tick", str(self.folder), "--now", now, "--smtp", self.smtp.address, "--json")
        return json.loads(out)["entries"], self.take()

    def act(self, name: str, how: str, action: str, now: str) -> tuple[str, list[Received]]:
        """The player to move in game `name` moves (its first legal move) or resigns, by
        `play` or by mail; their address and the mails the gateway sent."""
        path = self.folder / f"{name}.rgn"
        current = open_game(path)
        assert not current.finished and current.to_move is not None
        player = next(each for each in current.roster.players if current.to_move in each.sides)
        text = action
        if action == "move":
            _, actions = legal_moves(current)
            text = next(each for each in actions if each != "resign")
        before = path.read_bytes()
        if how == "play":
            _referee("play", str(path), text, "--now", now)
        else:
            mail = message(player.address, f"Re: [{name}] my move", text + "\n")
            gateway = ("mail", "receive", str(self.folder), "--from", GM, "--smtp", self.smtp.address)
            _referee(*gateway, "--now", now, data=mail.as_bytes())
        assert path.read_bytes() != before, f"{name}: {text} by {how} was not played"
        game = self.games[name]
        if action == "resign":
            game.left.append(player.address)
        after = open_game(path)
        if after.finished:
            game.ended = parse_instant(now)
        return player.address, self.take()

    def next_player(self, name: str) -> str:
        current = open_game(self.folder / f"{name}.rgn")
        return next(each.address for each in current.roster.players if current.to_move in each.sides)

    def check_answers(self, name: str, sender: str, mails: list[Received]) -> None:
        """Daily digests: a move is answered to its sender and the player now to move;
        a game's end to every player of the game."""
        game = self.games[name]
        told = _recipients(mails)
        if game.ended is not None:
            assert told == Counter(game.players), (name, told)
        else:
            assert told == Counter({sender, self.next_player(name)}), (name, told)
        assert all("Auto-Submitted" in mail.message for mail in mails)


def _season(folder: Path, smtp: SmtpServer) -> Season:
    _referee("league", "init", str(folder), "--game", "pikemen", "--players", "3", "--rounds", "3",
             "--time-control", "3d+0m", "--name", "Winter 2026")  # fmt: skip
    toml = folder / "league.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8") + 'digest = "daily"\nreminders = ["1d"]\nleave_days = 3\n', encoding="utf-8"
    )
    for name, address in PLAYERS.items():
        _referee("league", "add", str(folder), address, "--name", name)
    toml.write_text(toml.read_text(encoding="utf-8") + 'lang = "es"\n', encoding="utf-8")  # Flo's table: the last
    return Season(folder, smtp)


def _pairing_round(season: Season, number: int, now: str) -> None:
    paired = season.pair(now)
    assert paired["round"] == number and len(paired["games"]) == 2 and paired["byes"] == []
    # the pairing mails wait in the outbox; tick sends them first, one to each player
    entries, mails = season.tick(_at(now, 5 / 60))
    _digests(entries, mails)  # and that day's digests, to whoever had news since the last
    assert all(entry["event"] == "digest" for entry in entries)
    pairings = [mail for mail in mails if not _is_digest(mail)]
    assert _recipients(pairings) == Counter(EVERYONE)
    assert all(str(mail.message["Subject"]).startswith(f"[r{number}-t") for mail in pairings)


def _digests(entries: list[dict[str, Any]], mails: list[Received]) -> dict[str, str]:
    """Address -> text of each digest mailed, checked to be one per player and logged."""
    digests = [mail for mail in mails if _is_digest(mail)]
    told = _recipients(digests)
    assert set(told.values()) <= {1}  # once per player per day
    assert {entry["to"] for entry in entries if entry["event"] == "digest"} == set(told)
    return {mail.recipients[0].lower(): mail.text for mail in digests}


def test_a_whole_season_by_play_and_by_mail(tmp_path: Path) -> None:
    smtp = start_smtp()
    try:
        _play_the_season(tmp_path / "winter", smtp)
    finally:
        smtp.stop()


def _play_the_season(folder: Path, smtp: SmtpServer) -> None:
    season = _season(folder, smtp)

    # -- round 1: a game played to its end; a game where a player misses the deadline ----
    _pairing_round(season, 1, "2026-12-01T12:00:00Z")
    sender, _ = season.act("r1-t1", "play", "move", "2026-12-01T13:00:00Z")
    for how, action, now in (("mail", "move", "14:00"), ("mail", "resign", "15:00"), ("mail", "resign", "16:00")):
        sender, mails = season.act("r1-t1", how, action, f"2026-12-01T{now}:00Z")
        season.check_answers("r1-t1", sender, mails)
    assert season.games["r1-t1"].ended is not None
    sender, mails = season.act("r1-t2", "mail", "move", "2026-12-01T13:00:00Z")
    season.check_answers("r1-t2", sender, mails)
    resigns = season.next_player("r1-t2")
    late = next(address for address in season.games["r1-t2"].players if address not in (sender, resigns))
    assert _recipients(mails)[late] == 0  # the third player reads the move in the digest
    season.act("r1-t2", "play", "resign", "2026-12-01T14:00:00Z")  # now the late player is to move

    entries, mails = season.tick("2026-12-02T00:05:00Z")  # the first daily digest: everyone had news
    digests = _digests(entries, mails)
    assert set(digests) == EVERYONE and len(mails) == 6
    assert _said(late, "Your move:", "Le toca mover:") in digests[late] and "[r1-t2]" in digests[late]
    assert _said(resigns, "Moves played:", "Jugadas hechas:") in digests[resigns] and "[r1-t2]" in digests[resigns]
    first = season.games["r1-t1"].players[0]
    assert _said(first, "Results:", "Resultados:") in digests[first]

    entries, mails = season.tick("2026-12-03T14:30:00Z")  # 23h30 left: the 1d reminder, to the late player only
    assert [entry["event"] for entry in entries] == ["reminder"]
    assert _recipients(mails) == Counter({late: 1}) and "Token: " in mails[0].text
    assert season.tick("2026-12-03T14:30:00Z") == ([], [])  # the same tick again: nothing

    entries, mails = season.tick("2026-12-04T14:30:00Z")  # past the deadline: the time-out ends the game
    assert [entry["event"] for entry in entries] == ["timeout", "digest", "digest", "digest"]
    timeouts = [mail for mail in mails if not _is_digest(mail)]
    assert _recipients(timeouts) == Counter(season.games["r1-t2"].players)
    assert set(_digests(entries, mails)) == set(season.games["r1-t2"].players)
    assert "\ntimeout\n" in (folder / "r1-t2.rgn").read_text(encoding="utf-8")
    assert open_game(folder / "r1-t2.rgn").finished  # the last player left: Red wins
    season.games["r1-t2"].left.append(late)  # a time-out is a loss: the side leaves (TIME.md §4)
    season.games["r1-t2"].ended = parse_instant("2026-12-04T14:30:00Z")

    # -- round 2: a player takes leave by mail --------------------------------------------
    _pairing_round(season, 2, "2026-12-05T12:00:00Z")
    away = season.games["r2-t1"].players[1]
    leave = message(away, "[r2-t1] away for a while", "leave 2d\n")
    gateway = ("mail", "receive", str(folder), "--from", GM, "--smtp", smtp.address)
    _referee(*gateway, "--now", "2026-12-05T12:30:00Z", data=leave.as_bytes())
    answers = season.take()
    tokens = [mail for mail in answers if "token" in str(mail.message["Subject"])]
    answers = [mail for mail in answers if mail not in tokens]  # the new token: to the player to move
    assert _recipients(answers) == Counter({away: 1})
    assert _said(away, "2d of leave granted", "2d de ausencia concedidos") in answers[0].text
    assert len(tokens) == 1 and away not in _recipients(tokens)
    log = [json.loads(line) for line in (folder / "league.log").read_text(encoding="utf-8").splitlines()]
    assert [(entry["player"], entry["duration"]) for entry in log if entry["event"] == "leave"] == [(away, "2d")]
    assert "[%grant " in (folder / "r2-t1.rgn").read_text(encoding="utf-8")
    plans = {
        "r2-t1": (("mail", "move"), ("play", "resign"), ("mail", "resign")),
        "r2-t2": (("play", "move"), ("play", "move"), ("mail", "resign"), ("play", "resign")),
    }
    _play_round(season, plans, "2026-12-05")

    # -- round 3: more leave would pass leave_days, and is refused -------------------------
    _pairing_round(season, 3, "2026-12-09T12:00:00Z")
    game = next(name for name, known in season.games.items() if name.startswith("r3") and away in known.players)
    before = (folder / f"{game}.rgn").read_text(encoding="utf-8")
    leave = message(away, f"[{game}] away again", "leave 2d\n")
    _referee(*gateway, "--now", "2026-12-09T12:30:00Z", data=leave.as_bytes())
    answers = season.take()
    assert _recipients(answers) == Counter({away: 1})
    assert _said(away, "not granted", "no se concedió") in answers[0].text
    assert (folder / f"{game}.rgn").read_text(encoding="utf-8") == before
    plans = {
        "r3-t1": (("play", "resign"), ("mail", "resign")),
        "r3-t2": (("mail", "move"), ("mail", "resign"), ("play", "resign")),
    }
    _play_round(season, plans, "2026-12-09")
    _referee("league", "pair", str(folder), "--now", "2026-12-13T12:00:00Z", code=1)  # the season is over

    entries, mails = season.tick("2026-12-10T00:05:00Z")  # the last digest: round 3's players
    assert set(_digests(entries, mails)) == EVERYONE
    champion = [mail for mail in mails if not _is_digest(mail)]
    assert _recipients(champion) == Counter(EVERYONE)  # the champion's mail, to every player
    _check_languages(season.mailbox)

    # -- the table, against OpenSkill on the games' results ----------------------------------
    table = json.loads(_referee("league", "standings", str(folder), "--json"))
    assert table["finished"] == 6 and table["ongoing"] == 0
    _check_table(season, table)
    (folder / "league.log").unlink()
    assert json.loads(_referee("league", "standings", str(folder), "--json")) == table


def _check_languages(mailbox: list[Received]) -> None:
    """The Spanish player's every mail is Spanish, the others' English: no text of the
    catalogue's other language appears in them (the template's English, a msgstr's Spanish),
    and no common English word stands outside the catalogue in the Spanish mails."""
    english, spanish = _catalogue_phrases()
    dump = Path(os.environ["MAILBOX_DUMP"]) if os.environ.get("MAILBOX_DUMP") else None
    told = Counter()
    for mail in mailbox:
        subject = str(mail.message["Subject"])
        text = f"{'' if subject.startswith('Re: ') else subject}\n{mail.text}"  # a reply's subject: the player's
        for address in (each.lower() for each in mail.recipients):
            told[address] += 1
            if dump is not None:
                with dump.open("a", encoding="utf-8") as out:
                    out.write(f"=== {address}\n{text}\n")
            if address == SPANISH:
                said = _without_board(text)
                assert [phrase for phrase in english if phrase in said] == [], text
                assert _ENGLISH_WORDS.findall(said) == [], text
            else:
                assert [phrase for phrase in spanish if phrase in text] == [], text
    assert told[SPANISH] >= 10  # three pairings, answers, digests, the champion


_ENGLISH_WORDS = re.compile(
    r"\b(the|your|you|is|are|was|to|of|and|with|game|games|move|moves|round|seat|win|wins|draw|"
    r"played|left|deadline|daily|digest|results|over|champion|standings|reminder|timeout|leave|granted)\b",
    re.IGNORECASE,
)


def _without_board(text: str) -> str:
    """The text without the board as the engine draws it, its grid and the paragraph of its
    legend (the engine's `render`, not translated: docs/languages.md)."""
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        if not _COLUMNS.match(lines[index]):
            out.append(lines[index])
            index += 1
            continue
        index += 1
        while index < len(lines) and not _COLUMNS.match(lines[index]):  # the rows, to the columns again
            index += 1
        index += 2  # the columns and the blank line
        while index < len(lines) and lines[index].strip():  # the legend
            index += 1
    return "\n".join(out)


_COLUMNS = re.compile(r"^\s+a\s+b\s+c\b")


def _catalogue_phrases() -> tuple[list[str], list[str]]:
    """Phrases of two words or more, of the template's English and of the Spanish
    translations, that the other language does not write too."""
    from babel.messages.pofile import read_po

    from referee import speech

    with (speech.LOCALE_DIR / "es" / "LC_MESSAGES" / "referee.po").open("rb") as handle:
        catalog = read_po(handle, locale="es")

    def phrases(texts: list[str]) -> set[str]:
        found = set()
        for text in texts:
            for part in re.split(r"\{[^{}]*\}|\n|`[^`]*`", text):
                part = part.strip(" .,:;()")
                if len(re.findall(r"[^\W\d_]{2,}", part)) >= 2:
                    found.add(part)
        return found

    ids: list[str] = []
    strings: list[str] = []
    for entry in catalog:
        if not entry.id or entry.context:
            continue
        ids += list(entry.id) if isinstance(entry.id, tuple) else [entry.id]
        strings += list(entry.string) if isinstance(entry.string, tuple) else [entry.string]
    english, spanish = phrases(ids), phrases(strings)
    return sorted(english - spanish), sorted(spanish - english)


def _play_round(season: Season, plans: dict[str, tuple[tuple[str, str], ...]], day: str) -> None:
    for name, plan in plans.items():
        for hour, (how, action) in enumerate(plan, start=13):
            sender, mails = season.act(name, how, action, f"{day}T{hour}:00:00Z")
            if how == "mail":
                season.check_answers(name, sender, mails)
            else:
                assert mails == []  # play mails nobody: the digest tells
        assert season.games[name].ended is not None


def _check_table(season: Season, table: dict[str, Any]) -> None:
    model = PlackettLuce()
    ratings = {address: model.rating() for address in EVERYONE}
    points = dict.fromkeys(EVERYONE, Fraction(0))
    wins = dict.fromkeys(EVERYONE, 0)
    played = dict.fromkeys(EVERYONE, 0)
    met: dict[str, list[str]] = {address: [] for address in EVERYONE}
    for game in sorted(season.games.values(), key=lambda each: each.ended or 0):
        # Pikemen with 3 players: the winner first, then those who left, the later one first
        (winner,) = [address for address in game.players if address not in game.left]
        order = [winner, *reversed(game.left)]
        rated = model.rate([[ratings[address]] for address in order], ranks=[1.0, 2.0, 3.0])
        for address, (rating,) in zip(order, rated, strict=True):
            ratings[address] = rating
            played[address] += 1
            met[address] += [other for other in game.players if other != address]
        points[winner] += 1
        wins[winner] += 1
    rows = {row["address"]: row for row in table["rows"]}
    assert set(rows) == EVERYONE
    for address in EVERYONE:
        row = rows[address]
        assert row["games"] == played[address] == 3 and row["byes"] == 0
        assert (row["wins"], row["draws"], row["losses"]) == (wins[address], 0, 3 - wins[address])
        assert Fraction(row["points"]).limit_denominator(100) == points[address]
        assert row["mu"] == pytest.approx(ratings[address].mu, abs=1e-4)
        assert row["sigma"] == pytest.approx(ratings[address].sigma, abs=1e-4)
        assert row["rating"] == pytest.approx(ratings[address].ordinal(), abs=1e-4)
        buchholz = sum(points[other] for other in met[address])
        assert Fraction(row["tiebreak"]).limit_denominator(100) == buchholz
    ranked = sorted(
        EVERYONE,
        key=lambda a: (-points[a], -sum(points[o] for o in met[a]), -ratings[a].ordinal(), rows[a]["player"]),
    )
    assert [row["address"] for row in table["rows"]] == ranked
