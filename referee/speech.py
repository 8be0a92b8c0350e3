"""Speech: what the referee says to a person, in that person's language (issue 49,
docs/languages.md).

Every text a player or a user reads is an English message id with `{name}` placeholders,
marked where it is written with `N_` (or written in a call of a `Speaker`) so that Babel
extracts it into `referee/locale/referee.pot`. A message is translated only when it is
shown: `speaker(lang)(message, name=value)` looks it up in the language's catalogue
(`referee/locale/LANG/LC_MESSAGES/referee.mo`, read with the standard library's
`gettext`) and fills in the parameters. English needs no catalogue: its speaker formats
the message id itself, so the English default costs one dictionary look-up at most, and
`check` never calls this module at all (its verdict lines are English by their
specification, and `--json` never changes with the language).

The engines in `games/` know nothing of this module: a rule error carries its English
template and its parameters (`RuleError.template`, `RuleError.params`, games/values.py),
and `rule_text` translates it at the point where a refusal shows it. Parameters that are
words of a game (a side's name, a colour) are translated in the context `game word`; the
notation (squares, moves, RGN) is never translated.

The pseudo-language `qps` (no catalogue: built from the template itself) writes every
message of the template between `⟦` and `⟧`: a text shown under it that holds English
outside those brackets did not go through the catalogue (tests/test_speech.py).
"""

from __future__ import annotations

import functools
import os
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee.notation.model import alternatives

if TYPE_CHECKING:
    import gettext

DOMAIN = "referee"
LOCALE_DIR = Path(__file__).parent / "locale"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
DEFAULT = "en"
PSEUDO = "qps"
"""The pseudo-language of the tests (a private-use code of ISO 639, as Windows' `qps-ploc`)."""
WORD = "game word"
"""The message context of a game's own words in a rule message: sides, colours, pieces."""

_LANG = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")


def N_(message: str) -> str:
    """Marks a message for extraction where it is written; it is translated where it is shown."""
    return message


def N_word(word: str) -> str:
    """Marks one game word (a side, a colour) for extraction in the context `game word`."""
    return word


def normal(lang: str | None) -> str:
    """A language code as the catalogues name it (`es`, `pt_BR`), or the default (English)
    for anything that is not one: `es-ES` and `es_ES.UTF-8` read as `es_ES`."""
    if not lang:
        return DEFAULT
    code = lang.strip().split(".")[0].split("@")[0].replace("-", "_")
    head, _, region = code.partition("_")
    code = head.lower() + (f"_{region.upper()}" if region else "")
    return code if _LANG.fullmatch(code) else DEFAULT


def languages() -> tuple[str, ...]:
    """The languages this installation speaks: English and every folder with a catalogue."""
    found = sorted(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (DEFAULT, *found)


def known(lang: str) -> bool:
    """Whether `lang` (normalised) has a catalogue, or is English or the pseudo-language."""
    code = normal(lang)
    return code in (DEFAULT, PSEUDO) or _catalogue_path(code) is not None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the command line, as gettext reads it: the first of `LANGUAGE`
    (a colon-separated list, its first known entry), `LC_ALL`, `LC_MESSAGES`, `LANG` that
    is set; `C` and `POSIX` are English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for entry in value.split(":") if name == "LANGUAGE" else [value]:
            if entry in ("C", "POSIX") or entry.startswith("C."):
                return DEFAULT
            spoken = speaker(entry).lang
            if spoken != DEFAULT or normal(entry).partition("_")[0] == DEFAULT or name != "LANGUAGE":
                return spoken
    return DEFAULT


@dataclass(frozen=True)
class Speaker:
    """Says messages in one language: `say(message, **params)`, `say.word(word)`."""

    lang: str

    def __call__(self, message: str, /, **params: object) -> str:
        text = _translations(self.lang).gettext(message) if self.lang != DEFAULT else message
        return text.format(**params) if params else text

    def plural(self, singular: str, plural: str, count: int, /, **params: object) -> str:
        if self.lang == DEFAULT:
            text = singular if count == 1 else plural
        else:
            text = _translations(self.lang).ngettext(singular, plural, count)
        return text.format(**{"count": count, **params})  # `count=` given: the number as written (`1.5`)

    def word(self, word: str) -> str:
        """A game's word (a side, a colour) in this language, or as written where the
        catalogue has none (a name, a move)."""
        if self.lang == DEFAULT:
            return word
        return _translations(self.lang).pgettext(WORD, word)

    def instant(self, seconds: int, english: str) -> str:
        """An instant (UTC) as this language writes a date and time (Babel's CLDR formats,
        `6 dic 2026, 18:00 UTC`); `english` (the referee's own `2026-12-06 18:00 UTC`) in English."""
        if self.lang in (DEFAULT, PSEUDO):
            return english
        from datetime import UTC, datetime

        from babel.dates import format_datetime  # only to speak another language than English

        when = datetime.fromtimestamp(seconds, UTC)
        return f"{format_datetime(when, 'medium', tzinfo=UTC, locale=self.lang)} UTC"

    def __repr__(self) -> str:
        return f"<Speaker {self.lang}>"


ENGLISH = Speaker(DEFAULT)


def speaker(lang: str | None) -> Speaker:
    """The speaker of a language (normalised; a language without a catalogue speaks its
    base language's, else English)."""
    code = normal(lang)
    if code in (DEFAULT, PSEUDO):
        return Speaker(code) if code == PSEUDO else ENGLISH
    if _catalogue_path(code) is None:
        base = code.partition("_")[0]
        return Speaker(base) if _catalogue_path(base) is not None else ENGLISH
    return Speaker(code)


def rule_text(text: str, say: Speaker) -> str:
    """An engine's rule message (games/values.py RuleError), shown as English text, in the
    speaker's language: a message the catalogue holds whole is translated whole; else the
    catalogue's template that reads it is found (the most specific first), its parameters
    taken out of the text and said in turn (a game word translated, a phrase of the engine
    such as `file c` or `Athens and Messene` read by its own template, at most `NESTING`
    deep), the rest (squares, moves: the notation) kept as written. Text no template reads
    is returned as it is."""
    if say.lang == DEFAULT:
        return text
    return _said(text, say, NESTING, _readers(say.lang, WORDS))


NESTING = 3
"""How deep a phrase inside a rule message's parameter is read (`b1-S leads off the board`
inside `{step}: a piece must stay on the board`)."""
WORDS = re.compile(r"[^\W\d_]{2,}")
"""A template read as a whole message has a word of its own (not `{side}'s {hexes}`, which
would read any text with an apostrophe); one read inside a parameter, a letter at least."""
LETTERS = re.compile(r"[^\W\d_]")
JOINER = re.compile(r"\{\w+\} [^\W\d_]+ \{\w+\}")
"""A template that only joins two parameters by a word (`{first} and {second}`) reads a list
inside a message, never a whole message: read so, any English sentence with an `and` in it
would come out half translated."""


def _said(text: str, say: Speaker, depth: int, readers: tuple[tuple[re.Pattern[str], str], ...]) -> str:
    whole = _translations(say.lang).gettext(text)
    if whole != text:
        return whole
    for pattern, template in readers:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        values = {name: _value(value, say, depth - 1) for name, value in found.groupdict().items()}
        try:
            return _bare(say(template)).format(**values)
        except (KeyError, IndexError, ValueError):  # a translation whose placeholders differ
            return text
    return text


def _value(value: str, say: Speaker, depth: int) -> str:
    """A parameter of a rule message: a game word, the grammar's alternatives, game words
    among the notation (`Athens 0, Sparta 1`), a list whose items are said one by one
    (`Red 3, Blue 0 (resigned)`), a phrase of words (read by its own template: never a list
    of squares by `{a}, {b}`), or notation (as written)."""
    word = say.word(value)
    if word != value:
        return word
    listed = alternatives(value)
    if listed is not None:  # what the grammar expected: each part said, joined in the language's words
        return _either([_value(part, say, max(depth, 1)) for part in listed], say)
    among = _among_notation(value, say)
    if among is not None:
        return among
    if depth <= 0 or " " not in value:
        return word
    said = _said(value, say, depth, _readers(say.lang, LETTERS))
    if said == value and ", " in value:
        return _listed(value, say, depth) or value
    return said


def _either(parts: list[str], say: Speaker) -> str:
    """Alternatives already said, as one phrase: `a, b or c`."""
    return say("{first} or {second}", first=", ".join(parts[:-1]), second=parts[-1])


_TOKENS = re.compile(r"([\s,+]+)")


def _among_notation(value: str, say: Speaker) -> str | None:
    """A parameter of game words among the notation (`Athens 0, Sparta 1`, `R Red, B Blue`,
    `Red, Blue`, `Athens+Messene`), each word translated; None for text with any other word in it."""
    parts = _TOKENS.split(value)
    said = [say.word(part) if WORDS.search(part) else part for part in parts]
    if any(WORDS.search(part) and word == part for part, word in zip(parts, said, strict=True)):
        return None  # a word that is no game word: a phrase, read by a template or kept
    return "".join(said) if said != parts else None


def _listed(value: str, say: Speaker, depth: int) -> str | None:
    """A list an engine joined with `, ` (`Red 3, Blue 0 (resigned)`), each item said in
    turn (a game word, game words among the notation, a phrase read by its template, the
    notation as written); None when an item with words of its own is not said at all, and
    for a list with an item of bare notation (`Red's t11, s12 and Blue's t12`: squares
    inside a phrase, which a template reads whole)."""
    items = value.split(", ")
    if not all(WORDS.search(item) for item in items):
        return None
    said = [_value(item, say, depth) for item in items]  # (each shorter than the list: no deeper)
    if said == items or any(spoken == item and WORDS.search(item) for item, spoken in zip(items, said, strict=True)):
        return None
    return ", ".join(said)


_FIELD = re.compile(r"\{(\w+)(![rsa])?(:[^{}]*)?\}")


def _bare(template: str) -> str:
    """A template whose placeholders are filled with text already converted: `{x!r}` is `{x}`."""
    return _FIELD.sub(lambda found: "{" + found.group(1) + "}", template)


@functools.cache
def _readers(code: str, own: re.Pattern[str]) -> tuple[tuple[re.Pattern[str], str], ...]:
    """A reader for every message with placeholders that the language translates, whose
    text outside its placeholders matches `own`."""
    translations = _translations(code)
    ids = (
        [message for context, message in _template_ids() if not context]
        if code == PSEUDO
        else [key for key in getattr(translations, "_catalog", {}) if isinstance(key, str)]
    )
    readers = []
    for message in ids:
        if "{" not in message or not placeholders(message) or "<malformed>" in placeholders(message):
            continue
        if not own.search(_FIELD.sub("", message)) or (own is WORDS and JOINER.fullmatch(message)):
            continue
        pattern, literal = _reader(message)
        readers.append((literal, pattern, message))
    readers.sort(key=lambda item: -item[0])
    return tuple((pattern, message) for _, pattern, message in readers)


def _reader(template: str) -> tuple[re.Pattern[str], int]:
    parts: list[str] = []
    seen: set[str] = set()
    literal = 0
    for text, name, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(text))
        literal += len(text)
        if name is None:
            continue
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
    return re.compile("".join(parts), re.DOTALL), literal


def placeholders(message: str) -> frozenset[str]:
    """The names of a message's `{name}` placeholders (the catalogue test compares them)."""
    try:
        return frozenset(name for _, name, _, _ in string.Formatter().parse(message) if name is not None)
    except ValueError:
        return frozenset({"<malformed>"})


def _catalogue_path(code: str) -> Path | None:
    path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    return path if path.is_file() else None


@functools.cache
def _translations(code: str) -> gettext.NullTranslations:
    import gettext  # only to speak a language other than English

    if code == PSEUDO:
        return _pseudo()
    path = _catalogue_path(code)
    if path is None:
        return gettext.NullTranslations()
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)


def _pseudo() -> gettext.NullTranslations:
    """Every message of the template between ⟦ and ⟧ (placeholders kept as they are);
    a message the template lacks stays bare, so the tests see it."""
    import gettext

    known = _template_ids()

    class Pseudo(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return f"⟦{message}⟧" if ("", message) in known else message

        def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
            return self.gettext(msgid1 if n == 1 else msgid2)

        def pgettext(self, context: str, message: str) -> str:
            return f"⟦{message}⟧" if (context, message) in known else message

    return Pseudo()


def _template_ids() -> frozenset[tuple[str, str]]:
    from babel.messages.pofile import read_po  # the tests' tool: only the pseudo-language reads the template

    with TEMPLATE.open("rb") as handle:
        catalog = read_po(handle)
    ids: set[tuple[str, str]] = set()
    for message in catalog:
        if not message.id:
            continue
        for one in message.id if isinstance(message.id, tuple) else (message.id,):
            ids.add((message.context or "", str(one)))
    return frozenset(ids)
