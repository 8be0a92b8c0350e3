"""E-mail addresses as players write them: in a `From` header, in a game's side tag
(`Ann <ann@example.org>`), in a league's roster. The one reading of them that the mail
gateway (`live/mail/`) and the league (`league/`) share, so neither reaches into the
other's modules for it. Whatever the text, nothing here raises."""

from __future__ import annotations

import re
from email.utils import getaddresses

ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}@[A-Za-z0-9.-]{1,253}", re.ASCII)
"""A plain ASCII `local@domain`: the only kind of address a player has."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def clean_header_text(value: str, limit: int = 200) -> str:
    """A header value made safe to write into an answer's header or a log line: every line
    break and control character becomes one space, at most `limit` characters."""
    return " ".join(_CONTROL.sub(" ", value[: limit * 4]).split())[:limit]


def address_of(text: str) -> str | None:
    """The e-mail address a `From` header or a side tag holds (the first one), lower case;
    None when it holds no plausible address."""
    return next(iter(addresses_in(text)), (None, ""))[0]


def addresses_in(text: str) -> list[tuple[str, str]]:
    """Every plausible address in a header-like text, as (address in lower case, display name)."""
    found: list[tuple[str, str]] = []
    try:
        pairs = getaddresses([text])
    except Exception:  # the standard parser has raised on odd inputs in some Python versions
        return found
    for name, address in pairs:
        if ADDRESS.fullmatch(address):
            found.append((address.lower(), clean_header_text(name, 80)))
    return found
