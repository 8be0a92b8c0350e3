"""Files written safely, the lowest floor every writer shares (docs/files.md): `lock`
(one writer at a time: a file's lock, a folder's lock), `atomic` (one file replaced
whole), `outputs` (a file at a path the user names: replaced, never written through),
`journal` (an operation that writes several files, all or nothing, and the recovery of
what a dead run left; `manifest` and `replay`: the journal's shape, applied inside its
folder only), `lines` (an append that leaves whole lines) and `ops` (the one seam every
change of a file goes through, which the fault-injection tests replace)."""

from __future__ import annotations

from referee.store.atomic import (
    append_line,
    create_atomically,
    replace_atomically,
    temporary_name,
    write_atomically,
)
from referee.store.journal import (
    append,
    create,
    read_bytes,
    recover,
    remove,
    session,
    settle,
    transaction,
    trust,
    write,
)
from referee.store.lock import lock_path, locked, target_of
from referee.store.ops import WriteFailed
from referee.store.outputs import open_appending, output_file, write_output
from referee.store.replay import Rejected

__all__ = [
    "Rejected",
    "WriteFailed",
    "append",
    "append_line",
    "create",
    "create_atomically",
    "lock_path",
    "locked",
    "open_appending",
    "output_file",
    "read_bytes",
    "recover",
    "remove",
    "replace_atomically",
    "session",
    "settle",
    "target_of",
    "temporary_name",
    "transaction",
    "trust",
    "write",
    "write_atomically",
    "write_output",
]
