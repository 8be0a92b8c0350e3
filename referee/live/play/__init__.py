"""Running a live game (PLAY.md §1-4, §6): `submit` continues a game file's record with a
submission, safely and all or nothing; turn tokens, secret dice with salts and reveal,
did-you-mean suggestions; draw and undo offers that need every player.

    result = submit(Path("game.rgn"), "d1-W d2-W", as_side="Athens", expect="12-ab12cd34ef")
    print(result.text()); sys.exit(result.exit_code)
"""

from referee.errors import BusyError, UsageError
from referee.judge.core.turn_token import token_of, turn_token
from referee.live.play.agreement import submit
from referee.live.play.core import read_game, replay_file
from referee.live.play.keys import read_key
from referee.live.play.result import PlayResult

__all__ = [
    "BusyError",
    "PlayResult",
    "UsageError",
    "read_game",
    "read_key",
    "replay_file",
    "submit",
    "token_of",
    "turn_token",
]
