"""Pikemen's rules (pikemen.md): pikemen charge the way they face and capture by size.

Turn order and rounds: sides move clockwise in the order Red, Yellow, Blue, Green (those
in the game); a side with no pieces left (captured or resigned) is skipped. Round 1 opens
with the first side to move (the `First` tag, or the Position's `to:`), and a new round
opens whenever the turn order wraps round past that side's seat, even when that side
itself has left the game (docs/pikemen.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from referee.games.api import (
    RESIGN,
    Event,
    EventKind,
    GameState,
    IllegalActionError,
    Reason,
    SetupError,
    Start,
    quoted,
    whole_number,
)
from referee.games.engine_base import Engine
from referee.games.pikemen.actions import DIALECT, Charge, PikemenAction, Reorient
from referee.games.pikemen.board import (
    FACING_INDEX,
    FACINGS,
    LARGE,
    PASSED,
    PIECES,
    RAYS,
    SETUPS,
    SIZE_WORDS,
    SIZES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    UPRIGHT,
    Piece,
)
from referee.games.pikemen.position import read_position
from referee.games.pikemen.tables import (
    CHARGES,
    TURNS,
    charge_events,
    charge_options,
    line_of,
    piece_words,
    reorients,
    turn_events,
    turn_of,
)
from referee.games.registry import PIKEMEN
from referee.games.values import phrase
from referee.notation.dialect import Dialect

DEFAULT_TARGET = 12

Pass = tuple[int, str, bool, int]
"""How the turn passes from a side (`_turn_order`)."""


@cache
def _turn_order(sides: tuple[str, ...], to_move: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Pass, ...]]:
    """The turn order of a game of `sides` whose round 1 opens with the side `to_move`:
    each side's seat (its place counted from that side), its clockwise neighbour (the
    next to move unless it has left the game), and how the turn passes once it has played
    where that neighbour has pieces: that side, its name, whether its turn opens a round,
    the seat of the side that played (`_apply`)."""
    count = len(sides)
    seats = tuple((side - to_move) % count for side in range(count))
    clockwise = tuple((side + 1) % count for side in range(count))
    passes = tuple(
        (after, sides[after], seats[after] <= seats[side], seats[side]) for side, after in enumerate(clockwise)
    )
    return seats, clockwise, passes


@cache
def _setup(players: int, sides: tuple[str, ...]) -> tuple[Piece | None, ...]:
    """The board a game of `sides` starts with: each side's setup, upright."""
    board: list[Piece | None] = [None] * 64
    for owner, side in enumerate(sides):
        for square, size in SETUPS[players][side]:
            board[square] = (owner, size, UPRIGHT)
    return tuple(board)


_new = tuple.__new__
"""A named tuple made from its fields' tuple (`_new(Event, (kind, text, data))`) by the C
constructor its class's own `__new__`, written in Python, calls: one call less."""


class PikemenState(GameState[PikemenAction]):
    info = PIKEMEN
    actions_per_turn = 1
    copy_fields = ("board", "scores", "counts", "resigned")

    def __init__(
        self,
        sides: tuple[str, ...],
        board: list[Piece | None],
        scores: list[int],
        to_move: int,
        target: int,
    ) -> None:
        super().__init__(sides)
        self.board = board
        self.scores = scores
        self.target = target
        self.counts = [0] * len(sides)
        for piece in filter(None, board):
            self.counts[piece[0]] += 1
        self.resigned = [False] * len(sides)
        self.mover = to_move
        self.anchor = to_move  # the seat that opens round 1
        self.seats, self.clockwise, self.passes = _turn_order(sides, to_move)
        self.last_seat: int | None = None  # seat of the last turn played (None: none yet)
        # Kept as the turn order changes (`_advance`), for `begin_turn` (`_open_turn`
        # and `_label_round` answer from them and change nothing): the side due, whether
        # its turn opens a round (the first turn, or the order has wrapped round past the
        # first seat since the last turn), and the round of that turn.
        self._due_side = sides[to_move]
        self._opens: bool = True
        self._keeps_round = True
        self._due_round: int = 1
        self._judge_start()

    # -- the hooks of the turn protocol ---------------------------------------------------

    def _side_to_move(self) -> str:
        return self.sides[self.mover]

    def _round(self) -> int | None:
        # The round of the turn open and not yet played, else of the next: `_due_round`
        # changes only when a turn is played (`_advance`).
        return self._due_round

    def _label_round(self, side: str, step: bool) -> int | None:
        return self._due_round

    def _out_of_turn_note(self, side: str) -> str | None:
        index = self.sides.index(side)
        if self.resigned[index]:
            return f"{side} has resigned"
        if not self.counts[index]:
            return f"{side} has no pieces left and is skipped"
        return "turns go clockwise"

    def _open_turn(self, side: str, step: bool) -> bool:
        return self._opens is True

    def _apply(self, action: PikemenAction, last: bool) -> tuple[Event, ...]:
        if action.__class__ is Reorient:  # the most frequent action first, the usual legal one played here
            turn = TURNS.get(action) or turn_of(action)
            if turn is None:
                events = self._reorient(action)  # (refused: it says why)
            else:
                square, facing, events = turn
                board, mover = self.board, self.mover
                piece = board[square]
                if piece is not None and piece[0] == mover and piece[2] != facing:
                    board[square] = PIECES[mover][piece[1]][facing]
                else:
                    events = self._reorient(action)  # (refused: it says why)
        elif action.__class__ is Charge:
            events = self._charge(action)
        else:
            raise IllegalActionError("{action} is not a Pikemen action", action=action)
        # `_advance` written out where the side clockwise has pieces (nearly every turn)
        after, due, opens, seat = self.passes[self.mover]
        if self.counts[after]:
            self.mover = after
            self._due_side = due
            self._opens = opens
            self.last_seat = seat
            if opens:
                self._due_round += 1
        else:
            self._advance()
        return events

    def _legal_actions(self) -> list[PikemenAction]:
        me = self.mover
        board = self.board
        actions: list[PikemenAction] = []
        for origin, piece in enumerate(board):
            if piece is None or piece[0] != me:
                continue
            size, facing = piece[1], piece[2]
            actions.extend(reorients(origin, facing))
            if facing == UPRIGHT:
                continue
            for square in RAYS[origin][facing]:
                victim = board[square]
                if victim is None:
                    actions.extend(charge_options(origin, square, False, facing))
                    continue
                if victim[0] != me and self._capturable(size, victim):
                    actions.extend(charge_options(origin, square, True, facing))
                break
        actions.append(RESIGN)
        return actions

    # -- turn order -------------------------------------------------------------------

    def _advance(self, played: bool = True) -> None:
        """Pass the turn clockwise to the next side with pieces, the turn of `mover` played
        (without `played`: `mover` left the game before its turn began, on time). Also after
        the game ends, so that a turn written after the end is placed in the round the turn
        order gives it."""
        mover, counts, clockwise = self.mover, self.counts, self.clockwise
        if played:
            self.last_seat = self.seats[mover]
            current = self._due_round  # (the round of the turn just played)
        else:
            current = self._due_round - self._opens  # (the round of the last turn played; 0: none yet)
        side = clockwise[mover]
        while not counts[side] and side != mover:
            side = clockwise[side]
        if counts[side]:
            self.mover = side
            self._due_side = self.sides[side]
        last = self.last_seat
        opens = self._opens = last is None or self.seats[self.mover] <= last
        self._due_round = current + 1 if opens else current

    # -- rules ----------------------------------------------------------------------

    @staticmethod
    def _capturable(size: int, victim: Piece) -> bool:
        """Any piece not upright; an upright one only if strictly smaller; a large upright never."""
        return victim[2] != UPRIGHT or (victim[1] < size and victim[1] != LARGE)

    def _own_piece(self, name: str) -> tuple[int, Piece]:
        square = SQUARE_INDEX.get(name)
        if square is None:
            raise IllegalActionError("{name} is not on the board (files a-h, ranks 1-8)", name=name)
        piece = self.board[square]
        if piece is None:
            raise IllegalActionError("there is no piece on {name}", name=name)
        if piece[0] != self.mover:
            raise IllegalActionError(
                "the piece on {name} is {sides}'s, not {mover}'s",
                name=name,
                sides=self.sides[piece[0]],
                mover=self.sides[self.mover],
            )
        return square, piece

    @staticmethod
    def _unchanged(name: str, facing: int) -> IllegalActionError:
        """The error of a written facing that is the piece's facing already."""
        pose = "already stands upright (U)" if facing == UPRIGHT else f"already faces {FACINGS[facing]}"
        return IllegalActionError(
            "the piece on {name} {pose}: a written facing must differ from the old one", name=name, pose=pose
        )

    def _reorient(self, action: Reorient) -> tuple[Event, ...]:
        """A turn in place checked rule by rule (`_apply` plays the usual legal one)."""
        square = SQUARE_INDEX.get(action.square)
        piece = None if square is None else self.board[square]
        if square is None or piece is None or piece[0] != self.mover:  # `_own_piece` says why
            square, piece = self._own_piece(action.square)
        facing = FACING_INDEX[action.facing]
        if facing == piece[2]:
            raise self._unchanged(action.square, facing)
        self.board[square] = (piece[0], piece[1], facing)
        return turn_events(SQUARE_NAMES[square], FACINGS[facing])

    def _charge(self, action: Charge) -> tuple[Event, ...]:
        """A charge or capture: the usual legal one played at once from its `Line`, any
        other by `_checked_charge`, which checks the rules one by one and says which is
        broken."""
        line = CHARGES.get(action) or line_of(action)
        if line is None:
            return self._checked_charge(action)
        board = self.board
        origin, target, direction, passed, facing, capture, events = line
        piece = board[origin]
        if piece is None or piece[0] != self.mover or piece[2] != direction:
            return self._checked_charge(action)
        for square in passed:
            if board[square] is not None:
                return self._checked_charge(action)
        victim = board[target]
        if victim is None:
            if capture:
                return self._checked_charge(action)
            board[origin] = None
            board[target] = PIECES[piece[0]][piece[1]][facing]
            return events
        # (an upright piece only by a larger one: so a large upright one never)
        if not capture or victim[0] == piece[0] or (victim[2] == UPRIGHT and victim[1] >= piece[1]):
            return self._checked_charge(action)
        board[origin] = None
        board[target] = PIECES[piece[0]][piece[1]][facing]
        return self._capture(action, victim)

    def _checked_charge(self, action: Charge) -> tuple[Event, ...]:
        """A charge or capture checked rule by rule, in the order its errors are said."""
        origin = SQUARE_INDEX.get(action.origin)
        piece = None if origin is None else self.board[origin]
        if origin is None or piece is None or piece[0] != self.mover:  # `_own_piece` says why
            origin, piece = self._own_piece(action.origin)
        target = SQUARE_INDEX.get(action.target)
        if target is None:
            raise IllegalActionError("{target} is not on the board (files a-h, ranks 1-8)", target=action.target)
        owner, size, facing = piece
        if facing == UPRIGHT:
            raise IllegalActionError(
                "the piece on {origin} is upright: an upright piece cannot charge", origin=action.origin
            )
        if target == origin:
            raise IllegalActionError("a charge must move at least one square")
        passed = PASSED[origin][facing].get(target)
        if passed is None:
            raise IllegalActionError(
                "{target} is not in the direction the piece on {origin} faces ({facing})",
                target=action.target,
                origin=action.origin,
                facing=FACINGS[facing],
            )
        board = self.board
        for square in passed:
            blocker = board[square]
            if blocker is not None:
                raise IllegalActionError(
                    "the charge from {origin} to {target} is blocked by {describe} on {square}: a "
                    "piece cannot jump over another",
                    origin=action.origin,
                    target=action.target,
                    describe=piece_words(blocker, self.sides),
                    square=SQUARE_NAMES[square],
                )
        victim = board[target]
        if victim is None:
            if action.capture:
                raise IllegalActionError(
                    "{target} is empty, so nothing is captured: write {origin}-{target}",
                    target=action.target,
                    origin=action.origin,
                )
        else:
            if victim[0] == owner:
                raise IllegalActionError(
                    "{target} is held by {owner}'s own piece: you cannot take your own",
                    target=action.target,
                    owner=self.sides[owner],
                )
            if victim[2] == UPRIGHT and victim[1] == LARGE:
                raise IllegalActionError(
                    "the piece on {target} is large and upright: a large upright piece can never be captured",
                    target=action.target,
                )
            if victim[2] == UPRIGHT and victim[1] >= size:
                raise IllegalActionError(
                    "the piece on {target} is upright and not smaller than the {size_words} piece on "
                    "{origin}: an upright piece can only be captured by a larger one",
                    target=action.target,
                    size_words=SIZE_WORDS[size - 1],
                    origin=action.origin,
                )
            if not action.capture:
                raise IllegalActionError(
                    "{target} holds {describe}: a capture is written {origin}x{target}",
                    target=action.target,
                    describe=piece_words(victim, self.sides),
                    origin=action.origin,
                )
        new_facing = facing if action.facing is None else FACING_INDEX[action.facing]
        if action.facing is not None and new_facing == facing:
            raise self._unchanged(action.origin, facing)
        board[origin] = None
        board[target] = (owner, size, new_facing)
        if victim is None:
            return charge_events(action)
        return self._capture(action, victim)

    def _capture(self, action: Charge, victim: Piece) -> tuple[Event, ...]:
        me = self.sides[self.mover]
        loser = victim[0]
        self.counts[loser] -= 1
        self.scores[self.mover] += victim[1]
        described, score = piece_words(victim, self.sides), self.scores[self.mover]
        data = {
            "from": action.origin,
            "square": action.target,
            "side": self.sides[loser],
            "size": victim[1],
            "by": me,
            "score": score,
            "target": self.target,
        }
        if action.facing:
            capture: Event = _new(
                Event,
                (
                    EventKind.CAPTURE,
                    f"{action.origin} captures {described} on {action.target}, turning {action.facing}: "
                    f"{me} scores {victim[1]} ({score} of {self.target})",
                    data,
                ),
            )
        else:
            capture = _new(
                Event,
                (
                    EventKind.CAPTURE,
                    f"{action.origin} captures {described} on {action.target}: "
                    f"{me} scores {victim[1]} ({score} of {self.target})",
                    data,
                ),
            )
        if self.counts[loser] and score < self.target:
            return (capture,)  # (the loser has pieces left, the target is not reached: most captures)
        events = [capture]
        if not self.counts[loser]:
            events.append(Event(EventKind.ELIMINATED, f"{self.sides[loser]} has no pieces left and leaves the game"))
        if self.scores[self.mover] >= self.target:
            self._finish((me,), Reason.SCORE)
            events.append(Event(EventKind.WIN, f"{me} reaches {self.target} points and wins"))
        elif not self.counts[loser] and self._last_side() is not None:  # (before, two sides at least had pieces)
            self._finish((me,), Reason.LAST_PLAYER)
            events.append(Event(EventKind.WIN, f"{me} is the last side with pieces and wins"))
        return tuple(events)

    def _resign(self, side: str) -> tuple[Event, ...]:
        """With 2 players the other side wins; with 3-4 the side and its pieces leave the game."""
        played = self._turn_open and self._turn_side == side  # (else on time, its turn not begun)
        if len(self.sides) == 2:
            resigned = super()._resign(side)
            self._advance(played)
            return resigned
        me = self.mover
        events = [Event(EventKind.RESIGN, f"{side} resigns")]
        for square, piece in enumerate(self.board):
            if piece is not None and piece[0] == me:
                self.board[square] = None
        self.counts[me] = 0
        self.resigned[me] = True
        events.append(Event(EventKind.ELIMINATED, f"{side}'s pieces leave the game"))
        last = self._last_side()
        if last is not None:
            self._finish((self.sides[last],), Reason.LAST_PLAYER)
            events.append(Event(EventKind.WIN, f"{self.sides[last]} is the last side with pieces and wins"))
        self._advance(played)
        return tuple(events)

    def adjudication_scores(self) -> dict[str, int] | None:
        """The scores of the sides still in the game (those with pieces left)."""
        return {side: self.scores[at] for at, side in enumerate(self.sides) if self.counts[at] > 0}

    def in_game(self, side: str) -> bool:
        """A side with no pieces left (captured or resigned) has left the game."""
        return side in self.sides and self.counts[self.sides.index(side)] > 0

    def _last_side(self) -> int | None:
        """The only side with pieces left, if just one has any."""
        holders = [side for side, count in enumerate(self.counts) if count]
        return holders[0] if len(holders) == 1 else None

    def _judge_start(self) -> None:
        """A start (or Position) that is already decided ends the game before any turn."""
        reached = [side for side, score in enumerate(self.scores) if score >= self.target]
        if reached:
            self._finish((self.sides[reached[0]],), Reason.SCORE)
            return
        last = self._last_side()
        if last is not None:
            self._finish((self.sides[last],), Reason.LAST_PLAYER)

    # -- text -----------------------------------------------------------------------

    def position(self) -> str:
        fields = []
        for side, name in enumerate(self.sides):
            pieces = [
                f"{SQUARE_NAMES[square]}{SIZES[piece[1] - 1]}{FACINGS[piece[2]]}"
                for square, piece in enumerate(self.board)
                if piece is not None and piece[0] == side
            ]
            fields.append(f"{name}:{','.join(pieces)}")
        scores = ",".join(f"{name}={score}" for name, score in zip(self.sides, self.scores, strict=True))
        fields.append(f"score:{scores}")
        fields.append(f"to:{self.sides[self.mover]}")
        return " ".join(fields)

    def render(self) -> str:
        """An 8x8 grid, rank 8 on top; each piece as side, size and facing (`RL:NE`)."""
        short = PIKEMEN.short_labels
        files = ("   " + "".join(f" {file:<5}" for file in "abcdefgh")).rstrip()
        lines = [files]
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = self.board[rank * 8 + file]
                code = (
                    "."
                    if piece is None
                    else (f"{short[self.sides[piece[0]]]}{SIZES[piece[1] - 1]}:{FACINGS[piece[2]]}")
                )
                cells.append(f" {code:<5}")
            lines.append(f"{rank + 1:>2} " + "".join(cells) + f" {rank + 1}")
        lines += [files, ""]
        sides = ", ".join(f"{short[name]} {name}" for name in self.sides)
        lines.append(phrase("piece = side, size, facing: {sides}", sides=sides))
        sizes, facings = (
            phrase("S small (1 point), M medium (2), L large (3)"),
            phrase("N NE E SE S SW W NW, U upright"),
        )
        lines.append(f"  {sizes}; {facings}")
        scores = ", ".join(self._score_note(side) for side in range(len(self.sides)))
        lines.append(phrase("score: {scores} (target {target})", scores=scores, target=self.target))
        outcome = self.outcome()
        if outcome is not None:
            lines.append(str(outcome))
        else:
            lines.append(f"{self.sides[self.mover]} to move, round {self.round_number()}")
        return "\n".join(lines)

    def _score_note(self, side: int) -> str:
        note = f"{self.sides[side]} {self.scores[side]}"
        if self.resigned[side]:
            return phrase("{note} (resigned)", note=note)
        return note if self.counts[side] else phrase("{note} (no pieces)", note=note)


CAPTURE_PREFERENCE = 40
"""How much more often a purposeful player takes a capture than plays any one other action."""
CHARGE_PREFERENCE = 4
"""How much more often a purposeful player charges than turns in place."""


class PikemenEngine(Engine[PikemenState]):
    info = PIKEMEN

    def preference(self, state: object, action: object) -> int:
        """Purposeful play (issue 52): a capture when one is open, far more often than
        anything else (`CAPTURE_PREFERENCE`); a charge more often than turning in place."""
        if action.__class__ is Charge:
            return CAPTURE_PREFERENCE if action.capture else CHARGE_PREFERENCE
        return 1

    def dialect(self) -> Dialect:
        return DIALECT

    def _start(self, start: Start) -> PikemenState:
        sides, players = start.sides, start.players
        target = self._target(start.tags)
        if start.position is not None:
            return self._from_position(start.position, sides, players, target)
        return PikemenState(sides, list(_setup(players, sides)), [0] * len(sides), sides.index(start.first), target)

    @staticmethod
    def _target(tags: Mapping[str, str]) -> int:
        text = tags.get("Target", str(DEFAULT_TARGET)).strip()
        target = whole_number(text)
        if target is None or not 0 < target <= 999:
            raise SetupError(
                "the Target tag must be a whole number of points from 1 to 999, not {written}",
                "Target",
                written=quoted(text),
            )
        return target

    @staticmethod
    def _from_position(text: str, sides: tuple[str, ...], players: int, target: int) -> PikemenState:
        board, scores, to_move = read_position(text, sides, players, target)
        return PikemenState(sides, board, scores, to_move, target)


ENGINE = PikemenEngine()
