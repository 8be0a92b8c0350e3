"""Running a live game (PLAY.md §1-4, §6): `submit` continues a game file's record with a
submission, safely and all or nothing; turn tokens, secret dice with salts and reveal,
did-you-mean suggestions; draw and undo offers that need every player.

    result = submit(Path("game.rgn"), "d1-W d2-W", as_side="Athens", expect="12-ab12cd34ef")
    print(result.text()); sys.exit(result.exit_code)
"""

from referee.play.agreement import submit
from referee.play.keys import read_key
from referee.play.result import PlayResult
from referee.play.safe import GameBusy, PlayUsageError, locked, write_atomically
from referee.play.token import token_of, turn_token

__all__ = [
    "GameBusy",
    "PlayResult",
    "PlayUsageError",
    "locked",
    "read_key",
    "submit",
    "token_of",
    "turn_token",
    "write_atomically",
]
