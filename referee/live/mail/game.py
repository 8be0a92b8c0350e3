"""The gateway's one adapter to the rest of `referee`: reading a game file, its board and
legal moves (`referee.judge.session`), playing a submission (`referee.live.play`) and drawing the
board (`referee.pictures`, when present). Everything else in `referee.live.mail` deals in the
plain values defined here, so that changes elsewhere touch only this module."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from referee import store
from referee.errors import UsageError
from referee.games import registry
from referee.games.api import GameState
from referee.judge import session
from referee.judge.core.adjudicate import Replay
from referee.judge.core.verdict_words import describe, plural
from referee.judge.core.verdicts import Status
from referee.live import play
from referee.live.mail.compose import Turn
from referee.live.mail.players import Roster, roster

if TYPE_CHECKING:
    from referee.live.play.queues import Notice
    from referee.speech import Speaker


@dataclass(frozen=True)
class Game:
    """One game file as it stands, from its one replay (`replayed`): its players, the side
    to act; `sides` are the sides in play, in turn order; `finished` says the game is
    over. Its `token` and its state in words (`turn`) are worked out when first asked for
    (the token writes the record's canonical text: an accepted move needs none)."""

    path: Path
    roster: Roster
    to_move: str | None
    replayed: Replay
    sides: tuple[str, ...] = ()
    finished: bool = False
    given_token: str | None = None
    """The token when known beforehand (`play` gives it for the game as written)."""
    data: bytes | None = field(default=None, repr=False)
    """The file's text as read (`open_game`): `play` takes the replay when it still is."""

    @property
    def state(self) -> GameState[Any] | None:
        """The state the board is drawn from (the replay's end)."""
        return self.replayed.state

    @functools.cached_property
    def token(self) -> str | None:
        return self.given_token if self.given_token is not None else play.token_of(self.replayed)

    @functools.cached_property
    def turn(self) -> Turn:
        return _turn_now(self.path, self.replayed, self.token)

    def __repr__(self) -> str:
        return f"<Game {self.path.name} to_move={self.to_move!r} finished={self.finished}>"


class Played(NamedTuple):
    """What a submission came to, in the words of the answers."""

    written: bool
    error: str | None
    suggestions: tuple[str, ...]
    turn: Turn
    token: str | None
    agreement: str | None = None
    """What an offer came to (`draw-offered`, `undo-offered`, `drawn`, `undone`), or None."""
    replayed: Replay | None = None
    """The game as written, replayed once by `play` (None when refused, or not given)."""
    notices: tuple[Notice, ...] = ()
    """Words for one side's player alone (a spent queue, PLAY.md §9)."""


def open_game(path: Path) -> Game:
    """The game in `path`, read and replayed once (as `play` replays it: `submit` takes
    this very replay); UsageError when it is unreadable or not exactly one record. The
    gateway reads it without the game's lock (PLAY.md §4 locks what writes: `submit`)."""
    data = play.read_game(path)  # (as a transaction left it, or read within its bound: PLAY.md §8)
    return dataclasses.replace(game_of(path, play.replay_file(path, data)), data=data)


def game_of(path: Path, replayed: Replay, token: str | None = None) -> Game:
    """The `Game` of a game file's replay (its token computed unless given)."""
    record = replayed.record
    sides: list[tuple[str, str]] = []
    if record is not None:
        info = registry.info(record.game)
        for tag in record.tags:
            side = info.side(tag.name) if info is not None else None
            if side is not None:
                sides.append((side, tag.value))
        if info is not None:  # a player's sides, and so the players, in turn order
            sides.sort(key=lambda pair: info.sides.index(pair[0]))
    verdict = replayed.verdict
    in_play = tuple(replayed.state.sides) if replayed.state is not None else ()
    return Game(path, roster(sides), verdict.to_move, replayed, in_play, verdict.status == Status.FINISHED, token)


def _turn_now(path: Path, replayed: Replay, token: str | None) -> Turn:
    verdict = replayed.verdict
    board = replayed.state.render() if replayed.state is not None else ""
    if verdict.status == Status.FINISHED:
        after = f"game over: {describe(verdict)}"
    elif verdict.status == Status.ONGOING:
        after = f"next: {verdict.to_move} to move (token {token})"
    else:
        after = "the record cannot be played on: ask the game master"
    return Turn(f"{path.stem}: {verdict.status}: {describe(verdict)}", (), board, after)


def show(game: Game) -> Turn:
    """The board and verdict, as `referee show` gives them, from the game's one replay."""
    state = game.state
    board = state.render() if state is not None else ""
    position = f"position: {state.position()}" if state is not None else ""
    return game.turn._replace(board=f"{board}\n{position}".strip("\n"))


def legal_moves(game: Game) -> tuple[str, list[str]]:
    """A header and the legal actions of the side to move, as `referee moves` lists them
    (`session.listed_of`), from the game's one replay."""
    listed = session.listed_of(game.replayed, str(game.path), 1)
    verdict = listed.verdict
    if verdict.status != Status.ONGOING:
        return f"{verdict.status}: {describe(verdict)}: no legal actions", []
    actions = listed.actions
    return f"{verdict.to_move} to move: {plural(len(actions), 'legal action')}", actions


def submit(
    game: Game,
    moves: str,
    *,
    side: str | None,
    expect: str | None,
    seed: str | None,
    wait: float,
    salts: tuple[tuple[str, str], ...] = (),
    now: int | None = None,
) -> Played:
    """Play `moves` for `side` (refused unless that side is to act), written only if all is
    legal; `salts` (side, text) are written with them (PLAY.md §3: `play --salt`); a timed
    game is stamped at `now` (`--now`; default the system clock). `play` takes the game's
    lock and judges the submission against the replay `game` holds when the file still
    holds the text it was read from (nobody wrote in between), so that an accepted move
    replays the game once."""
    known = (game.data, game.replayed) if game.data is not None else None
    result = play.submit(
        game.path,
        moves or None,
        as_side=side,
        expect=expect,
        seed=seed,
        salts=salts,
        wait=wait,
        known=known,
        now=now,
    )
    verdict = result.verdict
    status = verdict.get("status", "?")
    line = f"{game.path.stem}: {status}: {verdict.get('message', '')}"
    after = result.next if result.next.startswith("game over") else f"next: {result.next}" if result.next else ""
    turn = Turn(line, tuple(result.events), result.board, after)
    # play names the game by its path; players see the file's name, not the GM's folders.
    refusal = result.error.replace(str(game.path), game.path.name) if result.error is not None else None
    return Played(
        result.written,
        refusal,
        tuple(result.suggestions),
        turn,
        result.token,
        result.agreement,
        result.replayed,
        tuple(result.notices),
    )


def reveal(game: Game, seed: str, wait: float) -> str | None:
    """Reveal the seed of a finished game (`referee reveal`): the record's new text, or None
    when nothing was written (the seed was revealed before: never twice)."""
    from referee.live.play.secret import reveal as reveal_seed

    result = reveal_seed(game.path, seed, wait)
    if not result.written:
        return None
    try:
        return play.read_game(game.path).decode("utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {game.path}: {error.strerror or error}") from None


_COMMENTS = re.compile(r"\{[^}]*\}?|;[^\n]*")


def roll_refused(game: Game, moves: str) -> str | None:
    """Why `moves` is refused when the game master's key draws the dice and the move text
    writes a roll outside its comments (in the game's own syntax, `ChanceSyntax`); None
    when it writes none, or the game's actions carry no chance."""
    record = game.replayed.record
    syntax = registry.engine(record.game).chance_syntax() if record is not None else None
    if syntax is None or not syntax.writes_roll(_COMMENTS.sub(" ", moves)):
        return None
    return (
        "this game's dice are drawn by the game master's key: write each battle without its roll "
        f"({syntax.declared}, not {syntax.rolled}), and the answer gives the roll and its result"
    )


def unaddressed(folder: Path) -> list[str]:
    """`mail check`: one line for every game file of the folder with a side in play
    whose tag names no address (nobody would be told to move), or that cannot be read."""
    lines: list[str] = []
    for path in sorted(folder.glob("*.rgn")):
        try:
            current = open_game(path)
        except UsageError as error:
            lines.append(f"{path.stem}: {error}")
            continue
        held = {side for player in current.roster.players for side in player.sides}
        missing = [side for side in current.sides if side not in held]
        if missing and not current.finished:
            lines.append(f"{path.stem}: no address for {', '.join(missing)}")
    return lines


def folder_players(folder: Path) -> dict[str, str]:
    """Every player (address -> name) that a game file of the folder names in its side
    tags; files that cannot be read are left out."""
    found: dict[str, str] = {}
    for path in sorted(folder.glob("*.rgn")):
        try:
            current = open_game(path)
        except UsageError:
            continue
        for player in current.roster.players:
            found.setdefault(player.address, player.name)
    return found


def read_key(keys: Path | None, game_id: str) -> str | None:
    """The game master's seed for this game, from `KEYS/ID.key`; None without `--keys` or
    when that file does not exist (rolls are then left pending, as PLAY.md §3 says)."""
    if keys is None:
        return None
    path = keys / f"{game_id}.key"
    if not path.exists():
        return None
    return play.read_key(path)


@contextlib.contextmanager
def locked(path: Path, wait: float) -> Iterator[None]:
    """The exclusive lock of PLAY.md §4 on `path.lock`; BusyError after `wait` seconds."""
    with store.locked(path, wait):
        yield


def write_atomically(path: Path, text: str) -> None:
    """Write a file of the folder: at once, or with the rest of the message's operation."""
    store.write(path, text)


def board_svg(game: Game, say: Speaker | None = None) -> str | None:
    """The board as SVG from `referee.pictures` (`board_svg(state)`), its words in `say`'s
    language (None: English), or None where that package is not installed: the answer then
    carries the text board alone."""
    try:
        pictures = importlib.import_module("referee.pictures")
    except ImportError:
        return None
    state = game.state
    if state is None:
        return None
    svg: str = pictures.board_svg(state, say=say)
    return svg
