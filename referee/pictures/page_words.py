"""The replay page's words in a reader's language (issue 49 item 2, docs/languages.md).

The page's own words (its controls, the move list's marks, the step counter, the step
announcements) are messages of the catalogue, said once per page by `words` and given to
the script as data (`page.js` holds no English); those with `{name}` placeholders are
filled in by the script. What the replay says at each step (the turn's label, the
caption's heading, the engines' events and rule messages) is written in English by
`referee.pictures.steps` and said again here by its shape, its side names as the language
says them (`say.word`), the notation (moves, squares) as written. English says nothing
again: `label`, `heading` and `rule` return the text as it is.
"""

from __future__ import annotations

import functools
import re

from referee.speech import DEFAULT, N_, Speaker, rule_text

WORDS = {
    "start": N_("start"),
    "start_title": N_("start (Home)"),
    "back": N_("back one action"),
    "back_title": N_("back one action (left arrow)"),
    "forward": N_("forward one action"),
    "forward_title": N_("forward one action (right arrow)"),
    "end": N_("end"),
    "end_title": N_("end (End)"),
    "actions": N_("actions"),
    "start_position": N_("start position"),
    "step": N_("step {n} of {total}"),
    "no_steps": N_("no steps"),
    "illegal": N_("illegal: {rule}"),
    "queued": N_("{label} (queued)"),
    "revealed_queues": N_("revealed queues"),
    "queue": N_("{side}'s queue, revealed:"),
    "untriggered": N_("(untriggered) {line}"),
    "malformed": N_("malformed: the text stops being RGN at line {line}, column {column}"),
}
"""The page's words by the key the script reads them by (`data.words`)."""


@functools.cache
def words(lang: str) -> dict[str, str]:
    """The page's words in a language (said once per language: the English page costs one
    look-up)."""
    from referee.speech import speaker

    say = speaker(lang)
    return {key: say(message) for key, message in WORDS.items()}


def html_lang(say: Speaker) -> str:
    """The page's `<html lang>`: `es`, `pt-BR`."""
    return say.lang.replace("_", "-")


_ROUND_LABEL = re.compile(r"(?:(?P<setup>setup)|round (?P<round>\d+)), (?P<side>\w+)(?P<step> \(replacement step\))?")
_TURN_LABEL = re.compile(r"(?:(?P<setup>setup)|turn (?P<round>\d+)) (?P<side>\w+)")


def label(text: str, say: Speaker) -> str:
    """A turn's label (`round 3, Red`, `setup, Red (replacement step)`, `start`; for the
    illegal action `turn 9 Sparta`) in the speaker's language."""
    if say.lang == DEFAULT:
        return text
    if text == "start":
        return say(N_("start"))
    found = _ROUND_LABEL.fullmatch(text)
    if found is not None:
        side = say.word(found["side"])
        if found["setup"]:
            said = say(N_("setup, {side}"), side=side)
        else:
            said = say(N_("round {round}, {side}"), round=found["round"], side=side)
        return said + (say(N_(" (replacement step)")) if found["step"] else "")
    found = _TURN_LABEL.fullmatch(text)
    if found is not None:
        side = say.word(found["side"])
        if found["setup"]:
            return say("setup {side}", side=side)
        return say("turn {round} {side}", round=found["round"], side=side)
    if text == "after the last turn":
        return say(N_("after the last turn"))
    if text == "before the first turn":
        return say(N_("before the first turn"))
    return text


def heading(text: str, say: Speaker) -> str:
    """The caption's first line (`Nika · Athens to move · round 3 · awaiting a roll`, or
    `Nika · game over: Athens+Messene win (victory-area)`,
    `referee.pictures.drawing.heading`) in the speaker's language; the game's title as it is."""
    if say.lang == DEFAULT:
        return text
    parts = text.split(" · ")
    said = [parts[0]]
    for part in parts[1:]:
        said.append(_heading_part(part, say))
    return " · ".join(said)


def _heading_part(part: str, say: Speaker) -> str:
    from referee import spoken_lines

    if part.startswith("game over: "):
        return say(
            N_("game over: {outcome}"), outcome=spoken_lines.verdict_words(part.removeprefix("game over: "), say)
        )
    if part.endswith(" to move"):
        return say("{side} to move", side=say.word(part.removesuffix(" to move")))
    if part == "setup":
        return say(N_("setup"))
    if part.startswith("round "):
        return say(N_("round {round}"), round=part.removeprefix("round "))
    if part.startswith("awaiting a "):
        return say(N_("awaiting a {what}"), what=part.removeprefix("awaiting a "))
    return rule_text(part, say)


def rule(text: str, say: Speaker) -> str:
    """An engine's event or rule message in the speaker's language (`speech.rule_text`)."""
    return rule_text(text, say)


def verdict(text: str, say: Speaker) -> str:
    """The verdict line of the page's header in the speaker's language."""
    if say.lang == DEFAULT:
        return text
    from referee import spoken_lines

    return spoken_lines.verdict_line(text, say)


def clock(text: str, say: Speaker) -> str:
    """A timed record's clock line (`clock Blue 1d 18h 00m, Red ...; deadline ...`) in the
    speaker's language."""
    if say.lang == DEFAULT:
        return text
    from referee import spoken_lines

    return spoken_lines.verdict_parts(text, say)


def queues(view: dict[str, object], say: Speaker) -> dict[str, object]:
    """The queue view of the page (`queue_check.page_view`) with each revealed queue's side
    as the language says it; its lines are the notation."""
    revealed = view.get("revealed")
    if not isinstance(revealed, list):
        return view
    said = [{**queue, "side": say.word(str(queue["side"]))} if isinstance(queue, dict) else queue for queue in revealed]
    return {**view, "revealed": said}
