"""`--trust-authserv ID`: a sender verified by the game master's mail provider (RFC 8601).

The provider's receiving server checks DKIM, SPF and DMARC and writes its verdict on top of
the message as an `Authentication-Results` header under its own name, the authserv-id
(`mx.google.com`, `mx.example.net`). Headers below it are older, written by servers the
message passed through or by the sender; a sender can write any header, under any name.
So only the topmost `Authentication-Results` header whose authserv-id is ID counts: the
provider writes its header on top when the message reaches it, so whatever stands below
it with the same name came with the message (a forger's), and what stands above was added
after the provider by the game master's own systems, under their own names. The id is
compared as a host name: without its comments (`(c) mx.example.net; ...`), its version
(`mx.example.net 1; ...`) and a trailing dot (`mx.example.net.`), in any case. It
verifies the `From` address when it says

- `dmarc=pass` with `header.from` the `From` domain or a domain above it (its
  organisational domain: `example.org` for `mail.example.org`; never a bare top-level
  domain); a `dmarc=pass` that names no `header.from` verifies nothing, or
- `dkim=pass` with `header.d` (or the domain of `header.i`) the `From` domain or a
  domain above it (relaxed alignment: `mail.example.org` signed as `example.org`).

Without a public-suffix list, "a domain above it" is any parent of at least two labels:
`co.uk` counts as one above `ann.co.uk`. The provider writes `header.from` and
`header.d` from the message it checked, so this only widens what the provider itself
vouched for.

Read within bounds: at most `MAX_HEADERS` headers of that name, each cut to 4 KB, parsed
by `authres` (an RFC 8601 parser); the provider's header that it cannot parse verifies
nothing."""

from __future__ import annotations

import re

from referee.live.mail.headers import HEADER_LIMIT

NAME = b"authentication-results"
MAX_HEADERS = 50
_END = re.compile(rb"\r?\n\r?\n")
_AUTHSERV = re.compile(r"[A-Za-z0-9.-]{1,253}")


def checked_authserv(text: str) -> str:
    """An authserv-id given on the command line (a host name such as mx.google.com), lower case."""
    from referee.errors import UsageError

    value = text.strip().lower().removesuffix(".")
    if not _AUTHSERV.fullmatch(value) or ".." in value:
        raise UsageError(f'--trust-authserv "{text}": an authserv-id is a host name such as mx.google.com')
    return value


def results_headers(data: bytes) -> list[str]:
    """The values of the `Authentication-Results` headers of a message, topmost first."""
    if data.startswith(b"From "):
        data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
    end = _END.search(data)
    block = data[: end.start()] if end else data
    found: list[list[bytes]] = []
    current: list[bytes] | None = None
    for line in block.splitlines():
        if line[:1] in (b" ", b"\t"):
            if current is not None and sum(map(len, current)) < HEADER_LIMIT:
                current.append(line)
            continue
        current = None
        name, colon, value = line.partition(b":")
        if colon and name.strip().lower() == NAME and len(found) < MAX_HEADERS:
            current = [value]
            found.append(current)
    return [b" ".join(parts)[:HEADER_LIMIT].decode("utf-8", "replace") for parts in found]


def verified(data: bytes, authserv: str, sender: str) -> bool:
    """Whether the topmost `Authentication-Results` of `authserv` verifies `sender`'s domain."""
    import authres

    domain = sender.rpartition("@")[2].lower()
    for value in results_headers(data):
        found, rest = authserv_of(value)
        if found != authserv:
            continue
        # The topmost header of the provider decides, whatever it says: one below it is older.
        try:
            header = authres.AuthenticationResultsHeader.parse_value(f"{found};{rest}")
        except Exception:  # authres raises its own SyntaxError and, on odd input, others
            return False  # the provider's header, unreadable: it verifies nothing
        return any(_passes(result, domain) for result in header.results)
    return False


def authserv_of(value: str) -> tuple[str, str]:
    """The authserv-id of a header's value, as a host name in lower case without its
    comments, version and trailing dot, and the text after its `;` ("" when none)."""
    kept: list[str] = []
    depth = 0
    escaped = False
    end = len(value)
    for index, char in enumerate(value):
        if escaped:
            escaped = False
        elif depth and char == "\\":
            escaped = True
        elif char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        elif depth == 0 and char == ";":
            end = index
            break
        elif depth == 0:
            kept.append(char)
    words = "".join(kept).split()
    name = words[0].lower().removesuffix(".") if words else ""
    return name, value[end + 1 :] if end < len(value) else ""


def _passes(result: object, domain: str) -> bool:
    method = str(getattr(result, "method", "")).lower()
    if str(getattr(result, "result", "")).lower() != "pass":
        return False
    properties = {
        (str(getattr(p, "type", "")).lower(), str(getattr(p, "name", "")).lower()): str(getattr(p, "value", ""))
        for p in getattr(result, "properties", ())
    }
    if method == "dmarc":
        claimed = properties.get(("header", "from"))
        return claimed is not None and _aligned(claimed.strip().lower().removesuffix("."), domain)
    if method == "dkim":
        signer = properties.get(("header", "d")) or properties.get(("header", "i"), "").rpartition("@")[2]
        return _aligned(signer.strip().lower().removesuffix("."), domain)
    return False


def _aligned(signer: str, domain: str) -> bool:
    """The signing domain is the `From` domain or one above it (never a bare top-level domain)."""
    if not signer or "." not in signer:
        return False
    return domain == signer or domain.endswith("." + signer)


__all__ = ["authserv_of", "checked_authserv", "results_headers", "verified"]
