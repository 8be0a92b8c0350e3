"""The former names of the verdict writers, for code written against them (the `play`
and `mail` packages): `describe`, `line` and `as_json` are `referee.render`'s
`describe`, `verdict_line` and `verdict_fields`. New code imports `referee.render`."""

from __future__ import annotations

from referee.render import describe as describe
from referee.render import verdict_fields as as_json
from referee.render import verdict_line as line

__all__ = ["as_json", "describe", "line"]
