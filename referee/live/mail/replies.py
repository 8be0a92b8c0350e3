"""Where a reply's new text ends and the earlier message it quotes begins (docs/mail.md,
"Replies from real mail clients"). The quoted answer holds boards, tokens and old moves:
nothing of it may ever be read as moves.

`new_text(text)` marks every line of a message's text as the sender's own (kept) or not
(None), by these rules, in this order:

- Cuts: everything from one of these lines on is the earlier message (or a signature),
  never read: the signature line `-- `; a mobile signature ("Sent from my iPhone", "Get
  Outlook for Android", "Von meinem iPhone gesendet", "Enviado desde mi iPhone"); an
  original-message separator (`-----Original Message-----`, `-------- Original message
  --------`, "Ursprüngliche Nachricht", "Mensaje original", a forwarded message); a line
  of underscores (Outlook's `________________________________`); a header block of the
  quoted message (`From:`/`Von:`/`De:` with `Sent:`, `Date:`, `To:`, `Subject:` or their
  German and Spanish names on the lines just below, as Outlook writes it).
- Quotes: lines beginning with `>`, and the attribution just above them ("On ... wrote:",
  "Am ... schrieb ...:", "El ... escribió:", also when the client wrapped it over two or
  three lines). An attribution that no quoted line follows is a cut: its quote is unmarked.
- Greeting and sign-off: a first line that is a greeting ("Hi Bo,", "Hallo,", "Hola Ana:")
  and a sign-off line ("Thanks,", "Viele Grüße", "Un saludo") followed only by a name (at
  most three short lines of letters) are not moves. They hold no digit, so no move is taken
  for one.

Then a second opinion: the maintained reply parser `mail-parser-reply`, whose tables know
the attribution lines and quoted-header blocks of many clients and languages, reads the
lines kept. When it finds the start of an earlier message among them, the boundary is
unclear, and `unclear` says which line: the gateway then refuses the message, showing what
it read, rather than guess (PLAY.md §5: quoted text is never moves).

The text of an HTML-only message (`html.html_text`: its marked quotes already `>` lines)
is read by the same rules, stricter where the client's marks say more (`html=True`): an
attribution with no quoted part below it is not a cut but a doubt (the client marks its
quotes, so this one is unmarked), and so is own text on both sides of a quoted part."""

from __future__ import annotations

import re
from enum import Enum
from typing import NamedTuple

from referee.live.mail.request_words import MEANING

_FLAGS = re.IGNORECASE
_MOBILE = re.compile(
    r"\s*(sent from my \S.{0,40}|sent from (outlook|mail|yahoo mail|gmail)( for \w+)?"
    r"|get outlook for (ios|android)|von meinem \S.{0,40} gesendet|gesendet von meinem \S.{0,40}"
    r"|enviado desde mi \S.{0,40}|obtener outlook para (ios|android)|descargar outlook para (ios|android))"
    r"\s*(<[^<>\s]{1,200}>)?\s*",
    _FLAGS,
)
_SEPARATOR = re.compile(
    r"\s*(-{2,}\s*(original message|original-nachricht|ursprüngliche nachricht|mensaje original"
    r"|forwarded message|weitergeleitete nachricht|mensaje reenviado)\s*-{2,}"
    r"|begin forwarded message:|anfang der weitergeleiteten nachricht:|inicio del mensaje reenviado:"
    r"|_{10,}|-{20,})\s*",
    _FLAGS,
)
_HEADER_FROM = re.compile(r"\s*\**\s*(from|von|de)\s*:\**\s*\S.*", _FLAGS)
_HEADER_OTHER = re.compile(
    r"\s*\**\s*(sent|date|to|cc|subject|gesendet|datum|an|betreff|enviado|enviado el|fecha|para|asunto)\s*:.*", _FLAGS
)
_WROTE = re.compile(r".*\b(wrote|schrieb|escribió|escribio|a écrit)\s*:\s*|\s*am\s.*\bschrieb\b.*:\s*", _FLAGS)
_WROTE_START = re.compile(r"\s*(on|am|el|le)\s+\S.*", _FLAGS)
_GREETING = re.compile(
    r"\s*(hi|hello|hey|dear|good (morning|afternoon|evening)|hallo|moin|servus|liebe[rs]?|lieber|"
    r"sehr geehrte[rs]?|guten (morgen|tag|abend)|hola|buenas|buenos días|buenos dias|buenas (tardes|noches)|"
    r"querid[oa]s?|estimad[oa]s?)\b[^\d:;{}\[\]()#=+]{0,40}[,!:.]?\s*",
    _FLAGS,
)
_SIGN_OFF = re.compile(
    r"\s*(thanks|thank you|cheers|best|best regards|best wishes|regards|kind regards|warm regards|all the best|"
    r"see you|bye|take care|greetings|grüße|gruß|viele grüße|liebe grüße|beste grüße|schöne grüße|herzliche grüße|"
    r"mit freundlichen grüßen|freundliche grüße|lg|vg|mfg|danke|vielen dank|tschüss|ciao|bis bald|saludos|"
    r"un saludo|saludos cordiales|muchas gracias|gracias|atentamente|un abrazo|abrazos|hasta luego|hasta pronto)"
    r"\b[^\d:;{}\[\]()#=+]{0,40}",
    _FLAGS,
)
_NAME = re.compile(r"[^\W\d_][^\W\d_ .,'’-]*(?:[ .,'’-]+[^\W\d_][^\W\d_ .,'’-]*){0,4}[.,!]?", re.UNICODE)
SECOND_OPINION_LINES = 100
"""How many kept lines the reply parser reads (each cut to `SECOND_OPINION_WIDTH`
characters): its patterns take time growing faster than a line's length."""
SECOND_OPINION_WIDTH = 160
LANGUAGES = ["en", "de", "es", "fr", "it", "nl", "sv", "da", "pl", "cs"]
RESERVED = {"draw", "undo", "resign", "timeout", "end", "pass", *MEANING}
"""Words a body may hold alone that mean something (PLAY.md §5, §6; LEAGUE.md §3): never a name or a greeting."""


class Doubt(Enum):
    """Why the boundary between a reply's new text and its quote is unclear."""

    EARLIER_MESSAGE = "earlier-message"
    """A line that begins an earlier message, not marked as a quote (an attribution
    with no quote below it in HTML mail, or what the reply parser sees)."""
    BELOW_QUOTE = "below-quote"
    """HTML mail with text both above and below a quoted part: what stands below may
    be the quote's own, unmarked."""
    UNREADABLE = "unreadable"
    """HTML the parser gave up on before its end."""


class NewText(NamedTuple):
    """A message's lines, each the sender's own text or None; and, when the boundary
    between new text and quote is unclear, the line that makes it so and why."""

    lines: list[str | None]
    unclear: str | None = None
    doubt: Doubt | None = None


def new_text(text: str, second_opinion: bool = True, html: bool = False) -> NewText:
    """The sender's own lines of `text`. `html`: the text of an HTML part (`html.html_text`),
    whose client marks its quotes: an attribution with no quoted part below it, and text
    both above and below a quoted part, make the boundary unclear instead of being
    guessed at (docs/mail.md, "HTML-only mail")."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str | None] = []
    quoted: list[int] = []
    unmarked: str | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        if _is_cut(lines, index):
            break
        if line.lstrip().startswith(">"):
            quoted.append(len(kept))
            kept.append(None)
            index += 1
            continue
        span = _attribution(lines, index)
        if span and _quoted_next(lines, index + span):
            kept.extend([None] * span)
            index += span
            continue
        if span and _WROTE_START.match(line):
            if not html:
                break  # "On ... wrote:" with an unmarked quote below: the earlier message
            unmarked = line.strip() if unmarked is None else unmarked  # read on, to show it all
        kept.append(line)
        index += 1
    _drop_greeting(kept)
    _drop_sign_off(kept)
    if unmarked is not None:
        return NewText(kept, unmarked[:120], Doubt.EARLIER_MESSAGE)
    if html and (below := _below_quote(kept, quoted)) is not None:
        return NewText(kept, below[:120], Doubt.BELOW_QUOTE)
    unclear = _second_opinion(kept) if second_opinion else None
    return NewText(kept, unclear, None if unclear is None else Doubt.EARLIER_MESSAGE)


def _below_quote(kept: list[str | None], quoted: list[int]) -> str | None:
    """The first own line of a second piece of own text, when a quoted part stands
    between two (the own text must be one piece: above the quotes or below them)."""
    quotes = set(quoted)
    seen = ended = False
    for index, line in enumerate(kept):
        if index in quotes:
            ended = seen
        elif line is not None and line.strip():
            if ended:
                return line.strip()
            seen = True
    return None


def _is_cut(lines: list[str], index: int) -> bool:
    line = lines[index]
    if line.rstrip() == "--":
        return True
    if len(line) > 300:
        return False
    if _MOBILE.fullmatch(line) or _SEPARATOR.fullmatch(line):
        return True
    if _HEADER_FROM.fullmatch(line):
        following = [other for other in lines[index + 1 : index + 5] if other.strip()]
        return any(_HEADER_OTHER.fullmatch(other) for other in following[:3])
    return False


def _attribution(lines: list[str], index: int) -> int:
    """How many lines from `index` make an attribution ("On ... wrote:", maybe wrapped
    over up to three lines); 0 when they are none."""
    first = lines[index]
    if len(first) > 300 or not first.strip():
        return 0
    for span in (1, 2, 3):
        if index + span > len(lines):
            return 0
        last = lines[index + span - 1]
        if span > 1 and (not last.strip() or len(last) > 300):
            return 0
        joined = " ".join(line.strip() for line in lines[index : index + span])
        if _WROTE.fullmatch(joined):
            return span if span == 1 or _WROTE_START.match(first) else 0
    return 0


def _quoted_next(lines: list[str], index: int) -> bool:
    for line in lines[index:]:
        if line.strip():
            return line.lstrip().startswith(">")
    return False


def _drop_greeting(kept: list[str | None]) -> None:
    for index, line in enumerate(kept):
        if line is None or not line.strip():
            continue
        if len(line) <= 60 and _GREETING.fullmatch(line) and not _reserved(line):
            kept[index] = None
        return


def _drop_sign_off(kept: list[str | None]) -> None:
    """A sign-off line and the name below it (up to the end of the new text) are not moves."""
    written = [index for index, line in enumerate(kept) if line is not None and line.strip()]
    for position, index in enumerate(written):
        line = kept[index]
        assert line is not None
        if len(line) > 60 or not _SIGN_OFF.fullmatch(line) or _reserved(line):
            continue
        below = written[position + 1 :]
        if len(below) <= 3 and all(_is_name(kept[other]) for other in below):
            for other in (index, *below):
                kept[other] = None
            return


def _is_name(line: str | None) -> bool:
    if line is None or len(line.strip()) > 40 or _reserved(line):
        return False
    return _NAME.fullmatch(line.strip()) is not None


def _reserved(line: str) -> bool:
    return any(word in RESERVED for word in re.findall(r"\w+", line.lower()))


def _second_opinion(kept: list[str | None]) -> str | None:
    """The first kept line where `mail-parser-reply` sees an earlier message begin, if any."""
    try:
        from mailparser_reply import EmailReplyParser
    except ImportError:  # not installed: the rules above stand alone
        return None
    own = [(index, line[:SECOND_OPINION_WIDTH]) for index, line in enumerate(kept) if line is not None]
    own = own[:SECOND_OPINION_LINES]
    if not any(line.strip() for _, line in own):
        return None
    text = "\n".join(line for _, line in own)
    try:
        replies = EmailReplyParser(languages=list(LANGUAGES)).read(text).replies
    except Exception:  # a parser's failure is not the player's: the rules above stand
        return None
    for reply in replies:
        header = str(reply.headers or "").strip()
        if not header:
            continue
        first = header.splitlines()[0].strip()
        if any(first and first in line for _, line in own):
            return first[:120]
    return None


__all__ = ["Doubt", "NewText", "new_text"]
