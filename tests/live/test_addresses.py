"""The one reading of e-mail addresses that the gateway and the league share
(`referee.live.addresses`)."""

from __future__ import annotations

import pytest

from referee.live.addresses import address_of, addresses_in, clean_header_text


def test_clean_header_text_removes_every_line_break_and_control() -> None:
    assert clean_header_text("a\r\nBcc: x\n\tb\x00c") == "a Bcc: x b c"
    assert len(clean_header_text("x" * 1000)) == 200


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Ann <Ann@Example.org>", [("ann@example.org", "Ann")]),
        ("ann@example.org", [("ann@example.org", "")]),
        ('"Ann: the great" <ann@x.org>, Bo <bo@y.org>', [("ann@x.org", "Ann: the great"), ("bo@y.org", "Bo")]),
        ("Ann <not an address>", []),
        ('"Ann\x00Bo" <ann@x.org>', [("ann@x.org", "Ann Bo")]),
        ("", []),
    ],
)
def test_addresses_in_reads_side_tags_and_from_headers(text: str, found: list[tuple[str, str]]) -> None:
    assert addresses_in(text) == found


def test_address_of_is_the_first_address_or_none() -> None:
    assert address_of("Ann <ann@x.org>, Bo <bo@y.org>") == "ann@x.org"
    assert address_of("Ann") is None


def test_the_gateway_and_the_league_share_one_reading() -> None:
    from referee.league import league_toml, results
    from referee.live import addresses
    from referee.live.mail import headers, incoming, players
    from referee.live.play import retag

    assert headers.ADDRESS is addresses.ADDRESS
    assert results.addresses_in is retag.addresses_in is players.addresses_in is addresses.addresses_in
    assert league_toml.side_tag("Ann: the great", "ann@x.org") == '"Ann: the great" <ann@x.org>'
    assert not hasattr(incoming, "addresses_in")
