"""What a submission came to: `PlayResult`, rendered as the text and JSON of `referee play`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.judge.core import clock_walk
from referee.judge.core.verdict_words import describe, verdict_fields, verdict_line
from referee.judge.core.verdicts import Status, Verdict

if TYPE_CHECKING:
    from referee.games.api import GameState
    from referee.judge.core.adjudicate import Replay
    from referee.live.play.changes import TokenChange
    from referee.live.play.queues import Notice


@dataclass(frozen=True)
class PlayResult:
    """The outcome of one `play` (or `reveal`).

    `exit_code` 0: written (or would be, with a dry run); 1: refused. `verdict` is the
    `check --json` object of the record as written, or of the state that refused it (an
    illegal submission's verdict locates the error inside the submission). `error` is
    the one-line reason of a refusal, `refusal` the same without the verdict's prefix
    when the refusal is not a verdict (a stale token, a wrong side, a wrong key).
    """

    exit_code: int
    written: bool
    token: str | None
    verdict: dict[str, Any]
    events: list[str] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    error: str | None = None
    board: str = ""
    next: str = ""
    dry_run: bool = False
    notice: str | None = None
    headline: str = ""
    agreement: str | None = None
    retoken: TokenChange | None = None
    """A writing that changed the token but not the board (a grant, a salt, a new side
    tag: `changes.py`), kept in tokens.log once written; None for moves and refusals."""
    instant: int | None = None
    """The instant the submission was stamped at (seconds since the epoch), for the
    queued replies it triggers (PLAY.md §9: stamped at the same instant); None: unknown."""
    notices: tuple[Notice, ...] = ()
    """Words for one side alone (a spent queue, PLAY.md §9) or for every player."""
    replayed: Replay | None = field(default=None, repr=False, compare=False)
    """The replay of the record as written (or as it would be, with a dry run), so that an
    answer can draw its board without reading the game again; None when refused."""
    """What an offer came to (PLAY.md §6): `draw-offered`, `undo-offered`, `drawn` or
    `undone`; None for a submission that made no offer and took nothing back."""

    @classmethod
    def of(cls, exit_code: int, verdict: Verdict, token: str | None, **more: Any) -> PlayResult:
        """The result of a submission (nothing written yet: the caller writes and says so)
        whose verdict is `verdict` (its `check --json` fields), with the fields of `more`."""
        return cls(exit_code, False, token, verdict_fields(verdict), **more)

    @classmethod
    def shown(
        cls,
        exit_code: int,
        verdict: Verdict,
        token: str | None,
        state: GameState[Any] | None,
        *,
        next_of: Verdict | None = None,
        **more: Any,
    ) -> PlayResult:
        """`of`, told as a game is shown to its player: the verdict's line, the board of
        `state` (none without one) and who acts next (`next_text`: after `next_of`, by
        default the verdict itself)."""
        board = state.render() if state is not None else ""
        following = next_text(verdict if next_of is None else next_of, token)
        return cls.of(exit_code, verdict, token, board=board, next=following, headline=verdict_line(verdict), **more)

    def as_json(self) -> dict[str, Any]:
        """The `play --json` object: the verdict fields of `check --json`, plus `token`,
        `written`, `events`, `suggestions`, and `refused` (the reason, or null)."""
        return {
            **self.verdict,
            "token": self.token,
            "written": self.written,
            "dry_run": self.dry_run,
            "events": list(self.events),
            "suggestions": list(self.suggestions),
            "refused": self.error,
            "agreement": self.agreement,
        }

    def text(self) -> str:
        """The text of PLAY.md §1: the verdict (or the refusal) line, did-you-mean, one
        line per event, the board, and who is to move next with the token."""
        lines = [self.error if self.error is not None else self.headline]
        if self.suggestions:
            lines.append(f"did you mean: {', '.join(self.suggestions)}?")
        if self.notice:
            lines.append(self.notice)
        lines.extend(self.events)
        lines.extend(str(notice) for notice in self.notices)
        if self.board:
            lines += ["", self.board, ""]
        if self.next:
            lines.append(f"next: {self.next}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        state = "written" if self.written else "refused" if self.exit_code else "dry run"
        return f"<PlayResult {state} token={self.token!r} next={self.next!r}>"


def next_text(verdict: Verdict, token: str | None) -> str:
    """Who acts next, with the token; or the final result."""
    if verdict.status == Status.FINISHED:
        return f"game over: {describe(verdict)}"
    if verdict.status != Status.ONGOING:
        return ""
    text = f"{verdict.to_move} to move (token {token})"
    if verdict.pending_message:
        text += f", awaiting {verdict.pending_message}"
    deadline = verdict.clock.deadline if verdict.clock is not None else None
    if deadline is not None:
        text += f"; deadline {clock_walk.spoken_instant(deadline)}"  # TIME.md §5: every player is told
    return text
