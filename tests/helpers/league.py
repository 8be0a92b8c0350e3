"""One way for a test to set up a league: `make_league(folder, "--game", "nika", names="Ann Bo",
pair_at=START)`.

It runs the commands a game master would (`referee league init`, `league add` for each
player, `league pair`), in-process (or through `run`, e.g. as processes under an injected
fault), and fails the test on any refusal. What `init` has no
option for (`digest`, `leave_days` ...) comes as `extra` lines appended to league.toml before
the players are added. Players are named; each one's address is `name@example.org` in lower
case."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, NamedTuple

from tests.helpers.cli import invoke

Runner = Callable[[Sequence[str]], tuple[int, str]]
"""Runs `referee ARGS`: its exit code and standard error."""

START = "2026-12-01T12:00:00Z"
"""The instant the set-ups pair their first round at."""
NAMES = "Ann Bo Cy Di"


def address(name: str) -> str:
    """The address a set-up gives the player `name`."""
    return f"{name.lower()}@example.org"


def first(count: int) -> str:
    """The first `count` of NAMES."""
    return " ".join(NAMES.split()[:count])


def numbered(count: int) -> str:
    """`count` players named P1, P2, ... (addresses p1@example.org ...), for tests that need many."""
    return " ".join(f"P{number}" for number in range(1, count + 1))


def _in_process(args: Sequence[str]) -> tuple[int, str]:
    ran = invoke(*args)
    return ran.exit_code, ran.stderr


def season(
    game: str, per_game: int, control: str | None = None, *, pairing: str | None = None, rounds: int | None = None
) -> list[str]:
    """The `league init` options of a season of `game` with `per_game` players at a table,
    timed by `control` when given, paired by `pairing` when given; `rounds` rounds when given,
    else two where more than two sit at a table (one round seats everyone once)."""
    options = ["--game", game, "--players", str(per_game)]
    if control is not None:
        options += ["--time-control", control]
    if pairing is not None:
        options += ["--pairing", pairing]
    if rounds is None and per_game > 2:
        rounds = 2
    if rounds is not None:
        options += ["--rounds", str(rounds)]
    return options


def make_league(
    folder: Path,
    *options: str,
    name: str | None = "T",
    names: str = NAMES,
    extra: str = "",
    pair_at: str | None = None,
    clear_outbox: bool = False,
    run: Runner = _in_process,
) -> None:
    """`league init FOLDER --name NAME OPTIONS...` (no `--name` when `name` is None), `extra`
    appended to league.toml, `league add` for each of `names` (space-separated), then `league
    pair --now PAIR_AT` when given; with `clear_outbox`, the mails the pairing wrote are removed
    so a test sees only its own. `run` runs each command (in-process by default)."""
    named_as = [] if name is None else ["--name", name]
    code, err = run(["league", "init", str(folder), *named_as, *options])
    assert code == 0, err
    if extra:
        path = folder / "league.toml"
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    for player in names.split():
        code, err = run(["league", "add", str(folder), address(player), "--name", player])
        assert code == 0, err
    if pair_at is not None:
        code, err = run(["league", "pair", str(folder), "--now", pair_at])
        assert code == 0, err
    if clear_outbox:
        for mail in (folder / "outbox").glob("*.eml"):
            mail.unlink()


def adjudicated(
    folder: Path,
    rule: str,
    *,
    control: str = "100d+1d",
    names: str = NAMES,
    extra: str = "",
    clear_outbox: bool = False,
) -> None:
    """A two-player Pikemen season timed by `control`, paired at START, whose unfinished
    games the close decides by `rule` (`adjudication = RULE`, then the `extra` lines)."""
    make_league(
        folder,
        *season("pikemen", 2, control),
        names=names,
        extra=f'adjudication = "{rule}"\n{extra}',
        pair_at=START,
        clear_outbox=clear_outbox,
    )


def run(*args: str) -> tuple[int, str, str]:
    """`referee ARGS` in-process: its exit code, standard output and standard error; no traceback in either."""
    result = invoke(*args)
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout, result.stderr
    return result.exit_code, result.stdout, result.stderr


def tick_json(folder: Path, now: str) -> dict[str, Any]:
    """`league tick FOLDER --now NOW --json` in-process, which must exit 0: its JSON report."""
    code, out, err = invoke("league", "tick", str(folder), "--now", now, "--json")
    assert code == 0, err
    report: dict[str, Any] = json.loads(out)
    return report


def log(folder: Path, event: str | None = None) -> list[dict[str, object]]:
    """The entries of the folder's league.log, only those of `event` when given."""
    entries = map(json.loads, (folder / "league.log").read_text(encoding="utf-8").splitlines())
    return [entry for entry in entries if event is None or entry["event"] == event]


class Mail(NamedTuple):
    """A mail of a league's outbox: its recipients' addresses, its subject and its plain text."""

    to: tuple[str, ...]
    subject: str
    text: str


def outbox(folder: Path, *, empty: bool = False) -> list[Mail]:
    """Every mail in the folder's outbox, by file name; with `empty`, each one removed once read."""
    found = []
    for path in sorted((folder / "outbox").glob("*.eml")):
        mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert isinstance(mail, EmailMessage)
        body = mail.get_body(("plain",))
        assert body is not None
        to = tuple(recipient.addr_spec for recipient in mail["To"].addresses)
        found.append(Mail(to, str(mail["Subject"]), str(body.get_content())))
        if empty:
            path.unlink()
    return found


def addressed(folder: Path, *, empty: bool = False) -> list[tuple[str, str, str]]:
    """(first recipient's address, subject, text) of every mail in the outbox, as `outbox` reads them."""
    return [(mail.to[0], mail.subject, mail.text) for mail in outbox(folder, empty=empty)]
