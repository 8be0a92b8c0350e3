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

from games.api import (
    RESIGN,
    Engine,
    Event,
    GameOverError,
    GameState,
    IllegalActionError,
    IllegalTurnError,
    Outcome,
    Resign,
    SetupError,
    check_round,
)
from games.pikemen.actions import DIALECT, Charge, Reorient
from games.pikemen.board import (
    FACING_INDEX,
    FACINGS,
    LARGE,
    RAYS,
    SETUPS,
    SIZE_INDEX,
    SIZE_WORDS,
    SIZES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    STASH,
    UPRIGHT,
    Piece,
)
from games.registry import PIKEMEN
from notation.dialect import Dialect

DEFAULT_TARGET = 12

# Every action a piece could take, as typed objects built once (legal_actions is hot in playouts).
_REORIENTS = [[Reorient(SQUARE_NAMES[square], facing) for facing in FACINGS] for square in range(64)]
_FACING_OPTIONS = (None,) + FACINGS


@cache
def _charges(origin: int, target: int, capture: bool, old_facing: int) -> tuple[Charge, ...]:
    """A charge or capture from origin to target, keeping the facing and with every new one."""
    source, goal = SQUARE_NAMES[origin], SQUARE_NAMES[target]
    return tuple(
        Charge(source, goal, capture, facing)
        for facing in _FACING_OPTIONS
        if facing is None or FACING_INDEX[facing] != old_facing
    )


def _describe(piece: Piece, sides: tuple[str, ...]) -> str:
    """ "Blue's upright medium piece" / "Blue's small piece facing NE"."""
    owner, size, facing = piece
    pose = "upright " if facing == UPRIGHT else ""
    tail = "" if facing == UPRIGHT else f" facing {FACINGS[facing]}"
    return f"{sides[owner]}'s {pose}{SIZE_WORDS[size - 1]} piece{tail}"


class PikemenState(GameState):
    info = PIKEMEN

    def __init__(
        self,
        sides: tuple[str, ...],
        board: list[Piece | None],
        scores: list[int],
        to_move: int,
        target: int,
    ) -> None:
        self.sides = sides
        self.board = board
        self.scores = scores
        self.target = target
        self.counts = [0] * len(sides)
        for piece in board:
            if piece is not None:
                self.counts[piece[0]] += 1
        self.resigned = [False] * len(sides)
        self.mover = to_move
        self.anchor = to_move  # the seat that opens round 1
        self.last_seat: int | None = None  # seat (relative to anchor) of the last turn begun
        self.round = 0  # the round of the last turn begun
        self.turns = 0
        self.turn_open = False
        self.acted = False
        self._outcome: Outcome | None = None
        self._judge_start()
        self.decided_at_start = self._outcome is not None

    # -- the uniform API ------------------------------------------------------------

    def to_move(self) -> str | None:
        return None if self._outcome else self.sides[self.mover]

    def round_number(self) -> int | None:
        if self.turn_open:
            return self.round
        return self.round + 1 if self._opens_round(self.mover) else self.round

    def begin_turn(self, side: str, step: bool = False, number: int | None = None) -> bool:
        if self._outcome:
            raise GameOverError(self._ended())
        if self.turn_open:
            self.end_turn()
        if side not in self.sides:
            raise IllegalTurnError(
                f"{side} does not play in a {len(self.sides)}-player game: the sides are {', '.join(self.sides)}"
            )
        if step:
            raise IllegalTurnError("Pikemen has no replacement steps: a label has no '+'")
        expected = self.sides[self.mover]
        if side != expected:
            index = self.sides.index(side)
            if self.resigned[index]:
                why = f"{side} has resigned"
            elif not self.counts[index]:
                why = f"{side} has no pieces left and is skipped"
            else:
                why = "turns go clockwise"
            raise IllegalTurnError(f"it is {expected}'s turn, not {side}'s ({why})")
        opens = self._opens_round(self.mover)
        round_here = self.round + 1 if opens else self.round
        check_round(round_here, number)
        self.round = round_here
        self.last_seat = self._seat(self.mover)
        self.turn_open, self.acted = True, False
        self.turns += 1
        return opens

    def end_turn(self) -> None:
        if self.turn_open and not self.acted and self._outcome is None:
            raise IllegalTurnError(
                f"{self.sides[self.mover]}'s turn holds no action: a Pikemen turn is exactly one action"
            )
        self.turn_open = False

    def apply(self, action: object, last: bool = False) -> tuple[Event, ...]:
        if self._outcome:
            raise IllegalActionError(self._ended())
        if self.turn_open and self.acted:
            raise IllegalActionError("a Pikemen turn holds exactly one action")
        if not self.turn_open:  # used without labels (search, tests): open the turn due
            saved = (self.round, self.last_seat, self.turns)
            self.begin_turn(self.sides[self.mover])
            try:
                events = self._play(action)
            except IllegalActionError:
                self.round, self.last_seat, self.turns = saved
                self.turn_open = False
                raise
        else:
            events = self._play(action)
        self.acted = True
        if self._outcome is None:
            self._advance()
        return events

    def _play(self, action: object) -> tuple[Event, ...]:
        if isinstance(action, Charge):
            return self._charge(action)
        if isinstance(action, Reorient):
            return self._reorient(action)
        if isinstance(action, Resign):
            return self._resign()
        raise IllegalActionError(f"{action} is not a Pikemen action")

    def legal_actions(self) -> list[object]:
        if self._outcome or (self.turn_open and self.acted):
            return []
        me = self.mover
        board = self.board
        actions: list[object] = []
        for origin, piece in enumerate(board):
            if piece is None or piece[0] != me:
                continue
            size, facing = piece[1], piece[2]
            actions.extend(turn for turn in _REORIENTS[origin] if FACING_INDEX[turn.facing] != facing)
            if facing == UPRIGHT:
                continue
            for square in RAYS[origin][facing]:
                victim = board[square]
                if victim is None:
                    actions.extend(_charges(origin, square, False, facing))
                    continue
                if victim[0] != me and self._capturable(size, victim):
                    actions.extend(_charges(origin, square, True, facing))
                break
        actions.append(RESIGN)
        return actions

    def can_end_turn(self) -> bool:
        return self._outcome is not None or (self.turn_open and self.acted)

    def copy(self) -> PikemenState:
        twin = PikemenState.__new__(PikemenState)
        twin.__dict__.update(self.__dict__)
        twin.board = list(self.board)
        twin.scores = list(self.scores)
        twin.counts = list(self.counts)
        twin.resigned = list(self.resigned)
        return twin

    def _ended(self) -> str:
        if self.decided_at_start:
            return f"the game was already over in the Position ({self._outcome})"
        if not self.turns:
            return f"the game ended before the first turn ({self._outcome})"
        return f"the game ended at turn {self.turns} ({self._outcome})"

    # -- turn order -------------------------------------------------------------------

    def _seat(self, side: int) -> int:
        """The side's place in the turn order counted from the side that opened round 1."""
        return (side - self.anchor) % len(self.sides)

    def _opens_round(self, side: int) -> bool:
        """A turn of `side` opens a round when it is the first turn, or when the order has
        wrapped round past the first seat since the last turn."""
        return self.last_seat is None or self._seat(side) <= self.last_seat

    def _advance(self) -> None:
        """Pass the turn clockwise to the next side with pieces."""
        count = len(self.sides)
        side = self.mover
        for _ in range(count):
            side = (side + 1) % count
            if self.counts[side]:
                self.mover = side
                return

    # -- rules ----------------------------------------------------------------------

    @staticmethod
    def _capturable(size: int, victim: Piece) -> bool:
        """Any piece not upright; an upright one only if strictly smaller; a large upright never."""
        return victim[2] != UPRIGHT or (victim[1] < size and victim[1] != LARGE)

    def _own_piece(self, name: str) -> tuple[int, Piece]:
        square = SQUARE_INDEX.get(name)
        if square is None:
            raise IllegalActionError(f"{name} is not on the board (files a-h, ranks 1-8)")
        piece = self.board[square]
        me = self.sides[self.mover]
        if piece is None:
            raise IllegalActionError(f"there is no piece on {name}")
        if piece[0] != self.mover:
            raise IllegalActionError(f"the piece on {name} is {self.sides[piece[0]]}'s, not {me}'s")
        return square, piece

    def _new_facing(self, name: str, piece: Piece, written: str | None) -> int:
        if written is None:
            return piece[2]
        facing = FACING_INDEX[written]
        if facing == piece[2]:
            pose = "already stands upright (U)" if facing == UPRIGHT else f"already faces {written}"
            raise IllegalActionError(f"the piece on {name} {pose}: a written facing must differ from the old one")
        return facing

    def _reorient(self, action: Reorient) -> tuple[Event, ...]:
        square, piece = self._own_piece(action.square)
        facing = self._new_facing(action.square, piece, action.facing)
        self.board[square] = (piece[0], piece[1], facing)
        return (Event("reorient", f"{action.square} turns {FACINGS[facing]}"),)

    def _charge(self, action: Charge) -> tuple[Event, ...]:
        origin, piece = self._own_piece(action.origin)
        target = SQUARE_INDEX.get(action.target)
        if target is None:
            raise IllegalActionError(f"{action.target} is not on the board (files a-h, ranks 1-8)")
        me = self.sides[self.mover]
        owner, size, facing = piece
        if facing == UPRIGHT:
            raise IllegalActionError(f"the piece on {action.origin} is upright: an upright piece cannot charge")
        if target == origin:
            raise IllegalActionError("a charge must move at least one square")
        ray = RAYS[origin][facing]
        if target not in ray:
            raise IllegalActionError(
                f"{action.target} is not in the direction the piece on {action.origin} faces ({FACINGS[facing]})"
            )
        for square in ray:
            if square == target:
                break
            blocker = self.board[square]
            if blocker is not None:
                raise IllegalActionError(
                    f"the charge from {action.origin} to {action.target} is blocked by "
                    f"{_describe(blocker, self.sides)} on {SQUARE_NAMES[square]}: "
                    "a piece cannot jump over another"
                )
        victim = self.board[target]
        if victim is None:
            if action.capture:
                raise IllegalActionError(
                    f"{action.target} is empty, so nothing is captured: write {action.origin}-{action.target}"
                )
        else:
            if victim[0] == owner:
                raise IllegalActionError(f"{action.target} is held by {me}'s own piece: you cannot take your own")
            if victim[2] == UPRIGHT and victim[1] == LARGE:
                raise IllegalActionError(
                    f"the piece on {action.target} is large and upright: a large upright piece can never be captured"
                )
            if victim[2] == UPRIGHT and victim[1] >= size:
                raise IllegalActionError(
                    f"the piece on {action.target} is upright and not smaller than the "
                    f"{SIZE_WORDS[size - 1]} piece on {action.origin}: an upright piece can only be "
                    "captured by a larger one"
                )
            if not action.capture:
                raise IllegalActionError(
                    f"{action.target} holds {_describe(victim, self.sides)}: a capture is written "
                    f"{action.origin}x{action.target}"
                )
        new_facing = self._new_facing(action.origin, piece, action.facing)
        self.board[origin] = None
        self.board[target] = (owner, size, new_facing)
        turned = f", turning {FACINGS[new_facing]}" if action.facing else ""
        if victim is None:
            return (Event("charge", f"{action.origin} charges to {action.target}{turned}"),)
        return self._capture(action, victim, turned)

    def _capture(self, action: Charge, victim: Piece, turned: str) -> tuple[Event, ...]:
        me = self.sides[self.mover]
        loser = victim[0]
        self.counts[loser] -= 1
        self.scores[self.mover] += victim[1]
        events = [
            Event(
                "capture",
                f"{action.origin} captures {_describe(victim, self.sides)} on {action.target}{turned}: "
                f"{me} scores {victim[1]} ({self.scores[self.mover]} of {self.target})",
            )
        ]
        if not self.counts[loser]:
            events.append(Event("eliminated", f"{self.sides[loser]} has no pieces left and leaves the game"))
        if self.scores[self.mover] >= self.target:
            self._outcome = Outcome((me,), "score")
            events.append(Event("win", f"{me} reaches {self.target} points and wins"))
        elif self._last_side() is not None:
            self._outcome = Outcome((me,), "last-player")
            events.append(Event("win", f"{me} is the last side with pieces and wins"))
        return tuple(events)

    def _resign(self) -> tuple[Event, ...]:
        me = self.sides[self.mover]
        events = [Event("resign", f"{me} resigns")]
        if len(self.sides) == 2:
            winner = self.sides[1 - self.mover]
            self._outcome = Outcome((winner,), "resignation")
            return tuple(events)
        for square, piece in enumerate(self.board):
            if piece is not None and piece[0] == self.mover:
                self.board[square] = None
        self.counts[self.mover] = 0
        self.resigned[self.mover] = True
        events.append(Event("eliminated", f"{me}'s pieces leave the game"))
        last = self._last_side()
        if last is not None:
            self._outcome = Outcome((self.sides[last],), "last-player")
            events.append(Event("win", f"{self.sides[last]} is the last side with pieces and wins"))
        return tuple(events)

    def _last_side(self) -> int | None:
        """The only side with pieces left, if just one has any."""
        holders = [side for side, count in enumerate(self.counts) if count]
        return holders[0] if len(holders) == 1 else None

    def _judge_start(self) -> None:
        """A start (or Position) that is already decided ends the game before any turn."""
        reached = [side for side, score in enumerate(self.scores) if score >= self.target]
        if reached:
            self._outcome = Outcome((self.sides[reached[0]],), "score")
            return
        last = self._last_side()
        if last is not None:
            self._outcome = Outcome((self.sides[last],), "last-player")

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
        lines.append("piece = side, size, facing: " + ", ".join(f"{short[name]} {name}" for name in self.sides))
        lines.append("  S small (1 point), M medium (2), L large (3); N NE E SE S SW W NW, U upright")
        lines.append(
            "score: "
            + ", ".join(self._score_note(side) for side in range(len(self.sides)))
            + f" (target {self.target})"
        )
        if self._outcome is not None:
            lines.append(str(self._outcome))
        else:
            lines.append(f"{self.sides[self.mover]} to move, round {self.round_number()}")
        return "\n".join(lines)

    def _score_note(self, side: int) -> str:
        note = f"{self.sides[side]} {self.scores[side]}"
        if self.resigned[side]:
            return note + " (resigned)"
        return note if self.counts[side] else note + " (no pieces)"


class PikemenEngine(Engine):
    info = PIKEMEN

    def dialect(self) -> Dialect:
        return DIALECT

    def new_state(self, tags: Mapping[str, str]) -> PikemenState:
        self.variant(tags)
        players = self.players(tags)
        sides = PIKEMEN.sides_for(players)
        target = self._target(tags)
        position = tags.get("Position")
        if position is not None:
            return self._from_position(position, sides, players, target)
        board: list[Piece | None] = [None] * 64
        for owner, side in enumerate(sides):
            for square, size in SETUPS[players][side]:
                board[square] = (owner, size, UPRIGHT)
        first = self._first(tags, sides)
        return PikemenState(sides, board, [0] * len(sides), first, target)

    @staticmethod
    def _target(tags: Mapping[str, str]) -> int:
        text = tags.get("Target", str(DEFAULT_TARGET)).strip()
        if not text.isdecimal() or not 0 < int(text) <= 999:
            raise SetupError(f'the Target tag must be a whole number of points from 1 to 999, not "{text}"', "Target")
        return int(text)

    @staticmethod
    def _first(tags: Mapping[str, str], sides: tuple[str, ...]) -> int:
        text = tags.get("First")
        if text is None:
            return 0
        side = PIKEMEN.side(text.strip())
        if side not in sides:
            raise SetupError(f'the First tag must name one of {", ".join(sides)}, not "{text}"', "First")
        return sides.index(side)

    @staticmethod
    def _from_position(text: str, sides: tuple[str, ...], players: int, target: int) -> PikemenState:
        """Read `Red:e1LU,d4SNE Blue:... score:Red=3,Blue=5 to:Red` (fields in any order)."""
        board: list[Piece | None] = [None] * 64
        scores = [0] * len(sides)
        placed: set[str] = set()
        to_move: int | None = None
        has_score = False
        for field in text.split():
            name, colon, value = field.partition(":")
            key = name.lower()
            if not colon:
                raise _position_error(
                    f'cannot read "{field}": fields are like "Red:e1LU,d4SNE", "score:Red=3", "to:Red"'
                )
            if key == "score":
                if has_score:
                    raise _position_error('the field "score:" is given twice')
                has_score = True
                _read_scores(value, sides, scores)
            elif key == "to":
                if to_move is not None:
                    raise _position_error('the field "to:" is given twice')
                side = PIKEMEN.side(value)
                if side not in sides:
                    raise _position_error(f'"to:{value}" names no side of this {players}-player game')
                to_move = sides.index(side)
            else:
                side = PIKEMEN.side(name)
                if side is None:
                    raise _position_error(f'unknown field "{name}:"')
                if side not in sides:
                    raise _position_error(f"{side} does not play in a {players}-player game (see the Players tag)")
                if side in placed:
                    raise _position_error(f"{side}'s pieces are given twice")
                placed.add(side)
                _place(board, sides.index(side), value, players)
        missing = [side for side in sides if side not in placed]
        if missing:
            raise _position_error(f'no field for {", ".join(missing)} (write an empty one, like "{missing[0]}:")')
        if to_move is None:
            raise _position_error('the side to move is missing: add a field like "to:Red"')
        if not any(piece is not None and piece[0] == to_move for piece in board):
            raise _position_error(f"{sides[to_move]} is to move but has no pieces")
        if sum(score >= target for score in scores) > 1:
            raise _position_error(f"more than one side has reached the target of {target} points")
        return PikemenState(sides, board, scores, to_move, target)


def _position_error(message: str) -> SetupError:
    return SetupError(f"Position: {message}", "Position")


def _read_scores(value: str, sides: tuple[str, ...], scores: list[int]) -> None:
    """Read `Red=3,Blue=5` into scores; sides left out keep 0."""
    for entry in filter(None, value.split(",")):
        who, equals, points = entry.partition("=")
        side = PIKEMEN.side(who)
        if not equals or side not in sides or not points.isdecimal():
            raise _position_error(f'cannot read the score "{entry}": write it like "Red=3" for a side in the game')
        scores[sides.index(side)] = int(points)


def _place(board: list[Piece | None], owner: int, value: str, players: int) -> None:
    """Put one side's pieces (`e1LU,d4SNE`) on the board, at most a stash of each size."""
    per_size = [0, 0, 0]
    for entry in filter(None, value.split(",")):
        square = SQUARE_INDEX.get(entry[:2].lower())
        size = SIZE_INDEX.get(entry[2:3].upper())
        facing = FACING_INDEX.get(entry[3:].upper())
        if square is None or size is None or facing is None:
            raise _position_error(f'cannot read the piece "{entry}": write square, size S/M/L and facing, like "e1LU"')
        if board[square] is not None:
            raise _position_error(f"{SQUARE_NAMES[square]} holds two pieces")
        per_size[size - 1] += 1
        if per_size[size - 1] > STASH[players]:
            raise _position_error(
                f"more than {STASH[players]} {SIZE_WORDS[size - 1]} pieces for one side in a {players}-player game"
            )
        board[square] = (owner, size, facing)


ENGINE = PikemenEngine()
