"""`--trust-authserv ID` (docs/mail.md, "Senders verified by their provider"): the topmost
`Authentication-Results` header of that authserv-id, with `dmarc=pass` or an aligned
`dkim=pass`, verifies the sender without a passphrase; a forged `From` is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.live import mail as gateway
from referee.live.mail.verified import authserv_of, checked_authserv, results_headers, verified
from tests.helpers.mail import GM, message, nika_game, outbox_messages, run_mail

ANN = "Ann <ann@example.org>"
MOVE = "d1+d2+d3-W i3-E"
PROVIDER = "mx.example.net"


def _with(*results: str, body: str = f"{MOVE}\n") -> bytes:
    """Ann's move as the provider's mailbox holds it: its Authentication-Results on top."""
    data = message(ANN, "[g1] my move", body).as_bytes()
    lines = b"".join(f"Authentication-Results: {value}\n".encode() for value in results)
    return lines + data


@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ((f"{PROVIDER}; dmarc=pass (p=reject) header.from=example.org",), True),
        ((f"{PROVIDER}; dkim=pass header.d=example.org header.s=s1; spf=fail",), True),
        ((f"{PROVIDER}; dkim=pass header.i=@mail.example.org",), False),  # the signer below the From domain
        ((f"{PROVIDER}; dkim=pass header.d=example.net",), False),  # not aligned with From
        ((f"{PROVIDER}; dkim=pass header.d=org",), False),  # a top-level domain aligns with nothing
        ((f"{PROVIDER}; dmarc=fail header.from=example.org",), False),
        ((f"{PROVIDER}; dmarc=pass header.from=example.com",), False),
        ((f"{PROVIDER}; spf=pass smtp.mailfrom=ann@example.org",), False),  # SPF alone says nothing of From
        (("mx.other.example; dmarc=pass header.from=example.org",), False),  # another server's word
        # Only the topmost header of the provider counts (more below, with a forged pass under it).
        ((f"{PROVIDER}; dmarc=pass header.from=example.org", f"{PROVIDER}; dmarc=fail header.from=example.org"), True),
        ((f"{PROVIDER.upper()}; DMARC=PASS header.from=Example.ORG",), True),
        # The provider's id written with a trailing dot, a comment or a version is still its own
        # (issue 44.7): its verdict counts.
        ((f"{PROVIDER}.; dmarc=pass header.from=example.org",), True),
        ((f"(received by) {PROVIDER} 1; dmarc=pass header.from=example.org",), True),
        # dmarc=pass must name the From domain (or a domain above it) in header.from.
        ((f"{PROVIDER}; dmarc=pass",), False),
        ((f"{PROVIDER}; dmarc=pass (p=none)",), False),
        ((f"{PROVIDER}; dmarc=pass header.from=org",), False),
    ],
)
def test_the_topmost_header_of_the_provider_decides(results: tuple[str, ...], expected: bool) -> None:
    assert verified(_with(*results), PROVIDER, "ann@example.org") is expected


@pytest.mark.parametrize(
    "topmost",
    [
        f"{PROVIDER}; dmarc=fail header.from=example.org",
        f"{PROVIDER}; dkim=pass (((((",
        # the provider's id with a trailing dot, a comment or a version (issue 44.7)
        f"{PROVIDER}.; dmarc=fail header.from=example.org",
        f"{PROVIDER}.; dkim=pass (((((",
        f"(c) {PROVIDER}; dkim=pass (((((",
        f"(a; b) {PROVIDER}; spf=pass",
    ],
)
def test_a_pass_below_the_providers_topmost_header_never_counts(topmost: str) -> None:
    """Only the topmost header of the provider counts: a dmarc=pass below it was the sender's."""
    forged = f"{PROVIDER}; dmarc=pass header.from=example.org"
    assert verified(_with(topmost, forged), PROVIDER, "ann@example.org") is False


def test_dmarc_pass_counts_for_the_from_domain_and_the_domains_above_it() -> None:
    data = _with(f"{PROVIDER}; dmarc=pass header.from=example.org")
    assert verified(data, PROVIDER, "ann@mail.example.org")  # example.org: its organisational domain
    assert not verified(_with(f"{PROVIDER}; dmarc=pass header.from=mail.example.org"), PROVIDER, "ann@example.org")
    assert not verified(data, PROVIDER, "ann@badexample.org")


def test_the_authserv_id_is_read_without_comments_version_and_trailing_dot() -> None:
    assert authserv_of("(x) MX.Example.NET. 1 (y); dmarc=pass") == ("mx.example.net", " dmarc=pass")
    assert authserv_of("(a;b \\) c) mx.example.net; none") == ("mx.example.net", " none")
    assert authserv_of("((nested) still) mx.example.net;x") == ("mx.example.net", "x")
    assert authserv_of("") == ("", "")
    assert checked_authserv("mx.example.net.") == "mx.example.net"


def test_headers_are_read_within_bounds() -> None:
    folded = b"Authentication-Results: mx.example.net;\n dmarc=pass\n\theader.from=example.org\nFrom: a@b\n\nbody\n"
    assert results_headers(folded) == [" mx.example.net;  dmarc=pass \theader.from=example.org"]
    many = b"".join(b"Authentication-Results: x; none\n" for _ in range(500)) + b"\nAuthentication-Results: y\n"
    assert len(results_headers(many)) == 50  # and nothing after the header block
    assert len(results_headers(b"Authentication-Results: " + b"x" * 100000 + b"\n\n")[0]) == 4096


def test_the_authserv_id_is_a_host_name() -> None:
    assert checked_authserv(" MX.Google.com ") == "mx.google.com"
    for bad in ("mx google", "a..b", "", "x;y"):
        with pytest.raises(gateway.UsageError):
            checked_authserv(bad)


def _keys(folder: Path) -> None:
    added = run_mail(b"ann's passphrase\n", "add-player", str(folder), "ann@example.org")
    assert added.returncode == 0


def test_a_verified_sender_plays_without_a_passphrase_and_a_forged_one_does_not(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    _keys(tmp_path)
    config = gateway.settings(tmp_path, sender=GM, trust_authserv=PROVIDER)
    shown = gateway.handle_bytes(_with(f"{PROVIDER}; dmarc=pass header.from=example.org", body="show\n"), config)
    assert shown.outcome is not None and shown.outcome.value == "shown"
    [board] = outbox_messages(tmp_path / "outbox")
    text = board.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    token = text.split("Token: ")[1].split()[0]
    forged = gateway.handle_bytes(_with(f"{PROVIDER}; dmarc=fail", body=f"{MOVE}\nToken: {token}\n"), config)
    assert forged.outcome is not None and forged.outcome.value == "not-accepted"
    assert "W:" not in path.read_text(encoding="utf-8")
    good = _with(f"{PROVIDER}; dkim=pass header.d=example.org", body=f"{MOVE}\nToken: {token}\n")
    played = gateway.handle_bytes(good, config)
    assert played.outcome is not None and played.outcome.value == "played"
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")


def test_without_players_toml_the_provider_must_verify_every_sender(tmp_path: Path) -> None:
    path = nika_game(tmp_path)
    forged = _with("mx.evil.example; dmarc=pass header.from=example.org")
    done = run_mail(forged, "receive", str(tmp_path), "--from", GM, "--trust-authserv", PROVIDER)
    assert done.returncode == 0 and "not verified by mx.example.net" in done.stderr
    assert "W:" not in path.read_text(encoding="utf-8")
    [answer] = outbox_messages(tmp_path / "outbox")
    assert "could\nnot verify" in answer.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    trusted = _with(f"{PROVIDER}; dmarc=pass header.from=example.org")
    done = run_mail(trusted, "receive", str(tmp_path), "--from", GM, "--trust-authserv", PROVIDER)
    assert done.returncode == 0, done.stderr
    assert f"1. W: {MOVE}" in path.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "provider",
    [f"{PROVIDER}.; dmarc=fail header.from=example.org", f"(c) {PROVIDER}; dkim=pass ((((("],
)
def test_a_forged_header_below_the_providers_own_plays_nothing(tmp_path: Path, provider: str) -> None:
    # Issue 44.7: the provider's header, written with a trailing dot or a comment, was not
    # taken for the provider's, and the forged one below it verified a forged From.
    path = nika_game(tmp_path)
    forged = _with(provider, f"{PROVIDER}; dmarc=pass header.from=example.org")
    done = run_mail(forged, "receive", str(tmp_path), "--from", GM, "--trust-authserv", PROVIDER)
    assert done.returncode == 0 and "not verified by mx.example.net" in done.stderr
    assert "W:" not in path.read_text(encoding="utf-8")
