"""The replay page in its reader's language (issue 49 item 2, docs/languages.md): `<html
lang>`, the controls, the step counter and announcements, the move list's labels and marks
from the catalogue (`referee/pictures/page_words.py`), the script holding no English of its
own; `replay --html` follows the locale as `check` does. Rendered in the pseudo-language
`qps` (each message of the template between ⟦ and ⟧), a page shows no English of the
template outside the brackets."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.judge.core.verdicts import Problem
from referee.pictures import replay_page
from referee.pictures.page_words import WORDS
from referee.speech import speaker
from tests.conftest import EXAMPLES
from tests.helpers.process import run_referee_bytes
from tests.helpers.site_season import outside_brackets

ILLEGAL = '[Game "numica"]\n[Seed "a11y"]\n\nR: SSOOSOSO\nB: OSOSOSOS\n1. R: a1-h8\n'
MALFORMED = '[Game "numica"]\n[Seed "a11y"]\n\nR: SSOOSOSO\nQ: OSOSOSOS\n'
TITLES = {"Nika", "Numica", "Pikemen", "Nieuchess"}


def _page(text: str, lang: str | None = None, name: str = "g.rgn") -> str:
    replay = adjudicate(read_source(text.encode())[0], name, 1, keep_steps=True)
    return replay_page(replay, text, say=None if lang is None else speaker(lang))


def _data(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.DOTALL)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def _page_texts(page: str) -> list[str]:
    """What the page's template says: the HTML outside the script, style and board, the
    page's words, every turn's label and each step's heading and details."""
    data = _data(page)
    bare = re.sub(r"<script.*?</script>|<style.*?</style>|<svg.*?</svg>|<title>.*?</title>", " ", page, flags=re.S)
    bare = re.sub(r'<(?!button|ol)[^>]*>|id="\w+"|type="button"|class="\w+"', " ", bare)
    bare = re.sub(r"</?(button|ol)|aria-label=|title=", " ", bare)
    texts = [bare, *data["words"].values(), *data["turns"]]
    for step in data["steps"]:
        texts += [step.get("h") or "", *(step.get("d") or [])]
    return texts


def _sources() -> dict[str, str]:
    found = {path.name: path.read_text(encoding="utf-8") for path in sorted(EXAMPLES.glob("*.rgn"))}
    found.update({"illegal": ILLEGAL, "malformed": MALFORMED})
    return found


def test_the_english_page_says_lang_en_and_its_words_in_english() -> None:
    page = _page((EXAMPLES / "nika-won.rgn").read_text(encoding="utf-8"))
    assert '<html lang="en">' in page
    assert 'title="back one action (left arrow)" aria-label="back one action"' in page
    data = _data(page)
    assert data["words"] == dict(WORDS)
    assert data["turns"][:3] == ["start", "round 1, Athens", "round 1, Sparta"]
    assert data["steps"][0]["h"] == "Nika · Athens to move · round 1"


@pytest.mark.parametrize("name", list(_sources()))
def test_every_word_of_the_page_goes_through_the_catalogue(name: str) -> None:
    page = _page(_sources()[name], "qps", name)
    assert '<html lang="qps">' in page
    found = sorted({word for text in _page_texts(page) for word in outside_brackets(text)} - TITLES)
    assert found == [], name


def test_the_script_holds_no_english_word_of_the_page() -> None:
    script = resources.files("referee.pictures").joinpath("page.js").read_text(encoding="utf-8")
    code = "\n".join(line.split("// ")[0] for line in script.splitlines())
    keys = re.findall(r'say\("(\w+)"', code)
    assert set(keys) <= set(WORDS), set(keys) - set(WORDS)
    literals = re.findall(r'"((?:[^"\\]|\\.)*)"', re.sub(r'say\("\w+"', "say(", code))
    english = set(WORDS.values()) | {"start position", "illegal: ", "(queued)", "(untriggered) "}
    code_words = {"use strict", "#board svg > desc", "label queued"}  # a directive, a selector, classes
    worded = [literal for literal in literals if " " in literal and re.search(r"[A-Za-z]{2,}", literal)]
    worded = [literal for literal in worded if literal not in code_words]
    assert sorted({literal for literal in literals if literal in english} | set(worded)) == []


def test_a_spanish_page_says_its_steps_in_spanish() -> None:
    page = _page((EXAMPLES / "nika-won.rgn").read_text(encoding="utf-8"), "es")
    assert '<html lang="es">' in page
    assert 'title="una acción atrás (flecha izquierda)" aria-label="una acción atrás"' in page
    data = _data(page)
    assert data["words"]["step"] == "paso {n} de {total}"
    assert data["verdict"].endswith("terminada: Atenas+Mesene ganan (área de victoria) tras 33 turnos")
    assert data["turns"][:3] == ["inicio", "ronda 1, Atenas", "ronda 1, Esparta"]
    assert data["steps"][0]["h"] == "Nika · mueve Atenas · ronda 1"
    assert data["steps"][0]["d"] == ["piezas derrotadas: Atenas 0, Esparta 0, Mesene 0, Tebas 0"]
    events = [event[1] for step in data["steps"] for event in step.get("e", [])]
    assert events and all("derrotada" in event for event in events), events  # `c7 derrotada (Esparta)`
    assert not set(data["words"].values()) & {"step {n} of {total}", "{label} (queued)", "{side}'s queue, revealed:"}


def test_replay_html_follows_the_locale_and_english_is_the_default(tmp_path: Path) -> None:
    record = str(EXAMPLES / "numica-finished.rgn")
    spanish = run_referee_bytes("replay", "--html", record, env={"LANGUAGE": "es"}, timeout=60)
    english = run_referee_bytes("replay", "--html", record, env={"LANGUAGE": "", "LC_ALL": "C.UTF-8"}, timeout=60)
    assert spanish.returncode == english.returncode == 0
    said, plain = spanish.stdout.decode(), english.stdout.decode()
    assert '<html lang="es">' in said and '"start_position":"posición inicial"' in said
    assert '<html lang="en">' in plain and '"start_position":"start position"' in plain


@pytest.mark.parametrize("name", ["nika-won.rgn", "nieuchess-finished.rgn", "pikemen-4p-ongoing.rgn"])
def test_the_streamed_page_says_what_the_whole_page_says_in_spanish(name: str) -> None:
    """`replay --html` makes the page as a stream, the league's site from the whole replay:
    in Spanish too they are the same bytes."""
    from referee.judge import session
    from referee.pictures.streamed_page import streamed_page

    say = speaker("es")
    made = streamed_page(str(EXAMPLES / name), 1, say=say)
    assert not isinstance(made, Problem)
    whole = session.replay(str(EXAMPLES / name), 1)
    assert isinstance(whole, Replay)
    assert b"".join(made.pieces).decode("utf-8") == replay_page(whole, None, say=say)


def test_a_queued_reply_and_a_revealed_queue_name_their_side_in_spanish(tmp_path: Path) -> None:
    from referee.live.play import queue_submit
    from tests.helpers.play import play

    path = tmp_path / "g.rgn"
    path.write_text('[Game "pikemen"]\n[GameId "pq"]\n\n')
    assert play(path, "f3(N)").exit_code == 0
    lines = "if B: a4(N) then R: f3(NE) if B: a4(E) then R: resign\nif B: a4(NE) then R: f3(E)"
    assert queue_submit.set_queue(path, "Red", lines, wait=5).exit_code == 0
    assert play(path, "a4(N)").exit_code == 0
    assert play(path, "a4(E)").exit_code == 0
    data = _data(_page(path.read_text(encoding="utf-8"), "es"))
    assert [queue["side"] for queue in data["queues"]["revealed"]] == ["Rojo"]
    assert data["words"]["queue"] == "cola de {side}, revelada:" and data["words"]["queued"] == "{label} (en cola)"
