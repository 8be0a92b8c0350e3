"""The docs are a house a newcomer can walk: every page of docs/ is reachable from
docs/index.md (the page the README sends a newcomer to first), no relative link of the
README or of a doc points at a file that is not there, and none leaves the repository (a
clone has nothing beside it: the specification's rules a user needs are written in docs/)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT

LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.MULTILINE | re.DOTALL)
"""Fenced blocks and code spans: what stands in them (`TABLE[kind](span)`) is not a link."""


def _links(page: Path) -> list[Path]:
    found = []
    for target in LINK.findall(CODE.sub("", page.read_text(encoding="utf-8"))):
        if "://" in target or target.startswith("mailto:"):
            continue
        found.append((page.parent / target).resolve())
    return found


def test_code_is_not_read_as_a_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See [it](there.md), not `TABLE[kind](span)`.\n```\nx[0](y)\n```\n")
    assert _links(page) == [(tmp_path / "there.md").resolve()]


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_every_relative_link_of_the_readme_and_the_docs_is_there() -> None:
    broken = [
        f"{page.relative_to(ROOT)} -> {target}" for page in _pages() for target in _links(page) if not target.exists()
    ]
    assert broken == []


def test_no_link_of_the_readme_or_the_docs_leaves_the_repository() -> None:
    outside = [
        f"{page.relative_to(ROOT)} -> {target}"
        for page in _pages()
        for target in _links(page)
        if not target.is_relative_to(ROOT.resolve())
    ]
    assert outside == []


def test_every_doc_is_reachable_from_the_index() -> None:
    seen: set[Path] = set()
    waiting = [(ROOT / "docs" / "index.md").resolve()]
    while waiting:
        page = waiting.pop()
        if page in seen or page.suffix != ".md" or not page.exists():
            continue
        seen.add(page)
        waiting.extend(_links(page))
    docs = {page.resolve() for page in (ROOT / "docs").rglob("*.md")}
    assert sorted(str(page.relative_to(ROOT)) for page in docs - seen) == []
    assert (ROOT / "docs" / "index.md").resolve() in set(_links(ROOT / "README.md"))
