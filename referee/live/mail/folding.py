"""Headers as the referee's mails write them: a policy whose `Subject` folds after a word.

The standard folding of `email.policy.default` moves a Subject of 70 to 78 characters
whole onto a second line, leaving `Subject:` bare and the value read back with a leading
space (issue 45.5). Here a plain ASCII Subject is folded by words: its first line holds
`Subject:` and at least the first word, each next line one space and the words that fit
in 78 characters (a word longer than a line stands alone on its line). A Subject that
needs encoding (non-ASCII, or text that reads like an encoded word) is folded by the
standard policy, its first line never left bare."""

from __future__ import annotations

from email import policy as policies
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from typing import Any, cast


class _Subject(UnstructuredHeader):
    """The Subject header, folded after a word."""

    name: str

    def fold(self, *, policy: Any) -> str:
        text = str(self)
        limit: int = policy.max_line_length or 78
        linesep: str = policy.linesep
        if text.isascii() and "=?" not in text and text.isprintable():
            words = text.split(" ")
            lines = [f"{self.name}: {words[0]}"]
            for word in words[1:]:
                if len(lines[-1]) + 1 + len(word) <= limit:
                    lines[-1] += f" {word}"
                else:
                    lines.append(f" {word}")
            return linesep.join(lines) + linesep
        folded = str(super().fold(policy=policy))  # type: ignore[misc]
        head, _, rest = folded.partition(linesep)
        if head.rstrip() == f"{self.name}:" and rest.strip():
            folded = f"{self.name}: {rest.lstrip(' ')}"  # the first line carries text
        return folded


_REGISTRY = HeaderRegistry()
_REGISTRY.map_to_type("subject", cast("type[BaseHeader]", _Subject))  # the registry mixes BaseHeader in

POLICY = policies.default.clone(header_factory=_REGISTRY)
"""The policy of every message the referee writes (`EmailMessage(policy=POLICY)`)."""
