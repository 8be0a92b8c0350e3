"""The `referee` commands that run live games: `play` and `reveal` (PLAY.md §1-4) and
`new --secret` (the mail gateway's subcommands are `referee.cli.mail_commands`).
Registered on `referee.cli.app`; like every command they parse options, call the library
(`referee.live.play`), print through `referee.cli.text_output` and exit through the one exit rule."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from referee.cli.app import (
    WAIT_DEFAULT,
    AsOfOption,
    GameFile,
    JsonOption,
    NowOption,
    app,
    err,
    fail_usage,
    finish,
    out,
    stdin_text,
)
from referee.cli.exits import Tally
from referee.errors import UsageError
from referee.judge.core.verdict_words import json_line

if TYPE_CHECKING:
    from referee.live.play.result import PlayResult


def new_secret(
    game: str,
    players: int | None,
    seed: str | None,
    first: str | None,
    tags: list[str],
    key: str | None,
    salts: list[str],
    game_id: str | None = None,
) -> None:
    from pathlib import Path

    from referee.errors import UsageError
    from referee.judge.services.new_record import new_record
    from referee.live.play.keys import fresh_seed
    from referee.live.play.secret import new_secret

    if key is None:
        fail_usage(UsageError("--salt goes with --secret KEY: salts are for a secret seed"))
    if seed is not None:
        fail_usage(UsageError("--seed and --secret exclude each other: a secret seed is drawn fresh"))
    assert key is not None
    try:
        drawn = fresh_seed()
        text = new_secret(new_record(game, players, drawn, first, tags, game_id), Path(key), salts, drawn)
    except UsageError as error:
        fail_usage(error)
    typer.echo(text, nl=False)


def _moves_text(moves: str | None, gm_only: bool) -> str | None:
    """MOVES as given; `-`, or absent without --seed-file/--salt, reads standard input."""
    if moves is not None and moves != "-":
        return moves
    if moves is None and gm_only:
        return None
    from referee.judge.sources import record_sources

    return stdin_text(record_sources.MAX_RECORD, "MOVES")


def passphrase_text() -> str:
    """The passphrase on standard input, read within its bound (PLAY.md §8)."""
    from referee.judge.sources import record_sources

    try:
        return record_sources.read_stdin_bounded(
            record_sources.PASSPHRASE_BYTES, "the passphrase on standard input"
        ).decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError("the passphrase on standard input is not UTF-8 text") from None


def finite_wait(value: float) -> float:
    """--wait: a finite number of seconds, 0 or more (nan, inf and negatives are usage errors)."""
    if not math.isfinite(value) or value < 0:
        from referee.speech import N_  # a template of the catalogue (said again in the locale's language)

        raise typer.BadParameter(N_("{value} is not a number of seconds (0 or more, finite)").format(value=value))
    return value


WaitOption = Annotated[
    float,
    typer.Option("--wait", callback=finite_wait, help="Seconds to wait for a busy game before giving up (exit 75)."),
]
SeedFileOption = Annotated[
    str | None, typer.Option("--seed-file", help="The game master's key file: rolls are drawn from the secret seed.")
]


@app.command(short_help="Append moves to a live game, safely (secret dice, tokens).")
def play(
    file: GameFile,
    moves: Annotated[
        str | None, typer.Argument(help="RGN move text that continues the game; - or absent: standard input.")
    ] = None,
    as_side: Annotated[str | None, typer.Option("--as", help="The side submitting: only its turns.")] = None,
    expect: Annotated[
        str | None, typer.Option("--expect", help="Refuse unless the game is at this turn token.")
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Check and report everything, write nothing.")] = False,
    seed_file: SeedFileOption = None,
    salt: Annotated[
        list[str] | None, typer.Option("--salt", help="Write a side's salt, as SIDE=TEXT (repeatable).")
    ] = None,
    json_output: JsonOption = False,
    wait: WaitOption = WAIT_DEFAULT,
    now: NowOption = None,
    grant: Annotated[
        list[str] | None,
        typer.Option(
            "--grant", metavar="SIDE=DURATION", help="Timed games: extend a side's time, like Blue=1d (repeatable)."
        ),
    ] = None,
    as_of: AsOfOption = None,
) -> None:
    """Append moves to a live game: checked, all or nothing, written safely.

    MOVES continues the record; a first action without a label is the side to move's.
    In a timed game (TimeControl) every submission is stamped with the time (--now TIME
    replaces the system clock); MOVES "timeout" ends the game of a side whose time has
    run out, and --grant SIDE=DURATION gives a side more time.

    Exit status: 0 written (or would be, with --dry-run); 1 refused; 2 usage; 75 busy, try again later.

    Example: referee play game.rgn "d1-W d2-W" --as Athens --expect 12-ab12cd34ef

    Draws and undo need every player (PLAY.md §6): referee play game.rgn draw --as Sparta
    writes Sparta's offer, and the draw once every player has offered it (likewise undo);
    without --as, draw ends the game and undo takes the last turn back at once.

    Example: referee play game.rgn timeout --as Red   |   referee play game.rgn --grant Blue=1d
    """
    from functools import partial
    from pathlib import Path

    from referee.errors import UsageError
    from referee.judge.core import clock_walk
    from referee.live.mail import default_sender
    from referee.live.mail.retoken import submitted
    from referee.live.play import read_key, submit

    try:
        instant = clock_walk.current_instant(now)
        moment = clock_walk.as_of_instant(as_of, instant) if as_of is not None else None
    except UsageError as error:
        fail_usage(error)
    with _written():
        seed = read_key(Path(seed_file)) if seed_file is not None else None
        text = _moves_text(moves, gm_only=seed_file is not None or bool(salt) or bool(grant))
        pairs = [(entry.partition("=")[0], entry.partition("=")[2]) for entry in salt or []]
        for entry in salt or []:
            if "=" not in entry:
                raise UsageError(f'--salt takes SIDE=TEXT, not "{entry}"')
        # A grant or a salt alone changes the token and not the board: the player to move
        # of a mail game is sent the new token with it (referee/live/mail/retoken.py).
        write: Callable[..., tuple[PlayResult, tuple[Path, ...]]] = partial(_plain, submit)
        if grant or salt:
            from referee.league.told import league_lang_of  # (a league's game: each mover in its own words)

            write = partial(submitted, sender=default_sender(), lang_of=league_lang_of(Path(file)))
        result, mailed = write(
            Path(file),
            text,
            as_side=as_side,
            expect=expect,
            dry_run=dry_run,
            seed=seed,
            salts=pairs,
            wait=wait,
            now=instant,
            grants=grant or [],
            as_of=moment,
        )
    for path in mailed:
        err(f"referee: the new token is mailed to the player to move ({path})")
    if as_side is None and result.written:  # the game master's writing on a league's game: its players are told
        from referee.league.told import tell_players

        words = " ".join((text or "").split())
        what = words if len(words) <= 80 else words[:77] + "..."
        told = tell_players(Path(file), what, result, instant, default_sender(), grants=grant or ())
        if told is not None:
            err(f"referee: {told}")
    _submitted(result.as_json() if json_output else result.text(), refused=result.exit_code != 0)


def _plain(submit: Callable[..., PlayResult], *args: Any, **options: Any) -> tuple[PlayResult, tuple[Path, ...]]:
    """`submit`, shaped as `retoken.submitted`'s answer: a move mails no new token."""
    return submit(*args, **options), ()


@app.command(short_help="Publish a secret game's seed: every roll is then checked.")
def reveal(
    file: GameFile,
    seed_file: Annotated[str | None, typer.Option("--seed-file", help="The game master's key file.")] = None,
    json_output: JsonOption = False,
    wait: WaitOption = WAIT_DEFAULT,
    force: Annotated[
        bool, typer.Option("--force", help="Reveal an ongoing game's seed too (every future die becomes predictable).")
    ] = False,
    reveal_queues: Annotated[
        bool, typer.Option("--queues", help="Reveal every committed queue of conditional moves (PLAY.md §9).")
    ] = False,
) -> None:
    """Publish a secret game's seed (the Seed tag, SeedHash kept): check then verifies every roll.

    An ongoing game is refused without --force: its seed makes every future die predictable.

    Exit status: 0 the revealed record is legal; 1 it is not (the seed is written either way) or the game is
    ongoing (nothing written); 2 usage; 75 busy.

    Example: referee reveal game.rgn --seed-file game.key

    Example: referee reveal game.rgn --queues
    """
    from pathlib import Path

    from referee.errors import UsageError
    from referee.live.play import read_key
    from referee.live.play.secret import reveal as reveal_seed

    if reveal_queues:
        from referee.cli.queue_commands import revealed_queues

        revealed_queues(Path(file), wait, json_output, seed_file is None)
    if seed_file is None:
        fail_usage(UsageError("reveal needs --seed-file KEY (the seed) or --queues (the queues)"))
    with _written():
        result = reveal_seed(Path(file), read_key(Path(seed_file)), wait, force)
    _submitted(result.as_json() if json_output else result.text(), refused=result.exit_code != 0)


@contextmanager
def _written() -> Iterator[None]:
    """The refusals of `play` and `reveal` as exit statuses: 2 usage, 75 busy, 2 a full disk."""
    from referee.errors import BusyError
    from referee.store import WriteFailed

    try:
        yield
    except UsageError as error:
        fail_usage(UsageError(str(error)))
    except BusyError as error:
        _busy(error)
    except WriteFailed as error:  # a full disk: the file named, nothing written (PLAY.md §4)
        fail_usage(UsageError(str(error)))


def _busy(error: Exception | str) -> NoReturn:
    err(f"referee: {error}")
    finish(Tally(busy=True))


def _submitted(output: str | dict[str, object], refused: bool) -> NoReturn:
    """The end of `play` and `reveal`: their report, then 0 written or 1 refused."""
    out(output if isinstance(output, str) else json_line(output))
    finish(Tally(refused=refused))
