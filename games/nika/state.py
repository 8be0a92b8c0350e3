"""Nika's rules (nika.md): two actions a turn, phalanxes that push and rout, rallies, and
victory the moment a city's piece stands in its own victory area.

The board is a bytearray over the whole rectangle of the map: 0 for an empty square, else
a piece code `1 + 4 * city + facing`. Copying it is one memcpy, and `bytes(board) +
city` is the cheap hashable key of a position for the repetition draw.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.api import Event, EventKind, GameState, IllegalActionError, Reason
from referee.games.nika.actions import PASS, NikaAction, Pass, PhalanxMove, Rally, Rotate, Step, StepTo
from referee.games.nika.board import BOARD, CITIES, FACINGS, LETTERS
from referee.games.nika.squares import (
    ACTIONS_PER_TURN,
    CITY,
    CITY_BYTE,
    CLOSED,
    CODE,
    FACING,
    FACING_OF,
    INDEX,
    NAMES,
    PIECES_PER_CITY,
    RALLY_SQUARES,
    STEP,
    TEAM,
    TEAMS,
    VICTORY,
    WIDTH,
    Advance,
    advance,
    connected,
    group_of,
    joined,
    line_name,
    no_square,
    off_board_reason,
    off_board_run,
    phalanx_move_shape,
)
from referee.games.registry import NIKA
from referee.games.values import phrase

ROUT, PUSH = EventKind.ROUT, EventKind.PUSH
"""(the kinds of a phalanx move's events, looked up once)"""

Plan = tuple[list[int], list[tuple[list[int], int, bool]]]
"""A phalanx move's routed squares and pushed chains (with the square beyond each and
whether its last piece is routed)."""


class NikaState(GameState[NikaAction]):
    info = NIKA
    actions_per_turn = ACTIONS_PER_TURN
    copy_fields = ("board", "on_board", "seen")

    def __init__(self, board: bytearray, city: int) -> None:
        super().__init__(CITIES)
        self.board = board
        self.city = city
        self.on_board = [0, 0, 0, 0]
        for piece in board:
            if piece:
                self.on_board[CITY[piece]] += 1
        self.all_passed = True
        self.pass_streak = 0
        self.seen: dict[bytes, int] = {self._key(): 1}
        self._judge(range(len(board)), city)

    # -- the hooks of the turn protocol ---------------------------------------------------

    def _side_to_move(self) -> str:
        return CITIES[self.city]

    def _round(self) -> int | None:
        turns = self._turns
        begun = turns - 1 if self._turn_open and self._acted < ACTIONS_PER_TURN else turns
        return begun // 4 + 1

    def _open_turn(self, side: str, step: bool) -> bool:
        self.all_passed = True
        return self._turns % 4 == 0

    def _apply(self, action: NikaAction, last: bool) -> tuple[Event, ...]:
        # The most frequent actions first: rotations, single moves, phalanx moves (a third
        # of the actions of purposeful play, issue 52), passes (rare in every shape).
        if isinstance(action, Rotate):
            events = self._rotate(action)
        elif isinstance(action, Step):
            events = self._step(action)
        elif isinstance(action, PhalanxMove):
            events = self._phalanx_move(action)
        elif isinstance(action, Pass):
            events = ()
        elif isinstance(action, Rally):
            events = self._rally(action)
        elif isinstance(action, StepTo):
            events = self._step_to(action)
        else:
            raise IllegalActionError("{action!r} is not a Nika action", action=action)
        if not isinstance(action, Pass):
            self.all_passed = False
        if self._acted + 1 == ACTIONS_PER_TURN:
            if self._outcome is None:
                self._complete_turn()
            else:  # won with the turn's last action: the next city would act (NOTATION.md §9)
                self.city = (self.city + 1) % 4
        return events

    def _resign(self, side: str) -> tuple[Event, ...]:
        loser = self.city & 1
        self._finish(TEAMS[1 - loser], Reason.RESIGNATION)
        losers = phrase("{first} and {second}", first=TEAMS[loser][0], second=TEAMS[loser][1])
        event = Event(EventKind.RESIGN, f"{side} resigns: {losers} lose")
        if self._acted + 1 == ACTIONS_PER_TURN:  # resigned with the turn's last action
            self.city = (self.city + 1) % 4
        return (event,)

    def _close_turn(self) -> None:
        if self._acted < ACTIONS_PER_TURN:  # the game ended within the turn: the order goes on
            self.city = (self.city + 1) % 4

    def _legal_actions(self) -> list[NikaAction]:
        city, board = self.city, self.board
        team = city & 1
        closed = CLOSED[team]
        mine = [i for i, piece in enumerate(board) if piece and CITY[piece] == city]
        actions: list[NikaAction] = []
        for square in mine:
            facing = FACING[board[square]]
            for direction in range(4):
                target = STEP[direction][square]
                if target < 0 or closed[target]:
                    continue
                piece = board[target]
                if not piece or (TEAM[piece] != team and FACING[piece] != direction ^ 2):
                    actions.append(Step(NAMES[square], FACINGS[direction]))
            for turned in range(4):
                if turned != facing:
                    actions.append(Rotate((NAMES[square],), FACINGS[turned]))
        if self.on_board[city] < PIECES_PER_CITY:
            for square in RALLY_SQUARES[city]:
                if not board[square]:
                    actions.extend(Rally(NAMES[square], facing) for facing in FACINGS)
        for group in self._phalanxes(mine):
            names = tuple(NAMES[i] for i in group)
            facing = FACING[board[group[0]]]
            if isinstance(self._plan(group, facing), tuple):
                actions.append(PhalanxMove(names, FACINGS[facing]))
            for turned in range(4):
                if turned != facing:
                    actions.append(Rotate(names, FACINGS[turned]))
        actions.append(PASS)
        return actions

    # -- turns and the end of the game ------------------------------------------------

    def _key(self) -> bytes:
        return bytes(self.board) + CITY_BYTE[self.city]

    def _complete_turn(self) -> None:
        """The turn's second action is played: the next city's turn starts now, and with
        it the draws by four all-pass turns and by repetition are judged."""
        self.pass_streak = self.pass_streak + 1 if self.all_passed else 0
        self.city = (self.city + 1) % 4
        key = self._key()
        seen = self.seen.get(key, 0) + 1
        self.seen[key] = seen
        if self.pass_streak >= 4:
            self._finish((), Reason.ALL_PASSED)
        elif seen >= 3:
            self._finish((), Reason.REPETITION)

    def _judge(self, squares: Iterable[int], mover: int) -> None:
        """Victory: a piece on a square it just reached that is its own city's victory area.
        Should both teams stand there at once, the acting city's team wins."""
        board = self.board
        winners: set[int] = set()
        for square in squares:
            piece = board[square]
            if piece and VICTORY[square] == CITY[piece]:
                winners.add(TEAM[piece])
        if winners:
            team = mover & 1 if mover & 1 in winners else winners.pop()
            self._finish(TEAMS[team], Reason.VICTORY_AREA)

    # -- actions ------------------------------------------------------------------------

    def _square(self, name: str) -> int:
        square = INDEX.get(name)
        if square is None:
            raise no_square(name)
        return square

    def _own_piece(self, name: str) -> int:
        square = INDEX.get(name)
        if square is None:
            raise no_square(name)
        piece = self.board[square]
        if not piece:
            raise IllegalActionError("there is no piece on {name}", name=name)
        if CITY[piece] != self.city:
            raise IllegalActionError(
                "the piece on {name} is {cities}'s, not {city}'s",
                name=name,
                cities=CITIES[CITY[piece]],
                city=CITIES[self.city],
            )
        return square

    def _step(self, action: Step) -> tuple[Event, ...]:
        origin = self._own_piece(action.origin)
        direction = FACING_OF[action.direction]
        target = STEP[direction][origin]
        if target < 0:
            raise IllegalActionError(
                "{off_board_reason}: a piece must stay on the board",
                off_board_reason=off_board_reason(origin, direction),
            )
        city, team = self.city, self.city & 1
        name = NAMES[target]
        if CLOSED[team][target]:
            raise IllegalActionError(
                "{name} is {cities}'s victory area: no piece may enter its enemies' victory area",
                name=name,
                cities=CITIES[VICTORY[target]],
            )
        board = self.board
        victim = board[target]
        events: tuple[Event, ...] = ()
        if victim:
            owner = CITIES[CITY[victim]]
            if CITY[victim] == city:
                raise IllegalActionError("{name} is held by {owner}'s own piece", name=name, owner=owner)
            if TEAM[victim] == team:
                raise IllegalActionError(
                    "{name} is held by {owner}'s piece, an ally: allies are never routed", name=name, owner=owner
                )
            if FACING[victim] == direction ^ 2:
                raise IllegalActionError(
                    "{owner}'s piece on {name} faces the mover: a single piece routs only an enemy "
                    "not facing it, and never pushes",
                    owner=owner,
                    name=name,
                )
            self.on_board[CITY[victim]] -= 1
            rout = {"square": name, "city": owner, "pushed": False}
            events = (Event(ROUT, f"{name} routed ({owner})", rout),)
        board[target] = CODE[city][direction]
        board[origin] = 0
        if VICTORY[target] == city:  # only the city's own victory area can win for it
            self._judge((target,), city)
        return events

    def _step_to(self, action: StepTo) -> tuple[Event, ...]:
        self._own_piece(action.origin)
        self._square(action.target)
        raise IllegalActionError(
            "{target} is not next to {origin}: a single move goes one square N, E, S or W",
            target=action.target,
            origin=action.origin,
        )

    def _rotate(self, action: Rotate) -> tuple[Event, ...]:
        facing = FACING_OF[action.facing]
        board = self.board
        names = action.squares
        squares: tuple[int, ...]
        if len(names) == 1:
            squares = (self._own_piece(names[0]),)
        elif (group := group_of(names)) is not None and (piece := board[group[0]]) and CITY[piece] == self.city:
            squares = group  # the usual phalanx at once, as `_phalanx` finds it
            for square in group:
                if board[square] != piece:
                    squares = self._phalanx(names)
                    break
        else:
            squares = self._phalanx(names)
        if FACING[board[squares[0]]] == facing:
            what = action.squares[0] if len(squares) == 1 else "+".join(action.squares)
            raise IllegalActionError(
                "{what} already faces {facing}: a rotate must change the facing (write pass)",
                what=what,
                facing=action.facing,
            )
        new = CODE[self.city][facing]
        for square in squares:
            board[square] = new
        return ()

    def _rally(self, action: Rally) -> tuple[Event, ...]:
        city = self.city
        if self.on_board[city] >= PIECES_PER_CITY:
            raise IllegalActionError("{city} has no routed piece to rally", city=CITIES[city])
        square = INDEX.get(action.square, -1)
        if square < 0:
            raise no_square(action.square)
        if square not in RALLY_SQUARES[city]:
            area = ", ".join(NAMES[i] for i in RALLY_SQUARES[city])
            raise IllegalActionError(
                "{square} is not in {city}'s rally area ({area})", square=action.square, city=CITIES[city], area=area
            )
        if self.board[square]:
            raise IllegalActionError(
                "{square} is not empty: a piece rallies onto an empty square", square=action.square
            )
        self.board[square] = CODE[city][FACING_OF[action.facing]]
        self.on_board[city] += 1
        if VICTORY[square] == city:  # only the city's own victory area can win for it
            self._judge((square,), city)
        return ()

    # -- phalanxes ------------------------------------------------------------------------

    def _phalanx(self, names: tuple[str, ...]) -> tuple[int, ...]:
        """The squares of a written group that is a phalanx of the city to move."""
        board = self.board
        group = group_of(names)
        if group is not None:
            # The usual case at once: a piece's byte is its city and its facing, so a group
            # of the city's pieces all facing one way holds one byte on every square.
            piece = board[group[0]]
            if piece and CITY[piece] == self.city:
                for square in group:
                    if board[square] != piece:
                        break
                else:
                    return group
        if len(names) > PIECES_PER_CITY:
            raise IllegalActionError("a phalanx has at most {pieces_per_city} pieces", pieces_per_city=PIECES_PER_CITY)
        squares: list[int] = []
        for name in names:
            square = self._own_piece(name)
            if square in squares:
                raise IllegalActionError("{name} is named twice in the group", name=name)
            squares.append(square)
        facing = FACING[board[squares[0]]]
        for square in squares[1:]:
            if FACING[board[square]] != facing:
                raise IllegalActionError(
                    "{names} faces {facing} but {square} faces {facings}: a phalanx's pieces all face the same way",
                    names=names[0],
                    facing=FACINGS[facing],
                    square=NAMES[square],
                    facings=FACINGS[FACING[board[square]]],
                )
        if not joined(tuple(squares)):
            raise IllegalActionError(
                "{join} is not one connected group: a phalanx's pieces are joined side to side "
                "(diagonals are not adjacent)",
                join="+".join(names),
            )
        return tuple(squares)

    def _phalanxes(self, mine: list[int]) -> list[list[int]]:
        """Every phalanx of the city: connected same-facing groups of 2 or more pieces."""
        by_facing: dict[int, list[int]] = {}
        for square in mine:
            by_facing.setdefault(FACING[self.board[square]], []).append(square)
        groups = []
        for squares in by_facing.values():
            count = len(squares)
            for mask in range(1, 1 << count):
                if mask & (mask - 1) == 0:
                    continue
                group = [squares[i] for i in range(count) if mask >> i & 1]
                if connected(group):
                    groups.append(group)
        return groups

    def _plan(self, squares: list[int] | tuple[int, ...], direction: int) -> Plan | IllegalActionError:
        """What a phalanx move of these squares (the city's phalanx) does: see `_meet`."""
        return self._meet(advance(tuple(squares), direction), direction)

    def _meet(self, shape: Advance, direction: int) -> Plan | IllegalActionError:
        """What a phalanx move does, judged run by run on the board before the move (its
        geometry `shape`): (routed squares, pushed chains with the square beyond each and
        whether their last piece is routed), or why it is illegal."""
        board, forward = self.board, STEP[direction]
        team = self.city & 1
        closed = CLOSED[team]
        facing_us = direction ^ 2
        routs, chains = [], []
        for front, contact, weight in shape[0]:
            if contact < 0:
                return off_board_run(front, direction)
            if closed[contact]:
                return IllegalActionError(
                    "{square} is {city}'s victory area: no piece may enter its enemies' victory area",
                    square=NAMES[contact],
                    city=CITIES[VICTORY[contact]],
                )
            piece = board[contact]
            if not piece:
                continue
            if TEAM[piece] == team:
                owner = CITIES[CITY[piece]]
                line, square = line_name(front, direction), NAMES[contact]
                if CITY[piece] == self.city:
                    return IllegalActionError(
                        "on {line} the phalanx meets {owner}'s own piece on {square}",
                        line=line,
                        owner=owner,
                        square=square,
                    )
                return IllegalActionError(
                    "on {line} the phalanx meets {owner}'s piece, an ally: "
                    "allies are never pushed or routed on {square}",
                    line=line,
                    owner=owner,
                    square=square,
                )
            if FACING[piece] != facing_us:
                routs.append(contact)
                continue
            chain = [contact]
            beyond = forward[contact]
            while beyond >= 0 and board[beyond] and TEAM[board[beyond]] != team:
                chain.append(beyond)
                beyond = forward[beyond]
            if weight <= len(chain):
                return IllegalActionError(
                    "on {line} the phalanx weighs {weight} against {enemy} from {square}: "
                    "a push needs more weight than the enemy line",
                    line=line_name(front, direction),
                    weight=weight,
                    enemy=len(chain),
                    square=NAMES[contact],
                )
            last = chain[-1]
            routed = beyond < 0 or bool(board[beyond]) or CLOSED[TEAM[board[last]]][beyond]
            chains.append((chain, beyond, routed))
        return routs, chains

    def _phalanx_move(self, action: PhalanxMove) -> tuple[Event, ...]:
        board, city = self.board, self.city
        found = phalanx_move_shape(action.squares, action.direction)
        if found is not None:
            # The usual move at once: the city's pieces facing the way they move (one byte
            # on every square), nothing ahead of them, every square ahead open to them.
            group, direction, shape = found
            piece = CODE[city][direction]
            for square in group:
                if board[square] != piece:
                    break
            else:
                _, contacts, vacated, clear, reached, wins = shape
                if clear[city & 1]:
                    for square in contacts:
                        if board[square]:
                            break
                    else:
                        for square in vacated:
                            board[square] = 0
                        for square in contacts:
                            board[square] = piece
                        if wins >> city & 1:  # only the city's own victory area can win for it
                            self._judge(reached, city)
                        return ()
                plan = self._meet(shape, direction)  # (what `_phalanx` and the facing's check allow)
                if isinstance(plan, IllegalActionError):
                    raise plan
                return self._push_and_rout(shape, plan, piece)
        squares = self._phalanx(action.squares)
        direction = FACING_OF[action.direction]
        facing = FACING[board[squares[0]]]
        if facing != direction:
            raise IllegalActionError(
                "{join} faces {facing}: a phalanx moves only the way it faces",
                join="+".join(action.squares),
                facing=FACINGS[facing],
            )
        shape = advance(squares, direction)
        plan = self._meet(shape, direction)
        if isinstance(plan, IllegalActionError):
            raise plan
        return self._push_and_rout(shape, plan, board[squares[0]])

    def _push_and_rout(self, shape: Advance, plan: Plan, mover: int) -> tuple[Event, ...]:
        """Carry out a legal phalanx move of `mover`'s pieces that meets pieces ahead."""
        routs, chains = plan
        board, on_board = self.board, self.on_board
        events = []
        reached = []  # (the squares pushed pieces reach)
        for square in routs:
            piece = board[square]
            on_board[CITY[piece]] -= 1
            board[square] = 0
            city = CITIES[CITY[piece]]
            rout = {"square": NAMES[square], "city": city, "pushed": False}
            events.append(Event(ROUT, f"{NAMES[square]} routed ({city})", rout))
        for chain, beyond, routed in chains:
            last = chain[-1]
            piece = board[last]
            if routed:
                on_board[CITY[piece]] -= 1
                city = CITIES[CITY[piece]]
                events.append(
                    Event(
                        ROUT,
                        f"{NAMES[last]} pushed and routed ({city})",
                        {"square": NAMES[last], "city": city, "pushed": True},
                    )
                )
            else:
                board[beyond] = piece
                reached.append(beyond)
                city = CITIES[CITY[piece]]
                events.append(
                    Event(
                        PUSH,
                        f"{NAMES[last]} pushed to {NAMES[beyond]} ({city})",
                        {"from": NAMES[last], "to": NAMES[beyond], "city": city},
                    )
                )
            for i in range(len(chain) - 1, 0, -1):
                board[chain[i]] = board[chain[i - 1]]
                reached.append(chain[i])
                city = CITIES[CITY[board[chain[i]]]]
                events.append(
                    Event(
                        PUSH,
                        f"{NAMES[chain[i - 1]]} pushed to {NAMES[chain[i]]} ({city})",
                        {"from": NAMES[chain[i - 1]], "to": NAMES[chain[i]], "city": city},
                    )
                )
            board[chain[0]] = 0
        _, contacts, vacated, _, advanced, wins = shape
        for square in vacated:
            board[square] = 0
        for square in contacts:
            board[square] = mover
        if wins >> self.city & 1:  # (the mover wins only on its own city's victory area)
            reached.extend(advanced)
        if reached:
            self._judge(reached, self.city)
        return tuple(events)

    # -- text -----------------------------------------------------------------------------

    def position(self) -> str:
        fields = []
        for city, letter in enumerate(LETTERS):
            pieces = [
                f"{NAMES[i]}{FACINGS[FACING[piece]].lower()}"
                for i, piece in enumerate(self.board)
                if piece and CITY[piece] == city
            ]
            fields.append(f"{letter}:{','.join(pieces)}")
        fields.append(f"to:{LETTERS[self.city]}")
        return " ".join(fields)

    def render(self) -> str:
        """The ring, rank 10 at the top: `W^` is an Athens piece facing north; [..] marks a
        victory area, (..) a rally area, ## the central area."""
        arrows = "^>v<"
        header = "      " + "".join(f" {file}  " for file in BOARD.files)
        lines = [header.rstrip()]
        for rank in range(BOARD.height, 0, -1):
            cells = []
            for file in range(WIDTH):
                square = (rank - 1) * WIDTH + file
                if not BOARD.playable[square]:
                    cells.append(" ## ")
                    continue
                piece = self.board[square]
                inner = f"{LETTERS[CITY[piece]]}{arrows[FACING[piece]]}" if piece else " ."
                if VICTORY[square] >= 0:
                    cells.append(f"[{inner if piece else LETTERS[VICTORY[square]] + ' '}]")
                elif BOARD.rally_owner[square] >= 0:
                    cells.append(f"({inner if piece else LETTERS[BOARD.rally_owner[square]].lower() + ' '})")
                else:
                    cells.append(f" {inner} ")
            lines.append(f"{rank:>3}   " + "".join(cells).rstrip())
        lines.append(header.rstrip())
        lines.append("")
        routed = ", ".join(f"{CITIES[city]} {PIECES_PER_CITY - self.on_board[city]}" for city in range(4))
        lines.append(phrase("routed: {routed}", routed=routed))
        legend = (
            phrase("W Athens, R Sparta, B Messene, K Thebes"),
            phrase("^ > v < facing N E S W"),
            phrase("[W ] victory area, (w ) rally area, ## central area"),
        )
        lines.append("; ".join(legend))
        outcome = self.outcome()
        if outcome is not None:
            lines.append(str(outcome))
        else:
            left = ACTIONS_PER_TURN - self.acted if self.turn_open and self.acted < ACTIONS_PER_TURN else 2
            lines.append(f"{CITIES[self.city]} to move ({left} action{'s' if left > 1 else ''} left)")
        return "\n".join(lines)
