"""`referee play`: continue a live game's record with a submission, all or nothing
(PLAY.md §1-4). The record is replayed through its engine; the submission is appended to
it (its first actions continuing a turn the record left open, a battle part written onto
the battle that awaits it) and judged as the combined record: what the engine says of it
is what `check` will say of the file once written. Where it can, the submission
continues the record's replayed state (`referee.judge.core.continued_replay.continued`: new turns, the
open turn continued, an awaited roll or choice completed) instead of replaying the whole
combined record again."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from referee import store
from referee.errors import UsageError
from referee.games import registry
from referee.games.api import GameInfo, GameState, Randomness
from referee.games.randomness import salt_tag
from referee.judge.core import action_forms, clock_walk
from referee.judge.core.adjudicate import Played, Replay, adjudicate, read_source
from referee.judge.core.continued_replay import continued
from referee.judge.core.did_you_mean import closest
from referee.judge.core.did_you_mean import suggestions as suggest
from referee.judge.core.turn_token import canonical_text, token_of, turn_token
from referee.judge.core.verdict_words import verdict_fields, verdict_line
from referee.judge.core.verdicts import Status, Verdict, annotated, relocated, with_claim
from referee.judge.sources import record_sources
from referee.live.play import changes, keys, move_clock, queues, submission
from referee.live.play.plan import Plan, Refusal, replace_moves, rolled, with_roll
from referee.live.play.result import PlayResult, next_text
from referee.notation.comment_commands import Command
from referee.notation.model import Move, Record, Span, Tag
from referee.speech import N_

NOWHERE = Span(1, 1)

Known = tuple[bytes, Replay]
"""A game file's text as a caller read it, and its replay (`replay_file`)."""


def read_game(path: Path) -> bytes:
    """A game file's bytes as the operation in progress left it (staged), else read from
    disk: a regular file of at most `--max-record-bytes` (PLAY.md §8); UsageError
    otherwise (a FIFO or a device is refused unread)."""
    return store.read_bytes(path, _read_bounded)


def _read_bounded(path: Path) -> bytes:
    return record_sources.read_bounded(path, record_sources.MAX_RECORD, str(path))


@contextmanager
def locked_game(path: Path, wait: float) -> Iterator[bytes]:
    """A game file's bytes read under its lock, within the store's transaction, for a
    change of it. A path that is not a file is refused (UsageError: `read_game`'s reason)
    before a lock file is made beside a missing game. Raises BusyError (exit 75)."""
    if not path.is_file():
        read_game(path)  # the reason, before a lock file is made beside a missing game
        raise UsageError(f"cannot read {path}: not a file")
    with store.transaction(store.target_of(path).parent, wait), store.locked(path, wait):
        yield read_game(path)


def replay_file(path: Path, data: bytes) -> Replay:
    """The one record of a game file's text (`data`, read from `path`), replayed with its
    steps: the value `play` judges a submission against. UsageError unless it holds one."""
    results = read_source(data)
    if len(results) != 1:
        raise UsageError(f"{path} must hold one game, it holds {len(results)}")
    return adjudicate(results[0], str(path), keep_steps=True)


Decide = Callable[[Replay], tuple[PlayResult, str | None]]
"""What a submission makes of the game as replayed under its lock: the result, and the
text to write (None: refused). `decided` runs one."""


def playing(
    path: Path,
    moves: str | None,
    *,
    as_side: str | None = None,
    expect: str | None = None,
    seed: str | None = None,
    salts: Sequence[tuple[str, str]] = (),
    now: int | None = None,
    grants: Sequence[str] = (),
    as_of: int | None = None,
    reason: Sequence[changes.Wording] | str | None = None,
) -> Decide:
    """The decision of a submission of `moves` (RGN move text, None for none) on the game
    in `path`: written when every action is legal, refused otherwise (`submit` in
    `agreement.py`, the one entry, runs it under the game's lock; an offer's moves and a
    queued reply are decided on the replay already held under it). `seed` is the game
    master's key (the key file's text); `salts` are (side, text) pairs to write as the
    sides' salts. In a timed game (TIME.md §5) the submission is stamped at `now`
    (seconds since the epoch; default the system clock, read once the lock is held),
    `grants` are `SIDE=DURATION` extensions, and the verdict's clock is given as of
    `as_of` (default the last stamp). A writing of grants or salts alone changes the token
    and not the board: the result's `retoken` says so, in the words of `reason` when given
    (a league's leave), else `the game master granted Blue 2d`."""

    def decide(current: Replay) -> tuple[PlayResult, str | None]:
        game = _Game(path, current)
        game.now = clock_walk.current_instant() if now is None else now
        game.as_of, game.grants = as_of, list(grants)
        move_clock.as_of(game.current.verdict, as_of, strict=True)
        try:
            result, text = game.play(moves, as_side, expect, seed, salts)
        except Refusal as refusal:
            result, text = game.refused(refusal), None
        result = dataclasses.replace(result, instant=game.now)
        if text is not None and not (moves and moves.strip()) and (grants or salts):
            what = reason or _no_move_text(grants, salts)
            result = dataclasses.replace(result, retoken=changes.change(path, game.token, result.token, what, game.now))
        return result, text

    return decide


def _no_move_text(grants: Sequence[str], salts: Sequence[tuple[str, str]]) -> list[changes.Wording]:
    """`the game master granted Blue 2d, Red 1d`; `Red's salt was written`: the parts of
    the change, joined by `and`."""
    parts = []
    if grants:
        given = ", ".join(
            f"{side.strip()} {duration.strip()}" for side, _, duration in (g.partition("=") for g in grants)
        )
        parts.append(changes.wording("grant", given=given))
    parts += [changes.wording("salt", side=side) for side, _ in salts]
    return parts


def decided(
    path: Path,
    decide: Decide,
    *,
    dry_run: bool,
    wait: float,
    known: Known | None = None,
) -> PlayResult:
    """The one way a game file is changed (PLAY.md §4): under its lock, its text read and
    replayed once (`replay_file`), `decide` gives the result and the new text (None:
    refused), which is written atomically unless `dry_run`. `known` is a replay the caller
    made of the text it read before taking the lock (the mail gateway, to know the
    players): it is used, not made again, when the file still holds exactly that text.
    Raises BusyError (exit 75) and UsageError (exit 2)."""
    with locked_game(path, wait) as data:
        current = known[1] if known is not None and known[0] == data else replay_file(path, data)
        result, text = decide(current)
        result = dataclasses.replace(result, dry_run=dry_run)
        if dry_run and result.exit_code == 0:
            result = dataclasses.replace(result, notice="dry run: nothing written")
        if text is not None and not dry_run:
            text, result = _settled(path, current, text, result)
            store.write(path, text)  # at once, or with the rest of the operation it is part of
            if result.retoken is not None:
                changes.note(path, result.retoken)  # with the game: why its token changed
            result = dataclasses.replace(result, written=True)
    return result


def _settled(path: Path, current: Replay, text: str, result: PlayResult) -> tuple[str, PlayResult]:
    """The text to write once the game's queues are settled (PLAY.md §9: commitments
    entered, queued replies played in the same write, spent queues told, queues revealed
    at the end), and the result that says so. A game on which no queue was ever set is
    written as decided, at the cost of one look for its queue folder."""
    if not queues.has_queues(path):
        return text, result
    instant = result.instant if result.instant is not None else clock_walk.current_instant()

    def play(game: Path, replay: Replay, moves: str, side: str) -> tuple[PlayResult, str | None]:
        return playing(game, moves, as_side=side, now=instant)(replay)

    done = queues.settled(path, current, text, instant, play)
    if not done.changed:
        return text, result
    replay = replay_file(path, done.text.encode("utf-8"))
    token = token_of(replay)
    verdict = annotated(replay.verdict, token)
    state = replay.state
    result = dataclasses.replace(
        result,
        token=token,
        verdict=verdict_fields(verdict),
        events=[*result.events, *done.events],
        notices=(*result.notices, *done.notices),
        board=state.render() if state is not None else result.board,
        next=next_text(verdict, token),
        headline=verdict_line(verdict),
        replayed=replay,
    )
    return done.text, result


def refuse(path: Path, message: str, *, dry_run: bool, wait: float, known: Known | None = None) -> PlayResult:
    """Refuse a submission without reading it (`message`: why), with the verdict, board and
    token of the game as it stands, read under its lock as `decided` reads it."""

    def decide(current: Replay) -> tuple[PlayResult, str | None]:
        return _Game(path, current).refused(Refusal(message)), None

    return decided(path, decide, dry_run=dry_run, wait=wait, known=known)


def result_value(verdict: Verdict) -> str:
    """The `Result` tag of a record with this verdict: `*` while the game goes on."""
    if verdict.status != Status.FINISHED:
        return "*"
    return "draw" if verdict.draw else "+".join(verdict.winners)


class _Game:
    """One game file read and judged (`replay_file`), ready to take a submission."""

    def __init__(self, path: Path, current: Replay) -> None:
        self.path = path
        self.source = str(path)
        self.current = current
        self.as_side: str | None = None
        self.now = clock_walk.current_instant()  # `submit` sets `--now`
        self.as_of: int | None = None
        self.grants: list[str] = []

    @functools.cached_property
    def token(self) -> str | None:
        """The token of the game as it stands (only written out when asked for)."""
        return token_of(self.current)

    @functools.cached_property
    def verdict(self) -> Verdict:
        return move_clock.as_of(annotated(self.current.verdict, self.token), self.as_of)

    # -- outcomes -------------------------------------------------------------------

    def refused(self, refusal: Refusal) -> PlayResult:
        verdict = refusal.verdict or self.verdict
        state = self.current.state if self.current.record is not None else None
        return PlayResult.shown(
            1, verdict, self.token, state, next_of=self.verdict, suggestions=refusal.suggestions, error=refusal.message
        )

    # -- the submission -------------------------------------------------------------

    def play(
        self,
        moves: str | None,
        as_side: str | None,
        expect: str | None,
        seed: str | None,
        salts: Sequence[tuple[str, str]],
    ) -> tuple[PlayResult, str | None]:
        """The submission's result and the text to write; raises Refusal when it is refused."""
        record, verdict = self.current.record, self.current.verdict
        if record is None or verdict.status not in (Status.FINISHED, Status.ONGOING) or verdict.result_matches is False:
            raise Refusal(verdict_line(self.verdict))
        if verdict.status == Status.FINISHED:
            raise Refusal(
                N_("{verdict}: the game is over, nothing more can be played").format(verdict=verdict_line(self.verdict))
            )
        info = registry.GAMES[record.game]
        side = keys.side_of(info, as_side) if as_side is not None else None
        self.as_side = side
        new_salts = keys.checked_salts(info, salts)
        if expect is not None and expect.strip() != self.token:
            raise Refusal(changes.stale(self.path, expect.strip(), self.token))
        tags = {tag.name: tag.value for tag in record.tags}
        secret = "SeedHash" in tags and "Seed" not in tags
        if seed is not None:
            try:
                keys.check_key(tags, seed)
            except keys.KeyMismatch as error:
                raise Refusal(str(error)) from None
        keyed = seed is not None and secret
        if new_salts:
            self._check_salts(info, record, tags, new_salts)
        claim = move_clock.is_timeout(moves) or (side is None and move_clock.is_adjudication(moves))
        if side is not None and verdict.to_move != side and not claim:
            raise Refusal(N_("{mover} is to move, not {side}").format(mover=verdict.to_move, side=side))
        text = moves if moves is not None and moves.strip() else None
        try:
            sub = submission.read(text, record.game, verdict.to_move) if text is not None else None
        except submission.SubmissionError as error:
            where = f"line {error.span.line}, col {error.span.column}"
            raise Refusal(f"submission: {record.game}: malformed: {where}: {error.message}") from None
        plan = Plan(record, self.current, sub)
        if sub is not None:
            if side is not None:
                plan.check_sides(side)
            if secret and not keyed:
                plan.check_no_rolls()
        pending = self.current.state.pending() if self.current.state is not None else None
        grants = self._grants(info, side, sub)
        if not plan.actions and not new_salts and not grants:
            if keyed and pending == "roll":
                pass
            elif keyed:
                raise Refusal(f"nothing awaits the game master's key: {next_text(self.verdict, self.token)}")
            else:
                raise Refusal(N_("the submission holds no action"))
        written_tags = [tag for tag in record.tags if tag.name != "Result"]
        written_tags += [Tag(salt_tag(name), value, NOWHERE) for name, value in new_salts]
        engine_tags = written_tags
        if keyed and seed is not None:
            values = keys.keyed_tags(info, {tag.name: tag.value for tag in written_tags}, seed)
            engine_tags = [Tag(name, value, NOWHERE) for name, value in values.items()]
        self._clocked(plan, side, claim, grants)
        result, written = self._judge(plan, written_tags, engine_tags, keyed, pending)
        noted = [f'{name}\'s salt is written: [{salt_tag(name)} "{value}"]' for name, value in new_salts]
        return dataclasses.replace(result, events=noted + result.events), written

    # -- the clock (TIME.md §5; referee.live.play.move_clock) --------------------------------------

    def _grants(self, info: GameInfo, side: str | None, sub: submission.Submission | None) -> list[Command]:
        """`--grant SIDE=DURATION`: the game master's, alone, in a timed game."""
        state = self.current.state
        sides = state.sides if state is not None else info.sides
        try:
            return move_clock.grants(self.grants, self.current.verdict.clock, info, sides, side, sub is not None)
        except move_clock.ClockRefusal as refusal:
            raise Refusal(str(refusal)) from None

    def _clocked(self, plan: Plan, side: str | None, claim: bool, grants: list[Command]) -> None:
        """In a timed game: refuse a flagged side's input, then close the submission with
        its grants (if any) and its stamp, naming the side whose clock ran until now."""
        view, state = self.current.verdict.clock, self.current.state
        if view is None or state is None or not (plan.actions or grants):
            return
        holds_input = plan.actions and not claim
        why = move_clock.refusal(view, self.now, side, self.current.verdict.to_move if holds_input else None)
        if why is not None:
            raise Refusal(why)
        plan.items = move_clock.closed(plan.items, [*grants, move_clock.stamp(self.now, state.awaited())])

    def _check_salts(self, info: GameInfo, record: Record, tags: dict[str, str], salts: list[tuple[str, str]]) -> None:
        if info.randomness == Randomness.TILES:
            raise Refusal(
                f"{info.name}'s tiles are dealt when the game is created: "
                "its salts are given to referee new --secret KEY --salt SIDE=TEXT"
            )
        if info.randomness is None:
            raise Refusal(N_("{game} draws no dice: a salt would change nothing").format(game=info.name))
        if "SeedHash" not in tags or "Seed" in tags:
            raise Refusal(N_("salts are for a secret seed: this game has no SeedHash, or its seed is revealed"))
        engine = registry.engine(record.game)
        if any(rolled(engine, move.action) for turn in record.turns for move in turn.moves):
            raise Refusal(N_("the first roll has been drawn: salts must come before it"))
        for name, _ in salts:
            if salt_tag(name) in tags:
                raise Refusal(N_("{side} has already given its salt").format(side=name))

    def _judge(
        self,
        plan: Plan,
        written_tags: list[Tag],
        engine_tags: list[Tag],
        keyed: bool,
        pending: str | None,
    ) -> tuple[PlayResult, str | None]:
        record = plan.record
        combined = Record(record.game, tuple(engine_tags), tuple(plan.items), record.span)
        # The submission's turns continue the replayed state where they can (the same
        # verdict, steps and numbers as a replay of the combined record), else it is replayed.
        # With the game master's key, the state goes on drawing from the secret seed (the
        # engine's `keyed`), the same as a replay of the game and the submission with the key.
        first = continued(self.current, combined, self.source, keyed=keyed) or adjudicate(
            combined, self.source, keep_steps=True
        )
        if first.verdict.status not in (Status.FINISHED, Status.ONGOING):
            self._explain(plan, first, combined, keyed)
        drawn_ids = set(plan.submitted)
        if pending == "roll" and plan.awaiting is not None:
            drawn_ids.add(id(plan.awaiting))
        filled: dict[int, Move] = {}
        events: list[str] = []
        for played in first.steps:
            if id(played.move) not in drawn_ids:
                continue
            self._check_chooser(played, record.game)
            events.extend(str(event) for event in played.events)
            move = with_roll(registry.engine(record.game), played.move, played.events)
            if move is not None:
                filled[id(played.move)] = move
        events += self._fill_pending_choice(first, plan, drawn_ids, filled)
        items = tuple(replace_moves(plan.items, filled)) if filled else tuple(plan.items)
        final = Record(record.game, tuple(written_tags), items, record.span)
        # Rolls written in (physical dice, the key's draws): the record as written, continued
        # from the game's replay where its own items are untouched, else replayed whole.
        second = first
        if filled or keyed:
            second = continued(self.current, final, self.source) or adjudicate(final, self.source)
        if second.verdict.status not in (Status.FINISHED, Status.ONGOING):
            raise Refusal(verdict_line(second.verdict), second.verdict)  # pragma: no cover - defensive
        if second is first:
            final = combined
        value = result_value(second.verdict)
        turns = second.verdict.turns or 0
        token = turn_token(turns, canonical_text(final, second))
        claimed = final._replace(tags=(*written_tags, Tag("Result", value, NOWHERE)))
        text = canonical_text(claimed, second)
        verdict = move_clock.as_of(annotated(with_claim(second.verdict, value), token), self.as_of)
        result = PlayResult.shown(0, verdict, token, second.state, events=events, replayed=second)
        return result, text

    def _check_chooser(self, played: Played, game: str) -> None:
        """`--as SIDE`: a choice that is the opposing side's to make (a retreat
        after AB2) may not be written in this side's submission."""
        side = self.as_side
        if side is None or played.turn.side != side:
            return
        if registry.engine(game).choice_by_opponent(played.move.action, played.events):
            raise Refusal(
                N_("the retreat after {move} is chosen by the defender: {side} may not write it").format(
                    move=played.move.text, side=side
                )
            )

    @staticmethod
    def _fill_pending_choice(replayed: Replay, plan: Plan, drawn: set[int], filled: dict[int, Move]) -> list[str]:
        """A battle left awaiting its winner's choice has been rolled but has caused no
        event yet: its roll and result are those of the completions the engine offers."""
        state = replayed.state
        last = plan.last_move()
        if state is None or last is None or state.pending() != "choice" or id(last) not in drawn:
            return []
        action = last.action
        engine = registry.engine(plan.record.game)
        chance = engine.chance_of(action)
        if chance is None or chance.written:
            return []
        for completion in state.legal_actions():
            done = engine.chance_of(completion)
            if done is not None and done.roll is not None and done.result is not None:
                written = engine.with_chance(action, done.roll, done.result)
                filled[id(last)] = Move(written, str(written), last.span, last.glyph)
                return [f"die {done.roll}", f"{done.result}: awaiting {state.pending_message()}"]
        return []

    def _explain(self, plan: Plan, replayed: Replay, combined: Record, keyed: bool) -> None:
        """Raise the refusal that a failed replay of the combined record calls for."""
        verdict = replayed.verdict
        error = verdict.error
        if error is None:
            raise Refusal(verdict_line(verdict), verdict)
        span = Span(error.line, error.column)
        failing = plan.move_at(span)
        if failing is not None and error.action is not None:
            awaited = self._awaited(plan, combined, failing)
            if awaited is not None:
                raise Refusal(awaited)
        where = plan.relocate.get(span)
        if where is None and submission.in_submission(span):
            where = submission.local(span)
        if where is None:
            raise Refusal(verdict_line(verdict), verdict)
        moved = relocated(verdict, "submission", where.line, where.column)
        hints: list[str] = []
        if error.action is not None and replayed.state is not None:
            hints = self._hints(
                plan, replayed.state, failing, error.action, keyed or action_forms.secret(combined.tag_map)
            )
        moved = annotated(moved, None, hints)
        raise Refusal(verdict_line(moved), moved, hints)

    def _hints(self, plan: Plan, state: GameState[Any], failing: Move | None, written: str, hidden: bool) -> list[str]:
        """Did-you-mean, only what `play` accepts at that point: for a roll or choice
        written onto the battle awaiting it, the parts that complete that battle; else the
        legal actions closest to what was written, with no roll while the dice are secret."""
        part = plan.sub.part if plan.sub is not None else None
        pending = self.current.state.pending() if self.current.state is not None else None
        if part is not None and failing is not None and failing is plan.awaiting and plan.awaited_text and pending:
            completions = [str(action) for action in state.legal_actions()]
            syntax = registry.engine(plan.record.game).chance_syntax()
            awaited = action_forms.awaited_parts(plan.awaited_text, completions, str(pending), hidden, syntax)
            return closest(awaited, part.text)
        return suggest(state, written, hide_rolls=hidden)

    def _awaited(self, plan: Plan, combined: Record, failing: Move) -> str | None:
        """When the game comes to await something (a roll, another side's choice) at
        the failing action and the submission goes on past it (PLAY.md §1.6): what is
        awaited and from whom."""
        cut = combined._replace(items=tuple(plan.cut_after(failing)))
        replayed = adjudicate(cut, self.source)
        verdict = replayed.verdict
        if verdict.status != Status.ONGOING or verdict.pending not in ("roll", "choice"):
            return None
        tags = cut.tag_map
        if verdict.pending == "roll":
            syntax = registry.engine(cut.game).chance_syntax()
            written = f" (written like {syntax.rolled.removeprefix(syntax.declared)})" if syntax is not None else ""
            who = (
                "the game master's key (referee play --seed-file)"
                if "SeedHash" in tags and "Seed" not in tags
                else f"{verdict.to_move}'s physical dice{written}"
            )
        else:
            who = str(verdict.to_move)
        return (
            f"the game awaits {verdict.pending_message} from {who}: nothing after {failing.text} can be played "
            "before it; submit what comes before it alone"
        )
