"""`referee check --email`: the records of whole e-mail messages (NOTATION.md §9).

Each source is one RFC 5322 message. Its first `text/plain` part is decoded as the mail
gateway decodes it (`referee.live.mail.body`: charset, quoted-printable, base64), its quoted
lines are blanked and its signature dropped, and the records in what remains are checked
as `check` checks a file. Lines and columns of errors count in that decoded text."""

from __future__ import annotations

from collections.abc import Iterator

from referee.errors import UnreadableError
from referee.judge import session
from referee.judge.core.verdicts import Problem, ProblemKind, Verdict
from referee.judge.sources import record_sources
from referee.notation.record_splitter import MAX_RECORD, split


def check_messages(
    names: list[str], annotate: bool = False, max_record: int = MAX_RECORD
) -> Iterator[Verdict | Problem]:
    """The verdict of every record of every message, and the problems of the sources
    (unreadable, no text part, no record) where they occur."""
    from referee.live.mail.body import message_text

    for name in names:
        try:
            data = record_sources.read_bounded(name, max_record)
        except UnreadableError as error:
            yield Problem(ProblemKind.UNREADABLE, str(error))
            continue
        except OSError as error:
            yield Problem(ProblemKind.UNREADABLE, str(record_sources.unreadable(name, error)))
            continue
        read = message_text(data)
        if read.text is None:
            what = "only HTML, no text/plain part" if read.html else "no text/plain part"
            yield Problem(ProblemKind.NO_RECORD, f"{name}: the message holds {what}, so no record")
            continue
        found = split(read.text.encode("utf-8"), max_record)
        if not found:
            yield session.no_record(name)
        for number, raw in enumerate(found, start=1):
            yield session.check_raw(raw, name, number, annotate)
