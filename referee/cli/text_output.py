"""Every command's output, in words for people and in JSON for scripts. The one place
that turns the library's values (verdicts, replays, boards, lists) into text."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.cli.exits import Tally
from referee.games.api import Event
from referee.games.registry import GAMES
from referee.judge.core.verdict_words import describe, json_line, plural, verdict_fields, verdict_line
from referee.judge.core.verdicts import Problem, Status, Verdict
from referee.notation.model import Turn

if TYPE_CHECKING:  # start-up (issue 34): `check` neither shows, lists nor counts
    from referee.judge.core.adjudicate import Played, Replay
    from referee.judge.services.archive_stats import Stats
    from referee.judge.session import Listed, Shown


if TYPE_CHECKING:
    from referee.speech import Speaker


def problem_line(problem: Problem) -> str:
    return f"referee: {problem.message}"


def passed_through(verdict: Verdict) -> str:
    """What `format` says of a record it passes through as read."""
    return f"referee: {verdict.source}:{verdict.record}: {verdict.status}, passed through as read: {describe(verdict)}"


def summary(tally: Tally) -> str:
    """One line: how many records, by status, and the claims that do not match."""
    counts = ", ".join(
        f"{tally.statuses[status]} {status}" for status in Status if status != Status.ERROR or tally.statuses[status]
    )
    claims = "claimed result does not" if tally.mismatched == 1 else "claimed results do not"
    return f"{plural(tally.records, 'record')}: {counts}; {tally.mismatched} {claims} match"


# replay, show, moves


def step_lines(played: Played, turn_before: Turn | None) -> list[str]:
    """The lines `replay` prints for one action, after an action of `turn_before`: a
    turn's heading first when the action opens it, the action as written, then what it
    caused, one event a line."""
    lines = []
    turn = played.turn
    if turn is not turn_before:
        where = "setup" if played.round is None else f"round {played.round}"
        lines.append(f"{where}, {turn.side}{' (replacement step)' if turn.step else ''}:")
    lines.append(f"  {played.move.text}")
    lines.extend(f"    {event}" for event in played.events)
    return lines


def replay_end(replay: Replay) -> str:
    """What `replay` prints after the actions (one blank line after them, if any): the
    final board and the verdict, separated by one blank line."""
    sections = [] if replay.state is None else [replay.state.render()]
    sections.append(verdict_line(replay.verdict))
    return "\n\n".join(sections)


def event_fields(event: Event) -> dict[str, Any]:
    """One event as JSON: its kind, its words, then its typed fields (docs/replay-json.md)."""
    fields: dict[str, Any] = {"kind": str(event.kind), "text": event.text}
    for key, value in event.data.items():
        fields.setdefault(key, value)
    return fields


def replay_json(replay: Replay) -> list[str]:
    """`replay --json`: one JSON object per action replayed (JSON Lines), in record order."""
    return [step_json(replay.verdict, played) for played in replay.steps]


def step_json(verdict: Verdict, played: Played) -> str:
    """One line of `replay --json`: an action of the record `verdict` names, with its events."""
    return json_line(
        {
            "source": verdict.source,
            "record": verdict.record,
            "offset": verdict.offset,
            "game": verdict.game,
            "round": played.round,
            "side": played.turn.side,
            "step": played.turn.step,
            "number": played.number,
            "action": str(played.move.action),
            "written": played.move.text,
            "events": [event_fields(event) for event in played.events],
        }
    )


def shown_text(shown: Shown) -> str:
    if shown.state is None:
        return verdict_line(shown.verdict)
    board = shown.state.render()
    token = f"\ntoken: {shown.verdict.token}" if shown.verdict.token else ""
    return f"{shown.heading}:\n{board}\nposition: {shown.state.position()}{token}\n{verdict_line(shown.verdict)}"


def shown_json(shown: Shown) -> str:
    state = shown.state
    return json_line(
        {
            "position": None if state is None else state.position(),
            "to_move": None if state is None else state.to_move(),
            "board": None if state is None else state.render(),
            "shows": None if state is None else shown.heading,
            "token": shown.verdict.token,
            "verdict": verdict_fields(shown.verdict),
        }
    )


def listed_text(listed: Listed) -> str:
    verdict = listed.verdict
    if verdict.status == Status.FINISHED:
        return f"no legal actions: the game is over\n{verdict_line(verdict)}"
    if verdict.status != Status.ONGOING:
        return verdict_line(verdict)
    header = f"{verdict.to_move} to move: {plural(len(listed.actions), 'legal action')}"
    ongoing = verdict.ongoing
    if not listed.actions and ongoing is not None and ongoing.pending == "roll" and ongoing.pending_message:
        header += f" until the game master's key draws {ongoing.pending_message}"
    return "\n".join([header, *listed.actions])


def listed_json(listed: Listed) -> str:
    verdict = listed.verdict
    return json_line({"to_move": verdict.to_move, "actions": listed.actions, "verdict": verdict_fields(verdict)})


# games


def games_text() -> list[str]:
    lines = []
    for info in GAMES.values():
        counts = ", ".join(map(str, info.player_counts))
        lines.append(f"{info.name}: {info.title}")
        lines.append(f"  sides: {', '.join(f'{s} ({info.short_labels[s]})' for s in info.sides)}")
        lines.append(f"  players: {counts}; variants: {', '.join(info.variants)}")
    return lines


def games_json() -> list[str]:
    return [
        json_line(
            {
                "name": info.name,
                "title": info.title,
                "sides": list(info.sides),
                "players": list(info.player_counts),
                "variants": list(info.variants),
                "labels": sorted(info.short_labels.values()),
            }
        )
        for info in GAMES.values()
    ]


# stats


def stats_fields(stats: Stats) -> dict[str, Any]:
    """`stats --json`: the whole archive in one object (docs/stats.md)."""
    from referee.judge.services.archive_stats import median

    games: dict[str, Any] = {}
    for name, game in sorted(stats.games.items()):
        lengths = game.lengths
        games[name] = {
            "records": game.records,
            "statuses": {str(status): game.statuses[str(status)] for status in Status if game.statuses[str(status)]},
            "wins": dict(sorted(game.wins.items())),
            "draws": game.draws,
            "reasons": dict(sorted(game.reasons.items())),
            "turns": {
                "records": len(lengths),
                "min": min(lengths) if lengths else None,
                "median": median(lengths) if lengths else None,
                "max": max(lengths) if lengths else None,
            },
            "dice": {
                side: {
                    "rolls": audit.rolls,
                    "faces": {str(face): count for face, count in enumerate(audit.faces, start=1)},
                    "as_given": audit.as_given,
                    "chi_square": None if audit.chi_square is None else round(audit.chi_square, 4),
                    "p_value": None if audit.p_value is None else round(audit.p_value, 6),
                    "unfair": audit.unfair,
                }
                for side, audit in sorted(game.dice.items())
            },
        }
    return {"records": stats.records, "games": games}


def stats_json(stats: Stats) -> str:
    return json_line(stats_fields(stats))


def stats_text(stats: Stats) -> str:
    """The archive in words: one block per game."""
    from referee.judge.services.archive_stats import MIN_ROLLS, UNFAIR_BELOW

    lines = [f"{plural(stats.records, 'record')}"]
    for name, fields in stats_fields(stats)["games"].items():
        statuses = ", ".join(f"{count} {status}" for status, count in fields["statuses"].items())
        lines.append(f"{name}: {plural(fields['records'], 'record')} ({statuses})")
        if fields["wins"] or fields["draws"]:
            wins = ", ".join(f"{side} {count}" for side, count in fields["wins"].items())
            lines.append(f"  wins: {wins or 'none'}; draws: {fields['draws']}")
            lines.append("  reasons: " + ", ".join(f"{reason} {count}" for reason, count in fields["reasons"].items()))
        turns = fields["turns"]
        if turns["records"]:
            median_text = f"{turns['median']:g}"
            lines.append(f"  turns: min {turns['min']}, median {median_text}, max {turns['max']}")
        for side, audit in fields["dice"].items():
            faces = " ".join(f"{face}:{count}" for face, count in audit["faces"].items())
            if audit["p_value"] is None:
                test = f"too few rolls for a test (fewer than {MIN_ROLLS})"
            else:
                test = f"chi-square {audit['chi_square']:.2f}, p = {audit['p_value']:.4f}"
                if audit["unfair"]:
                    test += f": UNFAIR? (p < {UNFAIR_BELOW})"
            lines.append(f"  dice {side}: {plural(audit['rolls'], 'roll')} ({faces}); {test}")
            if audit["as_given"]:
                lines.append(f"    {plural(audit['as_given'], 'roll')} taken as written (no seed in the record)")
    return "\n".join(lines)


def locale_speaker() -> Speaker | None:
    """The speaker of the command line's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG,
    docs/languages.md), or None for English: then nothing is translated and no catalogue
    is read. `--json` never asks (its output is the same in every locale)."""
    import os

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value:
            if value in ("C", "POSIX") or value.startswith(("C.", "en")) and ":" not in value:
                return None  # English, the default: no catalogue, no module more (`check` starts as fast)
            break
    else:
        return None
    from referee import speech

    lang = speech.from_environment()
    return None if lang == speech.DEFAULT else speech.speaker(lang)


def spoken_verdicts(text: str, say: Speaker) -> str:
    """`check`'s verdict lines (each ending with a newline) in the speaker's language; the
    source, record number, game and notation as written."""
    from referee import spoken_lines

    return "".join(spoken_lines.verdict_line(line, say) + "\n" for line in text.split("\n")[:-1])


def spoken_error(text: str, say: Speaker | None) -> str:
    """An error's message in the locale's language where the catalogue knows it."""
    if say is None:
        return text
    from referee import spoken_lines

    return spoken_lines.error(text, say)
