"""The catalogues (referee/speech.py, referee/speech_catalogues.py, docs/languages.md): every
message of the code is in the template, every message of the template has its Spanish
translation with the same placeholders (and passes Babel's own checks), the shipped `.mo`
is the compiled `.po`, the engines' rule messages are templates a refusal can translate,
and the command line's language follows the locale's variables."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from referee import speech, speech_catalogues
from referee.games import registry
from referee.games.numica.state import TILE_SETS

ROOT = Path(__file__).resolve().parent.parent
SPANISH = speech.LOCALE_DIR / "es" / "LC_MESSAGES" / "referee.po"


def _catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def _ids(catalog: Catalog) -> set[tuple[str, object]]:
    return {(message.context or "", message.id) for message in catalog if message.id}


def test_the_template_holds_every_message_of_the_code() -> None:
    """The committed template is what extraction gives now: a message added to the code
    without `python -m referee.speech_catalogues extract` fails here."""
    extracted = speech_catalogues.template()
    committed = _catalog(speech.TEMPLATE)
    assert _ids(extracted) == _ids(committed)
    assert len(_ids(committed)) > 150


def test_every_message_has_a_spanish_translation_with_the_same_placeholders() -> None:
    template = _catalog(speech.TEMPLATE)
    spanish = _catalog(SPANISH, "es")
    assert _ids(spanish) >= _ids(template)
    untranslated, differing = [], []
    for message in spanish:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            untranslated.append(ids[0])
            continue
        for text in strings:
            if speech.placeholders(text) != speech.placeholders(ids[-1]):
                differing.append((ids[0], text))
    assert untranslated == []
    assert differing == []
    # Babel's own checks (plural forms, %-formats) find nothing either.
    assert [(message.id, errors) for message, errors in spanish.check() if errors] == []


def test_the_shipped_catalogue_is_the_compiled_po() -> None:
    for po in speech_catalogues.po_paths():
        assert po.with_suffix(".mo").read_bytes() == speech_catalogues.mo_bytes(po), f"compile {po}"


def test_every_side_of_every_game_is_a_game_word_in_spanish() -> None:
    say = speech.speaker("es")
    sides = [side for info in registry.GAMES.values() for side in info.sides]
    assert all(say.word(side) != side for side in sides)
    # the rules' Spanish edition names the cities of Nika so
    assert [say.word(side) for side in registry.GAMES["nika"].sides] == ["Atenas", "Esparta", "Mesene", "Tebas"]


RULE_ERRORS = set(speech_catalogues.RULE_ERRORS)


def _error_calls(names: set[str]) -> list[tuple[str, ast.Call]]:
    """Every call in games/ of one of these errors (`IllegalActionError(...)`,
    `SetupError(...)`), with its place."""
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in names:
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node))
    return found


def test_no_rule_error_of_an_engine_is_written_as_an_f_string() -> None:
    """Every rule message of games/, and every setup error's (a Position, a CRT or a Tiles
    tag the game cannot read), is a template with named parameters (RuleError(template,
    **params), SetupError(template, tag, **params)), so that the catalogue holds it and a
    refusal can say it in a player's language."""
    assert "SetupError" in RULE_ERRORS
    found = []
    for where, node in _error_calls(RULE_ERRORS):
        if isinstance(node.args[0], ast.JoinedStr):
            if any(isinstance(part, ast.FormattedValue) for part in node.args[0].values):
                found.append(where)
    assert found == []


def test_every_setup_error_of_an_engine_is_a_template_as_written() -> None:
    """A setup error's message is written in the call itself (no message passed through a
    helper or taken from another error's text), where extraction reads it."""
    found = [
        where
        for where, node in _error_calls({"SetupError"})
        if not (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))
    ]
    assert found == []


def _rule_templates() -> list[str]:
    return sorted(
        message.id
        for message in _catalog(speech.TEMPLATE)
        if isinstance(message.id, str)
        and "{" in message.id
        and any(where.startswith("games/") for where, _ in message.locations)
    )


def test_every_rule_message_of_the_engines_is_read_back_and_said_in_spanish() -> None:
    """A rule message as an engine writes it (English, its parameters filled in) is said in
    Spanish at the point a refusal shows it: the template found, the parameters kept, the
    game words among them translated (Athens: Atenas), the notation as written."""
    say = speech.speaker("es")
    templates = _rule_templates()
    assert len(templates) > 90
    for template in templates:
        names = sorted(speech.placeholders(template))
        values = {name: f"q{number}" for number, name in enumerate(names)}
        if names:
            values[names[0]] = "Athens"  # one game word among the parameters
        english = re.sub(r"\{(\w+)(![rsa])?(:[^{}]*)?\}", lambda found: "{" + found.group(1) + "}", template)
        text = english.format(**values)
        if not speech.WORDS.search(re.sub(r"\{[^{}]*\}", "", template)) or speech.JOINER.fullmatch(template):
            # a phrase with no word of its own (`{side}'s {hexes}`), or one that joins two
            # (`{first} and {second}`), is read only as a parameter
            text = f"pawns in contact are left unfought: {text} must fight a battle this turn"
        said = speech.rule_text(text, say)
        assert said != text, template
        spoken = {**values, names[0]: "Atenas"} if names else values
        for value in spoken.values():
            assert value in said, (template, said)


def test_a_message_no_template_reads_is_kept_as_written() -> None:
    assert speech.rule_text("an engine's words the catalogue has never seen", speech.speaker("es")).startswith("an ")
    assert speech.rule_text("there is no piece on d1", speech.ENGLISH) == "there is no piece on d1"


@pytest.mark.parametrize(
    "unknown",
    ["one new rule and one new piece are in play", "a side resigns or passes: nothing the catalogue holds"],
)
def test_a_sentence_with_and_or_or_is_never_read_as_a_list(unknown: str) -> None:
    """`{first} and {second}` joins a list inside a message; read as a whole message, it
    would say an unknown English sentence half in Spanish (`one attacker y one defender`)."""
    assert speech.rule_text(unknown, speech.speaker("es")) == unknown


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({}, "en"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "es_AR.UTF-8"}, "es"),  # a region without its own catalogue: the language's
        ({"LC_MESSAGES": "es_MX", "LANG": "en_US.UTF-8"}, "es"),
        ({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:es", "LANG": "en_GB.UTF-8"}, "es"),  # French has no catalogue: the next
        ({"LANGUAGE": "en:es", "LANG": "es_ES.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "../../etc"}, "en"),
    ],
)
def test_the_command_lines_language_follows_the_locale(environ: dict[str, str], lang: str) -> None:
    assert speech.from_environment(environ) == lang


def test_english_speaks_without_a_catalogue_and_fills_the_message_id() -> None:
    assert speech.speaker(None) is speech.ENGLISH
    assert speech.ENGLISH("Game {game_id}:", game_id="g1") == "Game g1:"
    assert speech.speaker("es")("Game {game_id}:", game_id="g1") == "Partida g1:"
    assert speech.speaker("es").plural("{count} turn", "{count} turns", 3) == "3 turnos"


def test_a_new_language_folder_is_all_it_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/languages.md: `init LANG`, translate, `compile`: the language is spoken."""
    from babel.messages.mofile import write_mo

    folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalog = Catalog(locale="fr", domain="referee")
    catalog.add("Game {game_id}:", "Partie {game_id} :")
    out = io.BytesIO()
    write_mo(out, catalog)
    (folder / "referee.mo").write_bytes(out.getvalue())
    monkeypatch.setattr(speech, "LOCALE_DIR", tmp_path / "locale")
    speech._translations.cache_clear()
    try:
        assert speech.languages() == ("en", "fr")
        assert speech.speaker("fr_CA")("Game {game_id}:", game_id="g1") == "Partie g1 :"
    finally:
        speech._translations.cache_clear()


def test_no_message_is_written_where_extraction_cannot_see_it() -> None:
    """Babel does not read inside f-strings: a `say("...")` or `N_("...")` there would be
    shown untranslated in every language. None is written so, and every speaker call's
    message is a literal string (or a name of a marked constant)."""
    hidden = []
    for folder in ("referee", "games"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for inner in ast.walk(node):
                    name = getattr(getattr(inner, "func", None), "id", None) or getattr(
                        getattr(inner, "func", None), "attr", None
                    )
                    if isinstance(inner, ast.Call) and name in ("say", "N_", "plural") and inner.args:
                        if isinstance(inner.args[0], ast.Constant):
                            hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert hidden == []


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        (
            "on rank 9 the phalanx meets Thebes's own piece on j9",
            "en la fila 9 la falange topa con una pieza propia de Tebas en j9",
        ),
        ("Athens resigns: Sparta and Thebes lose", "Atenas abandona: pierden Esparta y Tebas"),
        (
            "b1-S leads off the board: a piece must stay on the board",
            "b1-S sale del tablero: una pieza debe permanecer en el tablero",
        ),
        (
            "the charge from a7 to a5 is blocked by Blue's large piece facing NW on a6: "
            "a piece cannot jump over another",
            "la carga de a7 a a5 está bloqueada por la pieza grande de Azul orientada al NW en a6: "
            "una pieza no puede saltar sobre otra",
        ),
        (
            "pawns in contact are left unfought: Blue's p17 and Red's p16 must fight a battle this turn",
            "quedan peones en contacto sin combatir: p17 de Azul y p16 de Rojo deben librar una batalla este turno",
        ),
        ("r21 is empty, not a Red pawn", "r21 está vacío, no un peón de Rojo"),
        (
            "no move after a battle: a turn moves first, then fights",
            "no hay movimiento tras una batalla: un turno primero mueve y luego combate",
        ),
        (
            "the attacker must choose which of k5, k6 and k7 the exchange eliminates",
            "el atacante debe elegir cuál de k5, k6 y k7 elimina el intercambio",
        ),
        ("e4: Red's square piece captured", "e4: capturada la pieza cuadrada de Rojo"),
    ],
)
def test_the_phrases_inside_a_rule_message_are_said_too(english: str, spanish: str) -> None:
    """An engine's phrase passed as a parameter (a line, a list of sides, a piece described,
    why a step leaves the board) is read by its own template; a message without placeholders
    is translated whole; the notation inside stays as written."""
    assert speech.rule_text(english, speech.speaker("es")) == spanish


def test_a_list_of_squares_is_never_read_as_a_sentence() -> None:
    say = speech.speaker("es")
    assert (
        speech.rule_text("k3 is not in Thebes's rally area (k5, k6)", say)
        == "k3 no está en el área de reunión de Tebas (k5, k6)"
    )


@pytest.mark.parametrize(
    ("line", "spanish"),
    [
        (
            "g1: ongoing: Red to move, round 3, awaiting the roll of the battle k20xl21 (the seed is secret)",
            "g1: en curso: mueve Rojo, ronda 3, a la espera de la tirada de la batalla k20xl21 (la semilla es secreta)",
        ),
        (
            "next: Ana (Red) to move (token 3-ab), awaiting the roll of the battle k20xl21 (the seed is secret)",
            "siguiente: mueve Ana (Rojo) (token 3-ab), "
            "a la espera de la tirada de la batalla k20xl21 (la semilla es secreta)",
        ),
    ],
)
def test_what_a_game_awaits_is_said_in_the_players_language(line: str, spanish: str) -> None:
    """The pending roll or choice of a Nieuchess battle, in a verdict and in who is next."""
    from referee import spoken_lines

    say = speech.speaker("es")
    said = spoken_lines.verdict_line(line, say) if line.startswith("g1:") else spoken_lines.next_line(line, say)
    assert said == spanish


@pytest.mark.parametrize(
    ("english", "spanish"),
    [
        (
            'expected a side label such as "W:" or "Athens:", found \'X:\'',
            'se esperaba una etiqueta de bando como "W:" o "Athens:", se encontró \'X:\'',
        ),
        ('this comment is never closed: expected "}"', 'este comentario nunca se cierra: se esperaba "}"'),
        ('unknown game "chess"', 'juego desconocido "chess"'),
        ("the tag Event appears twice", "la etiqueta Event aparece dos veces"),
        (
            "expected an action such as \"d1-W\", found 'e2>X': after 'e2>', expected a facing such as \"N\"",
            "se esperaba una acción como \"d1-W\", se encontró 'e2>X': "
            "tras 'e2>', se esperaba una orientación como \"N\"",
        ),
        ('Pikemen is played by 2, 3 or 4 players, not "7"', 'a Pikemen juegan 2, 3 o 4 jugadores, no "7"'),
        ("the Seed tag is empty", "la etiqueta Seed está vacía"),
        (
            "Red's turn ended after no action: a Pikemen turn holds exactly one action",
            "el turno de Rojo terminó tras ninguna acción: un turno de Pikemen contiene exactamente una acción",
        ),
    ],
)
def test_the_notations_own_messages_are_said_in_spanish(english: str, spanish: str) -> None:
    """Text that is not RGN: the reader's and the grammar's messages go through the catalogue
    too (the tokens quoted in them stay as written)."""
    assert speech.rule_text(english, speech.speaker("es")) == spanish


@pytest.mark.parametrize(
    ("record", "spanish"),
    [
        (
            '[Game "pikemen"]\n\n1. R: e1\n',
            "se esperaba una acción como \"e1-e5(NE)\", se encontró 'e1': tras 'e1', se esperaba "
            'una carga como "e1-e5(NE)" o una orientación entre paréntesis como "(NE)"',
        ),
        (
            '[Game "pikemen"]\n\n1. R: e1-e5X\n',
            "tras 'e1-e5', se esperaba el final de la acción o una nueva orientación como \"(NE)\" "
            'o una orientación entre paréntesis como "(NE)"',
        ),
        ('[Game "nieuchess"]\n\n1. R: g6+\n', "tras 'g6', se esperaba el final del texto"),
    ],
)
def test_what_a_malformed_action_expected_is_said_in_spanish(record: str, spanish: str) -> None:
    """The grammar's alternatives (pyparsing's `{a charge such as ... | ...}`, each a named
    part) are said one by one and joined in the language's words, and so is pyparsing's own
    end of an action; the English detail is pyparsing's, as before."""
    from referee.judge.core.adjudicate import dialect_for
    from referee.notation.model import Malformed
    from referee.notation.reader import read

    [result] = read(record, dialect_for)
    assert isinstance(result, Malformed)
    said = speech.rule_text(result.error.message, speech.speaker("es"))
    assert said.endswith(spanish)
    assert not re.search(r"[{|}]|such as|facing|charge|end of", said)


def test_only_a_list_of_alternatives_is_read_as_one() -> None:
    from referee.notation.model import alternatives

    assert alternatives('{a | {b | "}"} | c}') == ["a", '{b | "}"}', "c"]
    assert alternatives("{k5} and {k6}") is None
    assert alternatives("{a comment}") is None


def test_the_sides_inside_a_list_are_said_in_spanish() -> None:
    """A list of sides an engine joins into one parameter (Nika's routed pieces, Pikemen's
    pieces and scores, the sides a game is played by) has each side said in the language;
    the numbers and the letters of the notation stay as written."""
    from referee import spoken_lines
    from referee.games.registry import engine
    from referee.games.values import RuleError

    say = speech.speaker("es")
    nika = spoken_lines.board(engine("nika").new_state({"Game": "nika"}).render(), say)
    assert "en desbandada: Atenas 0, Esparta 0, Mesene 0, Tebas 0" in nika.splitlines()
    pikemen = engine("pikemen").new_state({"Game": "pikemen", "Players": "3"})
    board = spoken_lines.board(pikemen.render(), say)
    assert "pieza = bando, tamaño, orientación: R Rojo, Y Amarillo, B Azul" in board.splitlines()
    assert "puntuación: Rojo 0, Amarillo 0, Azul 0 (objetivo 12)" in board.splitlines()
    assert (
        speech.rule_text("score: Red 3, Blue 0 (resigned), Yellow 2 (no pieces) (target 15)", say)
        == "puntuación: Rojo 3, Azul 0 (abandonó), Amarillo 2 (sin piezas) (objetivo 15)"
    )
    with pytest.raises(RuleError) as refused:
        pikemen.begin_turn("Green")
    assert (
        speech.rule_text(str(refused.value), say)
        == "Verde no juega en una partida de 3 jugadores: los bandos son Rojo, Amarillo, Azul"
    )
    assert speech.rule_text('the First tag must name one of Red, Blue, not "X"', say) == (
        'la etiqueta First debe nombrar a uno de Rojo, Azul, no "X"'
    )


@pytest.mark.parametrize(
    ("line", "spanish"),
    [
        (
            "g1: finished: Athens+Messene win (victory-area) after 33 turns",
            "g1: terminada: Atenas+Mesene ganan (área de victoria) tras 33 turnos",
        ),
        ("g1: finished: draw (all-passed) after 40 turns", "g1: terminada: tablas (todos pasaron) tras 40 turnos"),
        ("g1: finished: Blue wins (time)", "g1: terminada: Azul gana (tiempo)"),
    ],
)
def test_a_finished_games_reason_is_said_in_spanish(line: str, spanish: str) -> None:
    """Why a game ended is a game word where a player reads it; the code is the notation's
    (RGN, the Result tag, `--json`), which the verdict's own text keeps in English."""
    from referee import spoken_lines
    from referee.games.values import Reason

    assert spoken_lines.verdict_line(line, speech.speaker("es")) == spanish
    assert spoken_lines.verdict_line(line, speech.ENGLISH) == line
    assert all(speech.speaker("es").word(reason) != reason for reason in Reason)


def test_a_board_shown_to_a_spanish_player_has_its_legend_in_spanish() -> None:
    """The words of an engine's text board (its legend, the lines below it) are said in the
    reader's language; the board's rows and the notation stay as written."""
    from referee import spoken_lines
    from referee.games.nika.engine import NikaEngine

    state = NikaEngine().new_state({"Game": "nika"})
    english = state.render()
    said = spoken_lines.board(english, speech.speaker("es"))
    rows = [line for line in english.splitlines() if "[" in line and "area" not in line]
    assert rows and all(row in said.splitlines() for row in rows)
    assert "W Atenas, R Esparta, B Mesene, K Tebas; ^ > v < orientación N E S W; " in said
    assert "[W ] área de victoria, (w ) área de reunión, ## área central" in said
    assert "mueve Atenas (le quedan 2 acciones)" in said
    assert "victory area" not in said
    assert spoken_lines.board(english, speech.ENGLISH) == english


NUMICA_TILES = "".join(TILE_SETS["standard"])


@pytest.mark.parametrize(
    ("tags", "english", "spanish"),
    [
        (
            {"Game": "nieuchess", "Position": "R:b12 B:y36"},
            "b12 in the Position is a gray hex",
            "b12 de la Position es un hexágono gris",
        ),
        (
            {"Game": "nieuchess", "Position": "R:a1 B:b2 inv:R=1,R=1"},
            "Red's invasions are given twice in the Position",
            "las invasiones de Rojo aparecen dos veces en la Position",
        ),
        (
            {"Game": "nieuchess", "CRT": "AE DE"},
            "the CRT tag holds 66 result codes, not 2",
            "la etiqueta CRT contiene 66 códigos de resultado, no 2",
        ),
        ({"Game": "nika", "Position": "W:d1w R: B:"}, "the Position lacks K:, to:", "la Position carece de K:, to:"),
        (
            {"Game": "nika", "Position": "W:" + ",".join(f"a{rank}n" for rank in range(1, 10)) + " R: B: K: to:W"},
            "Athens has 9 pieces in the Position: a city has 6",
            "Atenas tiene 9 piezas en la Position: una ciudad tiene 6",
        ),
        (
            {"Game": "numica", "Position": "foo"},
            'cannot read "foo" in the Position',
            'no se puede leer "foo" en la Position',
        ),
        (
            {"Game": "numica", "Position": f"tiles:{NUMICA_TILES} R:a1S,a2S,a3S,a4S,a5S B:b1O to:R"},
            "Red has more than 4 square pieces",
            "Rojo tiene más de 4 piezas de forma cuadrada",
        ),
        (
            {"Game": "numica", "Tiles": "ABC"},
            "the Tiles tag must hold exactly the standard tile set (64 symbols)",
            "la etiqueta Tiles debe contener exactamente el juego de fichas standard (64 símbolos)",
        ),
        (
            {"Game": "pikemen", "Position": "Red:e1LU Blue:a1SU Red:b1SU to:Red"},
            "Position: Red's pieces are given twice",
            "Position: las piezas de Rojo aparecen dos veces",
        ),
        (
            {"Game": "pikemen", "Position": "Red:e1LU"},
            'Position: no field for Blue (write an empty one, like "Blue:")',
            'Position: no hay campo para Azul (escriba uno vacío, como "Blue:")',
        ),
        (
            {"Game": "pikemen", "Target": "0"},
            'the Target tag must be a whole number of points from 1 to 999, not "0"',
            'la etiqueta Target debe ser un número entero de puntos de 1 a 999, no "0"',
        ),
    ],
)
def test_a_tag_the_game_cannot_read_is_said_in_spanish(tags: dict[str, str], english: str, spanish: str) -> None:
    """A Position (or a CRT, Tiles or Target tag) that a game cannot read makes the record
    malformed: the verdict names the place and the game's message, in Spanish for a Spanish
    reader (sides and piece words said, the notation quoted as written), in English as before."""
    from referee import spoken_lines
    from referee.judge.core.adjudicate import adjudicate, read_source
    from referee.judge.core.verdict_words import describe

    record = "".join(f'[{name} "{value}"]\n' for name, value in tags.items()) + "\n*\n"
    (result,) = read_source(record.encode())
    verdict = adjudicate(result).verdict
    assert verdict.status == "malformed"
    assert describe(verdict) == f"line 2, col 1: {english}"
    assert spoken_lines.verdict_words(describe(verdict), speech.speaker("es")) == f"línea 2, col 1: {spanish}"
