"""Numica's rules (numica.md): tiles under the pieces decide how they move."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations
from types import MappingProxyType
from typing import NoReturn

from referee.games.api import Event, EventKind, GameState, IllegalActionError, Reason, SetupError, Start
from referee.games.engine_base import Engine
from referee.games.numica.actions import DIALECT, NumicaAction, Setup, Step
from referee.games.randomness import shuffled
from referee.games.registry import NUMICA
from referee.games.values import game_word, phrase
from referee.notation.dialect import Dialect

SIDES = NUMICA.sides
SHORT = ("R", "B")
TILE_SETS = {
    "standard": "1" * 11 + "2" * 10 + "3" * 9 + "4" * 8 + "5" * 7 + "K" * 6 + "X" * 5 + "R" * 4 + "B" * 4,
    "warpspawn": "1" * 12 + "2" * 10 + "3" * 10 + "4" * 8 + "K" * 6 + "X" * 6 + "R" * 6 + "B" * 6,
}
SHAPE_NAMES = {"S": game_word("square"), "O": game_word("round")}
SQUARES = [f"{'abcdefgh'[i % 8]}{i // 8 + 1}" for i in range(64)]
INDEX = {name: i for i, name in enumerate(SQUARES)}
KING_LINES = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def _on(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _leaps(offsets: tuple[tuple[int, int], ...], distance: int) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares `distance` steps away along each offset, on the board."""
    table = []
    for square in range(64):
        file, rank = square % 8, square // 8
        table.append(
            tuple(
                (rank + dr * distance) * 8 + file + df * distance
                for df, dr in offsets
                if _on(file + df * distance, rank + dr * distance)
            )
        )
    return tuple(table)


def _rays(offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each square, the squares along each direction, nearest first."""
    table = []
    for square in range(64):
        file, rank = square % 8, square // 8
        rays = []
        for df, dr in offsets:
            ray, f, r = [], file + df, rank + dr
            while _on(f, r):
                ray.append(r * 8 + f)
                f, r = f + df, r + dr
            rays.append(tuple(ray))
        table.append(tuple(rays))
    return tuple(table)


def _paths(rays: tuple[tuple[tuple[int, ...], ...], ...]) -> tuple[dict[int, tuple[int, ...]], ...]:
    """For each square, every square a slide along `rays` may end on, with the squares it
    passes over on the way (which must be empty)."""
    return tuple({ray[i]: ray[:i] for ray in square_rays for i in range(len(ray))} for square_rays in rays)


LEAPS = {str(n): _leaps(KING_LINES, n) for n in range(1, 6)} | {"K": _leaps(KNIGHT, 1)}
RAYS = {"R": _rays(KING_LINES[:4]), "B": _rays(KING_LINES[4:])}
PATHS = {tile: _paths(rays) for tile, rays in RAYS.items()}
FIRST_REACH = LEAPS | {
    tile: tuple(tuple(ray[0] for ray in rays if ray) for rays in by_square) for tile, by_square in RAYS.items()
}
"""For each tile but X and each square, the squares a piece there may reach when nothing
stands in its way nearer: its leaps, or the first square of each ray of a slide. A piece
has a move exactly when one of these is empty or holds an opponent it may capture (a
slide blocked on its first square has no move along that ray, and any square further
along it needs that first square empty)."""
REACH: dict[str, tuple[dict[int, tuple[int, ...]], ...]] = {
    **{tile: tuple(dict.fromkeys(targets, ()) for targets in by_square) for tile, by_square in LEAPS.items()},
    **PATHS,
    "X": tuple(dict.fromkeys(range(64), ()) for _ in range(64)),
}
"""For each tile and square, every square a piece there may move to (when nothing stands
in its way), with the squares it passes over, which must be empty (none but for a slide).
An X tile reaches every square (only an empty one, which the capture rules see to)."""


SQUARES_OF: dict[Step, tuple[int, int, bool]] = {}
"""The squares of each move met on the board (at most 64 x 64 x 2 moves), and whether it
is written as a capture: a move's names looked up once (`_squares_of`)."""


def _squares_of(step: Step) -> tuple[int, int, bool]:
    """The squares (origin, target) of a move and whether it is written as a capture,
    learnt in SQUARES_OF. Raises IllegalActionError for a square off the board."""
    origin, target = INDEX.get(step.origin), INDEX.get(step.target)
    if origin is None:
        raise IllegalActionError("{origin} is not on the board", origin=step.origin)
    if target is None:
        raise IllegalActionError("{target} is not on the board", target=step.target)
    found = SQUARES_OF[step] = (origin, target, step.capture)
    return found


CAPTURED: list[tuple[Event, ...] | None] = [None] * 256
"""The events of each capture met, by square and captured piece (`_captured`): immutable
values, shared by every capture of that piece's side and shape on that square."""


def _captured(target: int, victim: Piece) -> tuple[Event, ...]:
    """The events of the capture of `victim` on `target`, learnt in CAPTURED."""
    side, shape = SIDES[victim[0]], SHAPE_NAMES[victim[1]]
    data = MappingProxyType({"square": SQUARES[target], "side": side, "shape": shape})
    found = (Event(EventKind.CAPTURE, f"{SQUARES[target]}: {side}'s {shape} piece captured", data),)
    CAPTURED[target * 4 + victim[0] * 2 + (victim[1] == "S")] = found
    return found


def _clear(board: list[Piece | None], squares: tuple[int, ...]) -> bool:
    """Whether none of `squares` holds a piece."""
    for square in squares:
        if board[square] is not None:
            return False
    return True


SET_UP: dict[tuple[int, str], tuple[tuple[Piece, ...], tuple[Event, ...]]] = {}
"""Each setup met, by side and shapes (at most 2 x 70 setups): the pieces of its back row
in file order, and its events (`_set_up`); immutable values, shared."""

BACK_ROWS = (range(0, 8), range(56, 64))
"""Each side's back row, where its setup places its pieces (rank 1 or 8)."""


def _set_up(me: int, shapes: str) -> tuple[tuple[Piece, ...], tuple[Event, ...]]:
    """The back row and events of a setup of side `me`, learnt in SET_UP. Raises
    IllegalActionError for shapes that are not 4 square and 4 round."""
    if len(shapes) != 8 or shapes.count("S") != 4:
        raise IllegalActionError(
            'a setup places exactly 8 pieces, 4 square (S) and 4 round (O): "{shapes}" does not', shapes=shapes
        )
    found = SET_UP[me, shapes] = (
        tuple([(me, shape, False) for shape in shapes]),
        (Event(EventKind.SETUP, f"{SIDES[me]} sets up {shapes}"),),
    )
    return found


TILE_RULES = {
    "1": phrase("a piece on a 1 tile moves exactly 1 square in a straight line"),
    **{str(n): phrase("a piece on a {n} tile moves exactly {n} squares in a straight line", n=n) for n in range(2, 6)},
    "K": phrase("a piece on a K tile moves like a knight"),
    "R": phrase("a piece on an R tile moves like a rook, not through pieces"),
    "B": phrase("a piece on a B tile moves like a bishop, not through pieces"),
    "X": phrase("a piece on an X tile moves to any empty square"),
}

Piece = tuple[int, str, bool]  # side index, shape "S"/"O", has moved
MOVED = {(side, shape, moved): (side, shape, True) for side in (0, 1) for shape in "SO" for moved in (False, True)}
"""Each piece as it stands after it has moved (pieces are shared immutable tuples)."""


class NumicaState(GameState[NumicaAction]):
    """Turn order: two setup turns (Red, Blue), then Red and Blue alternate one action a
    turn; a round opens with the side that moved first (Red, or a Position's `to:`)."""

    info = NUMICA
    actions_per_turn = 1
    copy_fields = ("board", "placed", "_proofs")

    def __init__(self, tiles: str, board: list[Piece | None], to_move: int, setups_left: int) -> None:
        super().__init__(SIDES)
        self.tiles = tiles
        self.board = board
        self.placed: tuple[set[int], set[int]] = (set(), set())
        """The squares each side's pieces stand on (the board, indexed by side)."""
        if any(board):  # (a record's start has an empty board: nothing to look at)
            for square, piece in enumerate(board):
                if piece is not None:
                    self.placed[piece[0]].add(square)
        self._proofs: list[tuple[int, int] | None] = [None, None]
        """For each side, a move it had when last looked at (`_find_move`): its origin and
        the square it reaches (-1: an X tile). Tried first, since it usually still is one."""
        self.side = to_move
        self._due_side = SIDES[to_move]  # (kept with `side`, for `begin_turn`)
        self.setups_left = setups_left
        self.round = 1
        self.opener = to_move
        # Kept as the turn order changes, as `_open_turn` and `_label_round` say, for `begin_turn`:
        self._opens = not setups_left
        self._keeps_round, self._due_round = True, None if setups_left else 1
        if not setups_left:
            self._judge_start()

    # -- the hooks of the turn protocol ---------------------------------------------------

    def _side_to_move(self) -> str:
        return SIDES[self.side]

    def _round(self) -> int | None:
        return None if self.setups_left else self.round

    def _open_turn(self, side: str, step: bool) -> bool:
        return not self.setups_left and self.side == self.opener

    def _label_round(self, side: str, step: bool) -> int | None:
        return None if self.setups_left else self.round

    def _apply(self, action: NumicaAction, last: bool) -> tuple[Event, ...]:
        if action.__class__ is not Step or self.setups_left:
            return self._not_a_move(action)
        # The hot path of a replay, a move after the setups, played here without another
        # call: reach from one table (REACH), the turn order written inline
        # (as `_advance` has it once the setups are done). A move is first tested as legal
        # in one go; any other is refused by `_refuse`, which says why.
        try:  # (subscripts, not `get`: a move met before, a reach the tile has)
            origin, target, capture = SQUARES_OF[action]
        except KeyError:
            origin, target, capture = _squares_of(action)
        board, side = self.board, self.side
        mover = board[origin]
        victim = board[target]
        tile = self.tiles[origin]
        try:
            passed = REACH[tile][origin][target]
        except KeyError:
            self._refuse(action, origin, target)
        if mover is None or mover[0] != side:
            self._refuse(action, origin, target)
        if passed:  # (a slide: the squares it passes over are empty)
            for square in passed:
                if board[square] is not None:
                    self._refuse(action, origin, target)
        other = 1 - side
        if victim is None:
            if capture:
                self._refuse(action, origin, target)
            events: tuple[Event, ...] = ()
        else:
            if victim[0] == side or not capture or tile == "X" or not (mover[2] or victim[2]):
                self._refuse(action, origin, target)
            left = self.placed[other]
            left.discard(target)
            events = CAPTURED[target * 4 + victim[0] * 2 + (victim[1] == "S")] or _captured(target, victim)
            if len(left) <= 5 and self._has_captured_enough(side):  # (3 lost at the least)
                self._finish((SIDES[side],), Reason.CAPTURES)
        board[target] = mover if mover[2] else MOVED[mover]
        board[origin] = None
        placed = self.placed[side]
        placed.discard(origin)
        placed.add(target)
        self.side = other
        self._due_side = SIDES[other]
        if other == self.opener:
            self._opens = True
            self.round = self._due_round = self.round + 1
        else:
            self._opens = False
        if self._outcome is None:  # `_has_move(other)`, first by the move found last time
            proof = self._proofs[other]
            if proof is not None:
                square, reach = proof
                piece = board[square]
                if piece is not None and piece[0] == other:
                    if reach < 0:
                        return events  # (a piece on an X tile)
                    there = board[reach]
                    if there is None or (there[0] == side and (piece[2] or there[2])):
                        return events
            if not self._find_move(other):
                self._finish((SIDES[side],), Reason.NO_MOVES)
        return events

    def _find_move(self, side: int) -> bool:
        """`_has_move(side)`, keeping the move found in `_proofs` (its origin and the
        square it reaches, -1 for an X tile, where a piece always has a move)."""
        board, tiles = self.board, self.tiles
        for square in self.placed[side]:
            tile = tiles[square]
            if tile == "X":
                self._proofs[side] = (square, -1)
                return True
            piece = board[square]
            for reach in FIRST_REACH[tile][square]:
                there = board[reach]
                if there is None or (there[0] != side and (piece[2] or there[2])):  # type: ignore[index]
                    self._proofs[side] = (square, reach)
                    return True
        return False

    def _refuse(self, action: Step, origin: int, target: int) -> NoReturn:
        """Raise IllegalActionError saying why the move `action` (from `origin` to `target`,
        after the setups) is illegal here, the first reason of the rules' order."""
        board, side = self.board, self.side
        mover, victim = board[origin], board[target]
        if mover is None:
            raise IllegalActionError("there is no piece on {origin}", origin=SQUARES[origin])
        if mover[0] != side:
            raise IllegalActionError(
                "the piece on {origin} is {sides}'s, not {side}'s",
                origin=SQUARES[origin],
                sides=SIDES[mover[0]],
                side=SIDES[side],
            )
        if victim is not None and victim[0] == side:
            raise IllegalActionError("{target} is held by {side}'s own piece", target=SQUARES[target], side=SIDES[side])
        tile = self.tiles[origin]
        passed = REACH[tile][origin].get(target)
        if passed is None or (passed and not _clear(board, passed)):
            raise IllegalActionError(
                "{origin} is on a {tile} tile: {tile2}", origin=SQUARES[origin], tile=tile, tile2=TILE_RULES[tile]
            )
        if victim is None:
            raise IllegalActionError(
                "{target} is empty: write {origin}-{target}", target=SQUARES[target], origin=SQUARES[origin]
            )
        self._check_capture(action, tile, mover, victim)
        raise AssertionError(f"{action} was refused but is legal")  # (unreachable: every refusal has its reason)

    def _not_a_move(self, action: NumicaAction) -> tuple[Event, ...]:
        """What `_apply` plays other than a move after the setups: a setup, or a refusal."""
        if self.setups_left:
            if not isinstance(action, Setup):
                raise IllegalActionError(
                    "{side} must first set up its back row, written like SSOOSOSO", side=SIDES[self.side]
                )
            return self._setup(action)
        if isinstance(action, Setup):
            raise IllegalActionError("both sides have set up: a turn now moves one piece, like a1-c3")
        if not isinstance(action, Step):
            raise IllegalActionError("{action} is not a Numica action", action=action)
        return self._apply(Step(*action), False)  # (a Step of a subclass, played as a Step)

    def _resign(self, side: str) -> tuple[Event, ...]:
        events = super()._resign(side)
        self._advance()
        return events

    def _legal_actions(self) -> list[NumicaAction]:
        if self.setups_left:
            return [
                Setup("".join("S" if i in squares else "O" for i in range(8))) for squares in combinations(range(8), 4)
            ]
        return [
            Step(SQUARES[origin], SQUARES[target], self.board[target] is not None)
            for origin, target in self._moves(self.side)
        ]

    def _advance(self) -> None:
        """The turn is played: the other side moves next, in the next round once the order
        comes back to the side that opens rounds. Also after the game ends, so that a turn
        written after the end is placed in the round the turn order gives it."""
        self.side = 1 - self.side
        self._due_side = SIDES[self.side]
        if self.setups_left:
            self.setups_left -= 1
            if not self.setups_left:
                self.opener = self.side
        elif self.side == self.opener:
            self.round += 1
        self._opens = not self.setups_left and self.side == self.opener
        self._due_round = None if self.setups_left else self.round

    # -- rules --------------------------------------------------------------------

    def _setup(self, action: Setup) -> tuple[Event, ...]:
        me = self.side
        known = SET_UP.get((me, action.shapes))
        row, events = known if known is not None else _set_up(me, action.shapes)
        rank = BACK_ROWS[me]
        self.board[rank.start : rank.stop] = row
        self.placed[me].update(rank)
        # `_advance` during the setups, written out: the other side sets up next, or moves
        # first once both have (it opens every round), in round 1.
        other = self.side = 1 - me
        self._due_side = SIDES[other]
        self.setups_left -= 1
        if self.setups_left:
            return events
        self.opener = other
        self._opens = True
        self._due_round = self.round
        # `_judge_start`: with all 16 pieces on the board, no side has captured enough.
        if not self._find_move(other):
            self._finish((SIDES[me],), Reason.NO_MOVES)
        return events

    @staticmethod
    def _check_capture(action: Step, tile: str, mover: Piece, victim: Piece) -> None:
        """A move onto an opponent's piece: a capture, written with `x`, not from an X tile,
        and not by an unmoved piece of an unmoved one (the first-move capture rule)."""
        if tile == "X":
            raise IllegalActionError(
                "{origin} is on an X tile, which moves only to an empty square", origin=action.origin
            )
        if not action.capture:
            raise IllegalActionError(
                "{target} holds {sides}'s piece: write {origin}x{target}",
                target=action.target,
                sides=SIDES[victim[0]],
                origin=action.origin,
            )
        if not mover[2] and not victim[2]:
            raise IllegalActionError(
                "first-move capture rule: the piece on {origin} has not moved yet and cannot capture "
                "the piece on {target}, which has not moved yet either",
                origin=action.origin,
                target=action.target,
            )

    def _moves(self, side: int) -> Iterator[tuple[int, int]]:
        """Every (origin, target) the side may play, generated lazily: deciding whether a
        side has any move at all usually stops at the first piece."""
        board = self.board
        for origin, piece in enumerate(board):
            if piece is None or piece[0] != side:
                continue
            tile = self.tiles[origin]
            if tile == "X":
                targets: Iterable[int] = (t for t in range(64) if board[t] is None)
            elif tile in RAYS:
                targets = self._slides(RAYS[tile][origin])
            else:
                targets = LEAPS[tile][origin]
            for target in targets:
                victim = board[target]
                if victim is None or (victim[0] != side and (piece[2] or victim[2])):
                    yield origin, target

    def _slides(self, rays: tuple[tuple[int, ...], ...]) -> Iterator[int]:
        for ray in rays:
            for square in ray:
                yield square
                if self.board[square] is not None:
                    break

    def _has_move(self, side: int) -> bool:
        """Whether `side` has any legal move (what `_moves` would yield first, found
        without generating: see FIRST_REACH). An X tile always has a move, since at most
        16 of the 64 squares hold a piece. The move found is kept (`_find_move`)."""
        return self._find_move(side)

    def _has_captured_enough(self, side: int) -> bool:
        """Whether `side` has captured 3 square or 3 round pieces, or 2 of each (of the
        other side's 4 of each): whether the other side has at most 1 of a shape left, or
        at most 2 of each."""
        left = self.placed[1 - side]
        if len(left) > 5:
            return False  # (3 pieces lost at the least, of 8)
        board = self.board
        squares = [board[square][1] for square in left].count("S")  # type: ignore[index]
        rounds = len(left) - squares
        return squares <= 1 or rounds <= 1 or (squares <= 2 and rounds <= 2)

    def _judge_start(self) -> None:
        """A start (or Position) that is already decided ends the game before any turn."""
        if self._has_captured_enough(1 - self.side):
            self._finish((SIDES[1 - self.side],), Reason.CAPTURES)
        elif self._has_captured_enough(self.side):
            self._finish((SIDES[self.side],), Reason.CAPTURES)
        elif not self._has_move(self.side):
            self._finish((SIDES[1 - self.side],), Reason.NO_MOVES)

    # -- text -----------------------------------------------------------------------

    def position(self) -> str:
        fields = [f"tiles:{self.tiles}"]
        for side in (0, 1):
            pieces = [
                f"{SQUARES[i]}{piece[1]}{'*' if piece[2] else ''}"
                for i, piece in enumerate(self.board)
                if piece is not None and piece[0] == side
            ]
            fields.append(f"{SHORT[side]}:{','.join(pieces)}")
        fields.append(f"to:{SHORT[self.side]}")
        return " ".join(fields)

    def render(self) -> str:
        """Each square shows its tile, then the piece on it: R/B for the side, S/O for the
        shape, * once it has moved (`3 RS*`); `.` for no piece."""
        lines = ["     " + "".join(f"{f:<7}" for f in "abcdefgh")]
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                square = rank * 8 + file
                piece = self.board[square]
                code = "." if piece is None else f"{SHORT[piece[0]]}{piece[1]}{'*' if piece[2] else ''}"
                cells.append(f"{self.tiles[square]} {code:<5}")
            lines.append(f"{rank + 1:>2}   " + "".join(cells).rstrip())
        lines.append("")
        lines.append(phrase("tile then piece: R/B side, S square, O round, * has moved"))
        outcome = self.outcome()
        status = f"{SIDES[self.side]} to move" if outcome is None else str(outcome)
        lines.append(status)
        return "\n".join(lines)


CAPTURE_PREFERENCE = 12
"""How much more often a purposeful player takes a capture than plays any one other action."""


class NumicaEngine(Engine[NumicaState]):
    info = NUMICA

    def preference(self, state: object, action: object) -> int:
        """Purposeful play (issue 52): a capture when one is open, far more often than
        a move (`CAPTURE_PREFERENCE`)."""
        return CAPTURE_PREFERENCE if action.__class__ is Step and action.capture else 1

    def dialect(self) -> Dialect:
        return DIALECT

    def _start(self, start: Start) -> NumicaState:
        tiles = self._tiles(start)
        if start.position is None:
            if tiles is None:
                raise SetupError("a Numica record needs a Seed or a Tiles tag to lay out its tiles", "Seed")
            return NumicaState(tiles, [None] * 64, 0, 2)
        return self._from_position(start.position, tiles, start.variant)

    @staticmethod
    def _tiles(start: Start) -> str | None:
        """The tiles the Tiles tag gives, or those the seed lays out (salted: RANDOM.md §4)."""
        variant = start.variant
        tile_set = TILE_SETS[variant]
        seed = start.stream_seed
        seeded = "".join(shuffled(tile_set, seed)) if seed is not None else None
        written = start.tags.get("Tiles")
        if written is None:
            return seeded
        written = written.strip().upper()
        if sorted(written) != sorted(tile_set):
            raise SetupError(
                "the Tiles tag must hold exactly the {variant} tile set (64 symbols)", "Tiles", variant=variant
            )
        if seeded is not None and seeded != written:
            raise SetupError("the Tiles tag disagrees with the tiles the Seed lays out", "Tiles")
        return written

    def _from_position(self, text: str, tiles: str | None, variant: str) -> NumicaState:
        fields: dict[str, str] = {}
        for field in text.split():
            name, colon, value = field.partition(":")
            if not colon or name.lower() in fields:
                raise SetupError("cannot read {field} in the Position", "Position", field='"' + field + '"')
            fields[name.lower()] = value
        if set(fields) != {"tiles", "r", "b", "to"}:
            raise SetupError("a Numica Position has the fields tiles:, R:, B: and to:", "Position")
        board_tiles = fields["tiles"].upper()
        if sorted(board_tiles) != sorted(TILE_SETS[variant]):
            raise SetupError("the Position's tiles are not the {variant} tile set", "Position", variant=variant)
        if tiles is not None and tiles != board_tiles:
            raise SetupError("the Position's tiles disagree with the Seed or Tiles tag", "Position")
        board: list[Piece | None] = [None] * 64
        for side, key in ((0, "r"), (1, "b")):
            shapes = {"S": 0, "O": 0}
            for entry in filter(None, fields[key].split(",")):
                square, shape, moved = entry[:2].lower(), entry[2:3].upper(), entry[3:]
                if square not in INDEX or shape not in shapes or moved not in ("", "*"):
                    raise SetupError(
                        "cannot read the piece {entry} in the Position", "Position", entry='"' + entry + '"'
                    )
                if board[INDEX[square]] is not None:
                    raise SetupError("{square} holds two pieces in the Position", "Position", square=square)
                shapes[shape] += 1
                if shapes[shape] > 4:
                    raise SetupError(
                        "{side} has more than 4 {shape} pieces", "Position", side=SIDES[side], shape=SHAPE_NAMES[shape]
                    )
                board[INDEX[square]] = (side, shape, moved == "*")
        to_move = NUMICA.side(fields["to"])
        if to_move is None:
            raise SetupError("{field} names no Numica side", "Position", field='"to:' + fields["to"] + '"')
        return NumicaState(board_tiles, board, SIDES.index(to_move), 0)


ENGINE = NumicaEngine()
