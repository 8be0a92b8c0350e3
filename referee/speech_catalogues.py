"""The catalogues' tool (docs/languages.md): extract every marked message into the template
`referee/locale/referee.pot` with Babel, merge it into each language's `.po`, compile each
`.po` into the `.mo` that `referee/speech.py` reads (shipped in the wheel).

    python -m referee.speech_catalogues extract   # the template, from the code
    python -m referee.speech_catalogues update    # every LANG/LC_MESSAGES/referee.po, from the template
    python -m referee.speech_catalogues compile   # every referee.mo, from its .po
    python -m referee.speech_catalogues init LANG # a new language's folder

The messages are those of `N_(...)`, of a speaker's call (`say(...)`, `say.plural(...)`),
the rule errors and setup errors of the engines (`IllegalActionError("... {square} ...",
square=...)`, `SetupError("{hex} in the Position is a gray hex", "Position", hex=...)`) and
the phrases they take as parameters (`phrase("file {file}", file=...)`); the words of the
games (every side of games/registry.py, every reason a game ends for, games/values.py
`Reason`, and each `game_word("small")`) are added in the context `game word`. Babel is
needed only here and by the tests, never to speak a language.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from referee import speech, store
from referee.games import registry
from referee.games.values import Reason

ROOT = Path(__file__).parent
GAMES_FOLDER = ROOT.parent / "games"
FOLDERS = (ROOT, GAMES_FOLDER, ROOT.parent / "notation")
"""The code that speaks: referee/ (the package), games/ (referee.games) and notation/ (its
messages for text that is not RGN, marked `phrase`)."""
RULE_ERRORS = (
    "RuleError",
    "IllegalActionError",
    "IllegalTurnError",
    "WrongSideError",
    "TurnOpenError",
    "TurnNotOpenError",
    "GameOverError",
    "SetupError",  # a tag the game cannot read (a Position, a CRT): a template, as a rule error's
)
KEYWORDS: dict[str, object] = {
    "N_": None,
    "say": None,
    "plural": (1, 2),
    "phrase": None,
    **{name: None for name in RULE_ERRORS},
}
GAME_WORDS: dict[str, object] = {"game_word": None}
"""The marker of a game's own word in games/ (games/values.py `game_word`): context `game word`."""


def template() -> Catalog:
    """Every message of the code, and the words of every game."""
    catalog = Catalog(project="referee", domain=speech.DOMAIN, charset="utf-8")
    for folder in FOLDERS:
        found = extract_from_dir(
            folder,
            method_map=[("**.py", "python")],
            keywords=KEYWORDS,  # type: ignore[arg-type]
            comment_tags=("Translators:",),
            strip_comment_tags=True,
        )
        for filename, lineno, message, comments, context in found:
            if not message or (isinstance(message, tuple) and not all(message)):
                continue
            where = f"{folder.name}/{filename}"
            catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    for filename, lineno, message, _, _ in extract_from_dir(
        GAMES_FOLDER,
        method_map=[("**.py", "python")],
        keywords=GAME_WORDS,  # type: ignore[arg-type]
    ):
        if isinstance(message, str) and message:
            catalog.add(message, None, [(f"games/{filename}", lineno)], context=speech.WORD)
    for where, lineno, message in event_templates():
        catalog.add(message, None, [(where, lineno)], auto_comments=[EVENT_COMMENT])
    for info in registry.GAMES.values():
        for side in info.sides:
            catalog.add(side, None, [("games/registry.py", 0)], context=speech.WORD)
    for reason in Reason:  # why a game ended, as a player reads it (the notation and --json keep the code)
        catalog.add(reason.value, None, [("games/values.py", 0)], context=speech.WORD)
    return catalog


EVENT_COMMENT = "an engine's event (what a move caused); each {name} is what the engine fills in: a side, a square"


def event_templates() -> list[tuple[str, int, str]]:
    """The texts of the engines' events (`Event(KIND, f"{side} resigns")`, games/values.py, or
    `_new(Event, (KIND, f"...", data))`, the tuple made at once where an engine makes many)
    as templates, each `{expression}` a named placeholder (`{side}`, `{self_sides_loser}`):
    the engines write them in English, and a mail says them again in its reader's language
    (`speech.rule_text` reads them back, as it reads a rule error)."""
    import ast
    import re

    found: list[tuple[str, int, str]] = []
    for path in sorted(GAMES_FOLDER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            args = node.args
            if getattr(node.func, "id", None) == "_new" and len(args) == 2 and getattr(args[0], "id", None) == "Event":
                args = args[1].elts if isinstance(args[1], ast.Tuple) else []  # `_new(Event, (KIND, text, data))`
            elif getattr(node.func, "id", None) != "Event":
                continue
            if len(args) < 2:
                continue
            text = args[1]
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                message = text.value.replace("{", "{{").replace("}", "}}")
            elif isinstance(text, ast.JoinedStr):
                parts = []
                for value in text.values:
                    if isinstance(value, ast.Constant):
                        parts.append(str(value.value).replace("{", "{{").replace("}", "}}"))
                    elif isinstance(value, ast.FormattedValue):
                        name = re.sub(r"\W+", "_", ast.unparse(value.value)).strip("_").lower() or "value"
                        parts.append("{" + name + "}")
                message = "".join(parts)
            else:
                continue
            words = re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[^{}]*\}", "", message))
            if len(words) >= 2 or any(len(word) > 4 for word in words):  # words, not a value (`die 4`)
                found.append((f"games/{path.relative_to(GAMES_FOLDER)}", node.lineno, message))
    return found


def po_paths() -> list[Path]:
    return sorted(speech.LOCALE_DIR.glob(f"*/LC_MESSAGES/{speech.DOMAIN}.po"))


def mo_bytes(po: Path) -> bytes:
    """The compiled catalogue of a `.po` (fuzzy entries left out, as `pybabel compile`)."""
    with po.open("rb") as handle:
        catalog = read_po(handle)
    # The .po keeps no POT-Creation-Date (it changes every run), and Babel then writes the
    # minute of the call into the .mo's header: a fixed one makes the .mo the .po's alone.
    catalog.creation_date = datetime(2026, 1, 1, tzinfo=UTC)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def pot_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, omit_header=False, sort_output=True, width=100, no_location=False)
    # the creation date changes every run: the template's header keeps none
    return b"\n".join(line for line in out.getvalue().split(b"\n") if not line.startswith(b'"POT-Creation-Date'))


def _update(po: Path, pot: Catalog) -> None:
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=po.parent.parent.name)
    catalog.update(pot, no_fuzzy_matching=True)
    out = io.BytesIO()
    write_po(out, catalog, sort_output=True, width=100, ignore_obsolete=True)
    store.write_atomically(
        po, b"\n".join(line for line in out.getvalue().split(b"\n") if not line.startswith(b'"POT-Creation'))
    )


def main(argv: Sequence[str]) -> int:
    command = argv[0] if argv else ""
    if command == "extract":
        store.write_atomically(speech.TEMPLATE, pot_text(template()))
    elif command == "update":
        with speech.TEMPLATE.open("rb") as handle:
            pot = read_po(handle)
        for po in po_paths():
            _update(po, pot)
    elif command == "compile":
        for po in po_paths():
            store.write_atomically(po.with_suffix(".mo"), mo_bytes(po))
    elif command == "init" and len(argv) == 2 and speech.normal(argv[1]) == argv[1]:
        folder = speech.LOCALE_DIR / argv[1] / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        with speech.TEMPLATE.open("rb") as handle:
            pot = read_po(handle, locale=argv[1])
        out = io.BytesIO()
        write_po(out, pot, sort_output=True, width=100)
        store.create_atomically(folder / f"{speech.DOMAIN}.po", out.getvalue())
    else:
        print("usage: python -m referee.speech_catalogues extract | update | compile | init LANG", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
