"""The game's own lines in a reader's language (issue 49, docs/languages.md), for the mail
gateway's answers and the command line's verdicts:
the verdict line (`g1: ongoing: Sparta to move, round 1`), the line of who is next, the
refusal's error (its place, its turn, the engine's rule message) and the header of the
legal moves. They are written in English by the judge and by `play` (and `check` prints
them so, its verdicts specified in English); here each is read by its shape and said again,
its side names in the language, the notation (moves, squares, tokens) as written. A line
of another shape is kept as it is."""

from __future__ import annotations

import re

from referee.speech import DEFAULT, N_, WORDS, Speaker, rule_text

STATUS = {
    "ongoing": N_("ongoing"),
    "finished": N_("finished"),
    "illegal": N_("illegal"),
    "malformed": N_("malformed"),
    "unfinished": N_("unfinished"),
}

_VERDICT = re.compile(r"(?P<head>[^\n]*?): (?P<status>ongoing|finished|illegal|malformed|unfinished): (?P<rest>.*)")
_PLACE = re.compile(r"line (?P<line>\d+), col (?P<column>\d+): (?P<rest>.*)", re.DOTALL)
_TURN = re.compile(
    r"(?:(?P<setup>setup) (?P<side>\w+)|turn (?P<round>\d+) (?P<side2>\w+))"
    r'(?:, action (?P<number>\d+) (?P<action>"[^"]*")|, (?P<bare>"[^"]*"))?: (?P<rest>.*)',
    re.DOTALL,
)
_TO_MOVE = re.compile(
    r"(?P<side>[\w+]+) to move(?:, round (?P<round>\d+))?(?:, awaiting (?P<awaiting>[^;]*))?(?P<rest>(?:;.*)?)"
)
_WINS = re.compile(
    r"(?P<winners>[\w+]+) wins? \((?P<reason>[^)]*)\)(?: after (?P<turns>\d+) turns?)?(?P<rest>(?:;.*)?)"
)
_DRAW = re.compile(r"draw \((?P<reason>[^)]*)\)(?: after (?P<turns>\d+) turns?)?(?P<rest>(?:;.*)?)")
_NEXT = re.compile(r"next: (?:(?P<name>.+) \((?P<side>\w+)\)|(?P<bare>\w+)) to move(?P<rest>.*)")
_LEFT = re.compile(r"(?P<side>\w+) to move \((?P<count>\d+) actions? left\)")
_HEADER = re.compile(r"(?P<side>\w+) to move: (?P<count>\d+) legal actions?")
_QUEUE = re.compile(r"queue line (?P<line>\d+)(?:, col (?P<column>\d+))?: (?P<rest>.*)", re.DOTALL)


def turn(verdict: str, following: str, say: Speaker) -> tuple[str, str]:
    """A turn's verdict line and its line of who is next in the speaker's language."""
    if say.lang == DEFAULT:
        return verdict, following
    return verdict_line(verdict, say), next_line(following, say)


def verdict_line(line: str, say: Speaker) -> str:
    """`g1: ongoing: Sparta to move, round 1` in the speaker's language."""
    found = _VERDICT.fullmatch(line) if say.lang != DEFAULT else None
    if found is None:
        return line
    status = say(STATUS[found["status"]])
    return f"{found['head']}: {status}: {verdict_words(found['rest'], say)}"


def verdict_words(text: str, say: Speaker) -> str:
    """What a verdict says after its status (`describe`), in the speaker's language."""
    if say.lang == DEFAULT:
        return text
    place = _PLACE.fullmatch(text)
    if place is not None:
        where = say("line {line}, col {column}", line=place["line"], column=place["column"])
        return f"{where}: {_turn_and_rule(place['rest'], say)}"
    moving = _TO_MOVE.fullmatch(text)
    if moving is not None:
        said = say("{side} to move", side=_sides(moving["side"], say))
        if moving["round"]:
            said += say(", round {round}", round=moving["round"])
        if moving["awaiting"]:
            said += _awaited(moving["awaiting"], say)
        return said + _rest(moving["rest"], say)
    won = _WINS.fullmatch(text)
    if won is not None:
        winners, reason = _sides(won["winners"], say), say.word(won["reason"])
        several = "+" in won["winners"]
        if won["turns"] is None:  # a league's result line (`Red wins (last-player)`)
            if several:
                return say("{winners} win ({reason})", winners=winners, reason=reason) + _rest(won["rest"], say)
            return say("{winners} wins ({reason})", winners=winners, reason=reason) + _rest(won["rest"], say)
        turns = say.plural("{count} turn", "{count} turns", int(won["turns"]))
        if several:
            said = say("{winners} win ({reason}) after {turns}", winners=winners, reason=reason, turns=turns)
        else:
            said = say("{winners} wins ({reason}) after {turns}", winners=winners, reason=reason, turns=turns)
        return said + _rest(won["rest"], say)
    drawn = _DRAW.fullmatch(text)
    if drawn is not None:
        reason = say.word(drawn["reason"])
        if drawn["turns"] is None:
            return say("draw ({reason})", reason=reason) + _rest(drawn["rest"], say)
        turns = say.plural("{count} turn", "{count} turns", int(drawn["turns"]))
        return say("draw ({reason}) after {turns}", reason=reason, turns=turns) + _rest(drawn["rest"], say)
    return rule_text(text, say)


def next_line(line: str, say: Speaker) -> str:
    """`next: Bo (Sparta) to move (token 1-...)` and `game over: ...` in the speaker's language."""
    if say.lang == DEFAULT:
        return line
    if line.startswith("game over: "):
        return say("game over: {verdict}", verdict=verdict_words(line.removeprefix("game over: "), say))
    found = _NEXT.fullmatch(line)
    if found is None:
        return line
    rest = found["rest"]
    token = re.fullmatch(r" \(token (?P<token>[^)]+)\)(?P<more>.*)", rest)
    if found["bare"]:
        said = say("next: {side} to move", side=say.word(found["bare"]))
    else:
        said = say("next: {name} ({side}) to move", name=found["name"], side=say.word(found["side"]))
    if token is not None:
        return said + say(" (token {token})", token=token["token"]) + _awaiting(token["more"], say)
    return said + _awaiting(rest, say)


def _awaiting(text: str, say: Speaker) -> str:
    """`, awaiting the roll of the battle k20xl21 (the seed is secret)` after who is next."""
    if not text.startswith(", awaiting "):
        return text
    return _awaited(text.removeprefix(", awaiting "), say)


def _awaited(what: str, say: Speaker) -> str:
    """`, awaiting` what a game awaits (an engine's pending roll or choice), in the speaker's language."""
    return say(", awaiting {what}", what=rule_text(what, say))


def board(text: str, say: Speaker) -> str:
    """An engine's board as text (`render`), its words in the speaker's language: the legend
    and the lines below the board (`routed: ...`, `score: ...`, who is to move), each part
    between `; ` read by its template; the board's own rows (no template reads them) and
    the notation as written."""
    if say.lang == DEFAULT:
        return text
    lines = []
    for line in text.split("\n"):
        bare = line.lstrip(" ")
        left = _LEFT.fullmatch(bare)
        if left is not None:  # Nika's `Athens to move (1 action left)`
            count = int(left["count"])
            said = say.plural(
                "{side} to move ({count} action left)", "{side} to move ({count} actions left)", count,
                side=say.word(left["side"]),
            )  # fmt: skip
        else:
            said = verdict_parts(bare, say) if "; " in bare else verdict_words(bare, say) if bare else bare
        lines.append(line[: len(line) - len(bare)] + said)
    return "\n".join(lines)


def error(text: str, say: Speaker) -> str:
    """A refusal's error, line by line: `submission:1: nika: illegal: line 1, col 12: turn 1
    Athens, action 2 "d1-N": there is no piece on d1`, or an engine's rule message alone."""
    if say.lang == DEFAULT:
        return text
    return "\n".join(_error_line(line, say) for line in text.split("\n"))


def moves_header(header: str, say: Speaker) -> str:
    """`Athens to move: 55 legal actions` in the speaker's language."""
    found = _HEADER.fullmatch(header) if say.lang != DEFAULT else None
    if found is None:
        return verdict_line(header, say) if say.lang != DEFAULT else header
    count = int(found["count"])
    return say.plural(
        "{side} to move: {count} legal action",
        "{side} to move: {count} legal actions",
        count,
        side=say.word(found["side"]),
    )


def queue_line(line: str, say: Speaker) -> str:
    """A line `play` writes of a queue (PLAY.md §9) in the speaker's language: a fault at a
    queue line's place (`queue line 1, col 13: expected "then", found "if"`), its rest a
    message of the catalogue, a turn and its rule, or the verdict of the line replayed; any
    other line read by its template (`speech.rule_text`)."""
    found = _QUEUE.fullmatch(line) if say.lang != DEFAULT else None
    if found is None:
        return rule_text(line, say)
    rest = found["rest"]
    if found["column"] is None:
        where = say("queue line {line}", line=found["line"])
        said = verdict_line(rest, say) if _VERDICT.fullmatch(rest) else rule_text(rest, say)
    else:
        where = say("queue line {line}, col {column}", line=found["line"], column=found["column"])
        said = _turn_and_rule(rest, say)
    return f"{where}: {said}"


def _error_line(line: str, say: Speaker) -> str:
    if not line.strip():
        return line
    found = re.fullmatch(r"(?P<source>submission(?::\d+)?): (?P<game>\w+): (?P<status>\w+): (?P<rest>.*)", line)
    if found is not None and found["status"] in STATUS:
        record = found["source"].partition(":")[2]
        source = say("submission:{record}", record=record) if record else say("submission")
        return f"{source}: {found['game']}: {say(STATUS[found['status']])}: {verdict_words(found['rest'], say)}"
    return verdict_words(line, say)


def _turn_and_rule(text: str, say: Speaker) -> str:
    found = _TURN.fullmatch(text)
    if found is None:
        return rule_text(text, say)
    side = say.word(found["side"] or found["side2"])
    if found["setup"]:
        where = say("setup {side}", side=side)
    else:
        where = say("turn {round} {side}", round=found["round"], side=side)
    if found["number"]:
        where += say(", action {number} {action}", number=found["number"], action=found["action"])
    elif found["bare"]:
        where += f", {found['bare']}"
    return f"{where}: {rule_text(found['rest'], say)}"


_CLOCK = re.compile(r"clock (?P<times>.*)")
_TIME = re.compile(r"(?P<side>\w+) (?P<time>(?:\d+d )?\d+h \d\dm)")
_DEADLINE = re.compile(r"deadline (?P<when>\d{4}-\d\d-\d\d \d\d:\d\d) UTC")
_RAN_OUT = re.compile(r"(?P<side>\w+)'s time ran out at (?P<when>\d{4}-\d\d-\d\d \d\d:\d\d) UTC: a timeout is due")
_CLAIMED = re.compile(r'the claimed result "(?P<claimed>[^"]*)" does not match')
ROLLS_AS_GIVEN = N_("rolls taken as written (no seed revealed in the record)")


def _rest(text: str, say: Speaker) -> str:
    """What a verdict says after its outcome, `; clock Blue 1d 18h 00m, Red 3d 18h 00m;
    deadline 2026-12-06 18:00 UTC`, part by part in the speaker's language."""
    if not text.startswith("; "):
        return text
    return "".join("; " + _part(part, say) for part in text[2:].split("; "))


def verdict_parts(text: str, say: Speaker) -> str:
    """Parts of a verdict joined by `; ` (a clock's line on the replay page: `clock Blue
    1d 18h 00m, Red 3d 18h 00m; deadline 2026-12-06 18:00 UTC`) in the speaker's language."""
    return "; ".join(_part(part, say) for part in text.split("; "))


def _part(part: str, say: Speaker) -> str:
    clock = _CLOCK.fullmatch(part)
    if clock is not None:
        times = [_TIME.fullmatch(each) for each in clock["times"].split(", ")]
        if all(times):
            said = ", ".join(f"{say.word(found['side'])} {found['time']}" for found in times if found)
            return say("clock {times}", times=said)
    deadline = _DEADLINE.fullmatch(part)
    if deadline is not None:
        return say("deadline {when}", when=_instant(deadline["when"], say))
    ran_out = _RAN_OUT.fullmatch(part)
    if ran_out is not None:
        when = _instant(ran_out["when"], say)
        return say("{side}'s time ran out at {when}: a timeout is due", side=say.word(ran_out["side"]), when=when)
    if part == ROLLS_AS_GIVEN:
        return say(ROLLS_AS_GIVEN)
    claimed = _CLAIMED.fullmatch(part)
    if claimed is not None:
        return say('the claimed result "{claimed}" does not match', claimed=claimed["claimed"])
    said = rule_text(part, say)
    return _legend(part, say) if said == part and ", " in part else said


def _legend(text: str, say: Speaker) -> str:
    """A board's key, `. plain, # gray (impassable), R red invasion hex`: each symbol as
    drawn, its meaning said by the catalogue; the whole kept as written when a meaning is not."""
    said = []
    for item in text.split(", "):
        symbol, space, meaning = item.partition(" ")
        spoken = rule_text(meaning, say) if space and not WORDS.search(symbol) else meaning
        if spoken == meaning:
            return text
        said.append(f"{symbol} {spoken}")
    return ", ".join(said)


def _instant(text: str, say: Speaker) -> str:
    """`2026-12-06 18:00` (UTC, as the judge writes it) as the speaker's language writes an instant."""
    from datetime import UTC, datetime

    seconds = int(datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=UTC).timestamp())
    return say.instant(seconds, f"{text} UTC")


def _sides(text: str, say: Speaker) -> str:
    return "+".join(say.word(side) for side in text.split("+"))
