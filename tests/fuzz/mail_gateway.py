"""Harness `mail`: one e-mail message through `referee.live.mail.gateway.handle`, the call that
`referee mail` makes for the message on its standard input (through `handle_bytes`, which
would word an exception as "internal error", exit 75), with a games folder of one game of
each kind (and a timed one) in a temporary folder, answers written into its outbox (`DIR/outbox`), no
network, `--trust-authserv mx.example.net` and a fixed `--now`. The folder is put back as it
was before every input (a move played by one input is not there for the next).

A defect: any exception out of `handle` (the message never makes the gateway raise: a
`UsageError` is for a broken games folder, and this one is sound), an exit status that is
neither 0 nor 1, or an answer in the outbox that is not one well-formed message with one
From, one To and one Subject (a header written by the sender must never become one of ours).

Not covered here: `players.toml` (every passphrase costs 50 ms of scrypt: it would take the
fuzzer's speed from hundreds of inputs a second to twenty), IMAP, SMTP delivery."""

from __future__ import annotations

import shutil
from email import policy
from email.parser import BytesParser
from pathlib import Path

from tests.fuzz.guard import Defect, Sandbox

GM = "gm@example.org"
NOW = "2026-12-02T12:00:00Z"
ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"
GAMES = {
    "g1": [
        '[Game "nika"]',
        '[Players "4"]',
        f'[Athens "{ANN}"]',
        f'[Sparta "{BO}"]',
        '[Messene "Cy <cy@example.org>"]',
        '[Thebes "Di <di@example.org>"]',
    ],
    "n1": ['[Game "numica"]', '[Seed "42"]', f'[Red "{ANN}"]', f'[Blue "{BO}"]'],
    "t1": [
        '[Game "numica"]',
        '[Seed "42"]',
        '[TimeControl "3d+1d/5d"]',
        '[Start "2026-12-01T12:00:00Z"]',
        f'[Red "{ANN}"]',
        f'[Blue "{BO}"]',
    ],
    "p1": ['[Game "pikemen"]', '[Players "2"]', f'[Red "{ANN}"]', f'[Blue "{BO}"]'],
    "c1": ['[Game "nieuchess"]', '[Seed "greedy-1"]', '[First "Red"]', f'[Red "{ANN}"]', f'[Blue "{BO}"]'],
}
_state: dict[str, object] = {}


def setup() -> None:
    if "sandbox" in _state:
        return
    from referee.live import mail

    sandbox = Sandbox("mail")
    games = sandbox.root / "games"
    games.mkdir()
    for game_id, tags in GAMES.items():
        (games / f"{game_id}.rgn").write_text("\n".join(tags) + "\n\n", encoding="utf-8")
    _state["sandbox"] = sandbox
    _state["pristine"] = {path.name: path.read_bytes() for path in games.iterdir()}
    _state["settings"] = mail.settings(games, sender=GM, now=NOW, trust_authserv="mx.example.net", wait=0.5)


def _reset(games: Path, pristine: dict[str, bytes]) -> None:
    for entry in list(games.iterdir()):
        if entry.name not in pristine:
            shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    for name, data in pristine.items():
        path = games / name
        if path.read_bytes() != data:
            path.write_bytes(data)


def _answer_checked(path: Path) -> None:
    data = path.read_bytes()
    message = BytesParser(policy=policy.default).parsebytes(data)
    for name in ("From", "To", "Subject"):
        found = message.get_all(name) or []
        if len(found) != 1:
            raise Defect(f"the answer {path.name} has {len(found)} {name} headers: {data[:600]!r}")
    if message["From"].addresses[0].addr_spec != GM:
        raise Defect(f"the answer {path.name} is not from {GM}: {message['From']!r}")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - the name atheris and libFuzzer call
    setup()
    from referee.live.mail import gateway, gateway_values

    sandbox = _state["sandbox"]
    settings = _state["settings"]
    pristine = _state["pristine"]
    assert isinstance(sandbox, Sandbox) and isinstance(settings, gateway_values.Settings) and isinstance(pristine, dict)
    _reset(settings.games, pristine)
    with sandbox.guarded(settings.games):
        handled = gateway.handle(data[: settings.max_size], settings, too_large=len(data) > settings.max_size)
    if handled.exit_code not in (0, 1):
        raise Defect(f"exit {handled.exit_code}: {handled.notes}")
    outbox = settings.outbox
    if outbox.is_dir():
        for path in sorted(outbox.glob("*.eml")):
            _answer_checked(path)
