"""Draws and undo that need every player (PLAY.md §6), and `submit`, the entry of
`referee play` and of the mail gateway.

    submit(Path("g.rgn"), "draw", as_side="Sparta")   # Sparta's offer, or the agreed draw
    submit(Path("g.rgn"), "undo", as_side="Sparta")   # an undo offer, or the turn taken back
    submit(Path("g.rgn"), "undo")                      # the game master takes it back at once

A submission that ends with the word `draw` or `undo` is a request: with `--as SIDE` it
is that side's offer (after its moves, if it holds any: "I play this and offer a draw");
without, `draw` ends the game at once as before and `undo` takes the last turn back at
once. Every other submission is played as `core.playing` plays moves. The offer, the draw or the undone
turn is written under the game's lock, all or nothing, as every submission is."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from referee.errors import UsageError
from referee.games import registry
from referee.judge.core import clock_walk
from referee.judge.core.adjudicate import Replay, adjudicate, read_source
from referee.judge.core.turn_token import canonical_text, token_of
from referee.judge.core.verdict_words import verdict_line
from referee.judge.core.verdicts import Status, annotated
from referee.live.play import changes, core, keys, move_clock, submission
from referee.live.play.offers import (
    AgreementError,
    Offer,
    OfferKind,
    missing,
    player_of,
    players,
    rolls_in,
    standing,
    take_back,
    with_items,
)
from referee.live.play.result import PlayResult
from referee.notation.model import Comment, Draw, Record, Span, Tag, Turn

NOWHERE = Span(1, 1)
_WORD = re.compile(r"(draw|undo)\s*\Z", re.IGNORECASE)
_WHAT = {OfferKind.DRAW: "a draw", OfferKind.UNDO: "to take back the last turn"}


def split_request(moves: str | None) -> tuple[str | None, OfferKind | None]:
    """The moves before a final `draw` or `undo` word (None when none), and that word;
    `(moves, None)` when the submission does not end with one. A word inside a comment
    is no request."""
    if moves is None:
        return None, None
    found = _WORD.search(moves)
    if found is None:
        return moves, None
    before = moves[: found.start()]
    if before and not before[-1].isspace():
        return moves, None
    if ";" in before[before.rfind("\n") + 1 :] or before.rfind("{") > before.rfind("}"):
        return moves, None  # the word is inside a comment
    rest = before.strip()
    return (rest or None), OfferKind(found.group(1).lower())


def submit(
    path: Path,
    moves: str | None,
    *,
    as_side: str | None = None,
    expect: str | None = None,
    dry_run: bool = False,
    seed: str | None = None,
    salts: Sequence[tuple[str, str]] = (),
    wait: float = 10.0,
    now: int | None = None,
    grants: Sequence[str] = (),
    as_of: int | None = None,
    known: core.Known | None = None,
    reason: Sequence[changes.Wording] | str | None = None,
) -> PlayResult:
    """Play `moves` on the one game in `path` (PLAY.md §1, §6): moves alone as
    `core.playing` plays them; a final `draw` or `undo` as an offer of `as_side`, or as the
    game master's draw or undo without it. In a timed game every submission, an offer
    included, is stamped at `now` (TIME.md §5; `grants` and `as_of` as `core.playing`
    takes them; `reason`, what a writing of grants alone says it did, for a stale token's
    refusal: `changes.py`). `known`: the file's text as the caller read it and its replay
    (`core.replay_file`), used when the file still holds that text under the lock.
    A player's submission (`as_side`) holding a comment command is refused whole
    (PLAY.md §7): every player's way in, `play --as` and the mail gateway, comes here.
    Raises BusyError (exit 75) and UsageError (exit 2)."""
    if as_side is not None and moves is not None and (command := submission.command_in(moves)) is not None:
        # A player's word never holds the referee's (PLAY.md §7): refused whole, before any
        # of it is read, so that no offer, stamp or grant the referee adds meets it.
        return core.refuse(Path(path), submission.command_refusal(command), dry_run=dry_run, wait=wait, known=known)
    rest, kind = split_request(moves)
    decide: core.Decide
    if kind is None or (kind is OfferKind.DRAW and as_side is None) or grants:
        decide = core.playing(
            Path(path),
            moves,
            as_side=as_side,
            expect=expect,
            seed=seed,
            salts=salts,
            now=now,
            grants=grants,
            as_of=as_of,
            reason=reason,
        )
    else:
        request = _Request(Path(path), as_side, kind)

        def decide(current: Replay) -> tuple[PlayResult, str | None]:
            request.now = clock_walk.current_instant() if now is None else now  # once the lock is held
            return request.decide(current, rest, expect, seed, salts)

    return core.decided(Path(path), decide, dry_run=dry_run, wait=wait, known=known)


class _Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class _Request:
    """One offer, or the game master's undo, on one game file."""

    def __init__(self, path: Path, as_side: str | None, kind: OfferKind) -> None:
        self.path = path
        self.source = str(path)
        self.as_side = as_side
        self.kind = kind
        self.current: Replay | None = None
        self.now = 0
        self.awaited: str | None = None  # the side the game awaited before this submission
        self.timed = False

    def decide(
        self, current: Replay, rest: str | None, expect: str | None, seed: str | None, salts: Sequence[tuple[str, str]]
    ) -> tuple[PlayResult, str | None]:
        """The offer (after the moves `rest`, if any) on the game replayed as `current`
        (`core.replay_file`): the result and the text to write (None: refused)."""
        events: list[str] = []
        original = current
        if rest is not None and self._only_labels(current, rest):
            rest = None  # `R: draw`: the label of the offering side, and no action
        if salts and rest is None:
            raise UsageError("--salt is written with moves or alone, not with draw or undo alone")
        if rest is not None:
            if self.kind is OfferKind.UNDO:
                return self._refusal(current, "undo is sent alone: a submission that plays moves cannot also undo")
            played, text = core.playing(
                self.path, rest, as_side=self.as_side, expect=expect, seed=seed, salts=salts, now=self.now
            )(current)
            if text is None:
                return played, None
            current, expect, events = core.replay_file(self.path, text.encode("utf-8")), None, list(played.events)
        try:
            return self._decide(current, expect, events)
        except _Refused as refusal:
            return self._refusal(original, refusal.message)  # the game as it stands, not after the moves

    def _only_labels(self, current: Replay, rest: str) -> bool:
        """Whether the text before the word holds no action: only labels of the offering
        side (any side for the game master) and comments, which are then not written."""
        record = current.record
        if record is None:
            return False
        try:
            read = submission.read(rest, record.game, current.verdict.to_move)
        except submission.SubmissionError:
            return False  # `core` says what is wrong with it
        if read.part is not None:
            return False
        items = read.record.items if read.record is not None else ()
        if any(not isinstance(item, Turn | Comment) for item in items):
            return False
        turns = [item for item in items if isinstance(item, Turn)]
        side = keys.side_of(registry.GAMES[record.game], self.as_side) if self.as_side is not None else None
        return all(not turn.moves and side in (None, turn.side) for turn in turns)

    def _refusal(self, current: Replay, message: str) -> tuple[PlayResult, None]:
        """Nothing written: the refusal, with the verdict and board of the game `current`."""
        token = token_of(current)
        verdict = annotated(current.verdict, token)
        state = current.state if current.record is not None else None
        result = PlayResult.shown(1, verdict, token, state, error=message)
        return result, None

    def _decide(self, current: Replay, expect: str | None, events: list[str]) -> tuple[PlayResult, str | None]:
        self.current = current
        record, verdict, state = current.record, current.verdict, current.state
        self.timed = verdict.clock is not None
        self.awaited = state.awaited() if state is not None else None
        line = verdict_line(annotated(verdict, None))
        if record is None or state is None or not verdict.legal:
            raise _Refused(line)
        if verdict.status == Status.FINISHED:
            raise _Refused(f"{line}: the game is over, nothing more can be agreed or taken back")
        token = token_of(current)
        if expect is not None and expect.strip() != token:
            raise _Refused(changes.stale(self.path, expect.strip(), token, wrote="this"))
        info = registry.GAMES[record.game]
        if self.as_side is None:  # the game master's undo: at once
            new, undone = self._taken_back(record, by_master=True)
            return self._written(record, new, [*events, f"the last turn is taken back: {undone}"], "undone")
        side = keys.side_of(info, self.as_side)
        if not state.in_game(side):
            raise _Refused(f"{side} has left the game: it is no longer a player and makes no offers")
        everyone = players(record, info, state)
        offers = standing(record, info)
        player = player_of(side, everyone)
        assert player is not None  # a side in the game belongs to a player
        offer = Offer(self.kind, side)
        waiting = missing(self.kind, (*offers, offer), everyone)
        if waiting:
            names = ", ".join(each.name for each in waiting)
            note = f"{side} offers {_WHAT[self.kind]}; still to agree: {names}"
            if player not in missing(self.kind, offers, everyone):
                note += f" ({player.name}'s offer already stood)"
            if self.kind is OfferKind.UNDO:
                note += self._undo_warning(record)
            return self._written(record, with_items(record, offer.comment()), [*events, note], f"{self.kind}-offered")
        if self.kind is OfferKind.DRAW:
            note = f"{side} agrees: every player agrees to a draw"
            return self._written(record, with_items(record, Draw(NOWHERE)), [*events, note], "drawn")
        new, undone = self._taken_back(record)
        note = f"{side} agrees: every player agrees to take back the last turn: {undone}"
        return self._written(record, new, [*events, note], "undone")

    def _undo_warning(self, record: Record) -> str:
        """Why the undo offered could not be done when every player agrees, if it could not."""
        try:
            self._taken_back(record)
        except _Refused as refusal:
            return f"; but it will be refused: {refusal.message}"
        return ""

    def _taken_back(self, record: Record, by_master: bool = False) -> tuple[Record, str]:
        """The record with its last turn taken back, refused when that turn holds a roll."""
        current = self.current
        assert current is not None
        info = registry.GAMES[record.game]
        try:
            taken = take_back(record, info, registry.engine(record.game).dialect(), current.numbers, by_master)
        except AgreementError as error:
            raise _Refused(str(error)) from None
        events = [event for step in current.steps if step.turn is taken.turn for event in step.events]
        if rolls_in(record.game, taken.turn, events):
            raise _Refused(
                f"the last turn ({taken.undone}) holds a roll or a battle result: "
                "a die once seen is never rolled again, so it cannot be taken back"
            )
        return taken.record, taken.undone

    def _written(self, before: Record, record: Record, events: list[str], agreement: str) -> tuple[PlayResult, str]:
        """The new record judged, in canonical form with its computed Result, and the result.
        In a timed game the submission is closed by its stamp (TIME.md §2), naming the side
        the game awaited: an offer by Blue while Red is to move is closed by Red's."""
        if self.timed:
            record = record._replace(
                items=tuple(move_clock.closed(record.items, [move_clock.stamp(self.now, self.awaited)]))
            )
        bare = record._replace(tags=tuple(tag for tag in before.tags if tag.name != "Result"))
        first = adjudicate(bare, self.source)
        if first.verdict.status not in (Status.FINISHED, Status.ONGOING):  # pragma: no cover - defensive
            raise _Refused(verdict_line(first.verdict))
        claimed = bare._replace(tags=(*bare.tags, Tag("Result", core.result_value(first.verdict), NOWHERE)))
        text = canonical_text(claimed, first)
        again = adjudicate(read_source(text.encode("utf-8"))[0], self.source)
        token = token_of(again)
        verdict = annotated(again.verdict, token)
        result = PlayResult.shown(
            0, verdict, token, again.state, events=events, agreement=agreement, instant=self.now, replayed=again
        )
        return result, text
