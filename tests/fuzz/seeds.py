"""How the seed corpora of tests/fuzz/corpus were made: `python -m tests.fuzz.seeds` writes
them again (the same files, but for the league folders' random seeds and tiles).

- check: the example records (examples/*.rgn, examples/broken/*.rgn), one of them
  compressed each way the referee reads, a timed record, two records after a greeting; the
  conformance records (tests/data/conformance) are read as seeds too, from where they are;
- mail: messages as mail programs write them to the games of tests/fuzz/mail_gateway.py
  (moves, requests, offers, a stranger, an automatic reply, HTML, encodings, an attachment,
  Authentication-Results, X-Loop, an mbox From line, CRLF, the replies of
  tests/live/mail/samples);
- league: league folders set up as tests/helpers/league.py does (four games, timed and not,
  a daily digest and reminders, a withdrawal) and one with a journal of the shape
  referee/store/journal.py writes;
- config: configuration files with every setting (examples/config too)."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import shutil
import tempfile
from email.message import EmailMessage
from pathlib import Path

from tests.fuzz.harnesses import CORPUS, ROOT

ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"
START = "2026-12-01T12:00:00Z"


def check_seeds(out: Path) -> None:
    for path in [*sorted((ROOT / "examples").glob("*.rgn")), *sorted((ROOT / "examples" / "broken").glob("*.rgn"))]:
        shutil.copyfile(path, out / path.name)
    text = (ROOT / "examples" / "numica-ongoing.rgn").read_bytes()
    (out / "numica-ongoing.rgn.gz").write_bytes(gzip.compress(text, mtime=0))
    (out / "numica-ongoing.rgn.bz2").write_bytes(bz2.compress(text))
    (out / "numica-ongoing.rgn.xz").write_bytes(lzma.compress(text))
    import zstandard

    (out / "numica-ongoing.rgn.zst").write_bytes(zstandard.ZstdCompressor().compress(text))
    (out / "numica-timed.rgn").write_text(
        '[Game "numica"]\n[Seed "42"]\n[TimeControl "3d+1d/5d"]\n[Start "2026-12-01T12:00:00Z"]\n\n'
        "R: SSSSOOOO {[%at 2026-12-02T12:00:00Z Red]}\n"
        "B: SSSSOOOO {[%at 2026-12-04T18:00:00Z Blue]}\n"
        "1. R: a1-a4 {[%at 2026-12-05T00:00:00Z Red]}\n",
        encoding="utf-8",
    )
    two = (ROOT / "examples" / "nika-drawn.rgn").read_bytes() + b"\n"
    two += (ROOT / "examples" / "broken" / "numica-illegal.rgn").read_bytes()
    (out / "two-records.rgn").write_bytes(b"greeting before the first record\n" + two)


def _message(sender: str, subject: str, body: str, html: str | None = None, **headers: str) -> EmailMessage:
    built = EmailMessage()
    built["From"], built["To"], built["Subject"] = sender, "gm@example.org", subject
    built["Message-ID"] = f"<seed-{abs(hash((sender, subject, body))) % 10**8}@example.org>"
    for name, value in headers.items():
        built[name.replace("_", "-")] = value
    built.set_content(body)
    if html is not None:
        built.add_alternative(html, subtype="html")
    return built


def mail_seeds(out: Path) -> None:
    quoted = "On Tue, Dec 1, 2026 at 12:00 PM referee <gm@example.org> wrote:\n> Ann (Athens) played in game g1:\n"
    seeds = {
        "nika-move": _message(ANN, "[g1] my move", "d1+d2+d3-W i3-E\n\n-- \nAnn\n"),
        "numica-setup": _message(ANN, "Re: [n1] setup", "SSSSOOOO\n"),
        "numica-show": _message(BO, "[n1] board", "show\n"),
        "numica-moves": _message(ANN, "[n1]", "moves\n"),
        "timed-status": _message(ANN, "[t1] status", "status\n"),
        "pikemen-move": _message(ANN, "[p1] move", "f2(NE)\n"),
        "nieuchess-show": _message(BO, "[c1] board please", "show\n"),
        "offer-draw": _message(BO, "[g1] offer", "draw\n"),
        "undo": _message(ANN, "[n1] oops", "undo\n"),
        "resign": _message(BO, "[n1]", "resign\n"),
        "token": _message(ANN, "[n1] move", "Token: 1-747509a041\nSSSSOOOO\n"),
        "stranger": _message("Eve <eve@example.net>", "[n1] hello", "SSSSOOOO\n"),
        "no-game": _message(ANN, "hello there", "what games?\n"),
        "auto-reply": _message(ANN, "[n1] Out of office", "I am away.\n", Auto_Submitted="auto-replied"),
        "html": _message(
            ANN, "[g1] move", "d1+d2+d3-W i3-E\n", html="<p>d1+d2+d3-W i3-E</p><blockquote>x</blockquote>"
        ),
        "authres": _message(
            ANN,
            "[n1] move",
            "SSSSOOOO\n",
            Authentication_Results="mx.example.net; dkim=pass header.d=example.org; dmarc=pass header.from=example.org",
        ),
        "loop": _message(ANN, "[n1] move", "SSSSOOOO\n", X_Loop="gm@example.org"),
        "reply-quoted": _message(BO, "Re: [g1] Ann played", f"i1-E d1-E\n\n{quoted}>\n>   d1+d2+d3-W\n"),
    }
    for name in ("gmail", "outlook_german", "apple_mail", "thunderbird_below"):
        body = (ROOT / "tests" / "live" / "mail" / "samples" / f"{name}.txt").read_text(encoding="utf-8")
        seeds[f"reply-{name}"] = _message(BO, "Re: [g1] your move", body, In_Reply_To="<answer-1@example.org>")
    encoded = _message(ANN, "=?utf-8?q?=5Bn1=5D_s=C3=A9tup?=", "placeholder\n")
    encoded.set_content("SSSSOOOO é\n", cte="quoted-printable")
    seeds["encoded-subject-qp"] = encoded
    attached = _message(BO, "[n1] b64", "placeholder\n")
    attached.set_content("show\n", cte="base64")
    attached.add_attachment(b"\x00\x01binary", maintype="application", subtype="octet-stream", filename="x.bin")
    seeds["base64-attachment"] = attached
    for name, built in seeds.items():
        (out / f"{name}.eml").write_bytes(built.as_bytes())
    mbox = b"From ann@example.org Tue Dec  1 12:00:00 2026\n" + _message(ANN, "[n1]", "moves\n").as_bytes()
    (out / "mbox-from-line.eml").write_bytes(mbox)
    (out / "crlf.eml").write_bytes(_message(ANN, "[n1] move", "SSSSOOOO\n").as_bytes().replace(b"\n", b"\r\n"))


def _folder_files(folder: Path) -> dict[str, bytes]:
    return {
        path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.suffix in (".toml", ".log", ".rgn")
    }


def league_seeds(out: Path) -> None:
    from tests.fuzz.league_folder import pack
    from tests.helpers.cli import invoke
    from tests.helpers.league import make_league, season

    cases: dict[str, tuple[list[str], str, str, list[tuple[str, ...]]]] = {
        "nika-4p-timed": (season("nika", 4, "3d/move"), "", "2026-12-05T12:00:00Z", []),
        "numica-2p-daily": (
            ["--game", "numica", "--players", "2"],
            'digest = "daily"\nreminders = ["48h", "12h"]\n',
            "2026-12-03T00:00:00Z",
            [],
        ),
        "pikemen-3p": (season("pikemen", 3, "10d+1d/20d"), "leave_days = 3\n", "2026-12-20T00:00:00Z", []),
        "nieuchess-2p": (
            ["--game", "nieuchess", "--players", "2", "--time-control", "2d/move"],
            "",
            "2026-12-04T12:00:00Z",
            [],
        ),
        "numica-withdraw": (
            ["--game", "numica", "--players", "2", "--time-control", "3d/move"],
            "",
            "2026-12-09T00:00:00Z",
            [("withdraw", "ann@example.org")],
        ),
    }
    for name, (options, extra, now, after) in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "league"
            make_league(folder, *options, extra=extra, pair_at=START)
            for command, *args in after:
                done = invoke("league", command, str(folder), *args, "--now", "2026-12-02T00:00:00Z")
                assert done.exit_code == 0, done.stderr
            (out / f"{name}.txt").write_bytes(pack(now, _folder_files(folder)))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "league"
        make_league(
            folder, "--game", "numica", "--players", "2", "--time-control", "3d/move", names="Ann Bo", pair_at=START
        )
        files = _folder_files(folder)
        game = next(name for name in files if name.endswith(".rgn"))
        line = {"at": "2026-12-02T00:00:00Z", "days": 1, "event": "leave", "player": "ann@example.org"}
        steps = [
            {"kind": "write", "target": game, "mode": 0o644, "staged": "0"},
            {"kind": "append", "target": "league.log", "mode": 0o640, "line": json.dumps(line, sort_keys=True)},
        ]
        files[".journal-fuzz/0"] = files[game]
        files[".journal-fuzz/commit.json"] = json.dumps({"steps": steps}, ensure_ascii=True).encode("ascii")
        (out / "numica-journal.txt").write_bytes(pack("2026-12-03T00:00:00Z", files))


def config_seeds(out: Path) -> None:
    shutil.copyfile(ROOT / "examples" / "config" / "autumn.toml", out / "autumn.toml")
    every = "\n".join(
        [
            'games = "games"',
            'outbox = "~/outbox"',
            'keys = "/srv/keys"',
            'smtp = "localhost:25"',
            "starttls = true",
            'smtp-user = "gm"',
            'from = "referee@example.org"',
            'gm = "gm@example.org"',
            'imap = "imaps://gm@mail.example.org/INBOX"',
            'imap-password-file = "imap.pass"',
            'log-file = "mail.jsonl"',
            'trust-authserv = "mx.example.net"',
            "wait = 2.5",
            'league = "../autumn"',
        ]
    )
    (out / "every-setting.toml").write_text(every + "\n", encoding="utf-8")
    (out / "secret.toml").write_bytes(b'smtp = "localhost:587"\nsmtp-password = "hunter2"\nimap-password = "x"\n')
    (out / "strings.toml").write_text('starttls = "yes"\nwait = "10"\n[table]\nx = 1\n', encoding="utf-8")


def main() -> None:
    for name, make in (
        ("check", check_seeds),
        ("mail", mail_seeds),
        ("league", league_seeds),
        ("config", config_seeds),
    ):
        folder = CORPUS / name
        folder.mkdir(parents=True, exist_ok=True)
        make(folder)


if __name__ == "__main__":
    main()
